//! `carryover status`: the seed's place, version, validity, counts and history.

use serde_json::json;

use super::doctor::wiring_name;
use crate::application::AgentSettings;
use crate::application::{SeedStatus, StatusReport};
use crate::domain::IndexError;
use crate::domain::agent_hooks::Wiring;
use crate::domain::format::{counted, relative_time};
use crate::domain::ports::{Embedder, ProgramLocation, SyncRecord};
use crate::domain::retrieval::IndexFreshness;
use crate::domain::seed::LearningKind;
use crate::interface::cli::StatusArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints the report; exits non-zero when the seed exists but cannot be used.
pub fn status(args: &StatusArgs, app: &App) -> Result<(), CliError> {
    let report = pollster::block_on(SeedStatus::new(app.seeds(COMMAND_LOCK_WAIT)).report());
    let setup = setup(app);
    if args.json {
        let mut value = to_json(&report, app);
        value["config"] = setup.config_json(app);
        value["hooks"] = setup.hooks_json();
        value["index"] = setup.index_json();
        value["sync"] = sync_json(app);
        crate::say!("{}", value);
    } else {
        let mut text = to_text(&report, app);
        text.push_str(&sync_text(app));
        text.push_str(&setup.text(app));
        crate::say!("{}", text.trim_end());
    }
    match &report.problem {
        Some(problem) => Err(CliError::failed(
            format!("the seed cannot be used: {problem}"),
            None,
        )),
        None => Ok(()),
    }
}

