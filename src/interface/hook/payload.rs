//! What each agent expects a SessionStart hook to print.

use serde_json::json;

use crate::interface::cli::Agent;

/// The hook's stdout: for Claude Code exactly one JSON object carrying the context as
/// `additionalContext` (for the model) and, when there is something the user should see,
/// `systemMessage` (shown to the user, not to the model). Codex CLI reads Claude Code's
/// format, and Gemini CLI reads the same two fields (`hookSpecificOutput.additionalContext`,
/// `systemMessage`), so the three agents get one shape. Copilot CLI 1.0.102 reads a top-level
/// `additionalContext` and ignores `hookSpecificOutput` (tried against the real client, ADR
/// 0022); Cursor documents `additional_context`. Neither shows a `systemMessage`, and an
/// empty context is left out rather than sent as an empty message.
pub fn session_start_payload(agent: Agent, context: &str, user_message: Option<&str>) -> String {
    match agent {
        Agent::Copilot | Agent::Cursor => flat_context(agent, context).to_string(),
        Agent::Claude | Agent::Codex | Agent::Gemini => {
            let mut payload = json!({
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": context,
                }
            });
            if let Some(message) = user_message.filter(|m| !m.is_empty()) {
                payload["systemMessage"] = json!(message);
            }
            payload.to_string()
        }
        Agent::Plain => context.to_owned(),
    }
}

/// The prompt hook's stdout: nothing when nothing is recalled (the client then adds
/// nothing), else the event's `additionalContext` in the shape each agent reads: Claude Code
/// and Codex CLI under `UserPromptSubmit`, Gemini CLI under `BeforeAgent`.
pub fn prompt_payload(agent: Agent, context: &str) -> Option<String> {
    if context.is_empty() {
        return None;
    }
    let event = match agent {
        Agent::Claude | Agent::Codex => "UserPromptSubmit",
        Agent::Gemini => "BeforeAgent",
        Agent::Copilot => return Some(flat_context(agent, context).to_string()),
        // Cursor's beforeSubmitPrompt cannot add context; carryover does not wire it.
        Agent::Cursor => return None,
        Agent::Plain => return Some(context.to_owned()),
    };
    Some(
        json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": context,
            }
        })
        .to_string(),
    )
}

/// Copilot CLI's `{"additionalContext": …}` or Cursor's `{"additional_context": …}`; `{}` for
/// no context.
fn flat_context(agent: Agent, context: &str) -> serde_json::Value {
    let key = match agent {
        Agent::Cursor => "additional_context",
        _ => "additionalContext",
    };
    match context.is_empty() {
        true => json!({}),
        false => json!({ key: context }),
    }
}

