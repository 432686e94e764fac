//! Finding a directory's project on the filesystem, without starting git.

use std::path::Path;

use crate::domain::ports::ProjectContext;
use crate::domain::project::Project;

/// The nearest ancestor holding `.git` (a directory, or a file in worktrees and submodules),
/// else the directory itself. Looking for `.git` costs a few `stat` calls where `git
/// rev-parse` would cost a process start on the session-start hot path.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsProjectContext;

#[async_trait::async_trait]
impl ProjectContext for FsProjectContext {
    async fn project(&self, cwd: &Path) -> Project {
        let root = cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(cwd);
        Project::at(root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn outside_a_repository_the_directory_is_its_own_project() {
        let dir = tempfile::tempdir().unwrap();
        let project = pollster::block_on(FsProjectContext.project(dir.path()));
        assert_eq!(project.root, dir.path());
    }
}
