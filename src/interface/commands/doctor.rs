//! `carryover doctor`: every check, grouped by area, each with what fixes it.

use serde_json::{Value, json};

use crate::application::{AgentSettings, DoctorReport, DoctorRequest};
use crate::domain::agent_hooks::Wiring;
use crate::domain::doctor::{CheckArea, CheckStatus};
use crate::domain::format::counted;
use crate::domain::ports::{Embedder, ProgramLocation};
use crate::interface::cli::DoctorArgs;
use crate::interface::composition::App;
use crate::interface::error::CliError;

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
    let report = pollster::block_on(app.doctor().examine(&request));
    if args.json {
        crate::say!("{}", to_json(&report));
    } else {
        crate::say!("{}", to_text(&report).trim_end());
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

fn to_text(report: &DoctorReport) -> String {
    let mut out = String::new();
    let mut area: Option<CheckArea> = None;
    for check in &report.checks {
        if area != Some(check.area) {
            area = Some(check.area);
            out.push_str(&format!("{}\n", check.area.as_str()));
        }
        out.push_str(&format!(
            "  {:<4}  {}: {}\n",
            check.status.as_str(),
            check.subject,
            check.detail
        ));
        if let Some(fix) = &check.fix {
            out.push_str(&format!("        fix: {fix}\n"));
        }
    }
    let count = |status| report.checks.iter().filter(|c| c.status == status).count();
    let (failed, warned) = (count(CheckStatus::Fail), count(CheckStatus::Warn));
    out.push('\n');
    out.push_str(&match (failed, warned) {
        (0, 0) => "Everything is in order.".to_owned(),
        (0, w) => format!(
            "No check failed; {} (see the fixes above).",
            counted(w, "warning", "warnings")
        ),
        (f, 0) => format!(
            "{} failed: run the fixes above.",
            counted(f, "check", "checks")
        ),
        (f, w) => format!(
            "{} failed, {}: run the fixes above.",
            counted(f, "check", "checks"),
            counted(w, "warning", "warnings")
        ),
    });
    out
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
