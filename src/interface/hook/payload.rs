//! What each agent expects a SessionStart hook to print.

use serde_json::json;

use crate::interface::cli::Agent;

/// The hook's stdout: for Claude Code exactly one JSON object carrying the context as
/// `additionalContext` (for the model) and, when there is something the user should see,
/// `systemMessage` (shown to the user, not to the model).
pub fn session_start_payload(agent: Agent, context: &str, user_message: Option<&str>) -> String {
    match agent {
        Agent::Claude => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_gets_one_object_with_the_context() {
        let printed = session_start_payload(Agent::Claude, "Identity: \"Juno\"\nx", None);
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
}
