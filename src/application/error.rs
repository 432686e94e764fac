//! The application layer's error: what a use case can fail with.

use crate::domain::{
    AgentMemoryError, EmbedError, FlagError, IndexError, RuleError, SeedError, SettingsError,
    SyncError, TemplateError, TranscriptError,
};

/// Why a use case did not complete.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request broke a rule (nothing was written).
    #[error(transparent)]
    Rule(RuleError),
    /// The seed store failed.
    #[error(transparent)]
    Seed(SeedError),
    /// The flag store failed.
    #[error(transparent)]
    Flag(#[from] FlagError),
    /// Computing embeddings failed.
    #[error(transparent)]
    Embed(EmbedError),
    /// Reading or writing the embedding index failed.
    #[error(transparent)]
    Index(IndexError),
    /// Reading a template or the trust list failed.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A transcript named on the command line could not be read.
    #[error(transparent)]
    Transcript(TranscriptError),
    /// An agent's memory folder could not be read.
    #[error(transparent)]
    Memory(#[from] AgentMemoryError),
    /// An agent's settings file could not be read, understood or written.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Syncing the seed with its remote failed or was refused.
    #[error(transparent)]
    Sync(#[from] SyncError),
}

impl From<SeedError> for AppError {
    fn from(error: SeedError) -> Self {
        match error {
            SeedError::Rule(rule) => Self::Rule(rule),
            other => Self::Seed(other),
        }
    }
}
