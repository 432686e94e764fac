//! `config.toml` in the data home: every key optional, every key with a default.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::domain::compaction::Thresholds;
use crate::domain::config_problem::{ConfigProblem, ConfigProblemKind};
use crate::domain::context::{DEFAULT_BUDGET_CHARS, HARD_CAP_CHARS};
use crate::domain::flags::FlagValue;

use super::DataHome;
use super::SMALL_FILE_BYTES;

/// The configuration. A key it does not know, or a value it cannot use, is left out with a
/// [`ConfigProblem`] naming it (the rest still loads, so a file written for a newer carryover
/// does too).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Another seed to use, such as an existing `~/.pai/seed.json` (`~` is expanded).
    pub seed_path: Option<PathBuf>,
    /// The session context.
    pub context: ContextConfig,
    /// Handoffs between sessions.
    pub handoff: HandoffConfig,
    /// Learning retrieval at session start.
    pub retrieval: RetrievalConfig,
    /// Which embedder ranks learnings.
    pub embedder: EmbedderConfig,
    /// Learnings proposed from sessions.
    pub proposals: ProposalsConfig,
    /// Sync of the seed through a git remote (ADR 0020).
    pub sync: SyncConfig,
    /// Global feature flags.
    pub feature_flags: BTreeMap<String, FlagValue>,
    /// Per-project settings, by project slug.
    pub projects: BTreeMap<String, ProjectConfig>,
}

/// `[embedder]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbedderConfig {
    /// `builtin` (default) or `http`.
    pub kind: EmbedderKind,
    /// For `http`: the server, such as `http://127.0.0.1:11434` (Ollama).
    pub url: Option<String>,
    /// For `http`: the model name the server knows.
    pub model: Option<String>,
    /// For `http`: the environment variable holding the API key, if the server needs one.
    pub api_key_env: Option<String>,
    /// For `http`: how long a request may take, in milliseconds.
    pub timeout_ms: u64,
}

impl Default for EmbedderConfig {
    fn default() -> Self {
        Self {
            kind: EmbedderKind::Builtin,
            url: None,
            model: None,
            api_key_env: None,
            timeout_ms: 300,
        }
    }
}

/// `embedder.kind`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderKind {
    /// The compiled-in static model.
    #[default]
    Builtin,
    /// An OpenAI-compatible `/v1/embeddings` server.
    Http,
}

/// `[retrieval]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetrievalConfig {
    /// Learnings shown at most.
    pub top_n: usize,
    /// Cosine similarity a learning needs to count as relevant (default: tuned per embedder).
    pub floor: Option<f32>,
    /// Recall learnings at each prompt (`hook prompt`).
    pub recall: bool,
    /// Probability a learning needs to be recalled at a prompt (default: the calibrated one).
    pub recall_threshold: Option<f32>,
}

impl Default for RetrievalConfig {
    fn default() -> Self {
        Self {
            top_n: 5,
            floor: None,
            recall: true,
            recall_threshold: None,
        }
    }
}

/// `[proposals]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProposalsConfig {
    /// Propose learnings from what the user said, at session end.
    pub enabled: bool,
    /// Proposals one session may add at most.
    pub max_per_session: usize,
    /// Confidence a candidate needs, in [0, 1].
    pub floor: f64,
    /// Built-in model similarity at or above which a candidate repeats a known learning.
    pub duplicate_similarity: f32,
}

impl Default for ProposalsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_per_session: 5,
            floor: 0.65,
            duplicate_similarity: 0.8,
        }
    }
}

/// `[sync]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyncConfig {
    /// Sync in the background after a session ends, a `learn` and a review; never waited for.
    pub auto: bool,
    /// Sync the projects' handoffs too (with the default projects directory only).
    pub handoffs: bool,
}

/// `[projects."<slug>"]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProjectConfig {
    /// The project's feature flags, over the global ones.
    pub feature_flags: BTreeMap<String, FlagValue>,
}

