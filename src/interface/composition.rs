//! The composition root: the only place that names adapters and wires them to services.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::application::{
    HandoffSettings, InstructionQueue, LearningProposals, ListenerRegistry, ProposalSettings,
    RetrievalSettings, SessionContextService, StartupInstructionListener, StartupReport,
    WindowSettings,
};
use crate::domain::context::Mode;
use crate::domain::ports::{Clock, IdGenerator};
use crate::domain::project::SlugStyle;
use crate::domain::session::Session;
use crate::infrastructure::{
    BinaryEmbeddingIndex, BuiltinEmbedder, ClaudeTranscriptReader, Config, ConfiguredEmbedder,
    DataHome, EmbedderKind, FixedClock, FsHandoffStore, FsProjectContext, FsTemplateSource,
    GitSeedRepository, HttpEmbedder, JsonContextStateStore, JsonSeedRepository, JsonTrustStore,
    RandomIds, SlugStyleConfig, SystemClock, TomlFlagStore,
};

/// The start-up instruction listener over the real adapters.
pub type StartupListener = StartupInstructionListener<
    FsTemplateSource,
    JsonTrustStore,
    JsonContextStateStore,
    TomlFlagStore,
>;

/// What starting a session through the listeners produced.
pub struct StartedSession {
    /// Instructions queued for the context, front first.
    pub instructions: Vec<String>,
    /// What the start-up instruction listener did.
    pub report: StartupReport,
}

use super::cli::ModeArg;
use super::environment::Environment;
use super::error::CliError;

/// The similarity floor for an HTTP (neural) embedder, unless configured. Measured with the
/// full all-MiniLM-L6-v2 on the dev set: relevant pairs p25 0.19, median 0.34; irrelevant
/// pairs median 0.09, p75 0.16. Other models differ: `[retrieval] floor` tunes it.
const HTTP_DEFAULT_FLOOR: f32 = 0.15;

/// How long a management command waits for another writer's lock.
pub const COMMAND_LOCK_WAIT: Duration = Duration::from_secs(10);
/// How long a hook waits: it must never hold up a session for long.
pub const HOOK_LOCK_WAIT: Duration = Duration::from_millis(1_500);

/// Everything a command needs, built once from the environment and the configuration.
pub struct App {
    /// The environment as read at start.
    pub env: Environment,
    /// The data home.
    pub data_home: DataHome,
    /// `config.toml`, or the defaults.
    pub config: Config,
    /// The clock (fixed by `CARRYOVER_NOW`).
    pub clock: Arc<dyn Clock>,
    /// Problems that did not stop the build (reported by the caller).
    pub warnings: Vec<String>,
}

impl App {
    /// For management commands: a malformed configuration is an error.
    pub fn strict(env: Environment) -> Result<Self, CliError> {
        let data_home = data_home(&env)?;
        let config = Config::load(&data_home.config_path(), env.home.as_deref())?;
        Ok(Self::assemble(env, data_home, config, Vec::new()))
    }

    /// For hooks: a malformed configuration falls back to the defaults with a warning.
    pub fn lenient(env: Environment) -> Result<Self, CliError> {
        let data_home = data_home(&env)?;
        let mut warnings = Vec::new();
        let config =
            Config::load(&data_home.config_path(), env.home.as_deref()).unwrap_or_else(|error| {
                warnings.push(format!("{error}; using the defaults"));
                Config::default()
            });
        Ok(Self::assemble(env, data_home, config, warnings))
    }

    fn assemble(
        env: Environment,
        data_home: DataHome,
        config: Config,
        mut warnings: Vec<String>,
    ) -> Self {
        let clock: Arc<dyn Clock> = match env.fixed_now() {
            Some(Ok(now)) => Arc::new(FixedClock(now)),
            Some(Err(raw)) => {
                warnings.push(format!(
                    "CARRYOVER_NOW={raw:?} is not an RFC 3339 time; using the system clock"
                ));
                Arc::new(SystemClock)
            }
            None => Arc::new(SystemClock),
        };
        Self {
            env,
            data_home,
            config,
            clock,
            warnings,
        }
    }

