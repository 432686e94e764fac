//! The context window of a model: the one table carryover keeps of them.

/// When nothing else is known.
pub const DEFAULT_WINDOW: u64 = 200_000;

const ONE_MILLION: u64 = 1_000_000;

/// Models whose window differs from the default, by id prefix. Claude Code 2.1.328 reports a
/// 1,000,000-token window for `claude-opus-5-5`.
const KNOWN: &[(&str, u64)] = &[("claude-opus-5-5", ONE_MILLION)];

/// The window: the configured one, else from the model id (a `[1m]` suffix means one million
/// tokens; then the table), else 200,000.
pub fn context_window(configured: Option<u64>, model: Option<&str>) -> u64 {
    if let Some(window) = configured.filter(|w| *w > 0) {
        return window;
    }
    let Some(model) = model.map(str::trim).filter(|m| !m.is_empty()) else {
        return DEFAULT_WINDOW;
    };
    if model.to_ascii_lowercase().ends_with("[1m]") {
        return ONE_MILLION;
    }
    KNOWN
        .iter()
        .find(|(prefix, _)| model.starts_with(prefix))
        .map_or(DEFAULT_WINDOW, |(_, window)| *window)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::configured_wins(Some(50_000), Some("claude-opus-5-5"), 50_000)]
    #[case::zero_configured_is_ignored(Some(0), None, 200_000)]
    #[case::one_million_suffix(None, Some("claude-sonnet-4-5[1m]"), 1_000_000)]
    #[case::suffix_any_case(None, Some("claude-x[1M]"), 1_000_000)]
    #[case::real_client_opus(None, Some("claude-opus-5-5"), 1_000_000)]
    #[case::unknown_model(None, Some("gpt-9"), 200_000)]
    #[case::nothing_known(None, None, 200_000)]
    fn picks_the_window(
        #[case] configured: Option<u64>,
        #[case] model: Option<&str>,
        #[case] window: u64,
    ) {
        assert_eq!(context_window(configured, model), window);
    }
}
