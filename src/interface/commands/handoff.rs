//! `carryover handoff show|list`: the project's handoffs.

use serde_json::json;

use crate::application::HandoffFilter;
use crate::interface::cli::{HandoffArgs, HandoffCommand};
use crate::interface::composition::App;
use crate::interface::error::CliError;

/// Runs `handoff show` or `handoff list`.
pub fn handoff(args: &HandoffArgs, app: &App) -> Result<(), CliError> {
    let (cwd, json) = match &args.command {
        HandoffCommand::Show { cwd, json } | HandoffCommand::List { cwd, json } => (cwd, *json),
    };
    let project = app.project(&app.project_dir(cwd.as_deref())?);
    let slug = project.slug(app.slug_style());
    let handoffs = app.handoff_service();
    let failed = |error: crate::domain::HandoffError| CliError::failed(error.to_string(), None);
    match &args.command {
        HandoffCommand::List { .. } => {
            let entries = pollster::block_on(handoffs.list(&slug)).map_err(failed)?;
            // The one a new session starts with (none while handoffs are off): not always the
            // newest, since a session that only talked does not displace one that did work.
            let next = match app.config.handoff.enabled {
                true => pollster::block_on(handoffs.newest(&slug, &HandoffFilter::default()))
                    .map_err(failed)?
                    .found
                    .map(|found| found.entry.path),
                false => None,
            };
            let is_next = |path: &std::path::Path| next.as_deref() == Some(path);
            if json {
                let rows: Vec<_> = entries
                    .iter()
                    .map(|e| json!({"session": e.session, "path": e.path, "modified": e.modified.to_string(), "next": is_next(&e.path)}))
                    .collect();
                crate::say!(
                    "{}",
                    json!({"project": project.name, "root": project.root, "handoffs": rows})
                );
            } else if entries.is_empty() {
                crate::say!("No handoffs for {} yet.", project.root.display());
            } else {
                for entry in &entries {
                    let mark = match is_next(&entry.path) {
                        true => "  (the next session starts with it)",
                        false => "",
                    };
                    crate::say!(
                        "{}  {}  {}{mark}",
                        entry.modified.human(),
                        entry.session,
                        entry.path.display()
                    );
                }
            }
            Ok(())
        }
        HandoffCommand::Show { .. } => {
            let search = pollster::block_on(handoffs.newest(&slug, &HandoffFilter::default()))
                .map_err(failed)?;
            for skipped in &search.skipped {
                crate::tell!("carryover: {skipped}");
            }
            match search.found {
                Some(found) if json => {
                    crate::say!(
                        "{}",
                        json!({"session": found.entry.session, "path": found.entry.path, "modified": found.entry.modified.to_string(), "text": found.text})
                    );
                    Ok(())
                }
                Some(found) => {
                    crate::say!(
                        "# {} ({})\n\n{}",
                        found.entry.path.display(),
                        found.entry.modified.human(),
                        found.text.trim_end()
                    );
                    Ok(())
                }
                // As in text, so that a script tells "none yet" apart by the exit code, and
                // reads the reason in the JSON error printed at the edge.
                None => Err(CliError::refused(
                    format!("no handoff for {} yet", project.root.display()),
                    Some(
                        "handoffs are written by `carryover hook session-end` when a session ends",
                    ),
                )),
            }
        }
    }
}
