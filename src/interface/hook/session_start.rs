//! `carryover hook session-start`: print the session context for the agent.

use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use crate::application::StartRequest;
use crate::domain::compaction::StartSource;
use crate::domain::context::unusable_seed_notice;
use crate::interface::cli::SessionStartArgs;
use crate::interface::composition::{App, HOOK_LOCK_WAIT};
use crate::interface::environment::Environment;

use super::{
    HookInput, answer, read_stdin, report, session_start_payload, settle_copilot_events,
    start_watchdog, stderr_line, transcript_of,
};

const EVENT: &str = "session-start";

/// Runs the hook. Always exits 0 and prints one valid payload, even when composing panics or
/// takes too long.
pub fn session_start(args: &SessionStartArgs, env: Environment) -> ExitCode {
    start_watchdog(EVENT, Some(session_start_payload(args.agent, "", None)));
    let payload =
        std::panic::catch_unwind(AssertUnwindSafe(|| compose(args, env))).unwrap_or_else(|_| {
            stderr_line(&format!(
                "carryover {EVENT}: internal error; the session starts without context"
            ));
            session_start_payload(args.agent, "", None)
        });
    answer(Some(&payload));
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
    let source = input.source.as_deref().and_then(StartSource::parse);
    let transcript = transcript_of(&app, args.agent, &input);
    // A resume reads the transcript for what the client still holds of carryover's context.
    if source == Some(StartSource::Resume) {
        settle_copilot_events(&app, &input, transcript.as_deref(), &mut diagnostics);
    }
    let outcome = pollster::block_on(app.session_start(HOOK_LOCK_WAIT).run(StartRequest {
        session_id: input.session_id.clone(),
        source,
        cwd: app.cwd(input.cwd.as_deref()),
        transcript,
        payload_model: input.model.clone(),
        mode: app.mode(None),
        consume: true,
    }));
    let config = pollster::block_on(app.config_notice(HOOK_LOCK_WAIT).announce(
        input.session_id.as_deref(),
        &app.cwd(input.cwd.as_deref()),
        &app.config_problems,
    ));
    diagnostics.extend(outcome.user_messages.iter().cloned());
    diagnostics.extend(outcome.diagnostics);
    diagnostics.extend(config.diagnostics);
    report(Some(&app), EVENT, &diagnostics);
    let user_message = outcome
        .user_messages
        .iter()
        .chain(&config.user_lines)
        .map(|message| format!("carryover: {message}"))
        .collect::<Vec<_>>()
        .join("\n");
    session_start_payload(args.agent, &outcome.context.text, Some(&user_message))
}
