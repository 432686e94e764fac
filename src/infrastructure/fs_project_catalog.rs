//! The known projects: the directories under the projects trees.

use std::path::PathBuf;

use crate::domain::ports::ProjectCatalog;
use crate::domain::project::ProjectSlug;

/// Directories listed at most: a catalog is read at every session start and prompt, and a
/// tree with more projects than this is not one a person works in.
const MAX_PROJECTS: usize = 2_000;

/// Lists the project directories of one or more projects trees (the data home's, and the
/// handoffs' when configured elsewhere).
#[derive(Debug, Clone)]
pub struct FsProjectCatalog {
    trees: Vec<PathBuf>,
}

impl FsProjectCatalog {
    /// A catalog of the directories in `trees`.
    pub fn new(trees: Vec<PathBuf>) -> Self {
        Self { trees }
    }
}

#[async_trait::async_trait]
impl ProjectCatalog for FsProjectCatalog {
    async fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for tree in &self.trees {
            let Ok(entries) = std::fs::read_dir(tree) else {
                continue;
            };
            for entry in entries.flatten().take(MAX_PROJECTS) {
                // A link is not followed: the tree is carryover's own.
                if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                    names.extend(ProjectSlug::project_names(
                        &entry.file_name().to_string_lossy(),
                    ));
                }
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_project_directories_only() {
        let home = tempfile::tempdir().unwrap();
        let tree = home.path().join("projects");
        fs_err::create_dir_all(tree.join("shop-api-1a2b3c4d")).unwrap();
        fs_err::create_dir_all(tree.join("-home-u-web-app")).unwrap();
        fs_err::write(tree.join("stray-file"), "x").unwrap();
        let catalog = FsProjectCatalog::new(vec![tree, home.path().join("missing")]);
        let names = pollster::block_on(catalog.names());
        assert_eq!(names, ["app", "shop-api", "u-web-app", "web-app"]);
    }
}
