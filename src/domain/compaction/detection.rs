//! Was the context just compacted, or is this a fresh start? A pure policy over what the agent
//! said and what the project's state holds (ADR 0003).

/// How the agent says the session started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartSource {
    /// A new session.
    Startup,
    /// A resumed session.
    Resume,
    /// After `/clear`.
    Clear,
    /// After a compaction.
    Compact,
}

impl StartSource {
    /// Parses the payload's `source`; anything else is unknown. Copilot CLI says `new` for
    /// a new session.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "startup" | "new" => Some(Self::Startup),
            "resume" => Some(Self::Resume),
            "clear" => Some(Self::Clear),
            "compact" => Some(Self::Compact),
            _ => None,
        }
    }

    /// The payload's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Startup => "startup",
            Self::Resume => "resume",
            Self::Clear => "clear",
            Self::Compact => "compact",
        }
    }
}

/// What the session start should say about how the session began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartKind {
    /// The context was compacted: say so, with the figures.
    Compaction,
    /// A new or cleared session: say it starts fresh.
    Reset,
    /// A resumed session: say nothing.
    Resumed,
}

impl StartKind {
    /// `compaction` or `reset` as `context --json` reports the notice; `None` for a resume.
    pub fn notice_name(self) -> Option<&'static str> {
        match self {
            Self::Compaction => Some("compaction"),
            Self::Reset => Some("reset"),
            Self::Resumed => None,
        }
    }
}

/// The agent's `source` wins when it is sent; only agents that do not send it fall back to
/// the project's state (a recorded pre-compaction fill means a compaction happened).
pub fn detect(source: Option<StartSource>, has_recorded_fill: bool) -> StartKind {
    match source {
        Some(StartSource::Compact) => StartKind::Compaction,
        Some(StartSource::Startup | StartSource::Clear) => StartKind::Reset,
        Some(StartSource::Resume) => StartKind::Resumed,
        None if has_recorded_fill => StartKind::Compaction,
        None => StartKind::Reset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::compact(Some(StartSource::Compact), false, StartKind::Compaction)]
    #[case::compact_with_state(Some(StartSource::Compact), true, StartKind::Compaction)]
    #[case::startup(Some(StartSource::Startup), false, StartKind::Reset)]
    #[case::startup_ignores_stale_state(Some(StartSource::Startup), true, StartKind::Reset)]
    #[case::clear(Some(StartSource::Clear), true, StartKind::Reset)]
    #[case::resume(Some(StartSource::Resume), false, StartKind::Resumed)]
    #[case::resume_ignores_state(Some(StartSource::Resume), true, StartKind::Resumed)]
    #[case::no_source_with_fill(None, true, StartKind::Compaction)]
    #[case::no_source_without_fill(None, false, StartKind::Reset)]
    fn the_source_wins_and_state_decides_otherwise(
        #[case] source: Option<StartSource>,
        #[case] has_fill: bool,
        #[case] kind: StartKind,
    ) {
        assert_eq!(detect(source, has_fill), kind);
    }

    #[rstest]
    #[case("startup", Some(StartSource::Startup))]
    #[case::copilot("new", Some(StartSource::Startup))]
    #[case("compact", Some(StartSource::Compact))]
    #[case("Compact", None)]
    #[case("", None)]
    fn parses_the_payload_spelling(#[case] raw: &str, #[case] source: Option<StartSource>) {
        assert_eq!(StartSource::parse(raw), source);
    }
}
