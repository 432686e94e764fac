//! Ranking learnings by relevance to a project: a query built from what the project is doing,
//! semantic similarity, a lexical score, and their fusion.

mod bm25;
mod freshness;
mod fusion;
mod hash;
mod query;
mod stored_vectors;

pub use bm25::{Bm25, LexicalScores, lexical_terms};
pub use freshness::IndexFreshness;
pub use fusion::{LEXICAL_WEIGHT, RankedLearning, fuse, fuse_weighted};
pub use hash::content_hash;
pub use query::ProjectQuery;
pub use stored_vectors::{StoredVectors, StoredVectorsBuilder};
