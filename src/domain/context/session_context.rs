//! The composed context and the facts about it that `context --json` reports.

use crate::domain::compaction::StartKind;
use crate::domain::seed::LearningKind;

use super::{Mode, Moment};

/// What a session start injects, with the metadata scripts and tests look at.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionContext {
    /// The text for the model, within the budget.
    pub text: String,
    /// First run: the user should run `carryover init`.
    pub needs_setup: bool,
    /// Full or complement.
    pub mode: Mode,
    /// What kind of start it was.
    pub moment: Moment,
    /// Learnings the text shows.
    pub learnings: Vec<ShownLearning>,
    /// Confirmed learnings in the seed.
    pub learnings_total: usize,
    /// Proposals awaiting review.
    pub proposal_count: usize,
    /// Whether the text opens with the start-up instruction.
    pub startup_instruction: bool,
    /// The handoff the text shows, when it shows one.
    pub handoff: Option<std::path::PathBuf>,
    /// The notice about how the session began, when one was given.
    pub notice: Option<StartKind>,
}

/// A learning as the context shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownLearning {
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: LearningKind,
    /// Its text.
    pub content: String,
    /// The score that ranked it (fused lexical and semantic, in [0, 1]), when it was ranked.
    pub score: Option<f32>,
}

impl SessionContext {
    /// Estimated tokens of the text.
    pub fn token_estimate(&self) -> usize {
        super::estimate_tokens(&self.text)
    }
}
