//! Stored vectors of learnings, so a session start embeds only its query.

use crate::domain::IndexError;
use crate::domain::retrieval::StoredVectors;

/// Vectors of learnings per embedding model. A vector is valid only for the model id it was
/// stored under and for content with the same hash; `save` replaces the model's whole set
/// atomically, so vectors of deleted or changed learnings never survive a save.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait EmbeddingIndex: Send + Sync {
    /// The stored vectors of `model_id`; empty when none are stored.
    async fn load(&self, model_id: &str) -> Result<StoredVectors, IndexError>;

    /// Replaces the stored vectors of `model_id`.
    async fn save(&self, model_id: &str, vectors: &StoredVectors) -> Result<(), IndexError>;
}
