//! An agent's settings files, read whole and replaced whole.

use std::path::{Path, PathBuf};

use crate::domain::SettingsError;

/// What stands on the way to a settings file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsFileState {
    /// The first symbolic link between the containing directory and the file (a directory
    /// or the file itself), with the path it resolves to.
    pub link: Option<(PathBuf, PathBuf)>,
    /// The file exists and its owner may not write it.
    pub read_only: bool,
}

/// Settings files of the agents carryover wires itself into.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SettingsFiles: Send + Sync {
    /// Links on the way from `within` (not included) to `path`, and whether `path` is
    /// read-only; nothing is followed or changed.
    async fn inspect(&self, path: &Path, within: &Path)
    -> Result<SettingsFileState, SettingsError>;
    /// The file's text; `None` when it does not exist.
    async fn read(&self, path: &Path) -> Result<Option<String>, SettingsError>;

    /// Replaces the file's text atomically, keeping its permissions; when the file exists and
    /// `backup` is given, it is first copied there (or to a free name next to it). Returns the
    /// backup's path when one was made.
    async fn replace(
        &self,
        path: &Path,
        text: &str,
        backup: Option<PathBuf>,
    ) -> Result<Option<PathBuf>, SettingsError>;

    /// carryover's backups of `path` (`<name>.carryover-backup-<time>` next to it), oldest
    /// first.
    async fn backups(&self, path: &Path) -> Result<Vec<PathBuf>, SettingsError>;

    /// Deletes the file (gone already is fine), then each enclosing directory it leaves empty
    /// below `kept`, which stays.
    async fn remove(&self, path: &Path, kept: &Path) -> Result<(), SettingsError>;
}
