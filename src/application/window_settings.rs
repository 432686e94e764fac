//! How the context window is chosen: configuration, then the model, then the default.

use crate::domain::compaction::{Thresholds, context_window};

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
    /// The window, with the model taken from the payload, else the transcript, else the
    /// environment. Returns the model used too.
    pub fn window<'a>(
        &'a self,
        payload_model: Option<&'a str>,
        transcript_model: Option<&'a str>,
    ) -> (u64, Option<&'a str>) {
        let model = payload_model
            .or(transcript_model)
            .or(self.env_model.as_deref());
        (context_window(self.configured, model), model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::payload_first(Some("claude-opus-5-5"), Some("other"), Some("x[1m]"), 1_000_000)]
    #[case::then_transcript(None, Some("claude-opus-5-5"), None, 1_000_000)]
    #[case::then_environment(None, None, Some("claude-sonnet[1m]"), 1_000_000)]
    #[case::else_default(None, None, None, 200_000)]
    fn the_model_comes_from_payload_transcript_then_environment(
        #[case] payload: Option<&str>,
        #[case] transcript: Option<&str>,
        #[case] env: Option<&str>,
        #[case] window: u64,
    ) {
        let settings = WindowSettings {
            env_model: env.map(str::to_owned),
            ..WindowSettings::default()
        };
        assert_eq!(settings.window(payload, transcript).0, window);
    }
}
