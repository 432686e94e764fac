//! The context window of a model: the one table carryover keeps of them, taken from the
//! model table that Claude Code 2.1.328 ships (`tools/model-table/extract.py`; the test below
//! checks this table against what that script extracted).

/// When nothing else is known: Claude Code's own default.
pub const DEFAULT_WINDOW: u64 = 200_000;

const ONE_MILLION: u64 = 1_000_000;

/// One model of the client's table.
struct ModelWindow {
    /// The canonical id (`claude-opus-4-6`).
    id: &'static str,
    /// Provider ids and dated ids the client also knows it by.
    aliases: &'static [&'static str],
    /// The window without the `[1m]` option.
    window: u64,
    /// A `[1m]` suffix selects a one-million-token window.
    one_million_option: bool,
}

/// Claude Code 2.1.328's models. Windows are native; `[1m]` marks the long-context option.
const MODELS: &[ModelWindow] = &[
    model(
        "claude-3-5-haiku",
        &["claude-3-5-haiku-20241022"],
        200_000,
        false,
    ),
    model(
        "claude-haiku-4-5",
        &["claude-haiku-4-5-20251001"],
        200_000,
        true,
    ),
    model("claude-haiku-5-5", &[], ONE_MILLION, false),
    model(
        "claude-3-5-sonnet",
        &["claude-3-5-sonnet-20241022"],
        200_000,
        false,
    ),
    model(
        "claude-3-7-sonnet",
        &["claude-3-7-sonnet-20250219"],
        200_000,
        false,
    ),
    model(
        "claude-sonnet-4-0",
        &["claude-sonnet-4", "claude-sonnet-4-20250514"],
        200_000,
        true,
    ),
    model(
        "claude-sonnet-4-5",
        &["claude-sonnet-4-5-20250929"],
        200_000,
        true,
    ),
    model("claude-sonnet-4-6", &[], 200_000, true),
    model("claude-sonnet-5", &[], ONE_MILLION, false),
    model("claude-sonnet-5-5", &[], ONE_MILLION, false),
    model(
        "claude-opus-4-0",
        &["claude-opus-4", "claude-opus-4-20250514"],
        200_000,
        true,
    ),
    model(
        "claude-opus-4-1",
        &["claude-opus-4-1-20250805"],
        200_000,
        true,
    ),
    model(
        "claude-opus-4-5",
        &["claude-opus-4-5-20251101"],
        200_000,
        true,
    ),
    model("claude-opus-4-6", &[], 200_000, true),
    model("claude-opus-4-7", &[], ONE_MILLION, true),
    model("claude-opus-4-8", &[], ONE_MILLION, true),
    model("claude-opus-5", &[], ONE_MILLION, true),
    model("claude-opus-5-5", &[], ONE_MILLION, true),
    model("claude-fable-5", &[], ONE_MILLION, false),
    model("claude-fable-5-1", &[], ONE_MILLION, false),
    model("claude-fable-5-2", &[], ONE_MILLION, false),
    model("claude-mythos-5", &[], ONE_MILLION, false),
    model("claude-mythos-5-1", &[], ONE_MILLION, false),
    model("claude-mythos-5-2", &[], ONE_MILLION, false),
];

const fn model(
    id: &'static str,
    aliases: &'static [&'static str],
    window: u64,
    one_million_option: bool,
) -> ModelWindow {
    ModelWindow {
        id,
        aliases,
        window,
        one_million_option,
    }
}

/// Where a window came from, so a caller can say when it is a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowBasis {
    /// The client reported it for this session (Claude Code's status line).
    Client,
    /// `context.window_tokens` in the configuration.
    Configured,
    /// The model table.
    Model,
    /// A model the table does not know: the default.
    UnknownModel,
    /// No model id at all: the default.
    NoModel,
}

/// A context window and how it was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Tokens.
    pub tokens: u64,
    /// Its source.
    pub basis: WindowBasis,
}

/// The window: what the client reported for the session, else the configured one, else the
/// model's (its `[1m]` option included), else 200,000.
pub fn context_window(
    reported: Option<u64>,
    configured: Option<u64>,
    model: Option<&str>,
) -> Window {
    if let Some(tokens) = reported.filter(|w| *w > 0) {
        return Window {
            tokens,
            basis: WindowBasis::Client,
        };
    }
    if let Some(tokens) = configured.filter(|w| *w > 0) {
        return Window {
            tokens,
            basis: WindowBasis::Configured,
        };
    }
    let Some(model) = model.map(str::trim).filter(|m| !m.is_empty()) else {
        return Window {
            tokens: DEFAULT_WINDOW,
            basis: WindowBasis::NoModel,
        };
    };
    match model_window(model) {
        Some(tokens) => Window {
            tokens,
            basis: WindowBasis::Model,
        },
        None => Window {
            tokens: DEFAULT_WINDOW,
            basis: WindowBasis::UnknownModel,
        },
    }
}

/// The window of a model id as the client or a provider spells it (`claude-opus-4-6[1m]`,
/// `us.anthropic.claude-haiku-4-5-20251001-v1:0`, `claude-sonnet-4-5@20250929`), or `None`
/// for a model the table does not know.
pub fn model_window(raw: &str) -> Option<u64> {
    let lower = raw.trim().to_ascii_lowercase();
    let (name, one_million) = match lower.strip_suffix("[1m]") {
        Some(name) => (name.trim_end(), true),
        None => (lower.as_str(), false),
    };
    let known = find(name).or_else(|| find(&canonical(name)))?;
    Some(if one_million && known.one_million_option {
        ONE_MILLION
    } else {
        known.window
    })
}

