//! What each visible learning says about one prompt, and the features the calibration weighs.
//! A raw similarity means little on its own (a static model's run low, and some prompts are
//! close to everything), so each learning is also placed within the prompt's own
//! distribution: how far above the mean it stands, and how far below the best.

/// One learning's signals for one prompt.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Signals {
    /// Cosine similarity of the prompt and the learning.
    pub similarity: f32,
    /// Cosine similarity of the project's context (name, branch, commits) and the learning.
    pub context_similarity: f32,
    /// BM25 score of the learning for the prompt.
    pub lexical: f32,
    /// The prompt's distinct terms the learning contains.
    pub matched: usize,
    /// The learning belongs to this project (not merely global).
    pub own: bool,
}

/// How many features [`features`] gives each learning.
pub const FEATURES: usize = 8;

/// The features of each learning, in order: similarity, its z-score within the prompt's
/// candidates, saturated BM25, the share of the prompt's terms matched, project scope, the
/// context's similarity, the prompt's length (log of its terms) and the gap to the best
/// similarity.
pub fn features(signals: &[Signals], query_terms: usize) -> Vec<[f32; FEATURES]> {
    if signals.is_empty() {
        return Vec::new();
    }
    let n = signals.len() as f32;
    let mean = signals.iter().map(|s| s.similarity).sum::<f32>() / n;
    let variance = signals
        .iter()
        .map(|s| (s.similarity - mean).powi(2))
        .sum::<f32>()
        / n;
    let spread = if variance > 0.0 { variance.sqrt() } else { 1.0 };
    let best = signals
        .iter()
        .map(|s| s.similarity)
        .fold(f32::MIN, f32::max);
    let terms = query_terms.max(1) as f32;
    let length = (1.0 + query_terms as f32).ln();
    signals
        .iter()
        .map(|s| {
            [
                s.similarity,
                (s.similarity - mean) / spread,
                s.lexical / (1.0 + s.lexical),
                s.matched as f32 / terms,
                if s.own { 1.0 } else { 0.0 },
                s.context_similarity,
                length,
                best - s.similarity,
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(similarity: f32, lexical: f32, matched: usize) -> Signals {
        Signals {
            similarity,
            lexical,
            matched,
            ..Signals::default()
        }
    }

    #[test]
    fn each_learning_is_placed_within_the_prompts_distribution() {
        let f = features(&[signal(0.6, 3.0, 2), signal(0.2, 0.0, 0)], 4);
        assert_eq!(f.len(), 2);
        assert!(
            (f[0][1] - 1.0).abs() < 1e-6 && (f[1][1] + 1.0).abs() < 1e-6,
            "z-scores"
        );
        assert!((f[0][2] - 0.75).abs() < 1e-6, "BM25 saturates");
        assert!((f[0][3] - 0.5).abs() < 1e-6, "2 of 4 terms");
        assert!(
            f[0][7] == 0.0 && (f[1][7] - 0.4).abs() < 1e-6,
            "gap to the best"
        );
        assert!((f[0][6] - 5f32.ln()).abs() < 1e-6);
    }

    #[test]
    fn a_flat_distribution_has_no_outlier() {
        let f = features(&[signal(0.3, 0.0, 0); 3], 0);
        assert!(f.iter().all(|row| row[1] == 0.0 && row[3] == 0.0));
        assert!(features(&[], 3).is_empty());
    }
}
