//! `carryover hook prompt`: the learnings a prompt needs, beside it, or nothing.

use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use crate::application::RecallRequest;
use crate::domain::format::recalled_learnings;
use crate::interface::cli::{Agent, PromptArgs};
use crate::interface::composition::{App, HOOK_LOCK_WAIT};
use crate::interface::environment::Environment;

use super::{
    HookInput, answer, prompt_payload, read_stdin, report, start_watchdog, stderr_line,
    with_system_message,
};

const EVENT: &str = "prompt";

/// Runs the hook. Always exits 0; prints one payload when something is recalled, else
/// nothing, even when recalling panics or takes too long.
pub fn prompt(args: &PromptArgs, env: Environment) -> ExitCode {
    start_watchdog(EVENT, None);
    let payload =
        std::panic::catch_unwind(AssertUnwindSafe(|| compose(args, env))).unwrap_or_else(|_| {
            stderr_line(&format!(
                "carryover {EVENT}: internal error; nothing recalled"
            ));
            None
        });
    answer(payload.as_deref());
    ExitCode::SUCCESS
}

fn compose(args: &PromptArgs, env: Environment) -> Option<String> {
    let (input, input_warning) = HookInput::parse(&read_stdin());
    let mut diagnostics: Vec<String> = input_warning.into_iter().collect();
    let app = match App::lenient(env) {
        Ok(app) => app,
        Err(error) => {
            diagnostics.push(error.message);
            report(None, EVENT, &diagnostics);
            return None;
        }
    };
    diagnostics.extend(app.warnings.iter().cloned());
    let prompt = input.prompt.as_deref().unwrap_or_default();
    let prompt = match args.agent {
        Agent::Gemini => without_hook_context(prompt),
        _ => prompt,
    };
    let outcome = pollster::block_on(app.prompt_recall(HOOK_LOCK_WAIT).run(RecallRequest {
        prompt: prompt.to_owned(),
        session_id: input.session_id.clone(),
        cwd: app.cwd(input.cwd.as_deref()),
        consume: true,
    }));
    let config = pollster::block_on(app.config_notice(HOOK_LOCK_WAIT).announce(
        input.session_id.as_deref(),
        &app.cwd(input.cwd.as_deref()),
        &app.config_problems,
    ));
    diagnostics.extend(outcome.diagnostics);
    diagnostics.extend(config.diagnostics);
    report(Some(&app), EVENT, &diagnostics);
    let text = recalled_learnings(
        outcome
            .recalled
            .iter()
            .map(|learning| (learning.kind, learning.content.as_str())),
    );
    let user_message = config
        .user_lines
        .iter()
        .map(|line| format!("carryover: {line}"))
        .collect::<Vec<_>>()
        .join("\n");
    with_system_message(prompt_payload(args.agent, &text), args.agent, &user_message)
}

/// Gemini CLI's `-p` mode sends the prompt with the session-start context before it, as
/// `<hook_context>…</hook_context>`: that is carryover's own text, not the user's.
fn without_hook_context(prompt: &str) -> &str {
    let mut rest = prompt.trim_start();
    while let Some(inner) = rest.strip_prefix("<hook_context>") {
        match inner.find("</hook_context>") {
            Some(end) => rest = inner[end + "</hook_context>".len()..].trim_start(),
            None => break,
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case(
        "<hook_context>Identity: Juno</hook_context>\n\nfix the build",
        "fix the build"
    )]
    #[case("fix the build", "fix the build")]
    #[case("<hook_context>unclosed", "<hook_context>unclosed")]
    fn gemini_prompts_lose_the_session_context_they_carry(
        #[case] prompt: &str,
        #[case] expected: &str,
    ) {
        assert_eq!(without_hook_context(prompt), expected);
    }
}
