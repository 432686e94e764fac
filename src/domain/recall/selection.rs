//! The learnings a prompt gets: the most probable, at most three, each above the threshold;
//! none when none clears it.

use super::calibration::Calibration;
use super::signals::{Signals, features};

/// Learnings recalled for one prompt at most.
pub const MAX_RECALLED: usize = 3;

/// A learning chosen for a prompt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recalled {
    /// Its position among the candidates.
    pub index: usize,
    /// The calibrated probability that it bears on the prompt.
    pub probability: f32,
}

/// The candidates to recall, most probable first, leaving out those `given` says the session
/// already holds. Every candidate still counts in the prompt's distribution: what the session
/// was given is part of what the prompt is compared against.
pub fn select(
    signals: &[Signals],
    query_terms: usize,
    calibration: &Calibration,
    given: impl Fn(usize) -> bool,
) -> Vec<Recalled> {
    let mut scored: Vec<Recalled> = features(signals, query_terms)
        .iter()
        .enumerate()
        .map(|(index, row)| Recalled {
            index,
            probability: calibration.probability(row),
        })
        .filter(|r| r.probability >= calibration.threshold && !given(r.index))
        .collect();
    scored.sort_by(|a, b| {
        b.probability
            .total_cmp(&a.probability)
            .then(a.index.cmp(&b.index))
    });
    scored.truncate(MAX_RECALLED);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recall::FEATURES;

    /// Probability follows raw similarity alone.
    fn by_similarity(threshold: f32) -> Calibration {
        let mut weights = [0.0; FEATURES];
        weights[0] = 10.0;
        Calibration {
            weights,
            bias: -5.0,
            threshold,
        }
    }

    fn with_similarity(values: &[f32]) -> Vec<Signals> {
        values
            .iter()
            .map(|&similarity| Signals {
                similarity,
                ..Signals::default()
            })
            .collect()
    }

    #[test]
    fn at_most_three_most_probable_first() {
        let chosen = select(
            &with_similarity(&[0.55, 0.9, 0.7, 0.8, 0.6]),
            5,
            &by_similarity(0.5),
            |_| false,
        );
        let order: Vec<usize> = chosen.iter().map(|r| r.index).collect();
        assert_eq!(order, [1, 3, 2]);
    }

    #[test]
    fn what_the_session_holds_is_skipped_but_still_counted() {
        let signals = with_similarity(&[0.55, 0.9, 0.7, 0.8, 0.6]);
        let chosen = select(&signals, 5, &by_similarity(0.5), |index| index == 1);
        let order: Vec<usize> = chosen.iter().map(|r| r.index).collect();
        assert_eq!(order, [3, 2, 4]);
    }

    #[test]
    fn nothing_clears_the_threshold_nothing_is_recalled() {
        assert!(
            select(
                &with_similarity(&[0.3, 0.4]),
                5,
                &by_similarity(0.5),
                |_| false
            )
            .is_empty()
        );
        assert!(select(&[], 5, &by_similarity(0.5), |_| false).is_empty());
    }
}
