//! The transcript reader hooks use: Codex CLI's rollout when the file is one (its first row
//! is a `session_meta`), else Claude Code's JSONL (ADR 0016). Sniffing the file, rather than
//! passing the agent down, keeps every hook and `proposals extract` working on either.

use std::path::Path;

use crate::domain::TranscriptError;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

use super::claude_transcript::ClaudeTranscriptReader;
use super::codex_transcript::{CodexTranscriptReader, is_codex_rollout};

/// Reads Claude Code's and Codex CLI's transcripts, whichever the file is.
#[derive(Debug, Clone, Copy, Default)]
pub struct AgentTranscriptReader;

#[async_trait::async_trait]
impl TranscriptReader for AgentTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        match is_codex_rollout(path) {
            true => CodexTranscriptReader.last_usage(path).await,
            false => ClaudeTranscriptReader.last_usage(path).await,
        }
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        match is_codex_rollout(path) {
            true => CodexTranscriptReader.last_compaction(path).await,
            false => ClaudeTranscriptReader.last_compaction(path).await,
        }
    }

    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError> {
        match is_codex_rollout(path) {
            true => CodexTranscriptReader.last_injection(path).await,
            false => ClaudeTranscriptReader.last_injection(path).await,
        }
    }

    async fn digest(
        &self,
        path: &Path,
        scope: DigestScope,
    ) -> Result<SessionDigest, TranscriptError> {
        match is_codex_rollout(path) {
            true => CodexTranscriptReader.digest(path, scope).await,
            false => ClaudeTranscriptReader.digest(path, scope).await,
        }
    }
}
