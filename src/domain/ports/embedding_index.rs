//! Stored vectors of learnings, so a session start embeds only its query.

use std::collections::HashMap;

use crate::domain::IndexError;

/// A learning's stored vector and the hash of the text it was computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedVector {
    /// Hash of the learning's content when it was embedded ([`content_hash`]).
    ///
    /// [`content_hash`]: crate::domain::retrieval::content_hash
    pub content_hash: u64,
    /// The unit vector.
    pub vector: Vec<f32>,
}

/// Vectors of learnings per embedding model. A vector is valid only for the model id it was
/// stored under and for content with the same hash; `save` replaces the model's whole set
/// atomically, so vectors of deleted or changed learnings never survive a save.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait EmbeddingIndex: Send + Sync {
    /// The stored vectors of `model_id`, by learning id; empty when none are stored.
    async fn load(&self, model_id: &str) -> Result<HashMap<String, IndexedVector>, IndexError>;

    /// Replaces the stored vectors of `model_id`.
    async fn save(
        &self,
        model_id: &str,
        vectors: &HashMap<String, IndexedVector>,
    ) -> Result<(), IndexError>;
}
