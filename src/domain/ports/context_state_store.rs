//! Per-project compaction state and checkpoints.

use std::path::{Path, PathBuf};

use crate::domain::StateError;
use crate::domain::compaction::ContextState;
use crate::domain::project::ProjectSlug;

/// A change to a project's state: receives the current state (`None` when there is none or it
/// was unreadable) and returns the new one.
pub type StateEdit = Box<dyn FnOnce(Option<ContextState>) -> ContextState + Send>;

/// Where a project's context state lives. Implementations MUST write atomically, MUST apply
/// `update` under a lock spanning its read and write, and MUST keep checkpoint reads inside
/// the project's own checkpoint directory.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait ContextStateStore: Send + Sync {
    /// The recorded state; `Ok(None)` when nothing was recorded, `Err(Corrupt)` when the file
    /// cannot be read as state.
    async fn load(&self, project: &ProjectSlug) -> Result<Option<ContextState>, StateError>;

    /// Applies `edit` under the lock; an unreadable file counts as no state.
    async fn update(
        &self,
        project: &ProjectSlug,
        edit: StateEdit,
    ) -> Result<ContextState, StateError>;

    /// Writes a checkpoint named `name` and returns its path; old checkpoints beyond the
    /// store's retention are removed.
    async fn write_checkpoint(
        &self,
        project: &ProjectSlug,
        name: &str,
        text: &str,
    ) -> Result<PathBuf, StateError>;

    /// Reads a checkpoint this store wrote for `project`.
    async fn read_checkpoint(
        &self,
        project: &ProjectSlug,
        path: &Path,
    ) -> Result<String, StateError>;
}
