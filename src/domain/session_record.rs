//! What carryover has told one session so far, so that it never says the same thing twice:
//! a resumed session is not given its block again, the prompt hook does not repeat a learning,
//! the user hears about waiting proposals once.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::seed::Timestamp;

/// Sessions a record remembers the handoffs of, and learnings it remembers at most: a session
/// that injects more than this has long since compacted.
const MAX_REMEMBERED: usize = 500;

/// `projects/<slug>/records/<session>.json`. Every field is optional so that a file written
/// by another carryover version still reads; unknown keys are kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionRecord {
    /// When a session start last injected carryover's block into this session.
    pub context_at: Option<Timestamp>,
    /// The session received the start-up instruction.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub startup_instruction: bool,
    /// The user was told that proposals await their review.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub proposals_announced: bool,
    /// Learnings the model was given since the session's last compaction, by id.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learnings: Vec<String>,
    /// Sessions whose handoff this session was shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handoffs: Vec<String>,
    /// Digest of the untrusted project template the user was warned about in this session:
    /// the warning is given once per session (and again when the template changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untrusted_template: Option<String>,
    /// The client's own context window for this session, as its status line reported it.
    pub context_window: Option<u64>,
    /// The configuration problems the user was told of, as their fingerprint: told again
    /// only when they change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_problems_told: Option<String>,
    /// Keys this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl SessionRecord {
    /// Notes a block injected at `at`: the learnings and the handoff it showed.
    pub fn note_context(&mut self, at: Timestamp, learnings: &[String], handoff: Option<&str>) {
        self.context_at = Some(at);
        self.note_learnings(learnings);
        if let Some(session) = handoff
            && !self.handoffs.iter().any(|known| known == session)
        {
            self.handoffs.push(session.to_owned());
        }
        keep_newest(&mut self.handoffs);
    }

    /// Notes learnings the model was given.
    pub fn note_learnings(&mut self, learnings: &[String]) {
        for id in learnings {
            if !self.learnings.contains(id) {
                self.learnings.push(id.clone());
            }
        }
        keep_newest(&mut self.learnings);
    }

    /// Whether the model holds this learning from carryover already.
    pub fn knows_learning(&self, id: &str) -> bool {
        self.learnings.iter().any(|known| known == id)
    }

    /// A compaction took what carryover said out of the model's context.
    pub fn compacted(&mut self) {
        self.learnings.clear();
    }
}

fn keep_newest(list: &mut Vec<String>) {
    let excess = list.len().saturating_sub(MAX_REMEMBERED);
    list.drain(..excess);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(raw: &str) -> Timestamp {
        Timestamp::parse(raw).unwrap()
    }

    #[test]
    fn notes_accumulate_without_repeats_and_compaction_forgets_learnings() {
        let mut record = SessionRecord::default();
        record.note_context(
            at("2026-11-22T18:40:00Z"),
            &["a".into(), "b".into()],
            Some("s0"),
        );
        record.note_learnings(&["b".into(), "c".into()]);
        record.note_context(at("2026-11-22T19:00:00Z"), &[], Some("s0"));
        assert_eq!(record.learnings, ["a", "b", "c"]);
        assert_eq!(record.handoffs, ["s0"]);
        assert_eq!(record.context_at, Some(at("2026-11-22T19:00:00Z")));
        assert!(record.knows_learning("c"));
        record.compacted();
        assert!(!record.knows_learning("c"));
        assert_eq!(record.handoffs, ["s0"], "handoffs shown stay shown");
    }

    #[test]
    fn lists_stay_bounded_keeping_the_newest() {
        let mut record = SessionRecord::default();
        let ids: Vec<String> = (0..MAX_REMEMBERED + 3).map(|n| n.to_string()).collect();
        record.note_learnings(&ids);
        assert_eq!(record.learnings.len(), MAX_REMEMBERED);
        assert_eq!(record.learnings[0], "3");
    }

    #[test]
    fn reads_leniently_and_keeps_unknown_keys() {
        let text = r#"{"context_at":"2026-11-22T18:40:00Z","future":{"x":1},"learnings":["a"]}"#;
        let record: SessionRecord = serde_json::from_str(text).unwrap();
        assert_eq!(record.learnings, ["a"]);
        let written = serde_json::to_value(&record).unwrap();
        assert_eq!(written["future"]["x"], 1);
        assert!(written.get("startup_instruction").is_none());
    }
}
