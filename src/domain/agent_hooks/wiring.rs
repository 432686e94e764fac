//! Reading back which of carryover's hooks a settings document wires, for `doctor` and
//! `status`.

use serde_json::Value;

use super::{AgentKind, HookLayout, is_carryover_command};

/// One event carryover hooks for an agent, and the command wired for it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WiredEvent {
    /// The agent's event name.
    pub event: &'static str,
    /// carryover's command for it in the settings; `None` when the event is not wired.
    pub command: Option<String>,
}

/// How completely a settings file wires carryover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wiring {
    /// Every event carryover installs for the agent.
    Complete,
    /// Some events, not all.
    Partial,
    /// None.
    Absent,
}

/// For each event carryover installs for `agent`, the carryover command `settings` runs on
/// it (the first one, in the agent's `hooks.<event>[].hooks[].command` shape, or its flat
/// `hooks.<event>[].<command key>` one).
pub fn wired_events(settings: &Value, agent: AgentKind) -> Vec<WiredEvent> {
    let command_key = match agent.layout() {
        HookLayout::Grouped => None,
        HookLayout::Flat { command_key, .. } => Some(command_key),
    };
    agent
        .hooks()
        .into_iter()
        .map(|spec| {
            let entries = settings["hooks"][spec.event]
                .as_array()
                .into_iter()
                .flatten();
            let command = match command_key {
                None => entries
                    .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
                    .filter_map(|hook| hook["command"].as_str())
                    .find(|command| is_carryover_command(command)),
                Some(key) => entries
                    .filter_map(|entry| entry[key].as_str())
                    .find(|command| is_carryover_command(command)),
            };
            WiredEvent {
                event: spec.event,
                command: command.map(str::to_owned),
            }
        })
        .collect()
}

/// Whether the events are all, some or none wired.
pub fn wiring(events: &[WiredEvent]) -> Wiring {
    let wired = events.iter().filter(|e| e.command.is_some()).count();
    match wired {
        0 => Wiring::Absent,
        n if n == events.len() => Wiring::Complete,
        _ => Wiring::Partial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::agent_hooks::install_hooks;
    use rstest::rstest;
    use serde_json::json;
    use std::path::Path;

    #[test]
    fn an_install_wires_every_event() {
        for agent in AgentKind::ALL {
            let settings = install_hooks(json!({}), agent, Path::new("/opt/carryover")).unwrap();
            let events = wired_events(&settings, agent);
            assert_eq!(wiring(&events), Wiring::Complete, "{agent:?}");
            assert!(events.iter().all(|e| {
                e.command
                    .as_deref()
                    .unwrap()
                    .starts_with("/opt/carryover hook")
            }));
        }
    }

    #[rstest]
    #[case::nothing(json!({}), Wiring::Absent)]
    #[case::theirs_only(
        json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}}),
        Wiring::Absent
    )]
    #[case::one_event(
        json!({"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "/x/carryover hook pre-compact"}]}]}}),
        Wiring::Partial
    )]
    #[case::hooks_not_an_object(json!({"hooks": []}), Wiring::Absent)]
    fn reads_what_is_wired(#[case] settings: Value, #[case] expected: Wiring) {
        assert_eq!(
            wiring(&wired_events(&settings, AgentKind::Claude)),
            expected
        );
    }
}
