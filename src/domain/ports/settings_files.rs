//! An agent's settings files, read whole and replaced whole.

use std::path::{Path, PathBuf};

use crate::domain::SettingsError;

/// Settings files of the agents carryover wires itself into.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SettingsFiles: Send + Sync {
    /// The file's text; `None` when it does not exist.
    async fn read(&self, path: &Path) -> Result<Option<String>, SettingsError>;

    /// Replaces the file's text atomically, keeping its permissions; when the file exists it
    /// is first copied to `backup`. Returns the backup's path when one was made.
    async fn replace(
        &self,
        path: &Path,
        text: &str,
        backup: &Path,
    ) -> Result<Option<PathBuf>, SettingsError>;
}
