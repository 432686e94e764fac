//! `carryover hook session-end`: write the handoff; print nothing.

use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::time::Duration;

use crate::application::{SessionEnd, SessionEndRequest};
use crate::domain::session_id::SessionId;
use crate::infrastructure::{ClaudeTranscriptReader, FsProjectContext};
use crate::interface::composition::App;
use crate::interface::environment::Environment;

use super::{HookInput, read_stdin, report};

const EVENT: &str = "session-end";

/// The client gives all SessionEnd hooks 1.5 s together: wait for the seed's lock briefly.
const SESSION_END_LOCK_WAIT: Duration = Duration::from_millis(400);

/// Runs the hook. Always exits 0 with nothing on stdout.
pub fn session_end(env: Environment) -> ExitCode {
    if std::panic::catch_unwind(AssertUnwindSafe(|| end(env))).is_err() {
        eprintln!("carryover {EVENT}: internal error; no handoff written");
    }
    ExitCode::SUCCESS
}

fn end(env: Environment) {
    let (input, input_warning) = HookInput::parse(&read_stdin());
    let mut diagnostics: Vec<String> = input_warning.into_iter().collect();
    let app = match App::lenient(env) {
        Ok(app) => app,
        Err(error) => {
            diagnostics.push(error.message);
            report(None, EVENT, &diagnostics);
            return;
        }
    };
    diagnostics.extend(app.warnings.iter().cloned());
    let session_id = match input.session_id.as_deref().map(SessionId::parse) {
        Some(Ok(id)) => id,
        Some(Err(error)) => {
            diagnostics.push(format!("{error}; no handoff written"));
            report(Some(&app), EVENT, &diagnostics);
            return;
        }
        None => {
            diagnostics.push("no session_id in the payload; no handoff written".to_owned());
            report(Some(&app), EVENT, &diagnostics);
            return;
        }
    };
    let service = SessionEnd::new(
        app.handoffs(),
        ClaudeTranscriptReader,
        FsProjectContext,
        app.seeds(SESSION_END_LOCK_WAIT),
        app.clock.clone(),
    );
    let outcome = pollster::block_on(service.end(SessionEndRequest {
        session_id,
        transcript: input.transcript_path.clone(),
        cwd: app.cwd(input.cwd.as_deref()),
        settings: app.handoff_settings(),
    }));
    diagnostics.extend(outcome.warnings);
    report(Some(&app), EVENT, &diagnostics);
}
