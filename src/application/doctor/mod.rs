//! `carryover doctor`: is carryover wired, and will it work? Each agent's settings and the
//! binary its hooks run, the seed and its history, the embedding index, the configuration,
//! the start-up template's trust and the agents' versions, each checked with what fixes it.
//! The hooks' wiring is judged in `wiring.rs`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::domain::agent_hooks::{
    AgentHomes, AgentKind, InstallScope, WiredEvent, Wiring, command_program, install_hooks,
    parse_settings, wired_events, wiring,
};
use crate::domain::config_problem::{ConfigProblem, ConfigProblemKind};
use crate::domain::doctor::{Check, CheckArea, CheckStatus, worst};
use crate::domain::format::counted;
use crate::domain::ports::SyncRecord;
use crate::domain::ports::{
    EmbeddingIndex, LoadedSeed, ProgramLocation, Programs, SeedHistory, SeedRepository,
    SettingsFiles, TemplateFile, TemplateSource, TrustStore,
};
use crate::domain::retrieval::{IndexFreshness, StoredVectors};
use crate::domain::seed::Seed;
use crate::domain::startup::{INSTRUCTION_TYPE, StartupTemplate};
use crate::domain::{IndexError, SeedError, TemplateError};

mod wiring;

use wiring::wiring_checks;

/// The agents' programs whose versions `doctor` reports: (name people know, program).
pub const CLIENTS: [(&str, &str); 5] = [
    ("Claude Code", "claude"),
    ("Codex CLI", "codex"),
    ("Gemini CLI", "gemini"),
    ("Copilot CLI", "copilot"),
    ("Cursor", "cursor-agent"),
];

/// What `doctor` looks at.
#[derive(Debug, Clone, PartialEq)]
pub struct DoctorRequest {
    /// The agents' user directories; `None` without a home (user settings are then skipped).
    pub homes: Option<AgentHomes>,
    /// The project whose settings and template to check.
    pub project_root: PathBuf,
    /// The embedding model the index is kept for.
    pub model_id: String,
    /// `config.toml`.
    pub config_path: PathBuf,
    /// Whether it exists.
    pub config_present: bool,
    /// What is wrong in it, as loading found.
    pub config_problems: Vec<ConfigProblem>,
}

/// One agent settings file that exists, and what it wires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    /// The agent.
    pub agent: AgentKind,
    /// Which of its files.
    pub scope: InstallScope,
    /// The file.
    pub path: PathBuf,
    /// carryover's command per event; empty when the file cannot be read.
    pub events: Vec<WiredEvent>,
    /// Each program the wired commands run, and where it is.
    pub programs: Vec<(String, ProgramLocation)>,
    /// Why the file cannot be read as settings, when it cannot.
    pub problem: Option<String>,
}

impl AgentSettings {
    /// All, some or none of carryover's events.
    pub fn wiring(&self) -> Wiring {
        wiring(&self.events)
    }

    /// `Claude Code (user)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.agent.display_name(), self.scope)
    }
}

/// An agent's program and the version it reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientVersion {
    /// The name people know the agent by.
    pub name: &'static str,
    /// Its program.
    pub program: &'static str,
    /// The first line of `--version`; `None` when it is not on `PATH` or did not answer.
    pub version: Option<String>,
}

/// Everything `doctor` found.
#[derive(Debug, Clone, PartialEq)]
pub struct DoctorReport {
    /// The checks, in the order they are shown.
    pub checks: Vec<Check>,
    /// The agents' settings files found.
    pub agents: Vec<AgentSettings>,
    /// The agents' programs.
    pub clients: Vec<ClientVersion>,
}

impl DoctorReport {
    /// The worst check: `Fail` makes `doctor` exit 1.
    pub fn status(&self) -> CheckStatus {
        worst(&self.checks)
    }
}

/// The health checks, over the ports they read. Nothing is written, except that loading a
/// corrupt seed repairs it from its history, as every load does.
pub struct Doctor<F, S, I, T, Tr, Pg> {
    files: F,
    seeds: S,
    index: I,
    templates: T,
    trust: Tr,
    programs: Pg,
}

