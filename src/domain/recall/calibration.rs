//! The weights that turn a learning's features into the probability that it bears on the
//! prompt, and the probability below which it is not recalled. Fitted by logistic regression
//! on the tune half of the recall set (`cargo bench --bench recall -- --fit`), the held-out
//! half measured once (docs/benchmarks.md, ADR 0011).

use super::signals::FEATURES;

/// A logistic model over [`super::features`] and its threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// One weight per feature.
    pub weights: [f32; FEATURES],
    /// The intercept.
    pub bias: f32,
    /// Probability a learning needs to be recalled.
    pub threshold: f32,
}

impl Calibration {
    /// The calibration carryover ships, for its built-in model.
    pub const BUILT_IN: Self = Self {
        weights: [
            0.171_234_35,
            0.448_422_64,
            1.439_139_8,
            0.600_341_9,
            2.298_221_6,
            -0.710_014_34,
            -0.707_212_75,
            -0.415_392_22,
        ],
        bias: -0.160_624,
        threshold: 0.8875,
    };

    /// The probability that a learning with `features` bears on the prompt.
    pub fn probability(&self, features: &[f32; FEATURES]) -> f32 {
        let z: f32 = self.bias
            + self
                .weights
                .iter()
                .zip(features)
                .map(|(w, x)| w * x)
                .sum::<f32>();
        1.0 / (1.0 + (-z.clamp(-30.0, 30.0)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probability_rises_with_a_positive_weight() {
        let mut calibration = Calibration::BUILT_IN;
        calibration.weights[0] = 4.0;
        calibration.bias = -2.0;
        let low = calibration.probability(&[0.0; FEATURES]);
        let mut high_features = [0.0; FEATURES];
        high_features[0] = 1.0;
        let high = calibration.probability(&high_features);
        assert!((low - 0.1192).abs() < 1e-3 && (high - 0.8808).abs() < 1e-3);
    }
}
