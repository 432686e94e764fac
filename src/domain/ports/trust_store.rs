//! Which project templates the user has trusted, by path and content digest.

use std::path::{Path, PathBuf};

use crate::domain::TemplateError;
use crate::domain::seed::Timestamp;

/// One trusted template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustEntry {
    /// The template's path.
    pub path: PathBuf,
    /// The digest trusted.
    pub sha256: String,
    /// When.
    pub trusted_at: Timestamp,
    /// The text trusted, to show what changed since (absent in entries older than this).
    pub text: Option<String>,
}

/// The user's trust decisions. Writes MUST be atomic.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait TrustStore: Send + Sync {
    /// Whether `path` is trusted with exactly this content.
    async fn is_trusted(&self, path: &Path, sha256: &str) -> Result<bool, TemplateError>;

    /// Trusts `path` with this content, `text` being what it reads (replacing an earlier
    /// decision).
    async fn trust(
        &self,
        path: &Path,
        sha256: &str,
        text: &str,
        at: Timestamp,
    ) -> Result<(), TemplateError>;

    /// Forgets `path`; returns whether it was trusted.
    async fn revoke(&self, path: &Path) -> Result<bool, TemplateError>;

    /// Every trusted template.
    async fn list(&self) -> Result<Vec<TrustEntry>, TemplateError>;
}