impl<F, S, I, T, Tr, Pg> Doctor<F, S, I, T, Tr, Pg>
where
    F: SettingsFiles,
    S: SeedRepository,
    I: EmbeddingIndex,
    T: TemplateSource,
    Tr: TrustStore,
    Pg: Programs,
{
    /// A service over the given ports.
    pub fn new(files: F, seeds: S, index: I, templates: T, trust: Tr, programs: Pg) -> Self {
        Self {
            files,
            seeds,
            index,
            templates,
            trust,
            programs,
        }
    }

    /// Runs every check.
    pub async fn examine(&self, request: &DoctorRequest) -> DoctorReport {
        let agents = self
            .agents(request.homes.as_ref(), &request.project_root)
            .await;
        let mut checks = wiring_checks(&agents, &request.project_root);
        let loaded = self.seeds.load().await;
        let history = self.seeds.history().await;
        checks.extend(seed_checks(&loaded, &history, &self.seeds.location()));
        let seed = loaded
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .map(|l| &l.seed);
        let stored = match seed {
            Some(_) => Some(self.index.load(&request.model_id).await),
            None => None,
        };
        checks.push(index_check(seed, stored.as_ref(), &request.model_id));
        checks.extend(config_checks(
            &request.config_path,
            request.config_present,
            &request.config_problems,
        ));
        checks.extend(self.trust_checks(&request.project_root).await);
        let clients = self.clients().await;
        checks.extend(clients.iter().map(client_check));
        DoctorReport {
            checks,
            agents,
            clients,
        }
    }

    /// Every agent settings file that exists (user, project and local), with what it wires
    /// and where the programs it runs are. A file shared by two scopes (the project is the
    /// home directory) is listed once.
    pub async fn agents(&self, homes: Option<&AgentHomes>, root: &Path) -> Vec<AgentSettings> {
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        for agent in AgentKind::ALL {
            for scope in InstallScope::ALL {
                let path = match (scope, homes) {
                    (InstallScope::User, None) => None,
                    (_, Some(homes)) => agent.settings_path(scope, homes, root),
                    (_, None) => agent.settings_path(scope, &AgentHomes::under(root), root),
                };
                let Some(path) = path.filter(|path| seen.insert(path.clone())) else {
                    continue;
                };
                let (events, problem) = match self.files.read(&path).await {
                    Ok(None) => continue,
                    Ok(Some(text)) => match parse_settings(&text, agent.settings_dialect()) {
                        // Hooks shaped otherwise than the agent reads them: install would
                        // refuse, so reinstalling is no fix.
                        Ok(settings) => {
                            match install_hooks(settings.clone(), agent, Path::new("carryover")) {
                                Ok(_) => (wired_events(&settings, agent), None),
                                Err(shape) => {
                                    let problem = format!(
                                        "{} is not {}, as {} reads its hooks",
                                        shape.at,
                                        shape.expected,
                                        agent.display_name()
                                    );
                                    (Vec::new(), Some(problem))
                                }
                            }
                        }
                        Err(error) => (Vec::new(), Some(error.to_string())),
                    },
                    Err(error) => (Vec::new(), Some(error.to_string())),
                };
                let mut programs: Vec<(String, ProgramLocation)> = Vec::new();
                for program in events
                    .iter()
                    .filter_map(|e| e.command.as_deref())
                    .filter_map(command_program)
                {
                    if !programs.iter().any(|(known, _)| *known == program) {
                        let location = self.programs.locate(&program).await;
                        programs.push((program, location));
                    }
                }
                found.push(AgentSettings {
                    agent,
                    scope,
                    path,
                    events,
                    programs,
                    problem,
                });
            }
        }
        found
    }

    /// How the index compares with the seed's confirmed learnings: `Ok(None)` without a
    /// usable seed, `Err` when the index cannot be read.
    pub async fn index_freshness(
        &self,
        model_id: &str,
    ) -> Result<Option<IndexFreshness>, IndexError> {
        let Ok(Some(loaded)) = self.seeds.load().await else {
            return Ok(None);
        };
        let stored = self.index.load(model_id).await?;
        Ok(Some(freshness(&loaded.seed, &stored)))
    }

    async fn trust_checks(&self, root: &Path) -> Vec<Check> {
        let mut checks = Vec::new();
        let template = self.templates.project_template(root).await;
        let trusted = match &template {
            Ok(Some(file)) => Some(self.trust.is_trusted(&file.path, &file.sha256).await),
            _ => None,
        };
        let listed = match (&template, &trusted) {
            (Ok(Some(file)), Some(Ok(false))) => self
                .trust
                .list()
                .await
                .map(|entries| entries.iter().any(|entry| entry.path == file.path))
                .unwrap_or(false),
            _ => false,
        };
        checks.push(trust_check(root, &template, trusted.as_ref(), listed));
        match self.templates.user_template().await {
            Ok(Some(file)) => checks.push(Check::ok(
                CheckArea::Trust,
                "your start-up template",
                format!("{} (yours, so trusted)", file.path.display()),
            )),
            Ok(None) => {}
            Err(error) => checks.push(Check::warn(
                CheckArea::Trust,
                "your start-up template",
                error.to_string(),
                None,
            )),
        }
        checks
    }

    async fn clients(&self) -> Vec<ClientVersion> {
        let names: Vec<String> = CLIENTS.iter().map(|(_, p)| (*p).to_owned()).collect();
        let versions = self.programs.versions(&names).await;
        CLIENTS
            .iter()
            .zip(versions.into_iter().chain(std::iter::repeat(None)))
            .map(|((name, program), version)| ClientVersion {
                name,
                program,
                version,
            })
            .collect()
    }
}

