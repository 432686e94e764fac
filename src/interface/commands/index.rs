//! `carryover index`: bring the embedding index up to date.

use std::io::{IsTerminal, Write};

use serde_json::json;

use crate::application::{IndexLearnings, IndexReport};
use crate::interface::cli::IndexArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs `index`; shows progress on a terminal, nothing otherwise.
pub fn index(args: &IndexArgs, app: &App) -> Result<(), CliError> {
    let show_progress = std::io::stderr().is_terminal() && !args.json;
    let report = refresh(app, show_progress)?;
    if show_progress {
        crate::tell!();
    }
    if args.json {
        crate::say!(
            "{}",
            json!({"total": report.total, "embedded": report.embedded, "reused": report.reused, "dropped": report.dropped})
        );
    } else {
        crate::say!(
            "Indexed {} learnings: {} embedded, {} unchanged, {} dropped.",
            report.total,
            report.embedded,
            report.reused,
            report.dropped
        );
    }
    Ok(())
}

/// Updates the index; `learn` calls it too so a new learning is ranked without a full pass.
pub fn refresh(app: &App, show_progress: bool) -> Result<IndexReport, CliError> {
    let service = IndexLearnings::new(app.seeds(COMMAND_LOCK_WAIT), app.embedder(), app.index());
    let mut progress = |done: usize, total: usize| {
        if show_progress {
            let _ = write!(std::io::stderr(), "\rindexing {done}/{total}");
        }
    };
    Ok(pollster::block_on(service.run(&mut progress))?)
}
