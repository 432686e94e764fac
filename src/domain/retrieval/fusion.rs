//! Reciprocal-rank fusion of the semantic and lexical rankings.

/// RRF's damping constant: the usual 60 lets agreement between the two rankings dominate.
const RRF_K: f32 = 60.0;

/// A learning's place after fusion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankedLearning {
    /// Index into the candidates.
    pub index: usize,
    /// Cosine similarity to the query (the score shown to people).
    pub similarity: f32,
    /// The fused score the order follows.
    pub fused: f32,
}

/// Orders candidates by `Σ 1 / (k + rank)` over the semantic ranking (by `similarity`) and the
/// lexical one (by `lexical`); candidates without any lexical match all take the last lexical
/// rank, so a word match always counts but its absence does not remove a candidate. Ties
/// keep the candidates' order.
pub fn fuse(similarity: &[f32], lexical: &[f32]) -> Vec<RankedLearning> {
    fuse_weighted(similarity, lexical, LEXICAL_WEIGHT)
}

/// How much more the lexical ranking counts than the semantic one, tuned on the dev set.
pub const LEXICAL_WEIGHT: f32 = 3.0;

/// [`fuse`] with the lexical ranking's contributions multiplied by `lexical_weight`.
pub fn fuse_weighted(
    similarity: &[f32],
    lexical: &[f32],
    lexical_weight: f32,
) -> Vec<RankedLearning> {
    let n = similarity.len();
    let mut fused = vec![0.0f32; n];
    let contribution = |rank: usize| 1.0 / (RRF_K + rank as f32 + 1.0);

    let mut semantic: Vec<usize> = (0..n).collect();
    semantic.sort_by(|a, b| similarity[*b].total_cmp(&similarity[*a]).then(a.cmp(b)));
    for (rank, index) in semantic.into_iter().enumerate() {
        fused[index] += contribution(rank);
    }

    let lexical_score = |i: usize| lexical.get(i).copied().unwrap_or(0.0);
    let mut matched: Vec<usize> = (0..n).filter(|i| lexical_score(*i) > 0.0).collect();
    matched.sort_by(|a, b| {
        lexical_score(*b)
            .total_cmp(&lexical_score(*a))
            .then(a.cmp(b))
    });
    let unmatched = lexical_weight * contribution(n);
    for (rank, index) in matched.into_iter().enumerate() {
        fused[index] += lexical_weight * contribution(rank);
    }
    for (index, total) in fused.iter_mut().enumerate() {
        if lexical_score(index) <= 0.0 {
            *total += unmatched;
        }
    }

    let mut ranked: Vec<RankedLearning> = (0..n)
        .map(|index| RankedLearning {
            index,
            similarity: similarity[index],
            fused: fused[index],
        })
        .collect();
    ranked.sort_by(|a, b| b.fused.total_cmp(&a.fused).then(a.index.cmp(&b.index)));
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(similarity: &[f32], lexical: &[f32]) -> Vec<usize> {
        fuse_weighted(similarity, lexical, 1.0)
            .iter()
            .map(|r| r.index)
            .collect()
    }

    #[test]
    fn by_default_the_lexical_ranking_counts_more() {
        let default: Vec<usize> = fuse(&[0.9, 0.8, 0.1], &[0.0, 5.0, 1.0])
            .iter()
            .map(|r| r.index)
            .collect();
        assert_eq!(default, vec![1, 2, 0]);
    }

    #[test]
    fn agreement_between_rankings_wins() {
        assert_eq!(order(&[0.9, 0.8, 0.1], &[0.0, 5.0, 1.0]), vec![1, 0, 2]);
    }

    #[test]
    fn without_lexical_matches_the_semantic_order_stands() {
        assert_eq!(order(&[0.2, 0.7, 0.5], &[0.0, 0.0, 0.0]), vec![1, 2, 0]);
    }

    #[test]
    fn keeps_the_similarity_for_display() {
        let ranked = fuse(&[0.25, 0.75], &[0.0, 0.0]);
        assert_eq!((ranked[0].index, ranked[0].similarity), (1, 0.75));
    }
}
