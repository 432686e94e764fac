//! Where handoffs are kept, one per session of a project.

use std::path::PathBuf;

use crate::domain::HandoffError;
use crate::domain::project::ProjectSlug;
use crate::domain::seed::Timestamp;
use crate::domain::session_id::SessionId;

/// A stored handoff, located but not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandoffEntry {
    /// The session directory's name.
    pub session: String,
    /// The file.
    pub path: PathBuf,
    /// Its modification time.
    pub modified: Timestamp,
}

/// The handoffs of each project. Implementations MUST keep every path inside the project's own
/// directory (session ids are validated before they get here) and MUST write atomically.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait HandoffStore: Send + Sync {
    /// The project's handoffs, newest modification first.
    async fn list(&self, project: &ProjectSlug) -> Result<Vec<HandoffEntry>, HandoffError>;

    /// The text of a listed handoff.
    async fn read(&self, entry: &HandoffEntry) -> Result<String, HandoffError>;

    /// The handoff a session wrote before, if any.
    async fn read_session(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
    ) -> Result<Option<String>, HandoffError>;

    /// Writes the session's handoff and returns its path.
    async fn write(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
        text: &str,
    ) -> Result<PathBuf, HandoffError>;
}
