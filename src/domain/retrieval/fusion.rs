//! Fusion of the semantic and lexical scores into one order.

/// A learning's place after fusion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankedLearning {
    /// Index into the candidates.
    pub index: usize,
    /// Cosine similarity to the query (the score shown to people).
    pub similarity: f32,
    /// The fused score the order follows, in [0, 1].
    pub fused: f32,
    /// The BM25 score: 0 when the learning shares no word with the query.
    pub lexical: f32,
}

impl RankedLearning {
    /// Whether the learning answers the query at all: it shares a word with it, or its
    /// similarity reaches `floor`. The fused score cannot say, being scaled over the
    /// candidates: the best of unrelated ones scores 1.
    pub fn matches(&self, floor: f32) -> bool {
        self.lexical > 0.0 || self.similarity >= floor
    }
}

/// How much the lexical score counts against the semantic one. Equal weight: on the dev set
/// every weight from 0.4 to 0.8 scores nDCG@5 ≥ 0.80, and 0.5 (the best, 0.824) assumes
/// nothing about either signal (docs/benchmarks.md).
pub const LEXICAL_WEIGHT: f32 = 0.5;

/// Orders candidates by `w · lexical / max(lexical) + (1 − w) · min-max(similarity)`, with
/// `w` = [`LEXICAL_WEIGHT`]. Each score is scaled to [0, 1] over the candidates first, so
/// neither signal's units decide: BM25 is unbounded, and a static model's cosines crowd into
/// a narrow band. Unlike rank fusion, this keeps how far apart candidates are: one learning
/// that shares three rare words with the project is not merely one rank above the next.
/// Ties keep the candidates' order.
pub fn fuse(similarity: &[f32], lexical: &[f32]) -> Vec<RankedLearning> {
    fuse_weighted(similarity, lexical, LEXICAL_WEIGHT)
}

/// [`fuse`] with the lexical score weighted `lexical_weight` (clamped to [0, 1]).
pub fn fuse_weighted(
    similarity: &[f32],
    lexical: &[f32],
    lexical_weight: f32,
) -> Vec<RankedLearning> {
    let weight = lexical_weight.clamp(0.0, 1.0);
    let lexical_score = |i: usize| lexical.get(i).copied().unwrap_or(0.0).max(0.0);
    let best_lexical = (0..similarity.len()).map(lexical_score).fold(0.0, f32::max);
    let (low, high) = similarity
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), s| {
            (low.min(*s), high.max(*s))
        });
    let spread = high - low;
    let mut ranked: Vec<RankedLearning> = similarity
        .iter()
        .enumerate()
        .map(|(index, &similarity)| {
            let raw_lexical = lexical_score(index);
            let lexical = if best_lexical > 0.0 {
                raw_lexical / best_lexical
            } else {
                0.0
            };
            let semantic = if spread > 0.0 {
                (similarity - low) / spread
            } else {
                0.0
            };
            RankedLearning {
                index,
                similarity,
                fused: weight * lexical + (1.0 - weight) * semantic,
                lexical: raw_lexical,
            }
        })
        .collect();
    ranked.sort_unstable_by(|a, b| b.fused.total_cmp(&a.fused).then(a.index.cmp(&b.index)));
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn order(similarity: &[f32], lexical: &[f32], weight: f32) -> Vec<usize> {
        fuse_weighted(similarity, lexical, weight)
            .iter()
            .map(|r| r.index)
            .collect()
    }

    #[rstest]
    #[case::semantic_only(0.0, vec![0, 1, 2])]
    #[case::lexical_only(1.0, vec![1, 2, 0])]
    #[case::equal_weight_agreement_wins(0.5, vec![1, 0, 2])]
    fn the_weight_moves_the_order_between_the_two_signals(
        #[case] weight: f32,
        #[case] expected: Vec<usize>,
    ) {
        assert_eq!(order(&[0.9, 0.8, 0.1], &[0.0, 5.0, 1.0], weight), expected);
    }

    #[test]
    fn a_large_lexical_lead_outweighs_a_small_semantic_one() {
        // Rank fusion would tie these; scores keep the distance.
        assert_eq!(
            order(&[0.50, 0.48, 0.1], &[0.1, 9.0, 0.0], 0.5),
            vec![1, 0, 2]
        );
        assert_eq!(
            order(&[0.50, 0.48, 0.1], &[8.9, 9.0, 0.0], 0.5),
            vec![0, 1, 2]
        );
    }

    #[test]
    fn without_lexical_matches_the_semantic_order_stands() {
        assert_eq!(
            order(&[0.2, 0.7, 0.5], &[0.0, 0.0, 0.0], 0.5),
            vec![1, 2, 0]
        );
    }

    #[test]
    fn equal_scores_keep_the_candidates_order_and_stay_finite() {
        let ranked = fuse(&[0.3, 0.3, 0.3], &[]);
        assert_eq!(
            ranked.iter().map(|r| r.index).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert!(ranked.iter().all(|r| r.fused == 0.0));
        assert!(fuse(&[], &[]).is_empty());
    }

    #[test]
    fn keeps_the_similarity_for_display() {
        let ranked = fuse(&[0.25, 0.75], &[0.0, 0.0]);
        assert_eq!((ranked[0].index, ranked[0].similarity), (1, 0.75));
        assert_eq!(ranked[0].fused, 0.5);
    }

    #[rstest]
    #[case::shares_a_word(0.05, 1.3, true)]
    #[case::close_in_meaning(0.30, 0.0, true)]
    #[case::neither(0.10, 0.0, false)]
    fn a_learning_matches_by_a_shared_word_or_its_similarity(
        #[case] similarity: f32,
        #[case] lexical: f32,
        #[case] matches: bool,
    ) {
        let ranked = fuse(&[similarity, 0.0], &[lexical, 0.0]);
        let learning = ranked.iter().find(|r| r.index == 0).unwrap();
        assert_eq!(learning.matches(0.22), matches);
    }
}
