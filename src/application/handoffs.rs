//! The project's handoffs as session start and `carryover handoff` see them: which one is the
//! newest usable, by one set of rules.

use crate::domain::HandoffError;
use crate::domain::handoff::{ParsedHandoff, read_handoff};
use crate::domain::ports::{HandoffEntry, HandoffStore};
use crate::domain::project::ProjectSlug;
use crate::domain::seed::Timestamp;

/// Handoffs tried, newest first, before giving up on finding a usable one.
const CANDIDATES: usize = 5;

/// Which handoffs qualify.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandoffFilter {
    /// Not these sessions' (the session's own, or ones it was already shown).
    pub exclude_sessions: Vec<String>,
    /// Only ones written after this time.
    pub written_after: Option<Timestamp>,
}

/// A handoff that qualified, read and parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundHandoff {
    /// Where it is.
    pub entry: HandoffEntry,
    /// Its text as stored.
    pub text: String,
    /// Its sections.
    pub parsed: ParsedHandoff,
    /// When it was written: its front matter's timestamp, else the file's time.
    pub written: Timestamp,
}

/// The newest usable handoff and the ones passed over on the way, with why.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HandoffSearch {
    /// The handoff, when one qualified.
    pub found: Option<FoundHandoff>,
    /// Why newer ones were not used (empty, unreadable), for diagnostics.
    pub skipped: Vec<String>,
}

/// Reads the project's handoffs.
pub struct Handoffs<H> {
    store: H,
}

impl<H: HandoffStore> Handoffs<H> {
    /// A service over the store.
    pub fn new(store: H) -> Self {
        Self { store }
    }

    /// The project's handoffs, newest first.
    pub async fn list(&self, project: &ProjectSlug) -> Result<Vec<HandoffEntry>, HandoffError> {
        self.store.list(project).await
    }

