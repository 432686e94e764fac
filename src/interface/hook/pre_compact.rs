//! `carryover hook pre-compact`: record the fill and a checkpoint; print nothing.

use std::process::ExitCode;

use crate::application::PreCompactRequest;
use crate::domain::session_id::SessionId;
use crate::interface::composition::HOOK_LOCK_WAIT;
use crate::interface::environment::Environment;

use super::input::HookInput;
use super::{settle_copilot_events, silent_hook};

/// Whether the payload is Gemini CLI's per-turn `PreCompress`: the client fires it with
/// `trigger: auto` before every turn that has history, before it checks the size, whether or
/// not it then compresses (`tests/fixtures/gemini-cli-0.61.0/README.md`). Recorded, it would
/// write a checkpoint per prompt; ignored, nothing is lost that a Gemini session reads, as
/// the client starts no session with `source: compact` after compressing (ADR 0019).
/// `/compress` (`manual`) is recorded.
fn is_gemini_turn_check(input: &HookInput) -> bool {
    input.hook_event_name.as_deref() == Some("PreCompress")
        && input.trigger.as_deref() == Some("auto")
}

/// Runs the hook. Always exits 0 with nothing on stdout; a payload that names neither the
/// session nor its transcript records nothing.
pub fn pre_compact(env: Environment) -> ExitCode {
    silent_hook("pre-compact", env, |app, input, diagnostics| {
        if is_gemini_turn_check(&input) {
            return;
        }
        if input.session_id.is_none() && input.transcript_path.is_none() {
            // Nothing says which session is compacting: a record would take the place of
            // another session's and tell the next start nothing.
            diagnostics
                .push("no session_id or transcript_path in the payload; nothing recorded".into());
            return;
        }
        let session_id = input.session_id.as_deref().and_then(|raw| {
            SessionId::parse(raw)
                .map_err(|error| diagnostics.push(error.to_string()))
                .ok()
        });
        settle_copilot_events(app, &input, input.transcript_path.as_deref(), diagnostics);
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

#[cfg(test)]
mod tests {
    use super::*;

    use rstest::rstest;

    fn payload(name: &str) -> HookInput {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        HookInput::parse(&fs_err::read(path).unwrap()).0
    }

    #[rstest]
    #[case::gemini_before_every_turn("gemini-cli-0.61.0/hooks/precompress-auto-1.json", true)]
    #[case::gemini_before_a_real_compression(
        "gemini-cli-0.61.0/hooks/precompress-auto-8.json",
        true
    )]
    #[case::gemini_compress_command("gemini-cli-0.61.0/hooks/precompress-manual-1.json", false)]
    #[case::codex_auto("codex-0.169.0/hooks/precompact-auto-1.json", false)]
    #[case::claude_code("claude-code-2.1.328/hooks/precompact-manual-1.json", false)]
    fn only_geminis_per_turn_check_is_ignored(#[case] fixture: &str, #[case] ignored: bool) {
        assert_eq!(is_gemini_turn_check(&payload(fixture)), ignored);
    }
}
