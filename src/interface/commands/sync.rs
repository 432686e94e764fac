//! `carryover sync`: share the seed with the user's other machines through a git remote.

use serde_json::json;

use crate::application::SyncReport;
use crate::domain::format::counted;
use crate::interface::cli::{SyncArgs, SyncCommand, SyncRemoteCommand};
use crate::interface::composition::App;
use crate::interface::error::CliError;

/// Runs `sync`, `sync remote add`, `sync remote show` or `sync remote remove`.
pub fn sync(args: &SyncArgs, app: &App) -> Result<(), CliError> {
    let service = app.seed_sync();
    match &args.command {
        Some(SyncCommand::Remote(SyncRemoteCommand::Add { url, json })) => {
            pollster::block_on(service.add_remote(url))?;
            if *json {
                crate::say!("{}", json!({ "remote": url }));
            } else {
                crate::say!(
                    "The seed syncs through {url}; `carryover sync` fetches, merges and pushes it."
                );
            }
        }
        Some(SyncCommand::Remote(SyncRemoteCommand::Show { json })) => {
            match pollster::block_on(service.remote())? {
                // A script asks whether one is set; null answers it without an error.
                None if *json => crate::say!("{}", json!({ "remote": null })),
                Some(url) if *json => crate::say!("{}", json!({ "remote": url })),
                Some(url) => crate::say!("{url}"),
                None => {
                    return Err(CliError::refused(
                        "no sync remote is set",
                        Some("run `carryover sync remote add URL`"),
                    ));
                }
            }
        }
        Some(SyncCommand::Remote(SyncRemoteCommand::Remove { json })) => {
            match pollster::block_on(service.remove_remote())? {
                Some(url) if *json => crate::say!("{}", json!({ "removed": url })),
                Some(url) => crate::say!(
                    "The seed no longer syncs through {url} (the remote and this seed are kept)."
                ),
                None => {
                    return Err(CliError::refused(
                        "no sync remote is set; nothing was changed",
                        None,
                    ));
                }
            }
        }
        None => {
            let result = pollster::block_on(service.run());
            if args.background {
                // The automatic sync prints nothing: its result is recorded for `status`
                // and `doctor`, and the log keeps what went wrong.
                if let Err(error) = &result {
                    app.log("sync", &[error.to_string()]);
                }
                if result.as_ref().is_ok_and(|r| r.merged) {
                    let _ = super::index::refresh(app, false);
                }
                return Ok(());
            }
            let report = result?;
            if report.merged
                && let Err(error) = super::index::refresh(app, false)
            {
                crate::tell!(
                    "carryover: synced, but the index was not updated: {}",
                    error.message
                );
            }
            print(&report, args.json);
        }
    }
    Ok(())
}

fn print(report: &SyncReport, as_json: bool) {
    if as_json {
        crate::say!(
            "{}",
            json!({
                "remote": report.remote,
                "fetched": report.fetched,
                "merged": report.merged,
                "pushed": report.pushed,
                "conflicts": report.conflicts.iter().map(|c| json!({
                    "path": c.path,
                    "kept": c.kept,
                    "other": c.other,
                })).collect::<Vec<_>>(),
                "learnings": report.learnings,
                "proposals": report.proposals,
                "forgotten": report.forgotten,
            })
        );
        return;
    }
    let done = [
        (report.fetched, "fetched"),
        (report.merged, "merged"),
        (report.pushed, "pushed"),
    ]
    .iter()
    .filter(|(happened, _)| *happened)
    .map(|(_, what)| *what)
    .collect::<Vec<_>>();
    let done = if done.is_empty() {
        "already in step".to_owned()
    } else {
        done.join(", ")
    };
    crate::say!(
        "Synced with {}: {done}. The seed holds {} and {}.",
        report.remote,
        counted(report.learnings, "learning", "learnings"),
        counted(report.proposals, "proposal", "proposals")
    );
    for conflict in &report.conflicts {
        crate::say!(
            "Both machines changed {}: kept {}; the other had {}.",
            conflict.path,
            conflict.kept,
            conflict.other
        );
    }
}
