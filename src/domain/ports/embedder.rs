//! Text to vectors.

use crate::domain::EmbedError;

/// Turns texts into unit vectors whose dot product is their cosine similarity. Vectors of one
/// embedder are only comparable with vectors of the same `model_id`.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait Embedder: Send + Sync {
    /// Names the model and its parameters; stored vectors are keyed by it.
    fn model_id(&self) -> String;

    /// One unit vector per text (all zeros for a text the model has no token of).
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
}
