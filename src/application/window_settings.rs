//! How the context window is chosen: the client's own figure, the configuration, the model,
//! then the default.

use crate::domain::compaction::{Thresholds, Window, WindowBasis, context_window};

/// What decides the window and the tiers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WindowSettings {
    /// `context.window_tokens` from the configuration.
    pub configured: Option<u64>,
    /// `ANTHROPIC_MODEL`, the last resort for the model id.
    pub env_model: Option<String>,
    /// Where the tiers begin.
    pub thresholds: Thresholds,
}

impl WindowSettings {
    /// The window, with `reported` (the client's figure for the session, recorded by the status
    /// line) first, and the model taken from the payload, else the transcript, else the
    /// environment. Returns the model used too.
    pub fn window<'a>(
        &'a self,
        reported: Option<u64>,
        payload_model: Option<&'a str>,
        transcript_model: Option<&'a str>,
    ) -> (Window, Option<&'a str>) {
        let model = payload_model
            .or(transcript_model)
            .or(self.env_model.as_deref());
        (context_window(reported, self.configured, model), model)
    }
}

/// The diagnostic a guessed window deserves: the model is unknown to carryover's table.
pub fn unknown_window_diagnostic(window: Window, model: Option<&str>) -> Option<String> {
    match (window.basis, model) {
        (WindowBasis::UnknownModel, Some(model)) => Some(format!(
            "model {model:?} is not in carryover's window table; assumed a {} token window \
             (set context.window_tokens, or wire `carryover statusline` to record the client's)",
            window.tokens
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::payload_first(None, Some("claude-opus-5-5"), Some("other"), Some("x[1m]"), 1_000_000)]
    #[case::then_transcript(None, None, Some("claude-opus-5-5"), None, 1_000_000)]
    #[case::then_environment(None, None, None, Some("claude-sonnet-4-5[1m]"), 1_000_000)]
    #[case::else_default(None, None, None, None, 200_000)]
    #[case::the_clients_figure_first(Some(400_000), Some("claude-opus-5-5"), None, None, 400_000)]
    fn the_model_comes_from_payload_transcript_then_environment(
        #[case] reported: Option<u64>,
        #[case] payload: Option<&str>,
        #[case] transcript: Option<&str>,
        #[case] env: Option<&str>,
        #[case] window: u64,
    ) {
        let settings = WindowSettings {
            env_model: env.map(str::to_owned),
            ..WindowSettings::default()
        };
        assert_eq!(
            settings.window(reported, payload, transcript).0.tokens,
            window
        );
    }

    #[test]
    fn only_an_unknown_model_is_diagnosed() {
        let settings = WindowSettings::default();
        let (window, model) = settings.window(None, Some("gpt-9"), None);
        assert!(
            unknown_window_diagnostic(window, model)
                .unwrap()
                .contains("\"gpt-9\"")
        );
        let (window, model) = settings.window(None, Some("claude-sonnet-5"), None);
        assert_eq!(unknown_window_diagnostic(window, model), None);
        let (window, model) = settings.window(None, None, None);
        assert_eq!(unknown_window_diagnostic(window, model), None);
    }
}