    /// The seed file: `CARRYOVER_SEED`, else `seed_path` in the config, else the data home's.
    pub fn seed_path(&self) -> PathBuf {
        self.env
            .carryover_seed
            .clone()
            .or_else(|| self.config.seed_path.clone())
            .unwrap_or_else(|| self.data_home.seed_path())
    }

    /// The git-backed seed store.
    pub fn seeds(&self, lock_wait: Duration) -> GitSeedRepository {
        GitSeedRepository::new(
            JsonSeedRepository::new(self.seed_path(), lock_wait),
            self.clock.clone(),
        )
    }

    /// Per-project compaction state and checkpoints.
    pub fn states(&self, lock_wait: Duration) -> JsonContextStateStore {
        JsonContextStateStore::new(self.data_home.projects_dir(), lock_wait)
    }

    /// The session-context use case over the real adapters.
    pub fn session_context(
        &self,
        lock_wait: Duration,
    ) -> SessionContextService<
        GitSeedRepository,
        JsonContextStateStore,
        ClaudeTranscriptReader,
        FsProjectContext,
        FsHandoffStore,
        ConfiguredEmbedder,
        BinaryEmbeddingIndex,
    > {
        SessionContextService::new(
            self.seeds(lock_wait),
            self.states(lock_wait),
            ClaudeTranscriptReader,
            FsProjectContext,
            self.handoffs(),
            self.embedder(),
            self.index(),
            self.clock.clone(),
        )
    }

    /// Stored learning vectors under `<data home>/index/`.
    pub fn index(&self) -> BinaryEmbeddingIndex {
        BinaryEmbeddingIndex::new(self.data_home.root().join("index"))
    }

    /// The embedder `[embedder]` chose (the built-in model by default).
    pub fn embedder(&self) -> ConfiguredEmbedder {
        let settings = &self.config.embedder;
        match (settings.kind, &settings.url, &settings.model) {
            (EmbedderKind::Http, Some(url), Some(model)) => {
                let api_key = settings
                    .api_key_env
                    .as_deref()
                    .and_then(|name| std::env::var(name).ok());
                let timeout = Duration::from_millis(settings.timeout_ms.max(1));
                ConfiguredEmbedder::Http(HttpEmbedder::new(url, model, api_key, timeout))
            }
            _ => ConfiguredEmbedder::Builtin(BuiltinEmbedder::compiled()),
        }
    }

    /// `[retrieval]`; the default floor depends on the embedder (tuned for the built-in model
    /// in docs/benchmarks.md; a neural model's similarities run higher).
    pub fn retrieval_settings(&self) -> RetrievalSettings {
        let default_floor = match self.config.embedder.kind {
            EmbedderKind::Builtin => RetrievalSettings::default().floor,
            EmbedderKind::Http => HTTP_DEFAULT_FLOOR,
        };
        RetrievalSettings {
            top_n: self.config.retrieval.top_n.max(1),
            floor: self.config.retrieval.floor.unwrap_or(default_floor),
        }
    }

    /// The handoff store: `[handoff] projects_dir`, else the data home's `projects/`.
    pub fn handoffs(&self) -> FsHandoffStore {
        let dir = self
            .config
            .handoff
            .projects_dir
            .clone()
            .unwrap_or_else(|| self.data_home.projects_dir());
        FsHandoffStore::new(dir)
    }

    /// `[handoff]` as the use cases take it.
    pub fn handoff_settings(&self) -> HandoffSettings {
        HandoffSettings {
            enabled: self.config.handoff.enabled,
            min_turns: self.config.handoff.min_turns,
            slug_style: self.slug_style(),
        }
    }

    /// Proposal extraction settings from `[proposals]`.
    pub fn proposal_settings(&self) -> ProposalSettings {
        let proposals = &self.config.proposals;
        ProposalSettings {
            enabled: proposals.enabled,
            max_per_session: proposals.max_per_session,
            floor: proposals.floor.clamp(0.0, 1.0),
            duplicate_similarity: proposals.duplicate_similarity,
        }
    }

    /// The proposal extractor over the configured embedder and the index.
    pub fn learning_proposals(
        &self,
    ) -> LearningProposals<ConfiguredEmbedder, BinaryEmbeddingIndex> {
        LearningProposals::new(
            self.embedder(),
            self.index(),
            self.ids(),
            self.clock.clone(),
        )
    }