fn freshness(seed: &Seed, stored: &StoredVectors) -> IndexFreshness {
    IndexFreshness::of(
        seed.confirmed_learnings()
            .map(|(_, l)| (l.id.as_str(), l.content.as_str())),
        stored,
    )
}

/// The seed loads and validates, and its git history can be read.
fn seed_checks(
    loaded: &Result<Option<LoadedSeed>, SeedError>,
    history: &Result<Option<SeedHistory>, SeedError>,
    location: &Path,
) -> Vec<Check> {
    let path = location.display();
    let seed = match loaded {
        Ok(None) => {
            return vec![Check::fail(
                CheckArea::Seed,
                "seed",
                format!("{path} does not exist yet"),
                "carryover init",
            )];
        }
        Err(error) => {
            return vec![Check::fail(
                CheckArea::Seed,
                "seed",
                error.to_string(),
                format!(
                    "restore {path} from its history (git log in its directory), or move it away and run `carryover init`"
                ),
            )];
        }
        Ok(Some(loaded)) => loaded,
    };
    let mut checks = vec![match (&seed.repaired, seed.seed.needs_setup()) {
        (Some(repaired), _) => Check::warn(
            CheckArea::Seed,
            "seed",
            format!(
                "{path} was damaged ({}) and was restored from commit {}{}",
                repaired.problem,
                repaired.from_commit,
                repaired.kept_clause()
            ),
            None,
        ),
        (None, true) => Check::warn(
            CheckArea::Seed,
            "seed",
            format!("{path}: valid, but the identity is not set up"),
            Some("carryover init".to_owned()),
        ),
        (None, false) => Check::ok(
            CheckArea::Seed,
            "seed",
            format!(
                "{path}: valid, {} confirmed",
                counted(
                    seed.seed.confirmed_learnings().count(),
                    "learning",
                    "learnings"
                )
            ),
        ),
    }];
    checks.push(match history {
        Ok(Some(history)) if history.uncommitted_changes => Check::warn(
            CheckArea::Seed,
            "seed history",
            format!(
                "{}; the seed has changes no commit holds (the next change commits them)",
                counted(history.commits, "commit", "commits")
            ),
            None,
        ),
        Ok(Some(history)) => Check::ok(
            CheckArea::Seed,
            "seed history",
            counted(history.commits, "commit", "commits"),
        ),
        Ok(None) => Check::warn(
            CheckArea::Seed,
            "seed history",
            "no git repository yet, so a corrupt seed cannot be restored (it is created at the next change)",
            None,
        ),
        Err(error) => Check::fail(
            CheckArea::Seed,
            "seed history",
            error.to_string(),
            "install git, or repair the repository in the data home",
        ),
    });
    checks
}

