//! `carryover handoff show|list`: the project's handoffs.

use std::path::PathBuf;

use serde_json::json;

use crate::domain::handoff::read_handoff;
use crate::domain::ports::{HandoffStore, ProjectContext};
use crate::infrastructure::FsProjectContext;
use crate::interface::cli::{HandoffArgs, HandoffCommand};
use crate::interface::composition::App;
use crate::interface::error::CliError;

/// Runs `handoff show` or `handoff list`.
pub fn handoff(args: &HandoffArgs, app: &App) -> Result<(), CliError> {
    let (cwd, json) = match &args.command {
        HandoffCommand::Show { cwd, json } | HandoffCommand::List { cwd, json } => (cwd, *json),
    };
    let cwd: PathBuf = match cwd {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::refused(
                format!("{} is not a directory", dir.display()),
                None,
            ));
        }
        Some(dir) => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
        None => app.cwd(None),
    };
    let project = pollster::block_on(FsProjectContext.project(&cwd));
    let slug = project.slug(app.slug_style());
    let store = app.handoffs();
    let entries = pollster::block_on(store.list(&slug))
        .map_err(|error| CliError::failed(error.to_string(), None))?;
    match &args.command {
        HandoffCommand::List { .. } => {
            if json {
                let rows: Vec<_> = entries
                    .iter()
                    .map(|e| json!({"session": e.session, "path": e.path, "modified": e.modified.to_string()}))
                    .collect();
                println!(
                    "{}",
                    json!({"project": project.name, "root": project.root, "handoffs": rows})
                );
            } else if entries.is_empty() {
                println!("No handoffs for {} yet.", project.root.display());
            } else {
                for entry in &entries {
                    println!(
                        "{}  {}  {}",
                        entry.modified.human(),
                        entry.session,
                        entry.path.display()
                    );
                }
            }
            Ok(())
        }
        HandoffCommand::Show { .. } => {
            for entry in &entries {
                let Ok(text) = pollster::block_on(store.read(entry)) else {
                    continue;
                };
                if read_handoff(&text).is_err() {
                    eprintln!("carryover: skipped {} (empty)", entry.path.display());
                    continue;
                }
                if json {
                    println!(
                        "{}",
                        json!({"session": entry.session, "path": entry.path, "modified": entry.modified.to_string(), "text": text})
                    );
                } else {
                    println!(
                        "# {} ({})\n\n{}",
                        entry.path.display(),
                        entry.modified.human(),
                        text.trim_end()
                    );
                }
                return Ok(());
            }
            if json {
                println!("null");
                Ok(())
            } else {
                Err(CliError::refused(
                    format!("no handoff for {} yet", project.root.display()),
                    Some(
                        "handoffs are written by `carryover hook session-end` when a session ends",
                    ),
                ))
            }
        }
    }
}