    /// How the context window and tiers are chosen.
    pub fn window_settings(&self) -> WindowSettings {
        WindowSettings {
            configured: self.config.context.window_tokens,
            env_model: self.env.anthropic_model.clone(),
            thresholds: self.config.thresholds(),
        }
    }

    /// How project directories are named.
    pub fn slug_style(&self) -> SlugStyle {
        match self.config.handoff.slug {
            SlugStyleConfig::Path => SlugStyle::Path,
            SlugStyleConfig::Basename => SlugStyle::Basename,
        }
    }

    /// The project directory a command's `--cwd` names (it must exist), else the current one.
    pub fn project_dir(&self, cwd: Option<&std::path::Path>) -> Result<PathBuf, CliError> {
        match cwd {
            Some(dir) if !dir.is_dir() => Err(CliError::refused(
                format!("{} is not a directory", dir.display()),
                None,
            )),
            Some(dir) => Ok(std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())),
            None => Ok(self.cwd(None)),
        }
    }

    /// The directory a payload's `cwd` (or its absence) stands for.
    pub fn cwd(&self, given: Option<&std::path::Path>) -> PathBuf {
        given
            .filter(|path| path.is_absolute())
            .map(std::path::Path::to_path_buf)
            .or_else(|| self.env.current_dir.clone())
            .unwrap_or_else(|| PathBuf::from("/"))
    }

    /// Start-up templates: the project's, else `<data home>/templates/_startup.md`.
    pub fn templates(&self) -> FsTemplateSource {
        FsTemplateSource::new(self.data_home.root().join("templates").join("_startup.md"))
    }

    /// The user's trusted project templates.
    pub fn trust_store(&self, lock_wait: Duration) -> JsonTrustStore {
        JsonTrustStore::new(self.data_home.root().join("trust.json"), lock_wait)
    }

    /// Feature flags in `config.toml`.
    pub fn flag_store(&self, lock_wait: Duration) -> TomlFlagStore {
        TomlFlagStore::new(self.data_home.config_path(), lock_wait)
    }

    /// The session listeners, registered once here and nowhere else (ADR 0004), with the
    /// start-up instruction listener and the queue it fills.
    pub fn listeners(
        &self,
        consume: bool,
        lock_wait: Duration,
    ) -> (
        ListenerRegistry,
        Arc<StartupListener>,
        Arc<InstructionQueue>,
    ) {
        let queue = Arc::new(InstructionQueue::new());
        let startup = Arc::new(StartupInstructionListener::new(
            self.templates(),
            self.trust_store(lock_wait),
            self.states(lock_wait),
            self.flag_store(lock_wait),
            queue.clone(),
            self.slug_style(),
            consume,
        ));
        let mut registry = ListenerRegistry::new();
        registry.register(startup.clone());
        (registry, startup, queue)
    }

    /// Starts `session` through the listeners and collects what they queued.
    pub fn start_session(
        &self,
        session: Session,
        consume: bool,
        lock_wait: Duration,
    ) -> StartedSession {
        let (registry, startup, queue) = self.listeners(consume, lock_wait);
        pollster::block_on(registry.start(session));
        StartedSession {
            instructions: queue.drain(),
            report: startup.report(),
        }
    }

    /// Where new ids come from.
    pub fn ids(&self) -> Arc<dyn IdGenerator> {
        Arc::new(RandomIds)
    }

    /// `--mode` if given, else complement when PAI (which injects the identity) is present.
    pub fn mode(&self, requested: Option<ModeArg>) -> Mode {
        match requested {
            Some(ModeArg::Full) => Mode::Full,
            Some(ModeArg::Complement) => Mode::Complement,
            None if self.env.pai_dir.is_some() => Mode::Complement,
            None => Mode::Full,
        }
    }
}

fn data_home(env: &Environment) -> Result<DataHome, CliError> {
    DataHome::resolve(
        env.carryover_home.clone(),
        env.xdg_data_home.clone(),
        env.home.clone(),
    )
    .ok_or_else(|| {
        CliError::refused(
            "cannot tell where to keep data: none of CARRYOVER_HOME, XDG_DATA_HOME, HOME is set",
            Some("set CARRYOVER_HOME to a directory"),
        )
    })
}
