//! Test doubles shared by the services' unit tests.

use std::sync::Arc;

use crate::domain::ports::{
    Clock, LoadedSeed, MockClock, MockEmbedder, MockEmbeddingIndex, MockProjectContext,
    MockSeedRepository,
};
use crate::domain::project::{Project, ProjectFacts};
use crate::domain::seed::{Learning, Seed, Timestamp, decode_seed};

/// The instant the services' tests run at.
pub const NOW: &str = "2026-11-22T18:40:00Z";

/// The example seed of `tests/fixtures/seed/seed.json`: an identity and twelve learnings.
pub fn example_seed() -> Seed {
    decode_seed(include_str!("../../tests/fixtures/seed/seed.json")).unwrap()
}

/// A seed store that loads [`example_seed`] and expects nothing else.
pub fn seeds_holding_example() -> MockSeedRepository {
    let mut seeds = MockSeedRepository::new();
    seeds.expect_load().returning(|| {
        Ok(Some(LoadedSeed {
            seed: example_seed(),
            repaired: None,
        }))
    });
    seeds
}

/// A confirmed global learning extracted at the start of 2026.
pub fn learning(id: &str, content: &str) -> Learning {
    Learning::new(
        id.into(),
        content.into(),
        String::new(),
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        true,
    )
}

/// A clock stopped at [`NOW`].
pub fn fixed_clock() -> Arc<dyn Clock> {
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .returning(|| Timestamp::parse(NOW).unwrap());
    Arc::new(clock)
}

/// A project locator that puts every directory in the project at `root`, with no git facts.
pub fn project_at(root: &'static str) -> MockProjectContext {
    let mut projects = MockProjectContext::new();
    projects
        .expect_project()
        .returning(move |_| Project::at(root));
    projects
        .expect_facts()
        .returning(|_| ProjectFacts::default());
    projects
}

/// An embedder that finds every text equally similar, so the lexical ranking decides.
pub fn flat_embedder() -> MockEmbedder {
    let mut embedder = MockEmbedder::new();
    embedder.expect_model_id().returning(|| "flat".into());
    embedder
        .expect_embed()
        .returning(|texts| Ok(texts.iter().map(|_| vec![1.0]).collect()));
    embedder
}

/// An index with nothing stored, whatever the model.
pub fn empty_index() -> MockEmbeddingIndex {
    let mut index = MockEmbeddingIndex::new();
    index.expect_load().returning(|_| Ok(Default::default()));
    index.expect_save().never();
    index
}

/// An embedder that gives each distinct normalised text its own direction, so texts are
/// similar exactly when they say the same words, whatever the case and punctuation.
pub fn word_embedder() -> MockEmbedder {
    let mut embedder = MockEmbedder::new();
    embedder.expect_model_id().returning(|| "words".into());
    embedder.expect_embed().returning(|texts| {
        Ok(texts
            .iter()
            .map(|text| {
                let key = crate::domain::extraction::normalised(text);
                let slot = crate::domain::retrieval::content_hash(&key) % 251;
                (0..251).map(|i| f32::from(u8::from(i == slot))).collect()
            })
            .collect())
    });
    embedder
}

/// Ids `<prefix>1`, `<prefix>2`, … in order.
pub fn counting_ids() -> Arc<dyn crate::domain::ports::IdGenerator> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut ids = crate::domain::ports::MockIdGenerator::new();
    ids.expect_next_id().returning(move |prefix| {
        let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        format!("{prefix}{n}")
    });
    Arc::new(ids)
}
