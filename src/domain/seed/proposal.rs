//! A learning someone proposed, waiting for the principal's decision.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{LearningKind, Timestamp};

/// Where a proposal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposalStatus {
    /// Awaiting review.
    Pending,
    /// Turned into a confirmed learning.
    Accepted,
    /// Declined; never proposed again.
    Rejected,
}

impl fmt::Display for ProposalStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pending => "pending",
            Self::Accepted => "accepted",
            Self::Rejected => "rejected",
        })
    }
}

/// One proposal (`$.state.proposals[i]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    /// Stable id such as `prp_Q4mZ8xWc2Lna`.
    pub id: String,
    /// Which list the learning joins when accepted.
    #[serde(rename = "type")]
    pub kind: LearningKind,
    /// The proposed learning.
    pub content: String,
    /// Usually the id of the session it came from.
    #[serde(default)]
    pub source: String,
    /// When it was proposed.
    pub extracted_at: Timestamp,
    /// Review state.
    pub status: ProposalStatus,
    /// How it was found (`rules`, `regex`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// How sure the extractor was, in [0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// When the principal accepted or rejected it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_at: Option<Timestamp>,
    /// The project the learning would belong to; none for a global one (ADR 0010).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Proposal {
    /// True while it awaits review.
    pub fn is_pending(&self) -> bool {
        self.status == ProposalStatus::Pending
    }
}
