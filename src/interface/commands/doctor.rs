//! `carryover doctor`: every check, grouped by area, each with what fixes it.

use serde_json::{Value, json};

use crate::application::{AgentSettings, DoctorReport, DoctorRequest, sync_check};
use crate::domain::agent_hooks::Wiring;
use crate::domain::doctor::{CheckArea, CheckStatus};
use crate::domain::format::counted;
use crate::domain::ports::{Embedder, ProgramLocation};
use crate::interface::cli::DoctorArgs;
use crate::interface::composition::App;
use crate::interface::error::CliError;
use crate::interface::output::{Tone, colour_on_stdout, say_toned};

/// Prints the report; exits 1 when a check failed.
pub fn doctor(args: &DoctorArgs, app: &App) -> Result<(), CliError> {
    let cwd = app.project_dir(args.cwd.as_deref())?;
    let project = app.project(&cwd);
    let config_path = app.data_home.config_path();
    let request = DoctorRequest {
        homes: app.env.agent_homes(),
        project_root: project.root,
        model_id: app.embedder().model_id(),
        config_present: config_path.exists(),
        config_path,
        config_problems: app.config_problems.clone(),
    };
    let mut report = pollster::block_on(app.doctor().examine(&request));
    let sync = app.seed_sync();
    let remote = pollster::block_on(sync.remote()).ok().flatten();
    let last = pollster::block_on(sync.last()).ok().flatten();
    if let Some(check) = sync_check(remote.as_deref(), last.as_ref()) {
        let after_seed = report
            .checks
            .iter()
            .rposition(|c| c.area == CheckArea::Seed)
            .map_or(report.checks.len(), |at| at + 1);
        report.checks.insert(after_seed, check);
    }
    if args.json {
        crate::say!("{}", to_json(&report));
    } else {
        let colour = colour_on_stdout();
        for (tone, line) in to_lines(&report) {
            match tone {
                Some(tone) => say_toned(tone, &line, colour),
                None => crate::say!("{line}"),
            }
        }
    }
    let failed = report
        .checks
        .iter()
        .filter(|c| c.status == CheckStatus::Fail)
        .count();
    match failed {
        0 => Ok(()),
        n => Err(CliError::failed(
            format!("{} failed", counted(n, "check", "checks")),
            None,
        )),
    }
}

/// The report as lines for people, each with the tone it is shown in on a terminal.
fn to_lines(report: &DoctorReport) -> Vec<(Option<Tone>, String)> {
    let mut out = Vec::new();
    let mut area: Option<CheckArea> = None;
    for check in &report.checks {
        if area != Some(check.area) {
            area = Some(check.area);
            out.push((Some(Tone::Heading), check.area.as_str().to_owned()));
        }
        out.push((
            Some(tone_of(check.status)),
            format!(
                "  {:<4}  {}: {}",
                check.status.as_str(),
                check.subject,
                check.detail
            ),
        ));
        if let Some(fix) = &check.fix {
            out.push((None, format!("        fix: {fix}")));
        }
    }
    let count = |status| report.checks.iter().filter(|c| c.status == status).count();
    let (failed, warned) = (count(CheckStatus::Fail), count(CheckStatus::Warn));
    out.push((None, String::new()));
    out.push(match (failed, warned) {
        (0, 0) => (Some(Tone::Good), "Everything is in order.".to_owned()),
        (0, w) => (
            Some(Tone::Warn),
            format!(
                "No check failed; {} (see the fixes above).",
                counted(w, "warning", "warnings")
            ),
        ),
        (f, 0) => (
            Some(Tone::Bad),
            format!(
                "{} failed: run the fixes above.",
                counted(f, "check", "checks")
            ),
        ),
        (f, w) => (
            Some(Tone::Bad),
            format!(
                "{} failed, {}: run the fixes above.",
                counted(f, "check", "checks"),
                counted(w, "warning", "warnings")
            ),
        ),
    });
    out
}

fn tone_of(status: CheckStatus) -> Tone {
    match status {
        CheckStatus::Ok => Tone::Good,
        CheckStatus::Warn => Tone::Warn,
        CheckStatus::Fail => Tone::Bad,
    }
}

fn to_json(report: &DoctorReport) -> Value {
    json!({
        "status": report.status().as_str(),
        "checks": report.checks.iter().map(|check| json!({
            "area": check.area.as_str(),
            "subject": check.subject,
            "status": check.status.as_str(),
            "detail": check.detail,
            "fix": check.fix,
        })).collect::<Vec<_>>(),
        "agents": report.agents.iter().map(agent_json).collect::<Vec<_>>(),
        "clients": report.clients.iter().map(|client| json!({
            "name": client.name,
            "program": client.program,
            "version": client.version,
        })).collect::<Vec<_>>(),
    })
}

fn agent_json(settings: &AgentSettings) -> Value {
    json!({
        "agent": settings.agent.cli_name(),
        "scope": settings.scope.to_string(),
        "path": settings.path,
        "wiring": wiring_name(settings),
        "events": settings.events.iter().map(|e| json!({"event": e.event, "command": e.command})).collect::<Vec<_>>(),
        "binaries": settings.programs.iter().map(|(program, location)| {
            let (state, path) = match location {
                ProgramLocation::Found(path) => ("found", Some(path)),
                ProgramLocation::NotExecutable(path) => ("not_executable", Some(path)),
                ProgramLocation::Missing => ("missing", None),
            };
            json!({"program": program, "state": state, "path": path})
        }).collect::<Vec<_>>(),
        "problem": settings.problem,
    })
}

/// `complete`, `partial`, `absent`, or `unreadable`.
pub fn wiring_name(settings: &AgentSettings) -> &'static str {
    match (&settings.problem, settings.wiring()) {
        (Some(_), _) => "unreadable",
        (None, Wiring::Complete) => "complete",
        (None, Wiring::Partial) => "partial",
        (None, Wiring::Absent) => "absent",
    }
}
