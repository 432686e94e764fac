//! The one-line gauge `carryover statusline` prints under Claude Code's prompt.

use crate::domain::compaction::{Fill, Tier};

/// How full the context is, as the client reported it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaugeReading {
    /// Tokens in context; `None` before the first reply.
    pub tokens: Option<u64>,
    /// The window.
    pub window: u64,
    /// The fill and its tier, when tokens are known.
    pub fill: Option<(Fill, Tier)>,
}

/// `ctx 72% (720k/1M) WARNING · 3 proposals to review`; before the first reply
/// `ctx –/1M`. The proposals part is left out when none wait.
pub fn context_gauge(reading: GaugeReading, pending_proposals: usize) -> String {
    let mut line = match (reading.tokens, reading.fill) {
        (Some(tokens), Some((fill, tier))) => format!(
            "ctx {} ({}/{}) {tier}",
            fill.percent(),
            tokens_short(tokens),
            tokens_short(reading.window)
        ),
        _ => format!("ctx –/{}", tokens_short(reading.window)),
    };
    match pending_proposals {
        0 => {}
        1 => line.push_str(" · 1 proposal to review"),
        n => line.push_str(&format!(" · {n} proposals to review")),
    }
    line
}

/// `720000` → `720k`, `1000000` → `1M`, `1500000` → `1.5M`, `950` → `950`.
fn tokens_short(tokens: u64) -> String {
    match tokens {
        t if t >= 1_000_000 => trimmed(t as f64 / 1_000_000.0, "M"),
        t if t >= 1_000 => format!("{}k", t / 1_000),
        t => t.to_string(),
    }
}

fn trimmed(value: f64, unit: &str) -> String {
    let text = format!("{value:.1}");
    format!("{}{unit}", text.strip_suffix(".0").unwrap_or(&text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn reading(tokens: Option<u64>, window: u64, tier: Tier) -> GaugeReading {
        GaugeReading {
            tokens,
            window,
            fill: tokens.map(|t| (Fill::of(t, window), tier)),
        }
    }

    #[rstest]
    #[case::warning(
        reading(Some(720_000), 1_000_000, Tier::Warning),
        3,
        "ctx 72% (720k/1M) WARNING · 3 proposals to review"
    )]
    #[case::one_proposal(
        reading(Some(171_243), 1_000_000, Tier::Nominal),
        1,
        "ctx 17% (171k/1M) NOMINAL · 1 proposal to review"
    )]
    #[case::none_pending(
        reading(Some(171_243), 200_000, Tier::Critical),
        0,
        "ctx 86% (171k/200k) CRITICAL"
    )]
    #[case::before_the_first_reply(
        reading(None, 1_000_000, Tier::Nominal),
        2,
        "ctx –/1M · 2 proposals to review"
    )]
    #[case::odd_window(
        reading(Some(900), 1_500_000, Tier::Nominal),
        0,
        "ctx 0% (900/1.5M) NOMINAL"
    )]
    fn prints_one_short_line(
        #[case] reading: GaugeReading,
        #[case] pending: usize,
        #[case] expected: &str,
    ) {
        assert_eq!(context_gauge(reading, pending), expected);
    }
}
