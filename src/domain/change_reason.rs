//! Why the seed changed: the history's commit messages are written from this.

use std::fmt;

use super::seed::LearningKind;

/// A change to the seed, described for its commit message.
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeReason {
    /// `carryover init` wrote a new seed.
    Init {
        /// The assistant's name.
        ai_name: String,
        /// The principal's name.
        principal: String,
    },
    /// One field of the identity was set (`identity set`).
    Identity {
        /// The field's key (`timezone`).
        key: &'static str,
        /// Its new value.
        value: String,
    },
    /// A learning was added.
    Learn {
        /// Its kind.
        kind: LearningKind,
        /// Its id.
        id: String,
    },
    /// Proposals were accepted or rejected.
    Review {
        /// How many were accepted.
        accepted: usize,
        /// How many were rejected.
        rejected: usize,
    },
    /// A learning's scope or pin changed.
    Edit {
        /// Its id.
        id: String,
        /// What changed (`scope project shop-api`, `pin`, `unpin`).
        change: String,
    },
    /// A learning was removed.
    Forget {
        /// Its id.
        id: String,
    },
    /// A session ended: the last session and active projects changed, and learnings may
    /// have been proposed from what the user said.
    SessionEnd {
        /// The session.
        session: String,
        /// Learnings proposed from it.
        proposals: usize,
    },
    /// Learnings were proposed from a transcript (`proposals extract`).
    Propose {
        /// The session they came from.
        session: String,
        /// How many.
        proposals: usize,
    },
    /// The agent's own memories were proposed (`import claude-memory`).
    ImportMemory {
        /// How many.
        proposals: usize,
    },
    /// A corrupt seed was restored from history.
    Repair {
        /// Abbreviated commit the good version came from.
        from_commit: String,
        /// What was wrong with the file on disk.
        problem: String,
    },
}

impl fmt::Display for ChangeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Init { ai_name, principal } => {
                write!(f, "Init: {ai_name} serving {principal}")
            }
            Self::Identity { key, value } => write!(f, "Identity: set {key} to {value}"),
            Self::Learn { kind, id } => write!(f, "Learn: add {kind} {id}"),
            Self::Edit { id, change } => write!(f, "Edit: {change} {id}"),
            Self::SessionEnd {
                session,
                proposals: 0,
            } => write!(f, "Session end: {session}"),
            Self::SessionEnd { session, proposals } => {
                write!(f, "Session end: {session}; propose {proposals} learning(s)")
            }
            Self::Propose { session, proposals } => {
                write!(f, "Propose: {proposals} learning(s) from session {session}")
            }
            Self::ImportMemory { proposals } => {
                write!(
                    f,
                    "Import: {proposals} learning(s) from Claude Code's memory"
                )
            }
            Self::Review { accepted, rejected } => {
                write!(
                    f,
                    "Review: accept {accepted}, reject {rejected} proposal(s)"
                )
            }
            Self::Forget { id } => write!(f, "Forget: remove learning {id}"),
            Self::Repair {
                from_commit,
                problem,
            } => write!(
                f,
                "Repair: restore seed.json from {from_commit} ({problem})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(ChangeReason::Init { ai_name: "Juno".into(), principal: "Mara".into() }, "Init: Juno serving Mara")]
    #[case(ChangeReason::Identity { key: "timezone", value: "Europe/Lisbon".into() }, "Identity: set timezone to Europe/Lisbon")]
    #[case(ChangeReason::Learn { kind: LearningKind::SelfKnowledge, id: "slf_1".into() }, "Learn: add self_knowledge slf_1")]
    #[case(ChangeReason::SessionEnd { session: "s1".into(), proposals: 0 }, "Session end: s1")]
    #[case(ChangeReason::SessionEnd { session: "s1".into(), proposals: 2 }, "Session end: s1; propose 2 learning(s)")]
    #[case(ChangeReason::Propose { session: "s1".into(), proposals: 3 }, "Propose: 3 learning(s) from session s1")]
    #[case(ChangeReason::ImportMemory { proposals: 2 }, "Import: 2 learning(s) from Claude Code's memory")]
    #[case(ChangeReason::Repair { from_commit: "abc1234".into(), problem: "not JSON".into() }, "Repair: restore seed.json from abc1234 (not JSON)")]
    fn commit_messages_say_what_changed(#[case] reason: ChangeReason, #[case] message: &str) {
        assert_eq!(reason.to_string(), message);
    }
}
