//! What pre-compact records for the next session start of the same project.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::seed::Timestamp;

use super::{Fill, Tier};

/// `projects/<slug>/context-state.json`. Every field is optional so that a file written by an
/// older or newer carryover still reads; unknown keys are kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContextState {
    /// The session that was compacted.
    pub session_id: Option<String>,
    /// Fill before the compaction; cleared once a session start has reported it.
    pub pre_compaction_fill: Option<f64>,
    /// Tier of that fill.
    pub pre_compaction_tier: Option<String>,
    /// Tokens in context before the compaction.
    pub pre_compaction_tokens: Option<u64>,
    /// The window the fill was computed against.
    pub context_window: Option<u64>,
    /// The model, when known.
    pub model: Option<String>,
    /// `manual` or `auto`.
    pub trigger: Option<String>,
    /// The checkpoint file written with it.
    pub checkpoint: Option<PathBuf>,
    /// When pre-compact ran.
    pub recorded_at: Option<Timestamp>,
    /// The session whose compaction a session start already reported, so that another start
    /// of the same session is not told again.
    pub reported_session: Option<String>,
    /// Keys this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ContextState {
    /// True while a recorded fill awaits reporting.
    pub fn has_pending_fill(&self) -> bool {
        self.pre_compaction_fill.is_some()
    }

    /// The recorded fill and tier if they belong to `session` (or either id is unknown): a fill
    /// recorded by another session of the project says nothing about this one.
    pub fn pending_for(&self, session: Option<&str>) -> Option<(Fill, Tier)> {
        let fill = Fill::from_ratio(self.pre_compaction_fill?);
        let same_session = match (self.session_id.as_deref(), session) {
            (Some(recorded), Some(current)) => recorded == current,
            _ => true,
        };
        let tier = self
            .pre_compaction_tier
            .as_deref()
            .and_then(Tier::parse)
            .unwrap_or(Tier::Nominal);
        same_session.then_some((fill, tier))
    }

    /// True when a compaction of `session` was already reported.
    pub fn reported_for(&self, session: Option<&str>) -> bool {
        matches!((self.reported_session.as_deref(), session), (Some(reported), Some(current)) if reported == current)
    }

    /// Forgets the fill once it was reported for `session`, keeping the rest for inspection.
    pub fn mark_reported(&mut self, session: Option<&str>) {
        self.pre_compaction_fill = None;
        self.reported_session = session.map(str::to_owned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn recorded(session: Option<&str>) -> ContextState {
        ContextState {
            session_id: session.map(str::to_owned),
            pre_compaction_fill: Some(0.89),
            pre_compaction_tier: Some("EMERGENCY".into()),
            ..ContextState::default()
        }
    }

    #[rstest]
    #[case::same_session(Some("s1"), Some("s1"), true)]
    #[case::other_session(Some("s1"), Some("s2"), false)]
    #[case::unknown_current(Some("s1"), None, true)]
    #[case::unknown_recorded(None, Some("s2"), true)]
    fn a_fill_belongs_to_its_session(
        #[case] recorded_by: Option<&str>,
        #[case] asking: Option<&str>,
        #[case] applies: bool,
    ) {
        assert_eq!(recorded(recorded_by).pending_for(asking).is_some(), applies);
    }

    #[test]
    fn reporting_clears_the_fill_and_remembers_the_session() {
        let mut state = recorded(Some("s1"));
        state.mark_reported(Some("s1"));
        assert!(!state.has_pending_fill());
        assert_eq!(state.pre_compaction_tier.as_deref(), Some("EMERGENCY"));
        assert!(state.reported_for(Some("s1")));
        assert!(!state.reported_for(Some("s2")));
        assert!(!state.reported_for(None));
    }

    #[test]
    fn unknown_keys_survive_a_round_trip() {
        let state: ContextState =
            serde_json::from_str(r#"{"pre_compaction_fill": 0.5, "future": [1]}"#).unwrap();
        assert!(
            serde_json::to_string(&state)
                .unwrap()
                .contains("\"future\":[1]")
        );
    }
}
