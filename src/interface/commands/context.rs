//! `carryover context`: what the next session would receive, without changing anything.

use serde_json::json;

use crate::application::StartRequest;
use crate::domain::compaction::StartSource;
use crate::domain::context::SessionContext;
use crate::interface::cli::{ContextArgs, StartSource as SourceArg};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints the context as text, or as JSON with its metadata: the session-start use case run
/// as a preview, which consumes and records nothing.
pub fn context(args: &ContextArgs, app: &App) -> Result<(), CliError> {
    let cwd = app.project_dir(args.cwd.as_deref())?;
    let source = match args.source.unwrap_or(SourceArg::Startup) {
        SourceArg::Startup => StartSource::Startup,
        SourceArg::Resume => StartSource::Resume,
        SourceArg::Clear => StartSource::Clear,
        SourceArg::Compact => StartSource::Compact,
    };
    let outcome = pollster::block_on(app.session_start(COMMAND_LOCK_WAIT).run(StartRequest {
        session_id: args.session_id.clone(),
        source: Some(source),
        cwd,
        transcript: None,
        payload_model: None,
        mode: app.mode(args.mode),
        consume: false,
    }));
    // The seed's notices (a repair) are told after the command; the session start's own
    // word for the same repair is not told twice.
    let notices = app.peek_store_notices();
    for message in outcome.diagnostics.iter().chain(&outcome.user_messages) {
        if !notices.contains(message) {
            crate::tell!("carryover: {message}");
        }
    }
    if args.json {
        crate::say!("{}", to_json(&outcome.context));
    } else {
        crate::say!("{}", outcome.context.text);
    }
    Ok(())
}

fn to_json(context: &SessionContext) -> serde_json::Value {
    json!({
        "context": context.text,
        "needs_setup": context.needs_setup,
        "mode": context.mode.as_str(),
        "moment": context.moment.as_str(),
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
        "notice": context.notice.and_then(|kind| kind.notice_name()),
        "handoff": context.handoff,
        "startup_instruction": context.startup_instruction,
    })
}