/// `[handoff]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HandoffConfig {
    /// Write handoffs at session end and inject the newest at session start.
    pub enabled: bool,
    /// Where project directories live (default: `<data home>/projects`); `~` is expanded.
    pub projects_dir: Option<PathBuf>,
    /// `path` (the default) or `basename`, for existing `~/.amplifier/projects/<name>` trees.
    pub slug: SlugStyleConfig,
    /// Sessions with fewer user requests leave no handoff.
    pub min_turns: usize,
}

impl Default for HandoffConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            projects_dir: None,
            slug: SlugStyleConfig::Path,
            min_turns: 2,
        }
    }
}

/// `handoff.slug`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SlugStyleConfig {
    /// The project root's whole path.
    #[default]
    Path,
    /// The project directory's name.
    Basename,
}

/// `[context]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextConfig {
    /// Character budget of the injected context; capped at the client's 10,000.
    pub budget_chars: usize,
    /// The model's context window in tokens, when the model table does not know it.
    pub window_tokens: Option<u64>,
    /// Where LOW, WARNING, CRITICAL and EMERGENCY begin (fractions of the window).
    pub tier_thresholds: Option<[f64; 4]>,
}

impl Default for ContextConfig {
    fn default() -> Self {
        Self {
            budget_chars: DEFAULT_BUDGET_CHARS,
            window_tokens: None,
            tier_thresholds: None,
        }
    }
}

/// A configuration file that exists but cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Unreadable.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Not valid TOML: no key can be trusted.
    #[error("{0}")]
    Syntax(ConfigProblem),
    /// A value carryover cannot use, where a default will not do.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The parser's words, naming the key.
        message: String,
    },
}

/// The configuration as loaded, with what was wrong in the file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadedConfig {
    /// The configuration: the file's keys, defaults for the keys it lacks or got wrong.
    pub config: Config,
    /// What was left out and why, in the order of the file.
    pub problems: Vec<ConfigProblem>,
}

/// Keys a failed deserialisation may take out before the file is given up on: far more than a
/// configuration holds, and a bound on a loop that removes one key per round.
const MAX_REMOVED_KEYS: usize = 256;

/// The longest `embedder.timeout_ms` a session start may wait (the client gives it 10 s).
const MAX_EMBEDDER_TIMEOUT_MS: u64 = 2_000;

impl Config {
    /// Loads `path` (the data home's `config.toml`); a missing file is the default
    /// configuration. A key that is unknown, of the wrong type or out of range is left out
    /// (it takes its default) and named in [`LoadedConfig::problems`]; only an unreadable file
    /// or one that is not TOML at all is an error. Paths in it are resolved by
    /// [`DataHome::config_path_value`].
    pub fn load(path: &Path, home: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
        let text = match super::read_regular_utf8(path, SMALL_FILE_BYTES) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(LoadedConfig::default());
            }
            Err(source) => {
                return Err(ConfigError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let (mut config, problems) = read_keys(&text, path)?;
        let mut check = Checker {
            text: &text,
            path,
            problems,
        };
        let data_home = DataHome::at(path.parent().unwrap_or(Path::new("/")));
        let mut resolve = |key: &str, raw: Option<PathBuf>| -> Option<PathBuf> {
            let raw = raw?;
            match data_home.config_path_value(&raw, home) {
                Ok(resolved) => Some(resolved),
                Err(why) => {
                    check.note(key, why.to_string());
                    None
                }
            }
        };
        config.seed_path = resolve("seed_path", config.seed_path.take());
        config.handoff.projects_dir =
            resolve("handoff.projects_dir", config.handoff.projects_dir.take());
        check.ranges(&mut config);
        let mut problems = check.problems;
        problems.sort_by_key(|problem| problem.line);
        Ok(LoadedConfig { config, problems })
    }

    /// Parses configuration text strictly (`path` names the file in errors): a key that is
    /// not TOML or has a value carryover cannot use is an error; unknown keys are not.
    pub fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        let (config, problems) = read_keys(text, path)?;
        match problems
            .iter()
            .find(|p| p.kind != ConfigProblemKind::UnknownKey)
        {
            Some(problem) => Err(ConfigError::Invalid {
                path: path.to_owned(),
                message: problem.to_string(),
            }),
            None => Ok(config),
        }
    }

