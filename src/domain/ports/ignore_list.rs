//! What a project's git leaves untracked.

use std::path::{Path, PathBuf};

use crate::domain::SettingsError;

/// The ignore rules of the git repository a file lives in.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait IgnoreList: Send + Sync {
    /// Makes the git repository whose work tree is `root` leave `path` untracked, unless it
    /// already ignores or tracks it, or `root` is no repository. Returns the file the rule was
    /// added to (`.git/info/exclude`, this clone's own list), when one was added.
    async fn keep_untracked(
        &self,
        path: &Path,
        root: &Path,
    ) -> Result<Option<PathBuf>, SettingsError>;
}
