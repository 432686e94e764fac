//! Per-session records of what carryover told each session.

use crate::domain::StateError;
use crate::domain::project::ProjectSlug;
use crate::domain::session_id::SessionId;
use crate::domain::session_record::SessionRecord;

/// A change to a session's record: receives the current one (`None` when there is none or it
/// was unreadable) and returns the new one.
pub type RecordEdit = Box<dyn FnOnce(Option<SessionRecord>) -> SessionRecord + Send>;

/// Where session records live. Implementations MUST apply `update` under a lock spanning its
/// read and write, MUST replace the file whole (a reader sees the old or the new record), and
/// MAY drop the records of old sessions. A record is a cache of what was said: losing one
/// costs a repetition, never data, so implementations need not flush it to disk.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SessionRecordStore: Send + Sync {
    /// The session's record; `Ok(None)` when there is none.
    async fn load(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
    ) -> Result<Option<SessionRecord>, StateError>;
    /// Applies `edit` under the lock and stores the result.
    async fn update(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
        edit: RecordEdit,
    ) -> Result<SessionRecord, StateError>;
}
