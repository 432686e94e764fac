//! Whether the stored vectors match the seed's confirmed learnings.

use std::collections::HashSet;

use super::{StoredVectors, content_hash};

/// How the index compares with the learnings it should hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexFreshness {
    /// Confirmed learnings.
    pub learnings: usize,
    /// Learnings with a vector of their current content.
    pub current: usize,
    /// Learnings whose vector was computed from content since changed.
    pub stale: usize,
    /// Learnings without a vector.
    pub missing: usize,
    /// Vectors of learnings no longer confirmed or no longer there.
    pub orphaned: usize,
}

impl IndexFreshness {
    /// Compares `learnings` (id, content) with the stored vectors.
    pub fn of<'a>(
        learnings: impl IntoIterator<Item = (&'a str, &'a str)>,
        stored: &StoredVectors,
    ) -> Self {
        let mut fresh = Self::default();
        let mut ids = HashSet::new();
        for (id, content) in learnings {
            ids.insert(id);
            fresh.learnings += 1;
            if stored.find_current(id, content_hash(content)).is_some() {
                fresh.current += 1;
            } else if stored.find(id).is_some() {
                fresh.stale += 1;
            } else {
                fresh.missing += 1;
            }
        }
        fresh.orphaned = stored.ids().filter(|id| !ids.contains(id)).count();
        fresh
    }

    /// Every learning has its current vector and no vector is left over.
    pub fn is_fresh(&self) -> bool {
        self.current == self.learnings && self.orphaned == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn stored(entries: &[(&str, &str)]) -> StoredVectors {
        let mut builder = StoredVectors::builder();
        for (id, content) in entries {
            builder.insert(id, content_hash(content), &[1.0, 0.0]);
        }
        builder.finish()
    }

    #[rstest]
    #[case::fresh(&[("a", "x")], &[("a", "x")], (1, 0, 0, 0), true)]
    #[case::changed(&[("a", "x2")], &[("a", "x")], (0, 1, 0, 0), false)]
    #[case::never_indexed(&[("a", "x")], &[], (0, 0, 1, 0), false)]
    #[case::forgotten(&[], &[("a", "x")], (0, 0, 0, 1), false)]
    #[case::nothing(&[], &[], (0, 0, 0, 0), true)]
    fn compares_learnings_with_vectors(
        #[case] learnings: &[(&str, &str)],
        #[case] vectors: &[(&str, &str)],
        #[case] expected: (usize, usize, usize, usize),
        #[case] fresh: bool,
    ) {
        let found = IndexFreshness::of(learnings.iter().copied(), &stored(vectors));
        assert_eq!(
            (found.current, found.stale, found.missing, found.orphaned),
            expected
        );
        assert_eq!(found.is_fresh(), fresh);
    }
}
