//! What hooks read from the agent's transcript.

use std::path::Path;

use crate::domain::TranscriptError;
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

/// How much of a transcript a digest reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigestScope {
    /// Only the last this-many bytes: for hooks whose cost must not grow with the transcript.
    Tail(u64),
    /// All of it, streamed.
    Whole,
}

/// Reads an agent's transcript. `last_usage`, `last_compaction` and `last_injection` MUST read
/// from the end, stop early and bound what they read, so their cost does not grow with the
/// transcript's size; rows the reader does not understand are skipped, never an error.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait TranscriptReader: Send + Sync {
    /// The context size at the last main-chain assistant reply (sidechains, API errors and
    /// synthetic replies skipped).
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError>;

    /// The last compaction the transcript records.
    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError>;

    /// Whether the session context carryover injected (the text ending with
    /// [`CONTEXT_MARKER`](crate::domain::context::CONTEXT_MARKER)) is still in the transcript
    /// after its last compaction, and when it was injected.
    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError>;
    /// Requests, changed files, todo items and the last reply.
    async fn digest(
        &self,
        path: &Path,
        scope: DigestScope,
    ) -> Result<SessionDigest, TranscriptError>;
}
