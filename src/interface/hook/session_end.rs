//! `carryover hook session-end`: write the handoff and propose learnings; print nothing.

use std::process::ExitCode;
use std::time::Duration;

use crate::application::SessionEndRequest;
use crate::domain::session_id::SessionId;
use crate::interface::cli::SessionEndArgs;
use crate::interface::environment::Environment;

use super::{settle_copilot_events, silent_hook, transcript_of};

/// The client gives all SessionEnd hooks 1.5 s together: wait for the seed's lock briefly.
const SESSION_END_LOCK_WAIT: Duration = Duration::from_millis(400);

/// Runs the hook. Always exits 0 with nothing on stdout.
pub fn session_end(args: &SessionEndArgs, env: Environment) -> ExitCode {
    silent_hook("session-end", env, |app, input, diagnostics| {
        let session_id = match input.session_id.as_deref().map(SessionId::parse) {
            Some(Ok(id)) => id,
            Some(Err(error)) => return diagnostics.push(format!("{error}; no handoff written")),
            None => {
                return diagnostics.push("no session_id in the payload; no handoff written".into());
            }
        };
        let transcript = transcript_of(app, args.agent, &input);
        settle_copilot_events(app, &input, transcript.as_deref(), diagnostics);
        let outcome = pollster::block_on(app.session_end(SESSION_END_LOCK_WAIT).end(
            SessionEndRequest {
                session_id,
                transcript,
                cwd: app.cwd(input.cwd.as_deref()),
                settings: app.handoff_settings(),
                proposals: app.proposal_settings(),
            },
        ));
        if let Some(reason) = outcome.skipped {
            diagnostics.push(format!("no handoff written: {reason}"));
        }
        diagnostics.extend(outcome.warnings);
        // Pulls what other machines learned, off the hot path: the hook does not wait.
        app.sync_in_background();
    })
}
