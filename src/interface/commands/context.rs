//! `carryover context`: what the next session would receive, without changing anything.

use serde_json::json;

use crate::application::{ContextRequest, StartInfo};
use crate::domain::compaction::StartSource;
use crate::domain::context::SessionContext;
use crate::domain::ports::ProjectContext;
use crate::domain::session::Session;
use crate::infrastructure::FsProjectContext;
use crate::interface::cli::{ContextArgs, StartSource as SourceArg};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Prints the context as text, or as JSON with its metadata.
pub fn context(args: &ContextArgs, app: &App) -> Result<(), CliError> {
    let cwd = match &args.cwd {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::refused(
                format!("{} is not a directory", dir.display()),
                None,
            ));
        }
        Some(dir) => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
        None => app.cwd(None),
    };
    let source = args.source.map(|source| match source {
        SourceArg::Startup => StartSource::Startup,
        SourceArg::Resume => StartSource::Resume,
        SourceArg::Clear => StartSource::Clear,
        SourceArg::Compact => StartSource::Compact,
    });
    let source = Some(source.unwrap_or(StartSource::Startup));
    let project = pollster::block_on(FsProjectContext.project(&cwd));
    let session = Session {
        id: args.session_id.clone(),
        source,
        project,
    };
    let started = app.start_session(session, false, COMMAND_LOCK_WAIT);
    for message in started
        .report
        .user_messages
        .iter()
        .chain(&started.report.warnings)
    {
        eprintln!("carryover: {message}");
    }
    let service = app.session_context(COMMAND_LOCK_WAIT);
    let context = pollster::block_on(service.compose(ContextRequest {
        mode: app.mode(args.mode),
        budget_chars: app.config.budget_chars(),
        instructions: started.instructions,
        retrieval: app.retrieval_settings(),
        start: StartInfo {
            session_id: args.session_id.clone(),
            source,
            cwd,
            transcript: None,
            payload_model: None,
            window: app.window_settings(),
            slug_style: app.slug_style(),
            handoffs_enabled: app.config.handoff.enabled,
            consume: false,
        },
    }));
    for diagnostic in &context.diagnostics {
        eprintln!("carryover: {diagnostic}");
    }
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
        "notice": context.notice.and_then(|kind| kind.notice_name()),
        "handoff": context.handoff,
        "startup_instruction": context.startup_instruction,
    })
}
