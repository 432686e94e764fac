//! `carryover hook pre-compact`: record the fill and a checkpoint; print nothing.

use std::process::ExitCode;

use crate::application::PreCompactRequest;
use crate::domain::session_id::SessionId;
use crate::interface::composition::HOOK_LOCK_WAIT;
use crate::interface::environment::Environment;

use super::silent_hook;

/// Runs the hook. Always exits 0 with nothing on stdout.
pub fn pre_compact(env: Environment) -> ExitCode {
    silent_hook("pre-compact", env, |app, input, diagnostics| {
        let session_id = input.session_id.as_deref().and_then(|raw| {
            SessionId::parse(raw)
                .map_err(|error| diagnostics.push(error.to_string()))
                .ok()
        });
        let outcome =
            pollster::block_on(app.pre_compact(HOOK_LOCK_WAIT).record(PreCompactRequest {
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
    })
}
