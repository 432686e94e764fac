//! Per-session records of what carryover told each session.

use crate::domain::StateError;
use crate::domain::project::ProjectSlug;
use crate::domain::session_id::SessionId;
use crate::domain::session_record::SessionRecord;

/// A change to a session's record: receives the current one (`None` when there is none or it
/// was unreadable) and returns the new one.
pub type RecordEdit = Box<dyn FnOnce(Option<SessionRecord>) -> SessionRecord + Send>;

/// The edit that applies `change` to the current record, or to an empty one when there is none.
pub fn amend_record(change: impl FnOnce(&mut SessionRecord) + Send + 'static) -> RecordEdit {
    Box::new(move |current| {
        let mut record = current.unwrap_or_default();
        change(&mut record);
        record
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::no_record(None, false)]
    #[case::a_record(Some(SessionRecord { startup_instruction: true, ..SessionRecord::default() }), true)]
    fn an_amendment_changes_its_field_and_keeps_the_others(
        #[case] current: Option<SessionRecord>,
        #[case] instructed: bool,
    ) {
        let edit = amend_record(|record| record.context_window = Some(200_000));
        let record = edit(current);
        assert_eq!(record.context_window, Some(200_000));
        assert_eq!(record.startup_instruction, instructed);
    }
}
