//! How full the context was, as the transcript recorded it.

/// The context size at the last main-chain assistant reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextUsage {
    /// `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`.
    pub tokens: u64,
    /// The model that replied, when recorded.
    pub model: Option<String>,
}

/// The transcript's record of a compaction (`compact_boundary`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactBoundary {
    /// Tokens in context before the compaction (`compactMetadata.preTokens`).
    pub pre_tokens: u64,
    /// `manual` or `auto`, when recorded.
    pub trigger: Option<String>,
}