/// `payload` with `message` for the user as its `systemMessage` (a field every hook event of
/// Claude Code, Codex CLI and Gemini CLI reads); an object of its own when there was no
/// payload. Plain output has nowhere to put it: it is left as it was.
pub fn with_system_message(payload: Option<String>, agent: Agent, message: &str) -> Option<String> {
    // Plain output has nowhere to put it, and Copilot CLI and Cursor show no `systemMessage`.
    if message.is_empty() || matches!(agent, Agent::Plain | Agent::Copilot | Agent::Cursor) {
        return payload;
    }
    let mut value = payload
        .as_deref()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok())
        .filter(serde_json::Value::is_object)
        .unwrap_or_else(|| json!({}));
    value["systemMessage"] = json!(message);
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    fn each_json_agent_gets_one_object_with_the_context(
        #[values(Agent::Claude, Agent::Codex, Agent::Gemini)] agent: Agent,
    ) {
        let printed = session_start_payload(agent, "Identity: \"Juno\"\nx", None);
        let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(value["hookSpecificOutput"]["hookEventName"], "SessionStart");
        assert_eq!(
            value["hookSpecificOutput"]["additionalContext"],
            "Identity: \"Juno\"\nx"
        );
        assert!(value.get("systemMessage").is_none());
    }

    #[test]
    fn a_user_message_travels_beside_the_context() {
        let printed = session_start_payload(Agent::Claude, "", Some("repaired"));
        let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(value["systemMessage"], "repaired");
    }

    #[test]
    fn plain_is_the_bare_text() {
        assert_eq!(
            session_start_payload(Agent::Plain, "text", Some("x")),
            "text"
        );
    }

    #[rstest::rstest]
    #[case(Agent::Claude, "UserPromptSubmit")]
    #[case(Agent::Codex, "UserPromptSubmit")]
    #[case(Agent::Gemini, "BeforeAgent")]
    fn a_recall_is_the_events_additional_context(#[case] agent: Agent, #[case] event: &str) {
        let printed = prompt_payload(agent, "Learnings for this prompt").unwrap();
        let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(value["hookSpecificOutput"]["hookEventName"], event);
        assert_eq!(
            value["hookSpecificOutput"]["additionalContext"],
            "Learnings for this prompt"
        );
    }

    /// Codex CLI 0.169.0's output schemas (`session-start.command.output`,
    /// `user-prompt-submit.command.output`) set `additionalProperties: false` at both levels:
    /// a key outside these makes the client reject the hook's output.
    #[rstest::rstest]
    #[case::start(
        session_start_payload(Agent::Codex, "ctx", Some("repaired")),
        "SessionStart"
    )]
    #[case::start_without_message(session_start_payload(Agent::Codex, "", None), "SessionStart")]
    #[case::prompt(prompt_payload(Agent::Codex, "recalled").unwrap(), "UserPromptSubmit")]
    fn codex_output_has_only_the_keys_its_schema_allows(
        #[case] printed: String,
        #[case] event: &str,
    ) {
        let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
        let top = [
            "continue",
            "hookSpecificOutput",
            "stopReason",
            "suppressOutput",
            "systemMessage",
        ];
        let object = value.as_object().unwrap();
        assert!(
            object.keys().all(|k| top.contains(&k.as_str())),
            "{printed}"
        );
        let inner = value["hookSpecificOutput"].as_object().unwrap();
        assert!(
            inner
                .keys()
                .all(|k| ["hookEventName", "additionalContext"].contains(&k.as_str())),
            "{printed}"
        );
        assert_eq!(inner["hookEventName"], event);
    }

    #[rstest::rstest]
    #[case::beside_a_recall(Some(r#"{"hookSpecificOutput":{}}"#.to_owned()), true)]
    #[case::alone(None, false)]
    fn a_user_message_joins_the_prompt_payload(
        #[case] payload: Option<String>,
        #[case] has_context: bool,
    ) {
        let printed = with_system_message(payload, Agent::Claude, "fix line 3").unwrap();
        let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(value["systemMessage"], "fix line 3");
        assert_eq!(value.get("hookSpecificOutput").is_some(), has_context);
        assert_eq!(with_system_message(None, Agent::Plain, "x"), None);
        assert_eq!(with_system_message(None, Agent::Claude, ""), None);
    }

    #[rstest::rstest]
    #[case::copilot_start(
        session_start_payload(Agent::Copilot, "ctx", Some("note")),
        r#"{"additionalContext":"ctx"}"#
    )]
    #[case::copilot_empty_start(session_start_payload(Agent::Copilot, "", None), "{}")]
    #[case::copilot_prompt(prompt_payload(Agent::Copilot, "ctx").unwrap(), r#"{"additionalContext":"ctx"}"#)]
    #[case::copilot_prompt_with_message(
        with_system_message(prompt_payload(Agent::Copilot, "ctx"), Agent::Copilot, "x").unwrap(),
        r#"{"additionalContext":"ctx"}"#
    )]
    #[case::cursor_start(
        session_start_payload(Agent::Cursor, "ctx", None),
        r#"{"additional_context":"ctx"}"#
    )]
    fn copilot_and_cursor_read_a_top_level_context(
        #[case] printed: String,
        #[case] expected: &str,
    ) {
        assert_eq!(printed, expected);
    }

    #[test]
    fn cursor_gets_no_prompt_payload() {
        assert_eq!(prompt_payload(Agent::Cursor, "ctx"), None);
    }

    #[test]
    fn nothing_recalled_prints_nothing() {
        assert_eq!(prompt_payload(Agent::Claude, ""), None);
        assert_eq!(prompt_payload(Agent::Plain, "x").as_deref(), Some("x"));
    }
}