    /// The tier thresholds: the configured ones (checked on load), else the defaults.
    pub fn thresholds(&self) -> Thresholds {
        self.context
            .tier_thresholds
            .and_then(|values| Thresholds::new(values).ok())
            .unwrap_or_default()
    }

    /// The budget to compose with: the configured one, never above the client's cap.
    pub fn budget_chars(&self) -> usize {
        self.context.budget_chars.min(HARD_CAP_CHARS)
    }
}

/// The configuration and its mistakes. A file without any costs one pass, as a plain
/// `toml::from_str` (the hooks read it at every run); only a file with a mistake is read
/// again as spanned TOML to find each key and its line.
fn read_keys(text: &str, path: &Path) -> Result<(Config, Vec<ConfigProblem>), ConfigError> {
    if let Ok(config) = toml::from_str::<Config>(text) {
        return Ok((config, Vec::new()));
    }
    let table = parse_table(text, path)?;
    Ok(deserialize_leniently(&table, text, path))
}

/// The document as spanned TOML; a syntax error names its line.
fn parse_table<'t>(text: &'t str, path: &Path) -> Result<Spanned<DeTable<'t>>, ConfigError> {
    DeTable::parse(text).map_err(|error| {
        ConfigError::Syntax(ConfigProblem {
            path: path.to_owned(),
            line: error.span().map(|span| line_of(text, span.start)),
            key: None,
            kind: ConfigProblemKind::Syntax,
            detail: error.message().trim_end().replace('\n', " "),
        })
    })
}

/// Deserialises the configuration, taking out each key the deserialiser stops at (unknown,
/// or a value of the wrong type) and trying again, so that one mistake costs one key, not the
/// file. Each key taken out is a problem.
fn deserialize_leniently(
    table: &Spanned<DeTable<'_>>,
    text: &str,
    path: &Path,
) -> (Config, Vec<ConfigProblem>) {
    let mut table = table.clone();
    let mut problems = Vec::new();
    for _ in 0..MAX_REMOVED_KEYS {
        let error = match Config::deserialize(toml::de::Deserializer::from(table.clone())) {
            Ok(config) => return (config, problems),
            Err(error) => error,
        };
        let message = error.message().trim_end().replace('\n', " ");
        let found = error
            .span()
            .and_then(|span| locate(table.get_ref(), span.start));
        let Some((key, key_start)) = found else {
            break;
        };
        remove(table.get_mut(), &key);
        let (kind, detail) = if message.starts_with("unknown field") {
            (ConfigProblemKind::UnknownKey, message)
        } else {
            (
                ConfigProblemKind::BadValue,
                format!("{message}; its default is used"),
            )
        };
        problems.push(ConfigProblem {
            path: path.to_owned(),
            line: Some(line_of(text, key_start)),
            key: Some(key.join(".")),
            kind,
            detail,
        });
    }
    problems.push(ConfigProblem {
        path: path.to_owned(),
        line: None,
        key: None,
        kind: ConfigProblemKind::BadValue,
        detail: "the file could not be read key by key; every key takes its default".to_owned(),
    });
    (Config::default(), problems)
}

/// The deepest key whose name or value holds byte `at`, with where its name starts.
fn locate(table: &DeTable<'_>, at: usize) -> Option<(Vec<String>, usize)> {
    for (key, value) in table.iter() {
        if let DeValue::Table(inner) = value.get_ref()
            && let Some((mut path, start)) = locate(inner, at)
        {
            path.insert(0, key.get_ref().to_string());
            return Some((path, start));
        }
        if key.span().contains(&at) || value.span().contains(&at) {
            return Some((vec![key.get_ref().to_string()], key.span().start));
        }
    }
    None
}

