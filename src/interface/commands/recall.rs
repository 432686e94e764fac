//! `carryover recall`: which learnings a prompt would recall, without recording anything.

use serde_json::json;

use crate::application::RecallRequest;
use crate::domain::format::recalled_learnings;
use crate::interface::cli::RecallArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints what `hook prompt` would put beside the prompt (nothing recalled says so), or JSON
/// with each learning's probability and why nothing was, when nothing was.
pub fn recall(args: &RecallArgs, app: &App) -> Result<(), CliError> {
    let cwd = app.project_dir(args.cwd.as_deref())?;
    let outcome = pollster::block_on(app.prompt_recall(COMMAND_LOCK_WAIT).run(RecallRequest {
        prompt: args.prompt.join(" "),
        session_id: args.session_id.clone(),
        cwd,
        consume: false,
    }));
    for message in &outcome.diagnostics {
        crate::tell!("carryover: {message}");
    }
    if args.json {
        crate::say!(
            "{}",
            json!({
                "recalled": outcome.recalled.iter().map(|learning| json!({
                    "id": learning.id,
                    "type": learning.kind.as_str(),
                    "content": learning.content,
                    "probability": learning.probability,
                })).collect::<Vec<_>>(),
                "considered": outcome.considered,
                "silence": outcome.silence.map(|why| why.as_str()),
            })
        );
        return Ok(());
    }
    let text = recalled_learnings(
        outcome
            .recalled
            .iter()
            .map(|learning| (learning.kind, learning.content.as_str())),
    );
    if text.is_empty() {
        let why = outcome.silence.map_or_else(
            || {
                format!(
                    "none of {} learnings is relevant enough",
                    outcome.considered
                )
            },
            |why| why.as_str().to_owned(),
        );
        crate::say!("Nothing recalled ({why}).");
    } else {
        crate::say!("{text}");
    }
    Ok(())
}
