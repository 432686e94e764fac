//! `carryover import claude-memory`: Claude Code's memories of a project, proposed.

use serde_json::json;

use crate::application::{MemoryImport, ProposalOrigin, Skipped};
use crate::interface::cli::{ClaudeMemoryArgs, ImportCommand};
use crate::interface::composition::App;
use crate::interface::error::CliError;

use super::proposals::{dropped_reason, to_json};

/// The source an imported memory's proposal records.
const SOURCE: &str = "claude-memory";

/// Runs an `import` subcommand.
pub fn import(command: &ImportCommand, app: &App) -> Result<(), CliError> {
    match command {
        ImportCommand::ClaudeMemory(args) => claude_memory(args, app),
    }
}

fn claude_memory(args: &ClaudeMemoryArgs, app: &App) -> Result<(), CliError> {
    let dir = app.project_dir(args.cwd.as_deref())?;
    let project = app.project(&dir);
    let folder = match &args.dir {
        Some(folder) => std::path::absolute(folder).unwrap_or_else(|_| folder.clone()),
        None => app.claude_memory_folder(&project, &dir).ok_or_else(|| {
            CliError::refused(
                "HOME is not set, so Claude Code's folder is unknown",
                Some("pass --dir with the memory folder"),
            )
        })?,
    };
    let origin = ProposalOrigin {
        session: SOURCE,
        project: &project,
    };
    let import = pollster::block_on(app.import_agent_memory().run(
        &folder,
        origin,
        args.project,
        app.proposal_settings(),
        args.dry_run,
    ))?;
    for warning in &import.warnings {
        crate::tell!("carryover: {warning}");
    }
    if args.json {
        crate::say!("{}", as_json(&import, &folder, args.dry_run));
        return Ok(());
    }
    for (file, proposal) in &import.imported {
        crate::say!(
            "{:<14} {}  [{}]  ({file})",
            proposal.kind.as_str(),
            proposal.content,
            crate::domain::scope::scope_label(proposal.project.as_deref())
        );
    }
    for (file, why) in &import.skipped {
        crate::say!("  skipped {file}: {}", skip_reason(why));
    }
    let count = import.imported.len();
    if args.dry_run {
        crate::say!(
            "Dry run: {count} of {} would be proposed; nothing was written.",
            folder.display()
        );
    } else if count > 0 {
        crate::say!(
            "Proposed {count} from {}; review with `carryover proposals review`.",
            folder.display()
        );
    } else {
        crate::say!("Nothing new to propose from {}.", folder.display());
    }
    Ok(())
}

fn as_json(import: &MemoryImport, folder: &std::path::Path, dry_run: bool) -> serde_json::Value {
    let imported: Vec<_> = import
        .imported
        .iter()
        .map(|(file, proposal)| {
            let mut value = to_json(proposal);
            value["file"] = json!(file);
            value
        })
        .collect();
    let skipped: Vec<_> = import
        .skipped
        .iter()
        .map(|(file, why)| json!({"file": file, "reason": skip_reason(why)}))
        .collect();
    json!({
        "folder": folder,
        "dry_run": dry_run,
        "imported": imported,
        "skipped": skipped,
    })
}

fn skip_reason(why: &Skipped) -> String {
    match why {
        Skipped::Index => "the folder's index, not a memory".to_owned(),
        Skipped::Unreadable(reason) => format!("not read: {reason}"),
        Skipped::NoText => "holds no text to learn".to_owned(),
        Skipped::HoldsSecret => {
            "holds a secret: learn where it is kept instead, not the secret".to_owned()
        }
        Skipped::Dropped(dropped) => dropped_reason(dropped),
        Skipped::AddedMeanwhile => "proposed meanwhile by another carryover".to_owned(),
    }
}
