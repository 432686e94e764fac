//! Where start-up templates come from.

use std::path::{Path, PathBuf};

use crate::domain::TemplateError;

/// A template file as read, with the digest that trust is recorded against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// Hex SHA-256 of its bytes.
    pub sha256: String,
}

/// Reads start-up templates. Implementations MUST NOT follow symbolic links out of the
/// project and MUST bound the size they read.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait TemplateSource: Send + Sync {
    /// The project's `.carryover/_startup.md`, if it has one.
    async fn project_template(&self, root: &Path) -> Result<Option<TemplateFile>, TemplateError>;

    /// The user's own template in the data home, if there is one.
    async fn user_template(&self) -> Result<Option<TemplateFile>, TemplateError>;
}
