//! `carryover index`: embed the confirmed learnings once, so session starts only embed their
//! query.

use std::collections::HashSet;

use crate::domain::RuleError;
use crate::domain::ports::{Embedder, EmbeddingIndex, SeedRepository};
use crate::domain::retrieval::{StoredVectors, content_hash};

use super::AppError;

/// Learnings embedded per call, between progress reports.
const BATCH: usize = 64;

/// What an indexing run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexReport {
    /// Confirmed learnings now in the index.
    pub total: usize,
    /// Embedded in this run (new or changed).
    pub embedded: usize,
    /// Kept from the previous index.
    pub reused: usize,
    /// Dropped (learnings deleted or no longer confirmed).
    pub dropped: usize,
}

/// Keeps the embedding index in step with the seed, incrementally: a learning is embedded
/// again only when its content hash or the model changed.
pub struct IndexLearnings<S, E, I> {
    seeds: S,
    embedder: E,
    index: I,
}

impl<S: SeedRepository, E: Embedder, I: EmbeddingIndex> IndexLearnings<S, E, I> {
    /// A service over the given ports.
    pub fn new(seeds: S, embedder: E, index: I) -> Self {
        Self {
            seeds,
            embedder,
            index,
        }
    }

    /// Brings the index up to date, calling `progress(done, to_embed)` after each batch.
    pub async fn run(
        &self,
        progress: &mut (dyn FnMut(usize, usize) + Send),
    ) -> Result<IndexReport, AppError> {
        let seed = self
            .seeds
            .load()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))?
            .seed;
        let model = self.embedder.model_id();
        let previous = self.index.load(&model).await.unwrap_or_default();
        let mut next = StoredVectors::builder();
        let mut current = HashSet::new();
        let mut reused = 0;
        let mut missing: Vec<(&str, u64, String)> = Vec::new();
        for (_, learning) in seed.confirmed_learnings() {
            current.insert(learning.id.as_str());
            let hash = content_hash(&learning.content);
            match previous.find_current(&learning.id, hash) {
                Some(slot) => {
                    next.keep(&previous, slot);
                    reused += 1;
                }
                None => missing.push((&learning.id, hash, learning.content.clone())),
            }
        }
        let dropped = previous.ids().filter(|id| !current.contains(id)).count();
        let to_embed = missing.len();
        for (done, batch) in missing.chunks(BATCH).enumerate() {
            let texts: Vec<String> = batch
                .iter()
                .map(|(_, _, content)| content.clone())
                .collect();
            let vectors = self.embedder.embed(&texts).await.map_err(AppError::Embed)?;
            for ((id, hash, _), vector) in batch.iter().zip(vectors) {
                next.insert(id, *hash, &vector);
            }
            progress(((done + 1) * BATCH).min(to_embed), to_embed);
        }
        let next = next.finish();
        if next != previous {
            self.index
                .save(&model, &next)
                .await
                .map_err(AppError::Index)?;
        }
        Ok(IndexReport {
            total: next.len(),
            embedded: to_embed,
            reused,
            dropped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ports::{MockEmbedder, MockEmbeddingIndex, MockSeedRepository};
    use crate::domain::retrieval::StoredVectorsBuilder;

    fn seeds() -> MockSeedRepository {
        crate::application::testing::seeds_holding_example()
    }

    fn embedder() -> MockEmbedder {
        let mut embedder = MockEmbedder::new();
        embedder.expect_model_id().returning(|| "m".into());
        embedder
            .expect_embed()
            .returning(|texts| Ok(texts.iter().map(|_| vec![1.0, 0.0]).collect()));
        embedder
    }

    /// The example seed's confirmed learnings, each stored with `vector`.
    fn stored(vector: &[f32], edit: impl FnOnce(&mut StoredVectorsBuilder)) -> StoredVectors {
        let seed = crate::application::testing::example_seed();
        let mut builder = StoredVectors::builder();
        for (_, l) in seed.confirmed_learnings() {
            builder.insert(&l.id, content_hash(&l.content), vector);
        }
        edit(&mut builder);
        builder.finish()
    }

    #[test]
    fn embeds_only_new_or_changed_learnings_and_drops_the_gone() {
        let mut index = MockEmbeddingIndex::new();
        index.expect_load().returning(|_| {
            Ok(stored(&[0.0, 1.0], |builder| {
                builder.insert("pat_7Qm2vXk9LdRa", 0, &[0.0, 1.0]).insert(
                    "pat_deleted",
                    1,
                    &[0.0, 1.0],
                );
            }))
        });
        index.expect_save().times(1).returning(|model, vectors| {
            assert_eq!(model, "m");
            assert_eq!(vectors.len(), 12);
            assert_eq!(vectors.find("pat_deleted"), None);
            let changed = vectors.find("pat_7Qm2vXk9LdRa").unwrap();
            assert_eq!(vectors.vector(changed), vec![1.0, 0.0]);
            Ok(())
        });
        let mut calls = Vec::new();
        let report = pollster::block_on(
            IndexLearnings::new(seeds(), embedder(), index)
                .run(&mut |done, total| calls.push((done, total))),
        )
        .unwrap();
        assert_eq!(
            report,
            IndexReport {
                total: 12,
                embedded: 1,
                reused: 11,
                dropped: 1
            }
        );
        assert_eq!(calls, vec![(1, 1)]);
    }

    #[test]
    fn an_up_to_date_index_is_not_rewritten() {
        let mut index = MockEmbeddingIndex::new();
        index
            .expect_load()
            .returning(|_| Ok(stored(&[1.0, 0.0], |_| {})));
        index.expect_save().never();
        let report =
            pollster::block_on(IndexLearnings::new(seeds(), embedder(), index).run(&mut |_, _| {}))
                .unwrap();
        assert_eq!((report.embedded, report.reused), (0, 12));
    }
}
