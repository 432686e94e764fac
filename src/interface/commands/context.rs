//! `carryover context`: what the next session would receive, without changing anything.

use serde_json::json;

use crate::application::{ContextRequest, SessionContextService};
use crate::domain::context::SessionContext;
use crate::interface::cli::ContextArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints the context as text, or as JSON with its metadata.
pub fn context(args: &ContextArgs, app: &App) -> Result<(), CliError> {
    let service = SessionContextService::new(app.seeds(COMMAND_LOCK_WAIT), app.clock.clone());
    let context = pollster::block_on(service.compose(ContextRequest {
        mode: app.mode(args.mode),
        budget_chars: app.config.budget_chars(),
    }));
    for notice in &context.user_notices {
        eprintln!("carryover: {notice}");
    }
    if args.json {
        println!("{}", to_json(&context));
    } else {
        println!("{}", context.text);
    }
    Ok(())
}

fn to_json(context: &SessionContext) -> serde_json::Value {
    json!({
        "context": context.text,
        "needs_setup": context.needs_setup,
        "mode": context.mode.as_str(),
        "token_estimate": context.token_estimate(),
        "learnings_shown": context.learnings.len(),
        "learnings_total": context.learnings_total,
        "learnings": context.learnings.iter().map(|learning| json!({
            "id": learning.id,
            "type": learning.kind.as_str(),
            "content": learning.content,
            "score": learning.score,
        })).collect::<Vec<_>>(),
        "proposal_count": context.proposal_count,
        "notice": null,
        "handoff": null,
        "startup_instruction": false,
    })
}
