//! What pre-compact records for the next session start of the same project.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::seed::Timestamp;

use super::{PendingCompaction, SessionCompaction};

/// Sessions whose compactions a project's state keeps; the oldest recorded go first.
pub const MAX_SESSIONS: usize = 20;

/// `projects/<slug>/context-state.json`. Every field is optional so that a file written by an
/// older or newer carryover still reads; unknown keys are kept. The top-level fields describe
/// the latest compaction (what an older carryover reads); `sessions` keeps each session's own.
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
    /// Each session's latest compaction, by session id, so that one session's pre-compact
    /// never takes another's notice.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub sessions: BTreeMap<String, SessionCompaction>,
    /// Keys this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ContextState {
    /// This state with `self`'s top-level fields recorded as the compaction of its session
    /// too, keeping the sessions of `previous` (the most recent [`MAX_SESSIONS`]) and its
    /// unknown keys.
    pub fn recorded_over(mut self, previous: Option<ContextState>) -> Self {
        let previous = previous.unwrap_or_default();
        self.extra = previous.extra;
        self.sessions = previous.sessions;
        if let Some(session) = self.session_id.clone() {
            self.sessions.insert(
                session,
                SessionCompaction {
                    fill: self.pre_compaction_fill,
                    tier: self.pre_compaction_tier.clone(),
                    checkpoint: self.checkpoint.clone(),
                    recorded_at: self.recorded_at,
                    reported: false,
                    extra: Map::new(),
                },
            );
        }
        while self.sessions.len() > MAX_SESSIONS {
            let oldest = self
                .sessions
                .iter()
                .min_by_key(|(_, compaction)| compaction.recorded_at)
                .map(|(session, _)| session.clone());
            if let Some(oldest) = oldest {
                self.sessions.remove(&oldest);
            }
        }
        self
    }

    /// The compaction recorded for `session` and not yet reported. A session recorded in
    /// `sessions` is answered from there; otherwise the top-level record answers when it
    /// belongs to `session` or either id is unknown (a file an older carryover wrote): a fill
    /// recorded by another session of the project says nothing about this one.
    pub fn pending_for(&self, session: Option<&str>) -> Option<PendingCompaction<'_>> {
        if let Some(own) = session.and_then(|id| self.sessions.get(id)) {
            return own.pending();
        }
        let same_session = match (self.session_id.as_deref(), session) {
            (Some(recorded), Some(current)) => recorded == current,
            _ => true,
        };
        match same_session {
            true => PendingCompaction::of(
                self.pre_compaction_fill,
                self.pre_compaction_tier.as_deref(),
                self.checkpoint.as_deref(),
            ),
            false => None,
        }
    }

    /// True when a compaction of `session` was already reported.
    pub fn reported_for(&self, session: Option<&str>) -> bool {
        let Some(session) = session else {
            return false;
        };
        match self.sessions.get(session) {
            Some(own) => own.reported,
            None => self.reported_session.as_deref() == Some(session),
        }
    }

    /// Forgets `session`'s fill once it was reported, keeping the rest for inspection; the
    /// top-level fill goes with it when it is that session's (or its id unknown).
    pub fn mark_reported(&mut self, session: Option<&str>) {
        if let Some(own) = session.and_then(|id| self.sessions.get_mut(id)) {
            own.mark_reported();
        }
        if self.session_id.is_none() || self.session_id.as_deref() == session {
            self.pre_compaction_fill = None;
        }
        self.reported_session = session.map(str::to_owned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use std::path::Path;

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
        assert!(state.pending_for(Some("s1")).is_none());
        assert_eq!(state.pre_compaction_tier.as_deref(), Some("EMERGENCY"));
        assert!(state.reported_for(Some("s1")));
        assert!(!state.reported_for(Some("s2")));
        assert!(!state.reported_for(None));
    }

    /// What pre-compact writes for `session` over `previous`.
    fn compacted(
        session: &str,
        fill: f64,
        minute: u32,
        previous: Option<ContextState>,
    ) -> ContextState {
        ContextState {
            session_id: Some(session.to_owned()),
            pre_compaction_fill: Some(fill),
            pre_compaction_tier: Some("WARNING".into()),
            checkpoint: Some(PathBuf::from(format!("{session}.md"))),
            recorded_at: Timestamp::parse(&format!("2026-11-24T10:{minute:02}:00Z")).ok(),
            ..ContextState::default()
        }
        .recorded_over(previous)
    }

    #[test]
    fn parallel_sessions_each_keep_their_own_compaction() {
        let mut state = compacted("b", 0.7, 2, Some(compacted("a", 0.9, 1, None)));
        let a = state
            .pending_for(Some("a"))
            .expect("a's compaction survives b's");
        assert_eq!(
            (a.fill.ratio(), a.checkpoint),
            (0.9, Some(Path::new("a.md")))
        );
        state.mark_reported(Some("a"));
        let b = state
            .pending_for(Some("b"))
            .expect("reporting a leaves b's");
        assert_eq!(
            (b.fill.ratio(), b.checkpoint),
            (0.7, Some(Path::new("b.md")))
        );
        assert!(state.reported_for(Some("a")) && !state.reported_for(Some("b")));
        state.mark_reported(Some("b"));
        assert!(state.pending_for(Some("b")).is_none() && state.pending_for(None).is_none());
        assert!(state.pending_for(Some("c")).is_none(), "c recorded nothing");
    }

    #[test]
    fn a_session_compacted_again_is_told_again() {
        let mut state = compacted("a", 0.9, 1, None);
        state.mark_reported(Some("a"));
        let again = compacted("a", 0.8, 5, Some(state));
        assert_eq!(
            again.pending_for(Some("a")).map(|p| p.fill.ratio()),
            Some(0.8)
        );
        assert!(!again.reported_for(Some("a")));
    }

    #[test]
    fn the_oldest_sessions_go_beyond_the_limit() {
        let state = (0..=MAX_SESSIONS as u32).fold(None, |previous, minute| {
            Some(compacted(&format!("s{minute}"), 0.5, minute, previous))
        });
        let state = state.expect("recorded");
        assert_eq!(state.sessions.len(), MAX_SESSIONS);
        assert!(!state.sessions.contains_key("s0"));
        assert!(state.sessions.contains_key(&format!("s{MAX_SESSIONS}")));
    }

    #[test]
    fn a_file_of_an_older_version_still_reports_its_session() {
        let state: ContextState = serde_json::from_str(
            r#"{"session_id": "a", "pre_compaction_fill": 0.9, "checkpoint": "a.md"}"#,
        )
        .unwrap();
        assert!(state.pending_for(Some("a")).is_some());
        assert!(state.pending_for(Some("b")).is_none());
        let mut state = state;
        state.mark_reported(Some("a"));
        assert!(state.pending_for(Some("a")).is_none() && state.reported_for(Some("a")));
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
