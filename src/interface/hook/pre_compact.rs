//! `carryover hook pre-compact`: record the fill and a checkpoint; print nothing.

use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use crate::application::{PreCompact, PreCompactRequest};
use crate::domain::session_id::SessionId;
use crate::infrastructure::{ClaudeTranscriptReader, FsProjectContext};
use crate::interface::composition::{App, HOOK_LOCK_WAIT};
use crate::interface::environment::Environment;

use super::{HookInput, read_stdin, report};

const EVENT: &str = "pre-compact";

/// Runs the hook. Always exits 0 with nothing on stdout.
pub fn pre_compact(env: Environment) -> ExitCode {
    if std::panic::catch_unwind(AssertUnwindSafe(|| record(env))).is_err() {
        eprintln!("carryover {EVENT}: internal error; nothing recorded");
    }
    ExitCode::SUCCESS
}

fn record(env: Environment) {
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
    let session_id = input
        .session_id
        .as_deref()
        .and_then(|raw| match SessionId::parse(raw) {
            Ok(id) => Some(id),
            Err(error) => {
                diagnostics.push(error.to_string());
                None
            }
        });
    let service = PreCompact::new(
        app.states(HOOK_LOCK_WAIT),
        ClaudeTranscriptReader,
        FsProjectContext,
        app.clock.clone(),
    );
    let outcome = pollster::block_on(service.record(PreCompactRequest {
        session_id,
        transcript: input.transcript_path.clone(),
        cwd: app.cwd(input.cwd.as_deref()),
        trigger: input.trigger.clone(),
        custom_instructions: input.custom_instructions.clone(),
        payload_model: input.model.clone(),
        window: app.window_settings(),
        slug_style: app.slug_style(),
    }));
    diagnostics.extend(outcome.warnings);
    report(Some(&app), EVENT, &diagnostics);
}
