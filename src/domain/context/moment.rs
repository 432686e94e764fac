//! What kind of start a session start is, and therefore what it injects: a new conversation
//! gets everything, a compacted one gets back what the compaction took, a resumed one only
//! what changed since carryover last spoke to it.

use crate::domain::compaction::{StartKind, StartSource, detect};
use crate::domain::seed::Timestamp;

/// How this start relates to what the model already holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// `startup`, `clear`, or an agent that does not say and has no compaction recorded.
    Fresh,
    /// After a compaction: the model lost carryover's block with the rest.
    Compacted,
    /// A resumed conversation; `since` is when carryover's block, still in the transcript
    /// after its last compaction, was injected. `None`: the transcript holds no block
    /// (carryover was installed mid-session, or the block was compacted away).
    Resumed {
        /// When the block the transcript still holds was injected.
        since: Option<Timestamp>,
    },
}

/// Which handoff a start shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandoffRule {
    /// None: the session's own checkpoint says more (after a compaction).
    None,
    /// The newest of the project's handoffs; `own_excluded`: not the session's own.
    Newest {
        /// Skip the handoff this very session wrote (a continued conversation holds it).
        own_excluded: bool,
    },
    /// Only one another session wrote after `at` (it ended while this one was away).
    OtherSince {
        /// When carryover last spoke to this session.
        at: Timestamp,
    },
}

/// How a start speaks of pending proposals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProposalRule {
    /// The compact index.
    Index,
    /// One line counting those proposed after `at`, if any.
    NewSince {
        /// When carryover last spoke to this session.
        at: Timestamp,
    },
}

/// What a start injects, section by section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The queued start-up instruction opens the context.
    pub instruction: bool,
    /// The notice about how the session began, if any.
    pub notice: Option<StartKind>,
    /// Identity, learnings and session state (from the seed).
    pub seed: bool,
    /// The handoff.
    pub handoff: HandoffRule,
    /// Pending proposals.
    pub proposals: ProposalRule,
}

impl Moment {
    /// `fresh`, `compacted` or `resumed`, as `context --json` reports it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fresh => "fresh",
            Self::Compacted => "compacted",
            Self::Resumed { .. } => "resumed",
        }
    }

    /// The agent's `source` decides when it is sent; agents that do not say fall back to the
    /// project's recorded compaction (ADR 0003). `block` is when carryover's block still in
    /// the transcript was injected, as far as the transcript's tail tells.
    pub fn of(source: Option<StartSource>, recorded_fill: bool, block: Option<Timestamp>) -> Self {
        match detect(source, recorded_fill) {
            StartKind::Reset => Self::Fresh,
            StartKind::Compaction => Self::Compacted,
            StartKind::Resumed => Self::Resumed { since: block },
        }
    }

    /// What this moment injects.
    pub fn plan(self) -> Plan {
        match self {
            Self::Fresh => Plan {
                instruction: true,
                notice: Some(StartKind::Reset),
                seed: true,
                handoff: HandoffRule::Newest {
                    own_excluded: false,
                },
                proposals: ProposalRule::Index,
            },
            Self::Compacted => Plan {
                instruction: false,
                notice: Some(StartKind::Compaction),
                seed: true,
                handoff: HandoffRule::None,
                proposals: ProposalRule::Index,
            },
            Self::Resumed { since: None } => Plan {
                instruction: false,
                notice: None,
                seed: true,
                handoff: HandoffRule::Newest { own_excluded: true },
                proposals: ProposalRule::Index,
            },
            Self::Resumed { since: Some(at) } => Plan {
                instruction: false,
                notice: None,
                seed: false,
                handoff: HandoffRule::OtherSince { at },
                proposals: ProposalRule::NewSince { at },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn at() -> Timestamp {
        Timestamp::parse("2026-11-22T18:40:00Z").unwrap()
    }

    #[rstest]
    #[case::startup(Some(StartSource::Startup), false, None, Moment::Fresh)]
    #[case::clear(Some(StartSource::Clear), true, Some(at()), Moment::Fresh)]
    #[case::compact(Some(StartSource::Compact), false, Some(at()), Moment::Compacted)]
    #[case::resume_with_block(Some(StartSource::Resume), false, Some(at()), Moment::Resumed { since: Some(at()) })]
    #[case::resume_without_block(Some(StartSource::Resume), true, None, Moment::Resumed { since: None })]
    #[case::silent_agent(None, false, None, Moment::Fresh)]
    #[case::silent_agent_after_compaction(None, true, None, Moment::Compacted)]
    fn the_source_decides_then_the_recorded_compaction(
        #[case] source: Option<StartSource>,
        #[case] recorded_fill: bool,
        #[case] block: Option<Timestamp>,
        #[case] moment: Moment,
    ) {
        assert_eq!(Moment::of(source, recorded_fill, block), moment);
    }

    #[rstest]
    #[case::only_a_new_conversation_is_instructed(Moment::Fresh, true)]
    #[case::never_after_compaction(Moment::Compacted, false)]
    #[case::never_on_resume(Moment::Resumed { since: None }, false)]
    #[case::never_on_resume_with_a_block(Moment::Resumed { since: Some(at()) }, false)]
    fn the_start_up_instruction(#[case] moment: Moment, #[case] instructed: bool) {
        assert_eq!(moment.plan().instruction, instructed);
    }

    #[rstest]
    #[case::fresh_gets_the_newest(Moment::Fresh, HandoffRule::Newest { own_excluded: false })]
    #[case::compaction_gets_no_other_sessions(Moment::Compacted, HandoffRule::None)]
    #[case::resume_without_block_skips_its_own(Moment::Resumed { since: None }, HandoffRule::Newest { own_excluded: true })]
    #[case::resume_with_block_only_what_ended_since(Moment::Resumed { since: Some(at()) }, HandoffRule::OtherSince { at: at() })]
    fn the_handoff(#[case] moment: Moment, #[case] rule: HandoffRule) {
        assert_eq!(moment.plan().handoff, rule);
    }

    #[test]
    fn a_resume_with_its_block_gets_only_what_changed() {
        let plan = Moment::Resumed { since: Some(at()) }.plan();
        assert!(!plan.seed && plan.notice.is_none());
        assert_eq!(plan.proposals, ProposalRule::NewSince { at: at() });
    }

    #[test]
    fn a_compaction_gets_the_notice_and_the_seed_back() {
        let plan = Moment::Compacted.plan();
        assert_eq!(plan.notice, Some(StartKind::Compaction));
        assert!(plan.seed);
        assert_eq!(plan.proposals, ProposalRule::Index);
    }
}