    /// The newest substantive handoff that passes `filter` and can be used (the newest one at
    /// all when none of the candidates did work): empty, unreadable or malformed files are
    /// passed over (and reported), as are the excluded session's.
    pub async fn newest(
        &self,
        project: &ProjectSlug,
        filter: &HandoffFilter,
    ) -> Result<HandoffSearch, HandoffError> {
        let mut search = HandoffSearch::default();
        let entries = self.store.list(project).await?;
        let candidates = entries
            .into_iter()
            .filter(|entry| !filter.exclude_sessions.contains(&entry.session))
            // Listed newest first: a file last changed before the cut-off ends the search.
            .take_while(|entry| {
                filter
                    .written_after
                    .is_none_or(|after| entry.modified > after)
            })
            .take(CANDIDATES);
        for entry in candidates {
            let text = match self.store.read(&entry).await {
                Ok(text) => text,
                Err(error) => {
                    search.skipped.push(format!("skipped a handoff: {error}"));
                    continue;
                }
            };
            let parsed = match read_handoff(&text) {
                Ok(parsed) => parsed,
                Err(error) => {
                    search
                        .skipped
                        .push(format!("skipped {}: {error}", entry.path.display()));
                    continue;
                }
            };
            if let Some(warning) = &parsed.warning {
                search
                    .skipped
                    .push(format!("{}: {warning}", entry.path.display()));
            }
            let written = parsed.timestamp.unwrap_or(entry.modified);
            if filter.written_after.is_some_and(|after| written <= after) {
                continue;
            }
            let substantive = parsed.substantive != Some(false);
            let found = FoundHandoff {
                entry,
                text,
                parsed,
                written,
            };
            // A session that only talked does not displace one that did work: its handoff
            // is used only when no substantive one is among the candidates.
            if substantive {
                search.found = Some(found);
                break;
            }
            if search.found.is_none() {
                search.found = Some(found);
            }
        }
        Ok(search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ports::MockHandoffStore;

    fn at(minutes: i64) -> Timestamp {
        let base = Timestamp::parse("2026-11-22T18:00:00Z").unwrap();
        Timestamp::new(base.instant() + time::Duration::minutes(minutes))
    }

    /// Newest first, as the store lists them: (session, minutes after 18:00, text).
    fn store(handoffs: &'static [(&'static str, i64, &'static str)]) -> Handoffs<MockHandoffStore> {
        let mut store = MockHandoffStore::new();
        store.expect_list().returning(|_| {
            Ok(handoffs
                .iter()
                .map(|(session, minutes, _)| HandoffEntry {
                    session: (*session).into(),
                    path: format!("/p/{session}/handoff.md").into(),
                    modified: at(*minutes),
                })
                .collect())
        });
        store.expect_read().returning(|entry| {
            Ok(handoffs
                .iter()
                .find(|(session, ..)| *session == entry.session)
                .unwrap()
                .2
                .to_owned())
        });
        Handoffs::new(store)
    }

    fn newest(handoffs: &Handoffs<MockHandoffStore>, filter: HandoffFilter) -> HandoffSearch {
        pollster::block_on(handoffs.newest(&ProjectSlug::from_text("p"), &filter)).unwrap()
    }

    fn session(search: &HandoffSearch) -> Option<&str> {
        search.found.as_ref().map(|f| f.entry.session.as_str())
    }

    #[test]
    fn the_newest_usable_one_wins_and_empty_ones_are_reported() {
        let handoffs = store(&[("empty", 30, "  \n"), ("s1", 20, "## Notes\n- one\n")]);
        let search = newest(&handoffs, HandoffFilter::default());
        assert_eq!(session(&search), Some("s1"));
        assert!(
            search.skipped[0].contains("/p/empty/handoff.md"),
            "{:?}",
            search.skipped
        );
    }

    #[rstest::rstest]
    #[case::a_chat_does_not_displace_work(
        &[("chat", 30, "---\nsubstantive: false\n---\n## Goal\n- hi\n"), ("work", 20, "---\nsubstantive: true\n---\n## Goal\n- build\n")],
        Some("work")
    )]
    #[case::older_handoffs_count_as_substantive(
        &[("chat", 30, "---\nsubstantive: false\n---\n## Goal\n- hi\n"), ("old", 20, "## Notes\n- one\n")],
        Some("old")
    )]
    #[case::only_chats_left(
        &[("chat", 30, "---\nsubstantive: false\n---\n## Goal\n- hi\n"), ("chat2", 20, "---\nsubstantive: false\n---\n## Goal\n- yo\n")],
        Some("chat")
    )]
    fn the_newest_substantive_handoff_wins(
        #[case] handoffs: &'static [(&'static str, i64, &'static str)],
        #[case] expected: Option<&str>,
    ) {
        let handoffs = store(handoffs);
        let search = newest(&handoffs, HandoffFilter::default());
        assert_eq!(session(&search), expected);
    }

    #[test]
    fn the_excluded_session_is_passed_over() {
        let handoffs = store(&[
            ("own", 30, "## Notes\n- mine\n"),
            ("s1", 20, "## Notes\n- one\n"),
        ]);
        let filter = HandoffFilter {
            exclude_sessions: vec!["own".into()],
            ..HandoffFilter::default()
        };
        assert_eq!(session(&newest(&handoffs, filter)), Some("s1"));
    }

    #[test]
    fn only_handoffs_written_after_the_cut_off_qualify() {
        let handoffs = store(&[
            (
                "late",
                30,
                "---\ntimestamp: 2026-11-22T18:05:00Z\n---\n## Notes\n- stamped early\n",
            ),
            ("s1", 20, "## Notes\n- one\n"),
            ("s0", 5, "## Notes\n- old\n"),
        ]);
        let filter = |minutes| HandoffFilter {
            written_after: Some(at(minutes)),
            ..HandoffFilter::default()
        };
        assert_eq!(
            session(&newest(&handoffs, filter(10))),
            Some("s1"),
            "the front matter's time counts over the file's"
        );
        assert_eq!(session(&newest(&handoffs, filter(25))), None);
    }
}