fn to_text(report: &StatusReport, app: &App) -> String {
    let now = app.clock.now();
    let mut out = format!(
        "Data home:  {}\nSeed:       {}\n",
        app.data_home.root().display(),
        report.seed_path.display()
    );
    let state = match (&report.problem, report.exists, report.needs_setup) {
        (Some(problem), _, _) => format!("unusable: {problem}"),
        (None, false, _) => "not created yet (run `carryover init`)".to_owned(),
        (None, true, true) => "valid, identity not set up (run `carryover init`)".to_owned(),
        (None, true, false) => "valid".to_owned(),
    };
    out.push_str(&format!("State:      {state}\n"));
    if let Some(version) = &report.version {
        out.push_str(&format!("Version:    {version}\n"));
    }
    if let Some((ai, principal)) = &report.identity {
        out.push_str(&format!("Identity:   {ai} (serving {principal})\n"));
    }
    if report.exists && report.problem.is_none() {
        let counts = report
            .learnings
            .iter()
            .map(|(kind, count)| match kind {
                LearningKind::Pattern => counted(*count, "pattern", "patterns"),
                LearningKind::Insight => counted(*count, "insight", "insights"),
                LearningKind::SelfKnowledge => format!("{count} self-knowledge"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!(
            "Learnings:  {counts}\nProposals:  {} pending\n",
            report.pending_proposals
        ));
        let last = report.last_session_at.map_or_else(
            || "never".to_owned(),
            |at| format!("{} ({})", relative_time(at, now), at.human()),
        );
        out.push_str(&format!("Last session: {last}\n"));
    }
    match &report.history {
        Ok(Some(history)) => {
            let last = match (&history.last_subject, history.last_at) {
                (Some(subject), Some(at)) => {
                    format!(", last {} \"{subject}\"", relative_time(at, now))
                }
                _ => String::new(),
            };
            let dirty = if history.uncommitted_changes {
                ", uncommitted changes to the seed"
            } else {
                ""
            };
            out.push_str(&format!(
                "Git:        {}{last}{dirty}\n",
                counted(history.commits, "commit", "commits")
            ));
        }
        Ok(None) => out.push_str("Git:        no repository yet (created on the first write)\n"),
        Err(problem) => out.push_str(&format!(
            "Git:        the history cannot be read: {problem}\n"
        )),
    }
    out
}

/// The sync remote and the last sync's result; `None` without a remote.
fn sync_state(app: &App) -> Option<(String, Option<SyncRecord>)> {
    let service = app.seed_sync();
    let remote = pollster::block_on(service.remote()).ok().flatten()?;
    Some((remote, pollster::block_on(service.last()).ok().flatten()))
}

fn sync_json(app: &App) -> serde_json::Value {
    match sync_state(app) {
        None => serde_json::Value::Null,
        Some((remote, last)) => json!({
            "remote": remote,
            "last_at": last.as_ref().map(|r| r.at.to_string()),
            "ok": last.as_ref().map(|r| r.error.is_none()),
            "error": last.as_ref().and_then(|r| r.error.clone()),
            "conflicts": last.as_ref().map(|r| r.conflicts),
        }),
    }
}

fn sync_text(app: &App) -> String {
    let Some((remote, last)) = sync_state(app) else {
        return String::new();
    };
    let now = app.clock.now();
    let last = match last {
        None => "never synced".to_owned(),
        Some(record) => match &record.error {
            None => format!("last synced {}", relative_time(record.at, now)),
            Some(error) => format!(
                "the last sync failed {}: {error}",
                relative_time(record.at, now)
            ),
        },
    };
    format!("Sync:       {remote}, {last}\n")
}

fn to_json(report: &StatusReport, app: &App) -> serde_json::Value {
    json!({
        "data_home": app.data_home.root(),
        "seed_path": report.seed_path,
        "exists": report.exists,
        "valid": report.is_valid(),
        "problem": report.problem,
        "needs_setup": report.needs_setup,
        "version": report.version,
        "identity": report.identity.as_ref().map(|(ai, principal)| json!({"ai_name": ai, "principal": principal})),
        "learnings": report.learnings.iter().map(|(kind, count)| (kind.as_str().to_owned(), json!(count))).collect::<serde_json::Map<_, _>>(),
        "pending_proposals": report.pending_proposals,
        "last_session_at": report.last_session_at.map(|at| at.to_string()),
        "repaired": report.repaired.as_ref().map(|r| json!({"problem": r.problem, "kept": r.kept, "from_commit": r.from_commit})),
        "git": match &report.history {
            Ok(history) => json!(history.as_ref().map(|h| json!({
                "commits": h.commits,
                "last_subject": h.last_subject,
                "last_at": h.last_at.map(|at| at.to_string()),
                "uncommitted_changes": h.uncommitted_changes,
            }))),
            Err(problem) => json!({"error": problem}),
        },
    })
}

/// What `status` tells of the set-up beyond the seed: the configuration, the agents' wiring
/// and the index.
struct Setup {
    agents: Vec<AgentSettings>,
    index: Result<Option<IndexFreshness>, IndexError>,
}

fn setup(app: &App) -> Setup {
    let doctor = app.doctor();
    let root = app.project(&app.cwd(None)).root;
    let homes = app.env.agent_homes();
    Setup {
        agents: pollster::block_on(doctor.agents(homes.as_ref(), &root)),
        index: pollster::block_on(doctor.index_freshness(&app.embedder().model_id())),
    }
}

impl Setup {
    fn text(&self, app: &App) -> String {
        let config = app.data_home.config_path();
        let state = match (app.config_problems.len(), config.exists()) {
            (0, true) => String::new(),
            (0, false) => " (absent: every key at its default)".to_owned(),
            (n, _) => format!(
                " ({}: run `carryover doctor`)",
                counted(n, "problem", "problems")
            ),
        };
        let mut out = format!("Config:     {}{state}\n", config.display());
        let hooks = if self.agents.is_empty() {
            "no agent settings found (run `carryover install`)".to_owned()
        } else {
            self.agents
                .iter()
                .map(|settings| format!("{} {}", settings.label(), wiring_words(settings)))
                .collect::<Vec<_>>()
                .join("; ")
        };
        out.push_str(&format!("Hooks:      {hooks}\n"));
        let index = match &self.index {
            Ok(None) => "nothing to index yet".to_owned(),
            Ok(Some(fresh)) if fresh.learnings == 0 && fresh.is_fresh() => {
                "nothing to index yet".to_owned()
            }
            Ok(Some(fresh)) if fresh.is_fresh() => format!(
                "up to date ({} indexed)",
                counted(fresh.learnings, "learning", "learnings")
            ),
            Ok(Some(fresh)) => format!(
                "{} of {} not indexed or changed since{} (run `carryover index`)",
                fresh.missing + fresh.stale,
                counted(fresh.learnings, "learning", "learnings"),
                match fresh.orphaned {
                    0 => String::new(),
                    n => format!(
                        ", {} of learnings that are gone",
                        counted(n, "vector", "vectors")
                    ),
                }
            ),
            Err(error) => format!("unreadable: {error} "),
        };
        out.push_str(&format!("Index:      {}\n", index.trim_end()));
        out
    }

    fn config_json(&self, app: &App) -> serde_json::Value {
        let config = app.data_home.config_path();
        json!({
            "path": config,
            "present": config.exists(),
            "problems": app.config_problems.iter().map(|p| json!({
                "line": p.line,
                "key": p.key,
                "message": p.to_string(),
            })).collect::<Vec<_>>(),
        })
    }

    fn hooks_json(&self) -> serde_json::Value {
        json!(
            self.agents
                .iter()
                .map(|settings| json!({
                    "agent": settings.agent.cli_name(),
                    "scope": settings.scope.to_string(),
                    "path": settings.path,
                    "wiring": wiring_name(settings),
                    "binary_ok": binary_ok(settings),
                }))
                .collect::<Vec<_>>()
        )
    }

    fn index_json(&self) -> serde_json::Value {
        match &self.index {
            Ok(None) => serde_json::Value::Null,
            Ok(Some(fresh)) => json!({
                "learnings": fresh.learnings,
                "current": fresh.current,
                "stale": fresh.stale,
                "missing": fresh.missing,
                "orphaned": fresh.orphaned,
                "fresh": fresh.is_fresh(),
            }),
            Err(error) => json!({"error": error.to_string()}),
        }
    }
}

fn binary_ok(settings: &AgentSettings) -> bool {
    settings
        .programs
        .iter()
        .all(|(_, location)| matches!(location, ProgramLocation::Found(_)))
}

fn wiring_words(settings: &AgentSettings) -> &'static str {
    match (&settings.problem, settings.wiring(), binary_ok(settings)) {
        (Some(_), _, _) => "unreadable (run `carryover doctor`)",
        (None, Wiring::Complete | Wiring::Partial, false) => {
            "wired to a binary that is gone (run `carryover doctor`)"
        }
        (None, Wiring::Complete, true) => "wired",
        (None, Wiring::Partial, true) => "partly wired (run `carryover doctor`)",
        (None, Wiring::Absent, _) => "not wired",
    }
}