fn find(name: &str) -> Option<&'static ModelWindow> {
    MODELS
        .iter()
        .find(|m| m.id == name || m.aliases.contains(&name))
}

/// Strips what providers add around a model id: a region and `anthropic.` prefix, a version
/// suffix (`-v1:0`), and a date (`@20250929`, `-20250929`).
fn canonical(name: &str) -> String {
    let mut name = name;
    for region in ["us.", "eu.", "apac.", "global.", "jp.", "au.", "ca."] {
        if let Some(rest) = name.strip_prefix(region) {
            name = rest;
            break;
        }
    }
    name = name.strip_prefix("anthropic.").unwrap_or(name);
    // Versions and dates come in either order (`-20241022-v2:0`, `-v2@20241022`).
    while let Some(shorter) = without_version(name).or_else(|| without_date(name)) {
        name = shorter;
    }
    name.to_owned()
}

/// `name` without a trailing `-v1`, `-v2:0`.
fn without_version(name: &str) -> Option<&str> {
    let (base, version) = name.rsplit_once("-v")?;
    let digits = !version.is_empty() && version.chars().all(|c| c.is_ascii_digit() || c == ':');
    (digits && !base.is_empty()).then_some(base)
}

/// `name` without a trailing `@20250929` or `-20250929`.
fn without_date(name: &str) -> Option<&str> {
    let (base, date) = name.rsplit_once(['@', '-'])?;
    let dated = date.len() == 8 && date.chars().all(|c| c.is_ascii_digit());
    (dated && !base.is_empty()).then_some(base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::reported_wins(
        Some(1_000_000),
        Some(50_000),
        Some("claude-haiku-4-5"),
        1_000_000,
        WindowBasis::Client
    )]
    #[case::configured_beats_the_table(
        None,
        Some(50_000),
        Some("claude-opus-5-5"),
        50_000,
        WindowBasis::Configured
    )]
    #[case::zero_is_not_a_window(Some(0), Some(0), None, 200_000, WindowBasis::NoModel)]
    #[case::native_one_million(None, None, Some("claude-sonnet-5"), 1_000_000, WindowBasis::Model)]
    #[case::two_hundred_thousand(None, None, Some("claude-opus-4-6"), 200_000, WindowBasis::Model)]
    #[case::one_million_option(
        None,
        None,
        Some("claude-opus-4-6[1m]"),
        1_000_000,
        WindowBasis::Model
    )]
    #[case::option_any_case(
        None,
        None,
        Some("Claude-Haiku-4-5[1M]"),
        1_000_000,
        WindowBasis::Model
    )]
    #[case::no_option_no_million(
        None,
        None,
        Some("claude-3-5-haiku[1m]"),
        200_000,
        WindowBasis::Model
    )]
    #[case::bedrock_id(
        None,
        None,
        Some("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
        200_000,
        WindowBasis::Model
    )]
    #[case::vertex_id(
        None,
        None,
        Some("claude-sonnet-4-5@20250929"),
        200_000,
        WindowBasis::Model
    )]
    #[case::another_region(
        None,
        None,
        Some("eu.anthropic.claude-opus-4-8"),
        1_000_000,
        WindowBasis::Model
    )]
    #[case::unknown_model(None, None, Some("gpt-9"), 200_000, WindowBasis::UnknownModel)]
    #[case::no_prefix_guessing(
        None,
        None,
        Some("claude-opus-4-9"),
        200_000,
        WindowBasis::UnknownModel
    )]
    #[case::nothing_known(None, None, None, 200_000, WindowBasis::NoModel)]
    fn picks_the_window(
        #[case] reported: Option<u64>,
        #[case] configured: Option<u64>,
        #[case] model: Option<&str>,
        #[case] tokens: u64,
        #[case] basis: WindowBasis,
    ) {
        assert_eq!(
            context_window(reported, configured, model),
            Window { tokens, basis }
        );
    }

    /// Every id and provider id of the table the real client ships resolves to the client's
    /// own window, and to one million with `[1m]` exactly where the client offers it.
    #[test]
    fn agrees_with_the_table_extracted_from_the_client() {
        let fixture: serde_json::Value = serde_json::from_str(include_str!(
            "../../../tests/fixtures/claude-code-2.1.328/model-table.json"
        ))
        .unwrap();
        let models = fixture["models"].as_array().unwrap();
        assert_eq!(models.len(), MODELS.len(), "a model was added or removed");
        for model in models {
            let window = model["window"].as_u64().unwrap();
            let option = model["supports_1m_suffix"].as_bool().unwrap()
                || model["maximum_window"].as_u64() == Some(ONE_MILLION);
            let ids = std::iter::once(&model["id"]).chain(model["aliases"].as_array().unwrap());
            for id in ids {
                let id = id.as_str().unwrap();
                assert_eq!(model_window(id), Some(window), "{id}");
                let long = if option { ONE_MILLION } else { window };
                assert_eq!(model_window(&format!("{id}[1m]")), Some(long), "{id}[1m]");
            }
        }
    }
}