/// The index holds the current vector of every confirmed learning, and nothing else.
fn index_check(
    seed: Option<&Seed>,
    stored: Option<&Result<StoredVectors, IndexError>>,
    model_id: &str,
) -> Check {
    let (Some(seed), Some(stored)) = (seed, stored) else {
        return Check::ok(CheckArea::Index, "index", "no seed, nothing to index");
    };
    let stored = match stored {
        Ok(stored) => stored,
        Err(error) => {
            return Check::fail(
                CheckArea::Index,
                "index",
                error.to_string(),
                "carryover index",
            );
        }
    };
    let fresh = freshness(seed, stored);
    if fresh.learnings == 0 && fresh.is_fresh() {
        return Check::ok(
            CheckArea::Index,
            "index",
            "no confirmed learning to index yet",
        );
    }
    if fresh.is_fresh() {
        return Check::ok(
            CheckArea::Index,
            "index",
            format!(
                "{} indexed for {model_id}",
                counted(fresh.learnings, "learning", "learnings")
            ),
        );
    }
    let mut gaps = Vec::new();
    if fresh.missing + fresh.stale > 0 {
        gaps.push(format!(
            "{} of {} not indexed or changed since (session starts embed them each time)",
            fresh.missing + fresh.stale,
            counted(fresh.learnings, "learning", "learnings")
        ));
    }
    if fresh.orphaned > 0 {
        gaps.push(format!(
            "{} of learnings that are gone",
            counted(fresh.orphaned, "vector", "vectors")
        ));
    }
    Check::warn(
        CheckArea::Index,
        "index",
        gaps.join("; "),
        Some("carryover index".to_owned()),
    )
}

/// One check per problem in `config.toml`; a single ok one when there is none.
fn config_checks(path: &Path, present: bool, problems: &[ConfigProblem]) -> Vec<Check> {
    if problems.is_empty() {
        let detail = match present {
            true => format!("{}: every key known and valid", path.display()),
            false => format!("{}: none, every key at its default", path.display()),
        };
        return vec![Check::ok(CheckArea::Config, "config", detail)];
    }
    problems
        .iter()
        .map(|problem| {
            let at = match problem.line {
                Some(line) => format!("{} line {line}", problem.path.display()),
                None => problem.path.display().to_string(),
            };
            let subject = problem.key.clone().unwrap_or_else(|| "config".to_owned());
            match problem.kind {
                ConfigProblemKind::Syntax => Check::fail(
                    CheckArea::Config,
                    subject,
                    problem.to_string(),
                    format!("edit {at}"),
                ),
                ConfigProblemKind::UnknownKey | ConfigProblemKind::BadValue => Check::warn(
                    CheckArea::Config,
                    subject,
                    problem.to_string(),
                    Some(format!("edit {at}")),
                ),
            }
        })
        .collect()
}

/// A project's start-up template reaches the model only once trusted as it is.
fn trust_check(
    root: &Path,
    template: &Result<Option<TemplateFile>, TemplateError>,
    trusted: Option<&Result<bool, TemplateError>>,
    listed: bool,
) -> Check {
    const SUBJECT: &str = "project start-up template";
    let fix = format!("carryover trust --cwd {}", root.display());
    let file = match template {
        Ok(None) => {
            return Check::ok(
                CheckArea::Trust,
                SUBJECT,
                format!("{} has none", root.display()),
            );
        }
        Err(error) => return Check::warn(CheckArea::Trust, SUBJECT, error.to_string(), None),
        Ok(Some(file)) => file,
    };
    let path = file.path.display();
    // Trust refuses a file session start could not use: the front matter comes first.
    if let Err(problem) = StartupTemplate::parse(&file.text) {
        return Check::warn(
            CheckArea::Trust,
            SUBJECT,
            format!(
                "{path} is not a start-up template session start can use ({problem}), so it does not reach the model"
            ),
            Some(format!(
                "open it with front matter: a line `---`, a line `type: {INSTRUCTION_TYPE}`, a line `---`; then {fix}"
            )),
        );
    }
    match trusted {
        Some(Ok(true)) => Check::ok(CheckArea::Trust, SUBJECT, format!("{path}: trusted")),
        Some(Ok(false)) if listed => Check::warn(
            CheckArea::Trust,
            SUBJECT,
            format!(
                "{path} changed since you trusted it, so it does not reach the model; read it, then trust it again"
            ),
            Some(fix),
        ),
        Some(Ok(false)) | None => Check::warn(
            CheckArea::Trust,
            SUBJECT,
            format!(
                "{path} is not trusted, so it does not reach the model; read it, then trust it"
            ),
            Some(fix),
        ),
        // Trusting again sets the unreadable list aside and starts a new one.
        Some(Err(error @ TemplateError::CorruptTrust { .. })) => {
            Check::warn(CheckArea::Trust, SUBJECT, error.to_string(), Some(fix))
        }
        Some(Err(error)) => Check::warn(CheckArea::Trust, SUBJECT, error.to_string(), None),
    }
}

