//! Fill (tokens over window) and the tier it falls in.

use std::fmt;

/// How full the context is, in [0, 1] (clamped).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Fill(f64);

impl Fill {
    /// `tokens / window`, clamped to [0, 1]; a zero window counts as full.
    pub fn of(tokens: u64, window: u64) -> Self {
        if window == 0 {
            return Self(1.0);
        }
        Self((tokens as f64 / window as f64).clamp(0.0, 1.0))
    }

    /// A stored fill, clamped; NaN counts as empty.
    pub fn from_ratio(ratio: f64) -> Self {
        if ratio.is_nan() {
            return Self(0.0);
        }
        Self(ratio.clamp(0.0, 1.0))
    }

    /// The ratio.
    pub fn ratio(self) -> f64 {
        self.0
    }

    /// Two decimals, as the notice's attribute shows it (`0.89`).
    pub fn attribute(self) -> String {
        format!("{:.2}", self.0)
    }

    /// Whole percent (`89%`).
    pub fn percent(self) -> String {
        format!("{:.0}%", self.0 * 100.0)
    }
}

/// Context pressure, from comfortable to about to overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Below the first threshold.
    Nominal,
    /// From the first threshold.
    Low,
    /// From the second.
    Warning,
    /// From the third.
    Critical,
    /// From the fourth.
    Emergency,
}

impl Tier {
    /// Upper-case name, as notices and state files spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Nominal => "NOMINAL",
            Self::Low => "LOW",
            Self::Warning => "WARNING",
            Self::Critical => "CRITICAL",
            Self::Emergency => "EMERGENCY",
        }
    }

    /// Parses the upper-case name.
    pub fn parse(raw: &str) -> Option<Self> {
        [
            Self::Nominal,
            Self::Low,
            Self::Warning,
            Self::Critical,
            Self::Emergency,
        ]
        .into_iter()
        .find(|tier| tier.as_str().eq_ignore_ascii_case(raw))
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where LOW, WARNING, CRITICAL and EMERGENCY begin; each threshold belongs to the higher tier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds([f64; 4]);

impl Default for Thresholds {
    fn default() -> Self {
        Self([0.55, 0.70, 0.80, 0.88])
    }
}

impl Thresholds {
    /// Four strictly increasing values inside (0, 1], or an explanation.
    pub fn new(values: [f64; 4]) -> Result<Self, String> {
        let in_range = values.iter().all(|v| *v > 0.0 && *v <= 1.0);
        let increasing = values.windows(2).all(|pair| pair[0] < pair[1]);
        if in_range && increasing {
            Ok(Self(values))
        } else {
            Err(format!(
                "tier thresholds must be four increasing values in (0, 1], not {values:?}"
            ))
        }
    }

    /// The tier of a fill.
    pub fn tier(&self, fill: Fill) -> Tier {
        let [low, warning, critical, emergency] = self.0;
        match fill.ratio() {
            f if f >= emergency => Tier::Emergency,
            f if f >= critical => Tier::Critical,
            f if f >= warning => Tier::Warning,
            f if f >= low => Tier::Low,
            _ => Tier::Nominal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::empty(0.0, Tier::Nominal)]
    #[case::just_below_low(0.5499, Tier::Nominal)]
    #[case::low_boundary(0.55, Tier::Low)]
    #[case::just_below_warning(0.6999, Tier::Low)]
    #[case::warning_boundary(0.70, Tier::Warning)]
    #[case::critical_boundary(0.80, Tier::Critical)]
    #[case::just_below_emergency(0.8799, Tier::Critical)]
    #[case::emergency_boundary(0.88, Tier::Emergency)]
    #[case::full(1.0, Tier::Emergency)]
    fn default_thresholds(#[case] ratio: f64, #[case] tier: Tier) {
        assert_eq!(Thresholds::default().tier(Fill::from_ratio(ratio)), tier);
    }

    #[rstest]
    #[case::not_increasing([0.5, 0.5, 0.8, 0.9])]
    #[case::zero([0.0, 0.5, 0.8, 0.9])]
    #[case::above_one([0.5, 0.6, 0.8, 1.2])]
    fn refuses_bad_thresholds(#[case] values: [f64; 4]) {
        assert!(Thresholds::new(values).is_err());
    }

    #[rstest]
    #[case(171_203, 200_000, "0.86", "86%")]
    #[case(171_203, 1_000_000, "0.17", "17%")]
    #[case(300_000, 200_000, "1.00", "100%")]
    #[case(5, 0, "1.00", "100%")]
    fn fill_is_tokens_over_window(
        #[case] tokens: u64,
        #[case] window: u64,
        #[case] attr: &str,
        #[case] pct: &str,
    ) {
        let fill = Fill::of(tokens, window);
        assert_eq!(
            (fill.attribute().as_str(), fill.percent().as_str()),
            (attr, pct)
        );
    }

    #[test]
    fn tier_names_round_trip() {
        for tier in [
            Tier::Nominal,
            Tier::Low,
            Tier::Warning,
            Tier::Critical,
            Tier::Emergency,
        ] {
            assert_eq!(Tier::parse(tier.as_str()), Some(tier));
        }
    }
}
