//! What the seed remembers between sessions (`$.state`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Proposal, Timestamp};

/// Session bookkeeping and the proposal queue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeedState {
    /// The most recent session's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_session_id: Option<String>,
    /// When the most recent session ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_session_at: Option<Timestamp>,
    /// Proposed learnings, pending and decided.
    #[serde(default)]
    pub proposals: Vec<Proposal>,
    /// Projects the principal is working on.
    #[serde(default)]
    pub active_projects: Vec<String>,
    /// Reference of the latest checkpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_ref: Option<String>,
    /// Counters of the proposal extractor; carried as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extraction_stats: Option<Value>,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