/// An agent's version is information: an agent not installed is not a failure.
fn client_check(client: &ClientVersion) -> Check {
    let detail = match &client.version {
        Some(version) => version.clone(),
        None => format!("`{}` not found on PATH", client.program),
    };
    Check::ok(CheckArea::Clients, client.name, detail)
}

/// The seed's sync: nothing without a remote; a warning when the last sync failed (a failed
/// sync blocks nothing and loses nothing, so it is no failure) or never ran.
pub fn sync_check(remote: Option<&str>, last: Option<&SyncRecord>) -> Option<Check> {
    let remote = remote?;
    Some(match last {
        None => Check::warn(
            CheckArea::Seed,
            "sync",
            format!("{remote} is set, but the seed was never synced"),
            Some("run `carryover sync`".to_owned()),
        ),
        Some(SyncRecord {
            error: Some(error),
            at,
            ..
        }) => Check::warn(
            CheckArea::Seed,
            "sync",
            format!(
                "the last sync with {remote} failed ({}): {error}",
                at.human()
            ),
            Some("run `carryover sync` to see it again; the local seed is intact".to_owned()),
        ),
        Some(record) => Check::ok(
            CheckArea::Seed,
            "sync",
            format!("synced with {remote} at {}", record.at.human()),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::agent_hooks::install_hooks;
    use crate::domain::ports::{
        MockEmbeddingIndex, MockPrograms, MockSeedRepository, MockSettingsFiles,
        MockTemplateSource, MockTrustStore, Repaired,
    };
    use crate::domain::retrieval::content_hash;
    use rstest::rstest;
    use serde_json::json;

    const ROOT: &str = "/code/p";

    fn example_seed() -> Seed {
        crate::application::testing::example_seed()
    }

    fn loaded(seed: Seed, repaired: bool) -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed,
            repaired: repaired.then(|| Repaired {
                problem: "truncated".into(),
                kept: Some("/d/seed.json.bad".into()),
                from_commit: "abc1234".into(),
            }),
        }))
    }

    fn history(commits: usize, dirty: bool) -> Result<Option<SeedHistory>, SeedError> {
        Ok(Some(SeedHistory {
            commits,
            last_subject: None,
            last_at: None,
            uncommitted_changes: dirty,
        }))
    }

    #[rstest]
    #[case::healthy(loaded(example_seed(), false), history(3, false), &[CheckStatus::Ok, CheckStatus::Ok], "3 commits")]
    #[case::one_commit(loaded(example_seed(), false), history(1, false), &[CheckStatus::Ok, CheckStatus::Ok], "1 commit")]
    #[case::no_seed(Ok(None), Ok(None), &[CheckStatus::Fail], "carryover init")]
    #[case::not_set_up(loaded(Seed::default(), false), history(1, false), &[CheckStatus::Warn, CheckStatus::Ok], "carryover init")]
    #[case::repaired(loaded(example_seed(), true), history(2, false), &[CheckStatus::Warn, CheckStatus::Ok], "abc1234")]
    #[case::no_repository(loaded(example_seed(), false), Ok(None), &[CheckStatus::Ok, CheckStatus::Warn], "no git repository")]
    #[case::uncommitted(loaded(example_seed(), false), history(2, true), &[CheckStatus::Ok, CheckStatus::Warn], "no commit holds")]
    #[case::unusable(
        Err(SeedError::Unrepairable { path: "/d/seed.json".into(), problem: "bad".into() }),
        Ok(None),
        &[CheckStatus::Fail],
        "carryover init"
    )]
    fn the_seed_loads_and_keeps_its_history(
        #[case] loaded: Result<Option<LoadedSeed>, SeedError>,
        #[case] history: Result<Option<SeedHistory>, SeedError>,
        #[case] statuses: &[CheckStatus],
        #[case] mentioned: &str,
    ) {
        let checks = seed_checks(&loaded, &history, Path::new("/d/seed.json"));
        assert_eq!(
            checks.iter().map(|c| c.status).collect::<Vec<_>>(),
            statuses
        );
        let said: String = checks
            .iter()
            .map(|c| format!("{} {}", c.detail, c.fix.clone().unwrap_or_default()))
            .collect();
        assert!(said.contains(mentioned), "{said}");
    }

    fn vectors_for(seed: &Seed, skip: usize) -> StoredVectors {
        let mut builder = StoredVectors::builder();
        for (_, learning) in seed.confirmed_learnings().skip(skip) {
            builder.insert(&learning.id, content_hash(&learning.content), &[1.0]);
        }
        builder.finish()
    }

    #[rstest]
    #[case::fresh(0, CheckStatus::Ok)]
    #[case::two_missing(2, CheckStatus::Warn)]
    fn the_index_matches_the_learnings(#[case] skip: usize, #[case] expected: CheckStatus) {
        let seed = example_seed();
        let stored = Ok(vectors_for(&seed, skip));
        let check = index_check(Some(&seed), Some(&stored), "m");
        assert_eq!(check.status, expected, "{check:?}");
        if expected == CheckStatus::Warn {
            assert_eq!(check.fix.as_deref(), Some("carryover index"));
            assert!(check.detail.starts_with("2 of 12 learnings"), "{check:?}");
        }
    }

    #[test]
    fn a_corrupt_index_fails_and_is_rebuilt() {
        let seed = example_seed();
        let stored = Err(IndexError::Corrupt {
            path: "/d/index/m.idx".into(),
            reason: "magic".into(),
        });
        let check = index_check(Some(&seed), Some(&stored), "m");
        assert_eq!(check.status, CheckStatus::Fail);
        assert_eq!(check.fix.as_deref(), Some("carryover index"));
    }

    #[rstest]
    #[case::none(vec![], CheckStatus::Ok)]
    #[case::unknown_key(vec![ConfigProblemKind::UnknownKey], CheckStatus::Warn)]
    #[case::bad_value(vec![ConfigProblemKind::BadValue, ConfigProblemKind::UnknownKey], CheckStatus::Warn)]
    #[case::syntax(vec![ConfigProblemKind::Syntax], CheckStatus::Fail)]
    fn config_mistakes_are_named_with_their_line(
        #[case] kinds: Vec<ConfigProblemKind>,
        #[case] expected: CheckStatus,
    ) {
        let problems: Vec<ConfigProblem> = kinds
            .iter()
            .map(|kind| ConfigProblem {
                path: "/d/config.toml".into(),
                line: Some(4),
                key: Some("retrieval.flor".into()),
                kind: *kind,
                detail: String::new(),
            })
            .collect();
        let checks = config_checks(Path::new("/d/config.toml"), true, &problems);
        assert_eq!(worst(&checks), expected);
        assert_eq!(checks.len(), problems.len().max(1));
        if !problems.is_empty() {
            assert_eq!(checks[0].fix.as_deref(), Some("edit /d/config.toml line 4"));
        }
    }

    fn template() -> Result<Option<TemplateFile>, TemplateError> {
        Ok(Some(TemplateFile {
            path: "/code/p/.carryover/_startup.md".into(),
            text: "---\ntype: agent/instruction\n---\nRun make status.\n".into(),
            sha256: "d1".into(),
        }))
    }

    #[rstest]
    #[case::no_front_matter("Run make status.\n")]
    #[case::wrong_type("---\ntype: note\n---\nRun make status.\n")]
    fn a_template_session_start_cannot_use_is_fixed_before_it_is_trusted(#[case] text: &str) {
        let template = Ok(Some(TemplateFile {
            path: "/code/p/.carryover/_startup.md".into(),
            text: text.into(),
            sha256: "d1".into(),
        }));
        let check = trust_check(Path::new(ROOT), &template, Some(&Ok(false)), false);
        assert_eq!(check.status, CheckStatus::Warn);
        assert!(check.detail.contains("session start can use"), "{check:?}");
        let fix = check.fix.unwrap();
        assert!(
            fix.contains("type: agent/instruction")
                && fix.ends_with("carryover trust --cwd /code/p"),
            "{fix}"
        );
    }

    #[rstest]
    #[case::no_template(Ok(None), None, false, CheckStatus::Ok, None)]
    #[case::trusted(template(), Some(Ok(true)), false, CheckStatus::Ok, None)]
    #[case::untrusted(
        template(),
        Some(Ok(false)),
        false,
        CheckStatus::Warn,
        Some("not trusted")
    )]
    #[case::changed(
        template(),
        Some(Ok(false)),
        true,
        CheckStatus::Warn,
        Some("changed since")
    )]
    fn a_project_template_reaches_the_model_once_trusted(
        #[case] template: Result<Option<TemplateFile>, TemplateError>,
        #[case] trusted: Option<Result<bool, TemplateError>>,
        #[case] listed: bool,
        #[case] expected: CheckStatus,
        #[case] said: Option<&str>,
    ) {
        let check = trust_check(Path::new(ROOT), &template, trusted.as_ref(), listed);
        assert_eq!(check.status, expected);
        if let Some(said) = said {
            assert!(check.detail.contains(said), "{check:?}");
            assert_eq!(check.fix.as_deref(), Some("carryover trust --cwd /code/p"));
        }
    }

    #[rstest]
    #[case::installed(Some("2.1.3 (Claude Code)"), "2.1.3 (Claude Code)")]
    #[case::absent(None, "`claude` not found on PATH")]
    fn a_missing_client_is_no_failure(#[case] version: Option<&str>, #[case] detail: &str) {
        let check = client_check(&ClientVersion {
            name: "Claude Code",
            program: "claude",
            version: version.map(str::to_owned),
        });
        assert_eq!(
            (check.status, check.detail.as_str()),
            (CheckStatus::Ok, detail)
        );
    }

    /// The whole service over mocks: a user-scope Claude Code install whose binary exists,
    /// an indexed seed, a clean config and no template is all ok.
    #[test]
    fn a_fresh_install_is_all_ok() {
        let wired = install_hooks(json!({}), AgentKind::Claude, Path::new("/opt/carryover"))
            .unwrap()
            .to_string();
        let mut files = MockSettingsFiles::new();
        files.expect_read().returning(move |path| {
            Ok((path == Path::new("/h/.claude/settings.json")).then(|| wired.clone()))
        });
        let mut seeds = MockSeedRepository::new();
        seeds
            .expect_load()
            .returning(|| loaded(example_seed(), false));
        seeds.expect_history().returning(|| history(2, false));
        seeds.expect_location().returning(|| "/d/seed.json".into());
        let mut index = MockEmbeddingIndex::new();
        index
            .expect_load()
            .returning(|_| Ok(vectors_for(&example_seed(), 0)));
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(|_| Ok(None));
        templates.expect_user_template().returning(|| Ok(None));
        let mut trust = MockTrustStore::new();
        trust.expect_is_trusted().never();
        let mut programs = MockPrograms::new();
        programs
            .expect_locate()
            .withf(|program| program == "/opt/carryover")
            .times(1)
            .returning(|p| ProgramLocation::Found(p.into()));
        programs
            .expect_versions()
            .returning(|names| names.iter().map(|_| None).collect());
        let doctor = Doctor::new(files, seeds, index, templates, trust, programs);
        let report = pollster::block_on(doctor.examine(&DoctorRequest {
            homes: Some(AgentHomes::under(Path::new("/h"))),
            project_root: ROOT.into(),
            model_id: "m".into(),
            config_path: "/d/config.toml".into(),
            config_present: false,
            config_problems: Vec::new(),
        }));
        assert_eq!(report.status(), CheckStatus::Ok, "{:#?}", report.checks);
        assert_eq!(report.agents.len(), 1);
        assert_eq!(report.agents[0].wiring(), Wiring::Complete);
        assert_eq!(report.clients.len(), CLIENTS.len());
    }

    #[rstest::rstest]
    #[case::no_remote(None, None, None)]
    #[case::never_synced(Some("/srv/seed.git"), None, Some(CheckStatus::Warn))]
    #[case::the_last_sync_failed(
        Some("/srv/seed.git"),
        Some(Some("unreachable")),
        Some(CheckStatus::Warn)
    )]
    #[case::the_last_sync_worked(Some("/srv/seed.git"), Some(None), Some(CheckStatus::Ok))]
    fn reports_the_last_sync(
        #[case] remote: Option<&str>,
        #[case] last: Option<Option<&str>>,
        #[case] expected: Option<CheckStatus>,
    ) {
        let record = last.map(|error| SyncRecord {
            at: crate::domain::seed::Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
            error: error.map(str::to_owned),
            conflicts: 0,
        });
        let check = sync_check(remote, record.as_ref());
        assert_eq!(check.as_ref().map(|c| c.status), expected);
        if let Some(Some(error)) = last {
            assert!(check.unwrap().detail.contains(error));
        }
    }
}
