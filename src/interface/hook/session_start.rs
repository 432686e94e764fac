//! `carryover hook session-start`: print the session context for the agent.

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use crate::application::{ContextRequest, StartInfo};
use crate::domain::compaction::StartSource;
use crate::domain::context::unusable_seed_notice;
use crate::domain::ports::ProjectContext;
use crate::domain::session::Session;
use crate::infrastructure::FsProjectContext;
use crate::interface::cli::SessionStartArgs;
use crate::interface::composition::{App, HOOK_LOCK_WAIT};
use crate::interface::environment::Environment;

use super::{HookInput, read_stdin, report, session_start_payload};

const EVENT: &str = "session-start";

/// Runs the hook. Always exits 0 and prints one valid payload, even when composing panics.
pub fn session_start(args: &SessionStartArgs, env: Environment) -> ExitCode {
    let payload =
        std::panic::catch_unwind(AssertUnwindSafe(|| compose(args, env))).unwrap_or_else(|_| {
            eprintln!("carryover {EVENT}: internal error; the session starts without context");
            session_start_payload(args.agent, "", None)
        });
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{payload}");
    let _ = stdout.flush();
    ExitCode::SUCCESS
}

fn compose(args: &SessionStartArgs, env: Environment) -> String {
    let (input, input_warning) = HookInput::parse(&read_stdin());
    let mut diagnostics: Vec<String> = input_warning.into_iter().collect();
    let app = match App::lenient(env) {
        Ok(app) => app,
        Err(error) => {
            diagnostics.push(error.message.clone());
            report(None, EVENT, &diagnostics);
            let text = unusable_seed_notice(&error.message).render();
            return session_start_payload(args.agent, &text, None);
        }
    };
    diagnostics.extend(app.warnings.iter().cloned());
    let start = StartInfo {
        session_id: input.session_id.clone(),
        source: input.source.as_deref().and_then(StartSource::parse),
        cwd: app.cwd(input.cwd.as_deref()),
        transcript: input.transcript_path.clone(),
        payload_model: input.model.clone(),
        window: app.window_settings(),
        slug_style: app.slug_style(),
        handoffs_enabled: app.config.handoff.enabled,
        consume: true,
    };
    let project = pollster::block_on(FsProjectContext.project(&start.cwd));
    let session = Session {
        id: start.session_id.clone(),
        source: start.source,
        project,
    };
    let started = app.start_session(session, true, HOOK_LOCK_WAIT);
    diagnostics.extend(started.report.warnings.iter().cloned());
    let service = app.session_context(HOOK_LOCK_WAIT);
    let context = pollster::block_on(service.compose(ContextRequest {
        mode: app.mode(None),
        budget_chars: app.config.budget_chars(),
        start,
        instructions: started.instructions,
        retrieval: app.retrieval_settings(),
    }));
    diagnostics.extend(context.user_notices.iter().cloned());
    diagnostics.extend(context.diagnostics.iter().cloned());
    diagnostics.extend(started.report.user_messages.iter().cloned());
    report(Some(&app), EVENT, &diagnostics);
    let mut user_messages = context.user_notices.clone();
    user_messages.extend(started.report.user_messages);
    if context.needs_setup {
        user_messages.push("run `carryover init` to give the assistant its identity".to_owned());
    }
    let user_message = user_messages
        .iter()
        .map(|message| format!("carryover: {message}"))
        .collect::<Vec<_>>()
        .join("\n");
    session_start_payload(args.agent, &context.text, Some(&user_message))
}
