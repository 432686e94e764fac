//! The built-in embedder: a static model distilled from all-MiniLM-L6-v2, compiled into the
//! binary (tools/distill/, assets/model/NOTICE).

mod model;
mod tokenizer;

pub use model::StaticModel;
pub use tokenizer::{basic_tokens, wordpiece};

use crate::domain::EmbedError;
use crate::domain::ports::Embedder;

/// The model's bytes, part of the binary.
static MODEL_BYTES: &[u8] = include_bytes!("../../../assets/model/minilm-static.bin");

/// Embeds texts as the mean of their WordPiece tokens' vectors, normalised to unit length.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinEmbedder {
    model: StaticModel<'static>,
    dims: usize,
}

impl BuiltinEmbedder {
    /// The compiled-in model, using its first `dims` dimensions (principal components, so a
    /// prefix is the best smaller model); `None` means all.
    pub fn new(dims: Option<usize>) -> Result<Self, EmbedError> {
        let model = StaticModel::new(MODEL_BYTES).map_err(EmbedError::Model)?;
        let dims = dims.unwrap_or(model.dims()).clamp(1, model.dims());
        Ok(Self { model, dims })
    }

    /// The compiled-in model at full size. Its bytes are part of the binary and checked by
    /// this module's tests, so a failure here is a build defect, not a runtime condition.
    pub fn compiled() -> Self {
        Self::new(None).unwrap_or_else(|error| panic!("the compiled-in model is damaged: {error}"))
    }

    /// The unit vector of one text.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0f32; self.model.dims()];
        let mut found = 0usize;
        for word in basic_tokens(text) {
            let Some(pieces) = wordpiece(&word, |piece| self.model.lookup(piece).is_some()) else {
                continue;
            };
            for piece in pieces {
                if let Some(row) = self.model.lookup(&piece) {
                    self.model.add_row(row, &mut sum);
                    found += 1;
                }
            }
        }
        sum.truncate(self.dims);
        let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
        if found > 0 && norm > 0.0 {
            sum.iter_mut().for_each(|v| *v /= norm);
        }
        sum
    }
}

#[async_trait::async_trait]
impl Embedder for BuiltinEmbedder {
    fn model_id(&self) -> String {
        format!("builtin:minilm-static-v1:{}d", self.dims)
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|text| self.embed_one(text)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn the_compiled_model_loads_and_knows_common_tokens() {
        let model = StaticModel::new(MODEL_BYTES).unwrap();
        assert_eq!(model.dims(), 256);
        assert!(model.len() > 29_000);
        for token in ["the", "rust", "##ing", "database"] {
            assert!(model.lookup(token).is_some(), "{token}");
        }
        assert!(model.lookup("[UNK]").is_none() && model.lookup("zzzzqqq").is_none());
    }

    #[test]
    fn related_texts_are_closer_than_unrelated_ones() {
        let embedder = BuiltinEmbedder::new(None).unwrap();
        let migrations = embedder.embed_one("Writes SQL migrations as forward-only files");
        let postgres = embedder.embed_one("postgres database schema changes");
        let react = embedder.embed_one("React components and CSS styling");
        assert!(cosine(&migrations, &postgres) > cosine(&migrations, &react));
        assert!((cosine(&migrations, &migrations) - 1.0).abs() < 1e-4);
    }

    #[test]
    fn a_text_without_known_tokens_is_the_zero_vector() {
        let embedder = BuiltinEmbedder::new(Some(128)).unwrap();
        let vector = embedder.embed_one("");
        assert_eq!(vector.len(), 128);
        assert!(vector.iter().all(|v| *v == 0.0));
        assert_eq!(embedder.model_id(), "builtin:minilm-static-v1:128d");
    }

    #[test]
    fn damaged_model_bytes_are_refused() {
        assert!(StaticModel::new(b"nonsense").is_err());
        let mut truncated = MODEL_BYTES[..MODEL_BYTES.len() - 1].to_vec();
        assert!(StaticModel::new(&truncated).is_err());
        truncated[0] = b'X';
        assert!(StaticModel::new(&truncated).is_err());
    }
}
