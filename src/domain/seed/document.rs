//! The seed: identity, learnings and state in one document (pai-seed v1).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Identity, Learning, LearningKind, Proposal, SeedState};

/// The version a new seed is written with.
pub const CURRENT_VERSION: &str = "1.0.0";

/// The whole seed document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Seed {
    /// Semantic version of the format; this carryover reads major 1.
    pub version: String,
    /// Who the assistant is and whom it serves.
    pub identity: Identity,
    /// What it has learned.
    #[serde(default)]
    pub learned: Learned,
    /// Session bookkeeping and proposals.
    #[serde(default)]
    pub state: SeedState,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The three learning lists (`$.learned`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Learned {
    /// How the principal works.
    #[serde(default)]
    pub patterns: Vec<Learning>,
    /// Facts about projects and environments.
    #[serde(default)]
    pub insights: Vec<Learning>,
    /// What the assistant knows about itself.
    #[serde(default)]
    pub self_knowledge: Vec<Learning>,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Learned {
    /// The list of one kind.
    pub fn of(&self, kind: LearningKind) -> &[Learning] {
        match kind {
            LearningKind::Pattern => &self.patterns,
            LearningKind::Insight => &self.insights,
            LearningKind::SelfKnowledge => &self.self_knowledge,
        }
    }

    /// The list of one kind, to change.
    pub fn of_mut(&mut self, kind: LearningKind) -> &mut Vec<Learning> {
        match kind {
            LearningKind::Pattern => &mut self.patterns,
            LearningKind::Insight => &mut self.insights,
            LearningKind::SelfKnowledge => &mut self.self_knowledge,
        }
    }

    /// Every learning with its kind, in the seed's order.
    pub fn iter(&self) -> impl Iterator<Item = (LearningKind, &Learning)> {
        LearningKind::ALL
            .into_iter()
            .flat_map(move |kind| self.of(kind).iter().map(move |learning| (kind, learning)))
    }

    /// How many learnings the seed holds, confirmed or not.
    pub fn len(&self) -> usize {
        self.patterns.len() + self.insights.len() + self.self_knowledge.len()
    }

    /// True when no learning is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Seed {
    /// A new seed with the given identity, no learnings and empty state.
    pub fn new(identity: Identity) -> Self {
        Self {
            version: CURRENT_VERSION.to_owned(),
            identity,
            learned: Learned::default(),
            state: SeedState::default(),
            extra: Map::new(),
        }
    }

    /// First run: the principal has not been named yet.
    pub fn needs_setup(&self) -> bool {
        self.identity.is_placeholder()
    }

    /// Confirmed learnings with their kinds.
    pub fn confirmed_learnings(&self) -> impl Iterator<Item = (LearningKind, &Learning)> {
        self.learned
            .iter()
            .filter(|(_, learning)| learning.confirmed)
    }

    /// Proposals awaiting review, in the seed's order.
    pub fn pending_proposals(&self) -> impl Iterator<Item = &Proposal> {
        self.state
            .proposals
            .iter()
            .filter(|proposal| proposal.is_pending())
    }
}

impl Default for Seed {
    fn default() -> Self {
        Self::new(Identity::default())
    }
}
