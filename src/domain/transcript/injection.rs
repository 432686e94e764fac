//! Whether carryover's block is still in a session's transcript.

use crate::domain::seed::Timestamp;

/// What a transcript's tail says about the last block carryover injected into the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriorInjection {
    /// The block injected at this time is in the transcript, after its last compaction: a
    /// resumed client replays it to the model.
    Found(Timestamp),
    /// There is none after the last compaction, or none at all.
    Absent,
    /// The bounded search stopped before finding a block, a compaction or the start.
    Unknown,
}
