//! The transcript reader hooks use: Codex CLI's rollout when the file is one (its first row
//! is a `session_meta`), Gemini CLI's session file when its first row is the header with a
//! `projectHash`, Copilot CLI's events when its first row is a `session.start`, else Claude
//! Code's JSONL (ADRs 0016, 0019, 0022). Sniffing the file, rather than
//! passing the agent down, keeps every hook and `proposals extract` working on any.

use std::path::Path;

use crate::domain::TranscriptError;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

use super::claude_transcript::ClaudeTranscriptReader;
use super::codex_transcript::{CodexTranscriptReader, is_codex_rollout};
use super::copilot_transcript::{CopilotTranscriptReader, is_copilot_events};
use super::gemini_transcript::{GeminiTranscriptReader, is_gemini_session};

/// Which agent wrote a transcript.
enum Format {
    Claude,
    Codex,
    Gemini,
    Copilot,
}

fn format(path: &Path) -> Format {
    if is_codex_rollout(path) {
        Format::Codex
    } else if is_gemini_session(path) {
        Format::Gemini
    } else if is_copilot_events(path) {
        Format::Copilot
    } else {
        Format::Claude
    }
}

/// Reads Claude Code's, Codex CLI's, Gemini CLI's and Copilot CLI's transcripts, whichever
/// the file is.
#[derive(Debug, Clone, Copy, Default)]
pub struct AgentTranscriptReader;

#[async_trait::async_trait]
impl TranscriptReader for AgentTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        match format(path) {
            Format::Codex => CodexTranscriptReader.last_usage(path).await,
            Format::Gemini => GeminiTranscriptReader.last_usage(path).await,
            Format::Copilot => CopilotTranscriptReader.last_usage(path).await,
            Format::Claude => ClaudeTranscriptReader.last_usage(path).await,
        }
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        match format(path) {
            Format::Codex => CodexTranscriptReader.last_compaction(path).await,
            Format::Gemini => GeminiTranscriptReader.last_compaction(path).await,
            Format::Copilot => CopilotTranscriptReader.last_compaction(path).await,
            Format::Claude => ClaudeTranscriptReader.last_compaction(path).await,
        }
    }

    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError> {
        match format(path) {
            Format::Codex => CodexTranscriptReader.last_injection(path).await,
            Format::Gemini => GeminiTranscriptReader.last_injection(path).await,
            Format::Copilot => CopilotTranscriptReader.last_injection(path).await,
            Format::Claude => ClaudeTranscriptReader.last_injection(path).await,
        }
    }

    async fn digest(
        &self,
        path: &Path,
        scope: DigestScope,
    ) -> Result<SessionDigest, TranscriptError> {
        match format(path) {
            Format::Codex => CodexTranscriptReader.digest(path, scope).await,
            Format::Gemini => GeminiTranscriptReader.digest(path, scope).await,
            Format::Copilot => CopilotTranscriptReader.digest(path, scope).await,
            Format::Claude => ClaudeTranscriptReader.digest(path, scope).await,
        }
    }
}
