//! Finding a directory's project and what it is doing, from the filesystem, without starting
//! git: a process start would cost more than the whole session-start budget allows.

use std::path::{Path, PathBuf};

use crate::domain::ports::ProjectContext;
use crate::domain::project::{Project, ProjectFacts, ProjectId};

/// Commit subjects kept for the retrieval query.
const RECENT_COMMITS: usize = 8;
/// How much of the reflog's end is read.
const REFLOG_TAIL_BYTES: u64 = 16 * 1024;
/// `HEAD` and a worktree's `.git` file hold one line; anything longer is not git's.
const SMALL_FILE_BYTES: u64 = 4 * 1024;

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
    let text = super::read_regular_text(&dot_git, SMALL_FILE_BYTES).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    let path = Path::new(target);
    Some(if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    })
}

fn branch(git_dir: &Path) -> Option<String> {
    let head = super::read_regular_text(&git_dir.join("HEAD"), SMALL_FILE_BYTES).ok()?;
    head.trim()
        .strip_prefix("ref: refs/heads/")
        .map(str::to_owned)
}

/// Subjects of `commit:` entries at the end of the `HEAD` reflog, newest first.
fn recent_commits(git_dir: &Path) -> Vec<String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = super::open_regular(&git_dir.join("logs").join("HEAD")) else {
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

/// The repository's common directory: a linked worktree's git directory names it in its
/// `commondir` file; otherwise it is the git directory itself.
fn common_dir(git_dir: &Path) -> PathBuf {
    match super::read_regular_text(&git_dir.join("commondir"), SMALL_FILE_BYTES) {
        Ok(text) if !text.trim().is_empty() => {
            let path = Path::new(text.trim());
            if path.is_absolute() {
                path.to_path_buf()
            } else {
                git_dir.join(path)
            }
        }
        _ => git_dir.to_path_buf(),
    }
}

/// The `url` of `[remote "origin"]` in a git config file.
fn origin_url(config: &str) -> Option<String> {
    let mut in_origin = false;
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            let section: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            in_origin = section.eq_ignore_ascii_case("[remote\"origin\"]");
            continue;
        }
        if in_origin
            && let Some((key, value)) = line.split_once('=')
            && key.trim().eq_ignore_ascii_case("url")
        {
            return Some(value.trim().trim_matches('"').to_owned());
        }
    }
    None
}

/// A remote on this machine's disk as one absolute path, whatever the spelling: relative to
/// the main worktree (as git reads it), `.` and `..` resolved by the text alone, so that every
/// clone of one bare repository names it alike, and an unmounted share names it as it did.
/// Other URLs are returned as they are.
fn local_remote(url: &str, main_root: &Path) -> String {
    let path = url.strip_prefix("file://").unwrap_or(url);
    let relative = path.starts_with("./") || path.starts_with("../");
    if !(relative || path.starts_with('/')) {
        return url.to_owned();
    }
    let mut resolved = PathBuf::new();
    for part in main_root.join(path).components() {
        match part {
            std::path::Component::ParentDir => {
                resolved.pop();
            }
            std::path::Component::CurDir => {}
            other => resolved.push(other),
        }
    }
    resolved.to_string_lossy().into_owned()
}

#[async_trait::async_trait]
impl ProjectContext for FsProjectContext {
    async fn project(&self, cwd: &Path) -> Project {
        let Some(root) = cwd.ancestors().find(|dir| dir.join(".git").exists()) else {
            return Project::at(cwd);
        };
        let Some(git_dir) = git_dir(root) else {
            return Project::new(
                root.to_path_buf(),
                root.to_path_buf(),
                ProjectId::from_path(root),
            );
        };
        let common = common_dir(&git_dir);
        let common = common.canonicalize().unwrap_or(common);
        // The main worktree holds the common directory as its `.git`; a bare or unusual
        // layout keeps this worktree as the project's root.
        let main_root = match common.file_name() {
            Some(name) if name == ".git" => common.parent().unwrap_or(root).to_path_buf(),
            _ => root.to_path_buf(),
        };
        let id = super::read_regular_text(&common.join("config"), super::SMALL_FILE_BYTES)
            .ok()
            .and_then(|config| origin_url(&config))
            .and_then(|url| ProjectId::from_remote(&local_remote(&url, &main_root)))
            .unwrap_or_else(|| ProjectId::from_path(&main_root));
        Project::new(root.to_path_buf(), main_root, id)
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
        assert!(
            project.in_git,
            "a .git it cannot read is still a repository"
        );
    }

    fn git_in(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn a_worktree_and_a_moved_clone_are_the_same_project() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("shop-api");
        fs_err::create_dir_all(&main).unwrap();
        git_in(&main, &["init", "-q", "-b", "main"]);
        git_in(
            &main,
            &[
                "remote",
                "add",
                "origin",
                "git@github.com:acme/shop-api.git",
            ],
        );
        git_in(&main, &["commit", "-q", "--allow-empty", "-m", "first"]);
        git_in(&main, &["worktree", "add", "-q", "../feature-x"]);
        let project = |p: &Path| pollster::block_on(FsProjectContext.project(p));
        let in_main = project(&main);
        let in_worktree = project(&dir.path().join("feature-x"));
        assert_eq!(in_main.id.as_str(), "git:github.com/acme/shop-api");
        assert_eq!(in_worktree.id, in_main.id);
        assert_eq!(in_worktree.root, dir.path().join("feature-x"));
        assert_eq!(in_worktree.main_root, main.canonicalize().unwrap());
        assert_eq!(in_worktree.name, "shop-api");
        let moved = dir.path().join("moved");
        fs_err::rename(&main, &moved).unwrap();
        assert_eq!(
            project(&moved).id,
            in_main.id,
            "the remote names it wherever it is"
        );
    }

    #[rstest::rstest]
    #[case::absolute(None)]
    #[case::file_url(Some("file://"))]
    #[case::relative(Some("../"))]
    fn clones_of_one_bare_repository_on_disk_are_one_project(#[case] spelled: Option<&str>) {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("shop.git");
        fs_err::create_dir_all(&bare).unwrap();
        git_in(&bare, &["init", "-q", "--bare"]);
        let project = |p: &Path| pollster::block_on(FsProjectContext.project(p));
        let clone = |name: &str, url: &str| {
            let path = dir.path().join(name);
            fs_err::create_dir_all(&path).unwrap();
            git_in(&path, &["init", "-q"]);
            git_in(&path, &["remote", "add", "origin", url]);
            project(&path).id
        };
        let absolute = bare.canonicalize().unwrap().display().to_string();
        let other = match spelled {
            None => absolute.clone(),
            Some("file://") => format!("file://{absolute}"),
            Some(_) => "../shop.git".to_owned(),
        };
        let first = clone("one", &absolute);
        assert!(first.as_str().starts_with("git:file/"), "{first}");
        assert_eq!(clone("two", &other), first);
    }

    #[test]
    fn without_a_remote_the_main_worktree_path_names_the_project() {
        let dir = tempfile::tempdir().unwrap();
        git_in(dir.path(), &["init", "-q"]);
        let project = pollster::block_on(FsProjectContext.project(dir.path()));
        assert_eq!(
            project.id,
            ProjectId::from_path(&dir.path().canonicalize().unwrap())
        );
        assert!(project.in_git);
    }

    #[test]
    fn outside_a_repository_the_directory_is_its_own_project_with_no_facts() {
        let dir = tempfile::tempdir().unwrap();
        let project = pollster::block_on(FsProjectContext.project(dir.path()));
        assert_eq!(project.root, dir.path());
        assert!(!project.in_git);
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
