//! The composition root: the only place that names adapters and wires them to services.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::application::{
    ConfigNotice, Doctor, HandoffSettings, Handoffs, HookInstaller, ImportAgentMemory,
    InstructionQueue, LearningProposals, ListenerRegistry, PreCompact, PromptRecall,
    ProposalSettings, ProposeFromTranscript, RecallSettings, RetrievalSettings, SessionEnd,
    StartSession, StartSettings, StartupInstructionListener, StatusLine, SyncSeed, WindowSettings,
};
use crate::domain::agent_memory::claude_project_folder;
use crate::domain::config_problem::ConfigProblem;
use crate::domain::context::Mode;
use crate::domain::ports::{Clock, IdGenerator, ProjectContext};
use crate::domain::project::{Project, SlugStyle};
use crate::domain::recall::Calibration;
use crate::domain::seed::{MergeConflict, Side};
use crate::infrastructure::{
    AgentTranscriptReader, BinaryEmbeddingIndex, BuiltinEmbedder, Config, ConfigError,
    ConfiguredEmbedder, DataHome, DiagnosticsLog, EmbedderKind, FixedClock, FsAgentMemoryFolder,
    FsHandoffStore, FsProjectCatalog, FsProjectContext, FsSettingsFiles, FsTemplateSource,
    GitIgnoreList, GitSeedRepository, GitSeedSync, HttpEmbedder, JsonContextStateStore,
    JsonSeedRepository, JsonSessionRecordStore, JsonTrustStore, LoadedConfig, RandomIds,
    SlugStyleConfig, SystemClock, SystemPrograms, TomlFlagStore, VERSION_TIMEOUT,
};

/// The seed store every command uses.
pub type Seeds = GitSeedRepository;

/// The start-up instruction listener over the real adapters.
pub type StartupListener = StartupInstructionListener<
    FsTemplateSource,
    JsonTrustStore,
    JsonSessionRecordStore,
    TomlFlagStore,
>;

/// The session-start use case over the real adapters.
pub type SessionStart = StartSession<
    GitSeedRepository,
    JsonContextStateStore,
    JsonSessionRecordStore,
    AgentTranscriptReader,
    FsProjectContext,
    FsHandoffStore,
    ConfiguredEmbedder,
    BinaryEmbeddingIndex,
>;

/// Prompt recall over the real adapters.
pub type PromptRecallService = PromptRecall<
    GitSeedRepository,
    JsonSessionRecordStore,
    FsProjectContext,
    ConfiguredEmbedder,
    BinaryEmbeddingIndex,
>;

/// `doctor` over the real adapters.
pub type DoctorService = Doctor<
    FsSettingsFiles,
    GitSeedRepository,
    BinaryEmbeddingIndex,
    FsTemplateSource,
    JsonTrustStore,
    SystemPrograms,
>;

/// The pre-compact use case over the real adapters.
pub type PreCompactService = PreCompact<
    JsonContextStateStore,
    JsonSessionRecordStore,
    AgentTranscriptReader,
    FsProjectContext,
>;

/// The session-end use case over the real adapters.
pub type SessionEndService = SessionEnd<
    FsHandoffStore,
    AgentTranscriptReader,
    FsProjectContext,
    GitSeedRepository,
    ConfiguredEmbedder,
    BinaryEmbeddingIndex,
>;

use super::cli::ModeArg;
use super::environment::Environment;
use super::error::CliError;

/// The similarity floor for an HTTP (neural) embedder, unless configured. Measured with the
/// full all-MiniLM-L6-v2 on the dev set: relevant pairs p25 0.19, median 0.34; irrelevant
/// pairs median 0.09, p75 0.16. Other models differ: `[retrieval] floor` tunes it.
const HTTP_DEFAULT_FLOOR: f32 = 0.15;

/// The longest an HTTP embedder may take, whatever `embedder.timeout_ms` says: a session start
/// waits for it, within the client's 10 s.
const MAX_EMBEDDER_TIMEOUT_MS: u64 = 2_000;

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
    /// Mistakes in `config.toml`, each key concerned at its default (reported by the caller).
    pub config_problems: Vec<ConfigProblem>,
    /// What the stores said that is not an error, for the caller to show at the end.
    store_notices: Arc<std::sync::Mutex<Vec<String>>>,
}

impl App {
    /// For management commands: a configuration that is not TOML, or that names a seed or
    /// projects directory carryover cannot use, is an error (a default there would write
    /// somewhere else); any other mistake is a problem the command warns about.
    pub fn strict(env: Environment) -> Result<Self, CliError> {
        let data_home = data_home(&env)?;
        let loaded = Config::load(&data_home.config_path(), env.home.as_deref())?;
        if let Some(problem) = loaded
            .problems
            .iter()
            .find(|p| matches!(p.key.as_deref(), Some("seed_path" | "handoff.projects_dir")))
        {
            return Err(CliError::refused(
                problem.to_string(),
                Some("fix the file; without it carryover would use another seed or directory"),
            ));
        }
        let mut app = Self::assemble(env, data_home, loaded.config, Vec::new());
        app.config_problems = loaded.problems;
        Ok(app)
    }

