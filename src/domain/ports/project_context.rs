//! Which project a working directory belongs to.

use std::path::Path;

use crate::domain::project::{Project, ProjectFacts};

/// Finds the project of a directory: its git top level, else the directory itself. Never
/// fails: an unknown directory is its own project.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectContext: Send + Sync {
    /// The project `cwd` belongs to.
    async fn project(&self, cwd: &Path) -> Project;

    /// The project's branch and recent commit subjects; empty when it is not a repository.
    async fn facts(&self, project: &Project) -> ProjectFacts;
}
