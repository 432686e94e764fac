//! Finding a directory's project and what it is doing, from the filesystem, without starting
//! git: a process start would cost more than the whole session-start budget allows.

use std::path::{Path, PathBuf};

use crate::domain::ports::ProjectContext;
use crate::domain::project::{Project, ProjectFacts};

/// Commit subjects kept for the retrieval query.
const RECENT_COMMITS: usize = 8;
/// How much of the reflog's end is read.
const REFLOG_TAIL_BYTES: u64 = 16 * 1024;

/// The nearest ancestor holding `.git` (a directory, or a file in worktrees and submodules),
/// else the directory itself; the branch from `HEAD`, commit subjects from the `HEAD` reflog.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsProjectContext;

/// The repository's git directory: `.git` itself, or where a `.git` file's `gitdir:` points.
fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = fs_err::read_to_string(&dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    let path = Path::new(target);
    Some(if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    })
}

fn branch(git_dir: &Path) -> Option<String> {
    let head = fs_err::read_to_string(git_dir.join("HEAD")).ok()?;
    head.trim()
        .strip_prefix("ref: refs/heads/")
        .map(str::to_owned)
}

/// Subjects of `commit:` entries at the end of the `HEAD` reflog, newest first.
fn recent_commits(git_dir: &Path) -> Vec<String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(git_dir.join("logs").join("HEAD")) else {
        return Vec::new();
    };
    let length = file.metadata().map(|m| m.len()).unwrap_or(0);
    let start = length.saturating_sub(REFLOG_TAIL_BYTES);
    let mut tail = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.read_to_end(&mut tail).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&tail);
    let mut subjects: Vec<String> = text
        .lines()
        .skip(usize::from(start > 0))
        .filter_map(|line| {
            let (_, message) = line.split_once('\t')?;
            let subject = [
                "commit: ",
                "commit (initial): ",
                "commit (amend): ",
                "commit (merge): ",
            ]
            .iter()
            .find_map(|prefix| message.strip_prefix(prefix))?;
            Some(subject.trim().to_owned())
        })
        .collect();
    subjects.reverse();
    subjects.dedup();
    subjects.truncate(RECENT_COMMITS);
    subjects
}

#[async_trait::async_trait]
impl ProjectContext for FsProjectContext {
    async fn project(&self, cwd: &Path) -> Project {
        let root = cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(cwd);
        Project::at(root)
    }

    async fn facts(&self, project: &Project) -> ProjectFacts {
        let Some(git_dir) = git_dir(&project.root) else {
            return ProjectFacts::default();
        };
        ProjectFacts {
            branch: branch(&git_dir),
            recent_commits: recent_commits(&git_dir),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn the_git_top_level_is_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("shop-api");
        fs_err::create_dir_all(repo.join(".git")).unwrap();
        fs_err::create_dir_all(repo.join("src/deep")).unwrap();
        let project = pollster::block_on(FsProjectContext.project(&repo.join("src/deep")));
        assert_eq!(project.root, repo);
        assert_eq!(project.name, "shop-api");
    }

    #[test]
    fn outside_a_repository_the_directory_is_its_own_project_with_no_facts() {
        let dir = tempfile::tempdir().unwrap();
        let project = pollster::block_on(FsProjectContext.project(dir.path()));
        assert_eq!(project.root, dir.path());
        assert_eq!(
            pollster::block_on(FsProjectContext.facts(&project)),
            ProjectFacts::default()
        );
    }

    #[test]
    fn reads_branch_and_commit_subjects_of_a_real_repository() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .current_dir(dir.path())
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .output()
                .unwrap();
            assert!(
                status.status.success(),
                "{}",
                String::from_utf8_lossy(&status.stderr)
            );
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["commit", "-q", "--allow-empty", "-m", "First commit"]);
        git(&["checkout", "-q", "-b", "feature/order-retries"]);
        git(&["commit", "-q", "--allow-empty", "-m", "Add retry budget"]);
        let facts = pollster::block_on(FsProjectContext.facts(&Project::at(dir.path())));
        assert_eq!(facts.branch.as_deref(), Some("feature/order-retries"));
        assert_eq!(
            facts.recent_commits,
            vec!["Add retry budget", "First commit"]
        );
    }
}
