//! `carryover status`: the seed's place, version, validity, counts and history.

use serde_json::json;

use crate::application::{SeedStatus, StatusReport};
use crate::domain::format::relative_time;
use crate::interface::cli::StatusArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints the report; exits non-zero when the seed exists but cannot be used.
pub fn status(args: &StatusArgs, app: &App) -> Result<(), CliError> {
    let report = pollster::block_on(SeedStatus::new(app.seeds(COMMAND_LOCK_WAIT)).report());
    if let Some(repaired) = &report.repaired {
        crate::tell!(
            "carryover repaired the seed ({}): restored commit {}, kept the bad file as {}",
            repaired.problem,
            repaired.from_commit,
            repaired.kept.display()
        );
    }
    if args.json {
        crate::say!("{}", to_json(&report, app));
    } else {
        crate::say!("{}", to_text(&report, app).trim_end());
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
            .map(|(kind, count)| format!("{count} {}", kind.as_str()))
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
                "Git:        {} commits{last}{dirty}\n",
                history.commits
            ));
        }
        Ok(None) => out.push_str("Git:        no repository yet (created on the first write)\n"),
        Err(problem) => out.push_str(&format!(
            "Git:        the history cannot be read: {problem}\n"
        )),
    }
    out
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