    /// For hooks (and `doctor`): a malformed configuration falls back to the defaults, key by
    /// key, and every mistake is in `config_problems`.
    pub fn lenient(env: Environment) -> Result<Self, CliError> {
        let data_home = data_home(&env)?;
        let mut warnings = Vec::new();
        let loaded = match Config::load(&data_home.config_path(), env.home.as_deref()) {
            Ok(loaded) => loaded,
            Err(ConfigError::Syntax(problem)) => LoadedConfig {
                config: Config::default(),
                problems: vec![problem],
            },
            Err(error) => {
                warnings.push(format!("{error}; using the defaults"));
                LoadedConfig::default()
            }
        };
        let mut app = Self::assemble(env, data_home, loaded.config, warnings);
        app.config_problems = loaded.problems;
        Ok(app)
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
            config_problems: Vec::new(),
            store_notices: Arc::default(),
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
        .with_notices(self.store_notices.clone())
    }

    /// Sync of the seed through its git remote; git runs this executable as the seed's merge
    /// driver.
    pub fn seed_sync(&self) -> SyncSeed<GitSeedSync> {
        let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("carryover"));
        // Handoffs ride along only where they live in the seed's repository: the default
        // projects directory of a data home that holds the seed.
        let handoffs = self.config.sync.handoffs
            && self.config.handoff.projects_dir.is_none()
            && self.seed_path().parent() == Some(self.data_home.root());
        SyncSeed::new(
            GitSeedSync::new(
                JsonSeedRepository::new(self.seed_path(), COMMAND_LOCK_WAIT),
                program,
            )
            .with_handoffs(handoffs),
            self.clock.clone(),
        )
    }

    /// With `[sync] auto = true` and a remote set, starts a sync in the background and
    /// returns at once; whatever it meets is recorded for `status` and `doctor`, never here.
    pub fn sync_in_background(&self) {
        if !self.config.sync.auto {
            return;
        }
        if !matches!(pollster::block_on(self.seed_sync().remote()), Ok(Some(_))) {
            return;
        }
        let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("carryover"));
        if let Err(error) = crate::infrastructure::spawn_background_sync(&program) {
            self.log(
                "sync",
                &[format!("the background sync did not start: {error}")],
            );
        }
    }

    /// Which side of the merge git runs in `work_tree` changed last (for the merge driver).
    pub fn newer_merge_side(&self, work_tree: &std::path::Path) -> Side {
        crate::infrastructure::newer_side(work_tree, self.env.merge_newer.as_deref())
    }

    /// Passes what the merge driver could not decide to the `sync` that runs git, when one
    /// does (`CARRYOVER_MERGE_REPORT`).
    pub fn report_merge_conflicts(&self, conflicts: &[MergeConflict]) {
        if let Some(path) = &self.env.merge_report {
            crate::infrastructure::append_report(path, conflicts);
        }
    }

    /// Per-project compaction state and checkpoints.
    pub fn states(&self, lock_wait: Duration) -> JsonContextStateStore {
        JsonContextStateStore::new(self.data_home.projects_dir(), lock_wait)
    }

    /// What the stores have said so far (a seed repaired, a change saved but not committed,
    /// an unreadable trust list set aside), left to be told after the command.
    pub fn peek_store_notices(&self) -> Vec<String> {
        self.store_notices
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The stores' notices, taken: told once, after the command.
    pub fn take_store_notices(&self) -> Vec<String> {
        std::mem::take(
            &mut *self
                .store_notices
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Per-session records of what carryover told each session.
    pub fn records(&self, lock_wait: Duration) -> JsonSessionRecordStore {
        JsonSessionRecordStore::new(self.data_home.projects_dir(), lock_wait)
    }

    /// Tells a session of the configuration's mistakes once.
    pub fn config_notice(
        &self,
        lock_wait: Duration,
    ) -> ConfigNotice<JsonSessionRecordStore, FsProjectContext> {
        ConfigNotice::new(self.records(lock_wait), FsProjectContext, self.slug_style())
    }

    /// How session starts are configured.
    pub fn start_settings(&self) -> StartSettings {
        StartSettings {
            budget_chars: self.config.budget_chars(),
            window: self.window_settings(),
            slug_style: self.slug_style(),
            handoffs_enabled: self.config.handoff.enabled,
            retrieval: self.retrieval_settings(),
        }
    }

    /// The session-start use case, with the session listeners registered.
    pub fn session_start(&self, lock_wait: Duration) -> SessionStart {
        let (listeners, _startup, queue) = self.listeners(lock_wait);
        StartSession::new(
            self.seeds(lock_wait),
            self.states(lock_wait),
            self.records(lock_wait),
            AgentTranscriptReader,
            FsProjectContext,
            self.handoffs(),
            self.embedder(),
            self.index(),
            listeners,
            queue,
            self.start_settings(),
            self.clock.clone(),
        )
        .with_catalog(Arc::new(self.catalog()))
    }

    /// The projects carryover keeps data for: the data home's tree, and the handoffs' when
    /// configured elsewhere.
    pub fn catalog(&self) -> FsProjectCatalog {
        let mut trees = vec![self.data_home.projects_dir()];
        if let Some(dir) = self.config.handoff.projects_dir.clone() {
            trees.push(dir);
        }
        FsProjectCatalog::new(trees)
    }

    /// Recall at the prompt, waiting `lock_wait` at most for the session's record.
    pub fn prompt_recall(&self, lock_wait: Duration) -> PromptRecallService {
        PromptRecall::new(
            self.seeds(lock_wait),
            self.records(lock_wait),
            FsProjectContext,
            self.embedder(),
            self.index(),
            Arc::new(self.catalog()),
            self.recall_settings(),
        )
    }

    /// `[retrieval] recall` and `recall_threshold` as prompt recall takes them.
    pub fn recall_settings(&self) -> RecallSettings {
        let mut calibration = Calibration::BUILT_IN;
        if let Some(threshold) = self.config.retrieval.recall_threshold {
            calibration.threshold = threshold;
        }
        RecallSettings {
            enabled: self.config.retrieval.recall,
            slug_style: self.slug_style(),
            calibration,
        }
    }

    /// The status line, waiting `lock_wait` at most for a session record.
    pub fn status_line(
        &self,
        lock_wait: Duration,
    ) -> StatusLine<GitSeedRepository, JsonSessionRecordStore, FsProjectContext> {
        StatusLine::new(
            self.seeds(lock_wait),
            self.records(lock_wait),
            FsProjectContext,
            self.window_settings(),
            self.slug_style(),
        )
        .with_catalog(Arc::new(self.catalog()))
    }

    /// The pre-compact use case.
    pub fn pre_compact(&self, lock_wait: Duration) -> PreCompactService {
        PreCompact::new(
            self.states(lock_wait),
            self.records(lock_wait),
            AgentTranscriptReader,
            FsProjectContext,
            self.clock.clone(),
        )
    }

    /// The session-end use case; `seed_wait` bounds the wait for the seed's lock.
    pub fn session_end(&self, seed_wait: Duration) -> SessionEndService {
        SessionEnd::new(
            self.handoffs(),
            AgentTranscriptReader,
            FsProjectContext,
            self.seeds(seed_wait),
            self.learning_proposals(),
            self.clock.clone(),
        )
    }

    /// Proposals from a transcript, as `proposals extract` runs them.
    pub fn propose_from_transcript(
        &self,
    ) -> ProposeFromTranscript<
        AgentTranscriptReader,
        GitSeedRepository,
        ConfiguredEmbedder,
        BinaryEmbeddingIndex,
    > {
        ProposeFromTranscript::new(
            AgentTranscriptReader,
            self.seeds(COMMAND_LOCK_WAIT),
            self.learning_proposals(),
        )
    }

    /// Claude Code's memories of a project, as `import claude-memory` proposes them.
    pub fn import_agent_memory(
        &self,
    ) -> ImportAgentMemory<
        FsAgentMemoryFolder,
        GitSeedRepository,
        ConfiguredEmbedder,
        BinaryEmbeddingIndex,
    > {
        ImportAgentMemory::new(
            FsAgentMemoryFolder,
            self.seeds(COMMAND_LOCK_WAIT),
            self.learning_proposals(),
        )
    }

    /// Claude Code's memory folder for the project at `dir`: `<claude home>/projects/<path
    /// with non-alphanumerics as '-'>/memory`. Claude Code names it after the repository (its
    /// main worktree), so that path is tried first, then the worktree's and `dir` itself; the
    /// first that exists wins, else the first. `None` without a home.
    pub fn claude_memory_folder(
        &self,
        project: &Project,
        dir: &std::path::Path,
    ) -> Option<PathBuf> {
        let projects = self.env.agent_homes()?.claude.join("projects");
        let mut folders: Vec<PathBuf> = Vec::new();
        for path in [project.main_root.as_path(), project.root.as_path(), dir] {
            let folder = projects
                .join(claude_project_folder(&path.to_string_lossy()))
                .join("memory");
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
        let found = folders.iter().find(|folder| folder.is_dir()).cloned();
        found.or_else(|| folders.into_iter().next())
    }

    /// The project handoffs, as `carryover handoff` reads them.
    pub fn handoff_service(&self) -> Handoffs<FsHandoffStore> {
        Handoffs::new(self.handoffs())
    }

    /// Wires and unwires agents' settings files.
    pub fn hook_installer(&self) -> HookInstaller<FsSettingsFiles> {
        HookInstaller::new(FsSettingsFiles, self.clock.clone())
            .with_ignores(Arc::new(GitIgnoreList))
    }

    /// The health checks of `carryover doctor` (and the wiring and index lines of `status`).
    pub fn doctor(&self) -> DoctorService {
        Doctor::new(
            FsSettingsFiles,
            self.seeds(COMMAND_LOCK_WAIT),
            self.index(),
            self.templates(),
            self.trust_store(COMMAND_LOCK_WAIT),
            SystemPrograms::new(self.env.path_var.clone(), VERSION_TIMEOUT),
        )
    }

    /// The project a directory belongs to (its git top level, else itself).
    pub fn project(&self, dir: &std::path::Path) -> Project {
        pollster::block_on(FsProjectContext.project(dir))
    }

    /// Where a project's start-up template lives.
    pub fn project_template_path(&self, root: &std::path::Path) -> PathBuf {
        FsTemplateSource::project_path(root)
    }

    /// Waits (at most `limit`) until Copilot CLI has written the `hook.start` row of the hook
    /// now running into its transcript, whose writes lag behind (ADR 0022); whether it did.
    pub fn await_copilot_events(
        &self,
        transcript: &std::path::Path,
        timestamp_ms: u64,
        limit: Duration,
    ) -> bool {
        crate::infrastructure::await_hook_row(transcript, timestamp_ms, limit)
    }

    /// Appends diagnostics to the data home's log.
    pub fn log(&self, event: &str, messages: &[String]) {
        let log = DiagnosticsLog::new(self.data_home.root(), self.data_home.log_path());
        let now = self.clock.now();
        for message in messages {
            log.append(now, event, message);
        }
    }

    /// Stored learning vectors under `<data home>/index/`.
    pub fn index(&self) -> BinaryEmbeddingIndex {
        BinaryEmbeddingIndex::new(self.data_home.root())
    }

    /// The built-in model, whatever `[embedder]` says: for checks whose thresholds were
    /// measured on it (a near-duplicate `learn`).
    pub fn builtin_embedder(&self) -> BuiltinEmbedder {
        BuiltinEmbedder::compiled()
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
                let timeout =
                    Duration::from_millis(settings.timeout_ms.clamp(1, MAX_EMBEDDER_TIMEOUT_MS));
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
            Some(dir) => Ok(lexically_absolute(dir)),
            None => Ok(self.cwd(None)),
        }
    }

    /// The directory a payload's `cwd` (or its absence) stands for. A `cwd` that no longer
    /// exists still names its project: a deleted worktree's session end belongs to it, and the
    /// hook's own directory (often deleted too, or `$HOME`) would name a wrong one.
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
            .with_notices(self.store_notices.clone())
    }

    /// Feature flags in `config.toml`.
    pub fn flag_store(&self, lock_wait: Duration) -> TomlFlagStore {
        TomlFlagStore::new(self.data_home.config_path(), lock_wait)
    }

    /// The session listeners, registered once here and nowhere else (ADR 0004), with the
    /// start-up instruction listener and the queue it fills.
    pub fn listeners(
        &self,
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
            self.records(lock_wait),
            self.flag_store(lock_wait),
            queue.clone(),
            self.slug_style(),
        ));
        let mut registry = ListenerRegistry::new();
        registry.register(startup.clone());
        (registry, startup, queue)
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
    if let Some(seed) = env.carryover_seed.as_ref().filter(|p| !p.is_absolute()) {
        return Err(CliError::refused(
            format!("CARRYOVER_SEED={seed:?} is a relative path; it must be absolute"),
            Some(
                "hooks run in whatever project the session is in, so a relative seed would move with it",
            ),
        ));
    }
    DataHome::resolve(
        env.carryover_home.clone(),
        env.xdg_data_home.clone(),
        env.home.clone(),
    )
    .map_err(|error| {
        CliError::refused(
            error.to_string(),
            Some("set CARRYOVER_HOME to an absolute directory"),
        )
    })
}

/// `dir` made absolute with `.` and `..` resolved by the text alone (`../web` from `/src/api`
/// is `/src/web`): a symbolic link in it is kept as written, as a hook's `cwd` keeps it, so
/// that both name the same project.
fn lexically_absolute(dir: &std::path::Path) -> PathBuf {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut resolved = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::ParentDir => {
                resolved.pop();
            }
            std::path::Component::CurDir => {}
            other => resolved.push(other),
        }
    }
    resolved
}
