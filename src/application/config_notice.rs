//! Telling the user, once per session, what is wrong in their configuration: hooks run many
//! times a session, and a typo named at every prompt would drown what it names.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::domain::config_problem::{ConfigProblem, problems_fingerprint};
use crate::domain::ports::{ProjectContext, SessionRecordStore, amend_record};
use crate::domain::project::SlugStyle;
use crate::domain::session_id::SessionId;

/// What to say about the configuration in this hook run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigAnnouncement {
    /// For the user (`systemMessage`): one line per problem, empty when the session was
    /// already told of exactly these problems.
    pub user_lines: Vec<String>,
    /// For stderr and the log.
    pub diagnostics: Vec<String>,
}

/// The fix a message about the configuration points to.
pub const CONFIG_FIX: &str = "carryover doctor";

/// Announces configuration problems once per session, remembering them in the session's
/// record (by fingerprint, so a new mistake is told even in a session told of another).
pub struct ConfigNotice<R, P> {
    records: R,
    projects: P,
    slug_style: SlugStyle,
}

impl<R: SessionRecordStore, P: ProjectContext> ConfigNotice<R, P> {
    /// A service over the given ports.
    pub fn new(records: R, projects: P, slug_style: SlugStyle) -> Self {
        Self {
            records,
            projects,
            slug_style,
        }
    }

    /// What to tell the session about `problems`. Costs nothing when there are none; without
    /// a usable session id every run tells (there is nowhere to remember it).
    pub async fn announce(
        &self,
        session_id: Option<&str>,
        cwd: &Path,
        problems: &[ConfigProblem],
    ) -> ConfigAnnouncement {
        if problems.is_empty() {
            return ConfigAnnouncement::default();
        }
        let lines = || {
            let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            lines.push(format!("`{CONFIG_FIX}` checks the whole set-up"));
            lines
        };
        let told = |diagnostics: Vec<String>| ConfigAnnouncement {
            user_lines: lines(),
            diagnostics: diagnostics
                .into_iter()
                .chain(problems.iter().map(ToString::to_string))
                .collect(),
        };
        let Some(id) = session_id.and_then(|raw| SessionId::parse(raw).ok()) else {
            return told(Vec::new());
        };
        let slug = self.projects.project(cwd).await.slug(self.slug_style);
        let fingerprint = problems_fingerprint(problems);
        let fresh = Arc::new(AtomicBool::new(false));
        let noted = fresh.clone();
        let updated = self
            .records
            .update(
                &slug,
                &id,
                amend_record(move |record| {
                    if record.config_problems_told.as_deref() != Some(fingerprint.as_str()) {
                        record.config_problems_told = Some(fingerprint);
                        noted.store(true, Ordering::SeqCst);
                    }
                }),
            )
            .await;
        match updated {
            Ok(_) if fresh.load(Ordering::SeqCst) => told(Vec::new()),
            Ok(_) => ConfigAnnouncement::default(),
            // The record cannot be kept: better told twice than never.
            Err(error) => told(vec![error.to_string()]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::project_at;
    use crate::domain::StateError;
    use crate::domain::config_problem::ConfigProblemKind;
    use crate::domain::ports::MockSessionRecordStore;
    use crate::domain::session_record::SessionRecord;
    use rstest::rstest;

    fn typo() -> Vec<ConfigProblem> {
        vec![ConfigProblem {
            path: "/d/config.toml".into(),
            line: Some(1),
            key: Some("flor".into()),
            kind: ConfigProblemKind::UnknownKey,
            detail: String::new(),
        }]
    }

    fn records_holding(told: Option<String>) -> MockSessionRecordStore {
        let mut records = MockSessionRecordStore::new();
        records.expect_update().returning(move |_, _, edit| {
            Ok(edit(Some(SessionRecord {
                config_problems_told: told.clone(),
                ..SessionRecord::default()
            })))
        });
        records
    }

    #[rstest]
    #[case::first_time(None, true)]
    #[case::already_told(Some(problems_fingerprint(&typo())), false)]
    #[case::told_of_other_problems(Some("0000000000000000".to_owned()), true)]
    fn tells_a_session_once_per_set_of_problems(
        #[case] told_before: Option<String>,
        #[case] tells: bool,
    ) {
        let notice = ConfigNotice::new(
            records_holding(told_before),
            project_at("/code/p"),
            SlugStyle::Path,
        );
        let said = pollster::block_on(notice.announce(Some("s1"), Path::new("/code/p"), &typo()));
        assert_eq!(!said.user_lines.is_empty(), tells);
        if tells {
            assert!(said.user_lines[0].contains("unknown key `flor`"));
            assert!(said.user_lines.last().unwrap().contains(CONFIG_FIX));
        }
    }

    #[test]
    fn nothing_wrong_touches_nothing() {
        let mut records = MockSessionRecordStore::new();
        records.expect_update().never();
        let notice = ConfigNotice::new(records, project_at("/code/p"), SlugStyle::Path);
        let said = pollster::block_on(notice.announce(Some("s1"), Path::new("/code/p"), &[]));
        assert_eq!(said, ConfigAnnouncement::default());
    }

    #[rstest]
    #[case::no_session(None)]
    #[case::unsafe_session(Some("../x"))]
    fn without_a_session_to_remember_it_every_run_tells(#[case] session: Option<&str>) {
        let mut records = MockSessionRecordStore::new();
        records.expect_update().never();
        let notice = ConfigNotice::new(records, project_at("/code/p"), SlugStyle::Path);
        let said = pollster::block_on(notice.announce(session, Path::new("/code/p"), &typo()));
        assert!(!said.user_lines.is_empty());
    }

    #[test]
    fn a_record_that_cannot_be_kept_still_tells() {
        let mut records = MockSessionRecordStore::new();
        records.expect_update().returning(|_, _, _| {
            Err(StateError::LockTimeout {
                path: "/d/x".into(),
                waited_ms: 1,
            })
        });
        let notice = ConfigNotice::new(records, project_at("/code/p"), SlugStyle::Path);
        let said = pollster::block_on(notice.announce(Some("s1"), Path::new("/code/p"), &typo()));
        assert!(!said.user_lines.is_empty());
        assert!(said.diagnostics.len() >= 2);
    }
}
