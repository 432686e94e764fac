//! A confirmed (or not yet confirmed) learning and the three kinds a seed keeps apart.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Timestamp;

/// The three kinds of learning, each with its own list in `$.learned`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearningKind {
    /// How the principal works (`$.learned.patterns`).
    Pattern,
    /// Facts about projects and environments (`$.learned.insights`).
    Insight,
    /// What the assistant learned about itself (`$.learned.selfKnowledge`).
    SelfKnowledge,
}

impl LearningKind {
    /// Every kind, in the seed's order.
    pub const ALL: [LearningKind; 3] = [Self::Pattern, Self::Insight, Self::SelfKnowledge];

    /// The spelling used on the command line and in proposals (`self_knowledge`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pattern => "pattern",
            Self::Insight => "insight",
            Self::SelfKnowledge => "self_knowledge",
        }
    }

    /// Parses the command-line spelling; `self-knowledge` is accepted too.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pattern" | "patterns" => Some(Self::Pattern),
            "insight" | "insights" => Some(Self::Insight),
            "self_knowledge" | "self-knowledge" | "selfKnowledge" => Some(Self::SelfKnowledge),
            _ => None,
        }
    }

    /// The key of this kind's list under `$.learned`.
    pub fn list_key(self) -> &'static str {
        match self {
            Self::Pattern => "patterns",
            Self::Insight => "insights",
            Self::SelfKnowledge => "selfKnowledge",
        }
    }

    /// Plural heading for people (`Patterns`, `Insights`, `Self-knowledge`).
    pub fn heading(self) -> &'static str {
        match self {
            Self::Pattern => "Patterns",
            Self::Insight => "Insights",
            Self::SelfKnowledge => "Self-knowledge",
        }
    }

    /// Prefix of the ids of this kind's learnings.
    pub fn id_prefix(self) -> &'static str {
        match self {
            Self::Pattern => "pat_",
            Self::Insight => "ins_",
            Self::SelfKnowledge => "slf_",
        }
    }
}

impl fmt::Display for LearningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One learning (`$.learned.<kind>[i]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Learning {
    /// Stable id such as `pat_7Qm2vXk9LdRa`.
    pub id: String,
    /// The learning, one sentence.
    pub content: String,
    /// Where it came from (a session id or a note).
    #[serde(default)]
    pub source: String,
    /// When it was first written down.
    pub extracted_at: Timestamp,
    /// When the principal confirmed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed_at: Option<Timestamp>,
    /// Whether the principal confirmed it.
    #[serde(default)]
    pub confirmed: bool,
    /// Free-form labels.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Learning {
    /// When it became part of what the assistant knows: confirmation, else extraction.
    pub fn recency(&self) -> Timestamp {
        self.confirmed_at.unwrap_or(self.extracted_at)
    }
}