/// Takes the key at `path` out of `table`.
fn remove(table: &mut DeTable<'_>, path: &[String]) {
    match path {
        [] => {}
        [last] => {
            table.remove(last.as_str());
        }
        [first, rest @ ..] => {
            for (key, value) in table.iter_mut() {
                if key.get_ref() == first
                    && let DeValue::Table(inner) = value.get_mut()
                {
                    remove(inner, rest);
                }
            }
        }
    }
}

/// The 1-based line of byte `at`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Checks values serde accepts but carryover cannot use, each reset to its default with a
/// problem on the key's line (the text is parsed for spans only when there is one).
struct Checker<'a> {
    text: &'a str,
    path: &'a Path,
    problems: Vec<ConfigProblem>,
}

impl Checker<'_> {
    /// `key` has a value carryover cannot use; it takes its default.
    fn bad(&mut self, key: &str, why: String) {
        self.note(key, format!("{why}; its default is used"));
    }

    fn note(&mut self, key: &str, detail: String) {
        let parsed = DeTable::parse(self.text).ok();
        let mut table = parsed.as_ref().map(Spanned::get_ref);
        let mut line = None;
        for part in key.split('.') {
            let Some(current) = table else { break };
            table = None;
            let Some((name, value)) = current.iter().find(|(name, _)| name.get_ref() == part)
            else {
                break;
            };
            line = Some(line_of(self.text, name.span().start));
            if let DeValue::Table(inner) = value.get_ref() {
                table = Some(inner);
            }
        }
        self.problems.push(ConfigProblem {
            path: self.path.to_owned(),
            line,
            key: Some(key.to_owned()),
            kind: ConfigProblemKind::BadValue,
            detail,
        });
    }

    /// Out-of-range values, each back to its default.
    fn ranges(&mut self, config: &mut Config) {
        let defaults = Config::default();
        let context = &mut config.context;
        if context.budget_chars == 0 {
            self.bad("context.budget_chars", "0 leaves no room".to_owned());
            context.budget_chars = defaults.context.budget_chars;
        } else if context.budget_chars > HARD_CAP_CHARS {
            let value = context.budget_chars;
            self.note(
                "context.budget_chars",
                format!("{value} is above the client's cap; {HARD_CAP_CHARS} is used"),
            );
            context.budget_chars = HARD_CAP_CHARS;
        }
        if context.window_tokens == Some(0) {
            self.bad("context.window_tokens", "0 is not a window".to_owned());
            context.window_tokens = None;
        }
        if let Some(values) = context.tier_thresholds
            && let Err(reason) = Thresholds::new(values)
        {
            self.bad("context.tier_thresholds", reason);
            context.tier_thresholds = None;
        }
        if config.retrieval.top_n == 0 {
            self.bad("retrieval.top_n", "0 is not in 1 or more".to_owned());
            config.retrieval.top_n = defaults.retrieval.top_n;
        }
        let unit = |value: f64| (0.0..=1.0).contains(&value);
        if let Some(floor) = config.retrieval.floor.filter(|v| !unit(f64::from(*v))) {
            self.bad("retrieval.floor", format!("{floor} is not in 0 to 1"));
            config.retrieval.floor = None;
        }
        if let Some(threshold) = config
            .retrieval
            .recall_threshold
            .filter(|v| !unit(f64::from(*v)))
        {
            self.bad(
                "retrieval.recall_threshold",
                format!("{threshold} is not in 0 to 1"),
            );
            config.retrieval.recall_threshold = None;
        }
        if !unit(config.proposals.floor) {
            let value = config.proposals.floor;
            self.bad("proposals.floor", format!("{value} is not in 0 to 1"));
            config.proposals.floor = defaults.proposals.floor;
        }
        if !unit(f64::from(config.proposals.duplicate_similarity)) {
            let value = config.proposals.duplicate_similarity;
            self.bad(
                "proposals.duplicate_similarity",
                format!("{value} is not in 0 to 1"),
            );
            config.proposals.duplicate_similarity = defaults.proposals.duplicate_similarity;
        }
        let embedder = &mut config.embedder;
        if embedder.timeout_ms == 0 {
            self.bad("embedder.timeout_ms", "0 ms allows no request".to_owned());
            embedder.timeout_ms = defaults.embedder.timeout_ms;
        } else if embedder.timeout_ms > MAX_EMBEDDER_TIMEOUT_MS {
            let value = embedder.timeout_ms;
            self.note(
                "embedder.timeout_ms",
                format!(
                    "{value} is above what a session start may wait; {MAX_EMBEDDER_TIMEOUT_MS} is used"
                ),
            );
            embedder.timeout_ms = MAX_EMBEDDER_TIMEOUT_MS;
        }
        if embedder.kind == EmbedderKind::Http
            && (embedder.url.is_none() || embedder.model.is_none())
        {
            self.note(
                "embedder.kind",
                "\"http\" needs embedder.url and embedder.model; the built-in model is used"
                    .to_owned(),
            );
            embedder.kind = EmbedderKind::Builtin;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn load_all(text: &str) -> Result<LoadedConfig, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs_err::write(&path, text).unwrap();
        Config::load(&path, Some(Path::new("/home/mara")))
    }

    /// The configuration, with its first problem as the error.
    fn load(text: &str) -> Result<Config, String> {
        let loaded = load_all(text).map_err(|e| e.to_string())?;
        match loaded.problems.first() {
            Some(problem) => Err(problem.to_string()),
            None => Ok(loaded.config),
        }
    }

    #[test]
    fn a_missing_file_is_the_default() {
        let loaded = Config::load(Path::new("/nonexistent/config.toml"), None).unwrap();
        assert!(loaded.problems.is_empty());
        let config = loaded.config;
        assert_eq!(config, Config::default());
        assert_eq!(config.budget_chars(), 9_000);
    }

    #[test]
    fn reads_keys_and_expands_the_home() {
        let config =
            load("seed_path = \"~/.pai/seed.json\"\n[context]\nbudget_chars = 4000\n").unwrap();
        assert_eq!(
            config.seed_path,
            Some(PathBuf::from("/home/mara/.pai/seed.json"))
        );
        assert_eq!(config.budget_chars(), 4_000);
    }

    #[test]
    fn reads_the_window_and_thresholds() {
        let config =
            load("[context]\nwindow_tokens = 400000\ntier_thresholds = [0.5, 0.6, 0.7, 0.9]\n")
                .unwrap();
        assert_eq!(config.context.window_tokens, Some(400_000));
        assert_eq!(
            config.thresholds(),
            Thresholds::new([0.5, 0.6, 0.7, 0.9]).unwrap()
        );
    }

    #[test]
    fn thresholds_out_of_order_are_refused_with_their_key() {
        let message = load("[context]\ntier_thresholds = [0.9, 0.6, 0.7, 0.8]\n")
            .unwrap_err()
            .to_string();
        assert!(message.contains("context.tier_thresholds"), "{message}");
    }

    #[test]
    fn reads_the_handoff_table() {
        let config = load("[handoff]\nenabled = false\nprojects_dir = \"~/.amplifier/projects\"\nslug = \"basename\"\nmin_turns = 5\n").unwrap();
        assert!(!config.handoff.enabled);
        assert_eq!(
            config.handoff.projects_dir,
            Some(PathBuf::from("/home/mara/.amplifier/projects"))
        );
        assert_eq!(config.handoff.slug, SlugStyleConfig::Basename);
        assert_eq!(config.handoff.min_turns, 5);
    }

    #[test]
    fn an_unknown_slug_style_names_the_key() {
        let message = load("[handoff]\nslug = \"hash\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("slug") && message.contains("hash"),
            "{message}"
        );
    }

    #[test]
    fn reads_global_and_project_flags() {
        let config = load("[feature_flags]\na = true\nb = \"text\"\nc = [\"x\", \"y\"]\n[projects.\"-p\".feature_flags]\na = false\n").unwrap();
        assert_eq!(
            config.feature_flags["c"],
            FlagValue::List(vec!["x".into(), "y".into()])
        );
        assert_eq!(
            config.projects["-p"].feature_flags["a"],
            FlagValue::Bool(false)
        );
    }

    #[test]
    fn a_flag_of_another_type_names_its_key() {
        let message = load("[feature_flags]\nretries = 3\n")
            .unwrap_err()
            .to_string();
        assert!(message.contains("retries"), "{message}");
    }

    #[test]
    fn a_budget_past_the_client_cap_is_held_to_it() {
        let loaded = load_all("[context]\nbudget_chars = 50000\n").unwrap();
        assert_eq!(loaded.config.budget_chars(), 10_000);
        assert_eq!(loaded.problems[0].line, Some(2));
    }

    #[rstest]
    #[case::unknown_top_level("flor = 0.3\n", "flor", ConfigProblemKind::UnknownKey, 1)]
    #[case::unknown_in_a_table(
        "[retrieval]\ntop_n = 3\nflor = 0.3\n",
        "retrieval.flor",
        ConfigProblemKind::UnknownKey,
        3
    )]
    #[case::unknown_table(
        "\n[retreival]\nfloor = 0.3\n",
        "retreival",
        ConfigProblemKind::UnknownKey,
        2
    )]
    #[case::wrong_type(
        "[context]\n\nbudget_chars = \"big\"\n",
        "context.budget_chars",
        ConfigProblemKind::BadValue,
        3
    )]
    #[case::bad_enum(
        "[handoff]\nslug = \"hash\"\n",
        "handoff.slug",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::flag_type(
        "[feature_flags]\nretries = 3\n",
        "feature_flags.retries",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::out_of_range(
        "[retrieval]\nfloor = 1.5\n",
        "retrieval.floor",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::zero_top_n(
        "[retrieval]\ntop_n = 0\n",
        "retrieval.top_n",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::proposal_floor(
        "[proposals]\nfloor = -1.0\n",
        "proposals.floor",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::timeout(
        "[embedder]\ntimeout_ms = 0\n",
        "embedder.timeout_ms",
        ConfigProblemKind::BadValue,
        2
    )]
    #[case::http_without_url(
        "[embedder]\nkind = \"http\"\n",
        "embedder.kind",
        ConfigProblemKind::BadValue,
        2
    )]
    fn each_mistake_is_named_with_its_line(
        #[case] text: &str,
        #[case] key: &str,
        #[case] kind: ConfigProblemKind,
        #[case] line: usize,
    ) {
        let loaded = load_all(text).unwrap();
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        let problem = &loaded.problems[0];
        assert_eq!(
            (problem.key.as_deref(), problem.kind, problem.line),
            (Some(key), kind, Some(line))
        );
    }

    #[test]
    fn a_mistake_costs_its_key_not_the_file() {
        let loaded = load_all(
            "[retrieval]\nflor = 0.3\ntop_n = 7\n[context]\nbudget_chars = \"big\"\nwindow_tokens = 1000\n",
        )
        .unwrap();
        assert_eq!(loaded.problems.len(), 2);
        assert_eq!(loaded.config.retrieval.top_n, 7);
        assert_eq!(loaded.config.context.budget_chars, 9_000);
        assert_eq!(loaded.config.context.window_tokens, Some(1000));
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let message = load_all("[context]\nbudget_chars = 1\n[context\n")
            .unwrap_err()
            .to_string();
        assert!(message.contains("line 3"), "{message}");
    }

    #[test]
    fn strict_parsing_refuses_bad_values_but_not_unknown_keys() {
        let path = Path::new("/d/config.toml");
        assert!(Config::parse("future = 1\n", path).is_ok());
        assert!(Config::parse("[context]\nbudget_chars = \"x\"\n", path).is_err());
    }

    #[test]
    fn a_bad_value_names_the_file_and_key() {
        let message = load("[context]\nbudget_chars = \"lots\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("config.toml") && message.contains("budget_chars"),
            "{message}"
        );
    }
}
