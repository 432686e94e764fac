//! The embedder the configuration chose.

use crate::domain::EmbedError;
use crate::domain::ports::Embedder;

use super::{BuiltinEmbedder, HttpEmbedder};

/// `[embedder] kind = "builtin" | "http"`.
#[derive(Debug, Clone)]
pub enum ConfiguredEmbedder {
    /// The compiled-in static model.
    Builtin(BuiltinEmbedder),
    /// An OpenAI-compatible server.
    Http(HttpEmbedder),
}

#[async_trait::async_trait]
impl Embedder for ConfiguredEmbedder {
    fn model_id(&self) -> String {
        match self {
            Self::Builtin(embedder) => embedder.model_id(),
            Self::Http(embedder) => embedder.model_id(),
        }
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        match self {
            Self::Builtin(embedder) => embedder.embed(texts).await,
            Self::Http(embedder) => embedder.embed(texts).await,
        }
    }
}
