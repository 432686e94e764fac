//! `config.toml` in the data home: every key optional, every key with a default.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::domain::compaction::Thresholds;
use crate::domain::context::{DEFAULT_BUDGET_CHARS, HARD_CAP_CHARS};
use crate::domain::flags::FlagValue;

use super::DataHome;
use super::SMALL_FILE_BYTES;

/// The configuration. Unknown keys are ignored so that a file written for a newer carryover
/// still loads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
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
    /// Global feature flags.
    pub feature_flags: BTreeMap<String, FlagValue>,
    /// Per-project settings, by project slug.
    pub projects: BTreeMap<String, ProjectConfig>,
}

/// `[embedder]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
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
#[serde(default)]
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
#[serde(default)]
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

/// `[projects."<slug>"]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ProjectConfig {
    /// The project's feature flags, over the global ones.
    pub feature_flags: BTreeMap<String, FlagValue>,
}

/// `[handoff]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
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
#[serde(default)]
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
    /// Not valid TOML, or a key with the wrong type.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The parser's words, naming the key.
        message: String,
    },
}

impl Config {
    /// Loads `path` (the data home's `config.toml`); a missing file is the default
    /// configuration. Paths in it are resolved by [`DataHome::config_path_value`].
    pub fn load(path: &Path, home: Option<&Path>) -> Result<Self, ConfigError> {
        let text = match super::read_regular_utf8(path, SMALL_FILE_BYTES) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Self::default());
            }
            Err(source) => {
                return Err(ConfigError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let mut config = Self::parse(&text, path)?;
        let data_home = DataHome::at(path.parent().unwrap_or(Path::new("/")));
        let resolve = |key: &str, raw: Option<PathBuf>| -> Result<Option<PathBuf>, ConfigError> {
            raw.map(|raw| {
                data_home
                    .config_path_value(&raw, home)
                    .map_err(|why| ConfigError::Invalid {
                        path: path.to_owned(),
                        message: format!("{key} {why}"),
                    })
            })
            .transpose()
        };
        config.seed_path = resolve("seed_path", config.seed_path)?;
        config.handoff.projects_dir = resolve("handoff.projects_dir", config.handoff.projects_dir)?;
        if config.embedder.kind == EmbedderKind::Http
            && (config.embedder.url.is_none() || config.embedder.model.is_none())
        {
            return Err(ConfigError::Invalid {
                path: path.to_owned(),
                message: "embedder.kind = \"http\" needs embedder.url and embedder.model"
                    .to_owned(),
            });
        }
        if let Some(values) = config.context.tier_thresholds {
            Thresholds::new(values).map_err(|reason| ConfigError::Invalid {
                path: path.to_owned(),
                message: format!("context.tier_thresholds: {reason}"),
            })?;
        }
        Ok(config)
    }

    /// Parses configuration text (`path` names the file in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|error| ConfigError::Invalid {
            path: path.to_owned(),
            message: error.to_string().trim_end().replace('\n', " "),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        fs_err::write(&path, text).unwrap();
        Config::load(&path, Some(Path::new("/home/mara")))
    }

    #[test]
    fn a_missing_file_is_the_default() {
        let config = Config::load(Path::new("/nonexistent/config.toml"), None).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.budget_chars(), 9_000);
    }

    #[test]
    fn reads_keys_and_expands_the_home() {
        let config = load(
            "seed_path = \"~/.pai/seed.json\"\n[context]\nbudget_chars = 4000\nfuture_key = 1\n",
        )
        .unwrap();
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
    fn the_budget_never_passes_the_client_cap() {
        assert_eq!(
            load("[context]\nbudget_chars = 50000\n")
                .unwrap()
                .budget_chars(),
            10_000
        );
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
