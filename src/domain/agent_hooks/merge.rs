//! Merging carryover's hooks into a settings document, and taking them out again, without
//! touching anything else in it.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::{AgentKind, HookLayout, HookSpec, hook_command, is_carryover_command};

/// A part of the settings that must be an object or an array to hold hooks, and is not; the
/// file is left alone rather than rewritten around it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at} is not {expected}, so the hooks cannot be merged")]
pub struct ShapeError {
    /// `$`-rooted JSON path of the part.
    pub at: String,
    /// What it should be (`an object`, `an array`).
    pub expected: &'static str,
}

/// Where a flat entry may name its command: Cursor's `command`, Copilot CLI's `bash` (or
/// `powershell`, or `command` as its cross-platform alias).
const COMMAND_KEYS: [&str; 3] = ["command", "bash", "powershell"];

/// The version Copilot CLI's and Cursor's hooks files declare.
const FLAT_VERSION: u64 = 1;

/// `settings` with carryover's hooks for `agent` running `binary`, each event holding one
/// group (or, in a flat layout, one entry) of carryover's own: an existing one is updated in
/// place (so a second install changes nothing, and a moved binary is replaced), carryover
/// hooks sharing a group with the user's hooks are taken out of it, and every other key,
/// event, group and hook stays as it was.
pub fn install_hooks(
    settings: Value,
    agent: AgentKind,
    binary: &Path,
) -> Result<Value, ShapeError> {
    let mut settings = uninstall_foreign_events(settings, agent)?;
    if let HookLayout::Flat {
        command_key,
        timeout_key,
        typed,
    } = agent.layout()
    {
        if let Some(root) = settings.as_object_mut() {
            root.entry("version").or_insert(json!(FLAT_VERSION));
        }
        let hooks = hooks_object(&mut settings)?;
        for spec in agent.hooks() {
            let mut entry = Map::new();
            if typed {
                entry.insert("type".into(), json!("command"));
            }
            entry.insert(command_key.into(), json!(hook_command(binary, spec.args)));
            entry.insert(timeout_key.into(), json!(spec.timeout));
            replace_own(hooks, &spec, Value::Object(entry))?;
        }
        return Ok(settings);
    }
    let hooks = hooks_object(&mut settings)?;
    for spec in agent.hooks() {
        let mut hook = Map::new();
        if let Some(name) = spec.name {
            hook.insert("name".into(), json!(name));
        }
        hook.insert("type".into(), json!("command"));
        hook.insert("command".into(), json!(hook_command(binary, spec.args)));
        hook.insert("timeout".into(), json!(spec.timeout));
        let mut group = Map::new();
        if let Some(matcher) = spec.matcher {
            group.insert("matcher".into(), json!(matcher));
        }
        group.insert("hooks".into(), json!([Value::Object(hook)]));

        let groups = hooks
            .entry(spec.event)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| ShapeError {
                at: format!("$.hooks.{}", spec.event),
                expected: "an array",
            })?;
        let owned = groups.iter().position(is_carryover_group);
        let mut kept = Vec::with_capacity(groups.len() + 1);
        for (index, mut existing) in std::mem::take(groups).into_iter().enumerate() {
            if Some(index) == owned {
                kept.push(Value::Object(group.clone()));
            } else if is_carryover_group(&existing) {
                // A second group of carryover's own: one is enough.
            } else if remove_carryover_hooks(&mut existing) {
                if !group_is_empty(&existing) {
                    kept.push(existing);
                }
            } else {
                kept.push(existing);
            }
        }
        if owned.is_none() {
            kept.push(Value::Object(group));
        }
        *groups = kept;
    }
    Ok(settings)
}

/// Puts `entry` where carryover's entry for `spec`'s event is (the first of them; any other is
/// dropped), or after the user's entries when there is none.
fn replace_own(
    hooks: &mut Map<String, Value>,
    spec: &HookSpec,
    entry: Value,
) -> Result<(), ShapeError> {
    let entries = hooks
        .entry(spec.event)
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or_else(|| ShapeError {
            at: format!("$.hooks.{}", spec.event),
            expected: "an array",
        })?;
    let mut entry = Some(entry);
    let mut kept = Vec::with_capacity(entries.len() + 1);
    for existing in std::mem::take(entries) {
        if is_carryover_hook(&existing) {
            kept.extend(entry.take());
        } else {
            kept.push(existing);
        }
    }
    kept.extend(entry);
    *entries = kept;
    Ok(())
}

/// `settings` without any carryover hook: groups left empty and events left without groups
/// are removed, and so is `hooks` when nothing is left in it; nothing else changes.
pub fn uninstall_hooks(mut settings: Value) -> Result<Value, ShapeError> {
    let Some(root) = settings.as_object_mut() else {
        return Err(ShapeError {
            at: "$".into(),
            expected: "an object",
        });
    };
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return Ok(settings);
    };
    let mut changed = false;
    hooks.retain(|_, groups| {
        let Some(list) = groups.as_array_mut() else {
            return true;
        };
        let before = list.len();
        let mut emptied = false;
        list.retain_mut(|group| {
            if is_flat_carryover_entry(group) {
                changed = true;
                emptied = true;
                return false;
            }
            if remove_carryover_hooks(group) {
                changed = true;
                if group_is_empty(group) {
                    emptied = true;
                    return false;
                }
            }
            true
        });
        !(emptied && list.is_empty() && before > 0)
    });
    if changed && hooks.is_empty() {
        root.remove("hooks");
    }
    Ok(settings)
}

/// Takes carryover's hooks out of events this agent no longer gets from carryover (an older
/// version's), so that an install leaves exactly the current set.
fn uninstall_foreign_events(settings: Value, agent: AgentKind) -> Result<Value, ShapeError> {
    let events: Vec<&str> = agent.hooks().iter().map(|spec| spec.event).collect();
    let Some(Value::Object(hooks)) = settings.get("hooks") else {
        return Ok(settings);
    };
    let stale: Vec<String> = hooks
        .iter()
        .filter(|(event, groups)| {
            !events.contains(&event.as_str())
                && groups
                    .as_array()
                    .is_some_and(|list| list.iter().any(holds_carryover_hook))
        })
        .map(|(event, _)| event.clone())
        .collect();
    if stale.is_empty() {
        return Ok(settings);
    }
    let mut settings = settings;
    let hooks = hooks_object(&mut settings)?;
    for event in stale {
        if let Some(Value::Array(list)) = hooks.get_mut(&event) {
            list.retain_mut(|group| {
                !is_flat_carryover_entry(group)
                    && (!remove_carryover_hooks(group) || !group_is_empty(group))
            });
            if list.is_empty() {
                hooks.remove(&event);
            }
        }
    }
    Ok(settings)
}

fn hooks_object(settings: &mut Value) -> Result<&mut Map<String, Value>, ShapeError> {
    let root = settings.as_object_mut().ok_or_else(|| ShapeError {
        at: "$".into(),
        expected: "an object",
    })?;
    root.entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| ShapeError {
            at: "$.hooks".into(),
            expected: "an object",
        })
}

fn group_hooks(group: &Value) -> Option<&Vec<Value>> {
    group.get("hooks")?.as_array()
}

/// A hook (in a group, or a flat entry) whose command runs carryover.
fn is_carryover_hook(hook: &Value) -> bool {
    COMMAND_KEYS.iter().any(|key| {
        hook.get(key)
            .and_then(Value::as_str)
            .is_some_and(is_carryover_command)
    })
}

/// A flat layout's entry (no `hooks` of its own) that is carryover's.
fn is_flat_carryover_entry(entry: &Value) -> bool {
    entry.get("hooks").is_none() && is_carryover_hook(entry)
}

fn holds_carryover_hook(group: &Value) -> bool {
    is_flat_carryover_entry(group)
        || group_hooks(group).is_some_and(|hooks| hooks.iter().any(is_carryover_hook))
}

/// A group whose hooks are all carryover's: carryover may rewrite it whole.
fn is_carryover_group(group: &Value) -> bool {
    group_hooks(group).is_some_and(|hooks| !hooks.is_empty() && hooks.iter().all(is_carryover_hook))
}

/// Removes carryover's hooks from a group; returns whether there were any.
fn remove_carryover_hooks(group: &mut Value) -> bool {
    let Some(hooks) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
        return false;
    };
    let before = hooks.len();
    hooks.retain(|hook| !is_carryover_hook(hook));
    hooks.len() != before
}

fn group_is_empty(group: &Value) -> bool {
    group_hooks(group).is_none_or(Vec::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const BINARY: &str = "/opt/bin/carryover";

    fn install(settings: Value, agent: AgentKind) -> Value {
        install_hooks(settings, agent, Path::new(BINARY)).unwrap()
    }

    fn user_hook() -> Value {
        json!({"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]})
    }

    #[test]
    fn claude_code_gets_four_events_in_exec_form_with_second_timeouts() {
        let settings = install(json!({}), AgentKind::Claude);
        assert_eq!(
            settings,
            json!({"hooks": {
                "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [
                    {"type": "command", "command": "/opt/bin/carryover hook session-start", "timeout": 10}]}],
                "UserPromptSubmit": [{"hooks": [
                    {"type": "command", "command": "/opt/bin/carryover hook prompt", "timeout": 10}]}],
                "PreCompact": [{"hooks": [
                    {"type": "command", "command": "/opt/bin/carryover hook pre-compact", "timeout": 10}]}],
                "SessionEnd": [{"hooks": [
                    {"type": "command", "command": "/opt/bin/carryover hook session-end", "timeout": 10}]}],
            }})
        );
    }

    #[test]
    fn gemini_gets_named_hooks_with_millisecond_timeouts_and_pre_compress() {
        let settings = install(json!({}), AgentKind::Gemini);
        let start = &settings["hooks"]["SessionStart"][0];
        assert!(start.get("matcher").is_none());
        assert_eq!(start["hooks"][0]["name"], "carryover-session-start");
        assert_eq!(start["hooks"][0]["timeout"], 10_000);
        assert_eq!(
            start["hooks"][0]["command"],
            "/opt/bin/carryover hook session-start --agent gemini"
        );
        assert!(settings["hooks"]["PreCompress"].is_array());
    }

    #[test]
    fn copilot_gets_a_versioned_file_of_flat_bash_entries_with_second_timeouts() {
        let settings = install(json!({}), AgentKind::Copilot);
        assert_eq!(
            settings,
            json!({"version": 1, "hooks": {
                "sessionStart": [{"type": "command",
                    "bash": "/opt/bin/carryover hook session-start --agent copilot", "timeoutSec": 10}],
                "userPromptSubmitted": [{"type": "command",
                    "bash": "/opt/bin/carryover hook prompt --agent copilot", "timeoutSec": 10}],
                "preCompact": [{"type": "command",
                    "bash": "/opt/bin/carryover hook pre-compact", "timeoutSec": 10}],
                "sessionEnd": [{"type": "command",
                    "bash": "/opt/bin/carryover hook session-end --agent copilot", "timeoutSec": 10}],
            }})
        );
        let keys: Vec<&String> = settings.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["version", "hooks"]);
    }

    #[test]
    fn cursor_keeps_the_users_hooks_and_gets_flat_command_entries() {
        let theirs = json!({"command": "./audit.sh"});
        let before = json!({"version": 1, "hooks": {
            "sessionStart": [theirs.clone()], "stop": [theirs.clone()]}});
        let after = install(before.clone(), AgentKind::Cursor);
        assert_eq!(
            after["hooks"]["sessionStart"],
            json!([theirs, {"command": "/opt/bin/carryover hook session-start --agent cursor",
                "timeout": 10}])
        );
        assert_eq!(after["hooks"]["stop"], before["hooks"]["stop"]);
        assert!(after["hooks"].get("beforeSubmitPrompt").is_none());
        assert_eq!(uninstall_hooks(after).unwrap(), before);
    }

    #[test]
    fn a_moved_binary_replaces_a_flat_entry_in_place() {
        let old = install_hooks(json!({}), AgentKind::Cursor, Path::new("/old/carryover")).unwrap();
        let mut with_user = old;
        with_user["hooks"]["sessionEnd"]
            .as_array_mut()
            .unwrap()
            .push(json!({"command": "./after.sh"}));
        let new = install(with_user, AgentKind::Cursor);
        assert_eq!(
            new["hooks"]["sessionEnd"],
            json!([{"command": "/opt/bin/carryover hook session-end", "timeout": 10},
                {"command": "./after.sh"}])
        );
    }

    #[test]
    fn keeps_every_other_key_and_hook_in_place() {
        let before = json!({
            "model": "opus",
            "permissions": {"allow": ["Bash(ls)"]},
            "hooks": {"SessionStart": [user_hook()], "Stop": [user_hook()]},
        });
        let after = install(before.clone(), AgentKind::Claude);
        assert_eq!(after["model"], "opus");
        assert_eq!(after["permissions"], before["permissions"]);
        assert_eq!(after["hooks"]["Stop"], before["hooks"]["Stop"]);
        assert_eq!(after["hooks"]["SessionStart"][0], user_hook());
        assert_eq!(after["hooks"]["SessionStart"].as_array().unwrap().len(), 2);
        let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "permissions", "hooks"], "order kept");
    }

    #[rstest]
    #[case(AgentKind::Claude)]
    #[case(AgentKind::Codex)]
    #[case(AgentKind::Gemini)]
    #[case(AgentKind::Copilot)]
    #[case(AgentKind::Cursor)]
    fn a_second_install_changes_nothing(#[case] agent: AgentKind) {
        let once = install(json!({"hooks": {"SessionStart": [user_hook()]}}), agent);
        assert_eq!(install(once.clone(), agent), once);
    }

    #[test]
    fn a_moved_binary_replaces_the_old_hooks_in_place() {
        let old = install_hooks(json!({}), AgentKind::Claude, Path::new("/old/carryover")).unwrap();
        let mut with_user = old.clone();
        with_user["hooks"]["SessionStart"]
            .as_array_mut()
            .unwrap()
            .push(user_hook());
        let new = install(with_user, AgentKind::Claude);
        let starts = new["hooks"]["SessionStart"].as_array().unwrap();
        assert_eq!(starts.len(), 2);
        assert_eq!(
            starts[0]["hooks"][0]["command"], "/opt/bin/carryover hook session-start",
            "updated where it was"
        );
        assert_eq!(starts[1], user_hook());
    }

    #[test]
    fn a_carryover_hook_sharing_a_users_group_moves_to_its_own() {
        let shared = json!({"hooks": {"PreCompact": [{"hooks": [
            {"type": "command", "command": "echo before"},
            {"type": "command", "command": "/old/carryover hook pre-compact"},
        ]}]}});
        let after = install(shared, AgentKind::Claude);
        let groups = after["hooks"]["PreCompact"].as_array().unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0]["hooks"].as_array().unwrap().len(), 1);
        assert_eq!(groups[0]["hooks"][0]["command"], "echo before");
        assert_eq!(
            groups[1]["hooks"][0]["command"],
            "/opt/bin/carryover hook pre-compact"
        );
    }

    #[test]
    fn hooks_of_events_carryover_no_longer_uses_are_removed() {
        let stale = json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "/old/carryover hook stop"}]}]}});
        let after = install(stale, AgentKind::Codex);
        assert!(after["hooks"].get("Stop").is_none());
    }

    #[test]
    fn uninstall_removes_only_carryovers_entries() {
        let before = json!({
            "model": "opus",
            "hooks": {"SessionStart": [user_hook()], "Stop": [user_hook()]},
        });
        let installed = install(before.clone(), AgentKind::Claude);
        assert_eq!(uninstall_hooks(installed).unwrap(), before);
        let only_ours = install(json!({"model": "opus"}), AgentKind::Gemini);
        assert_eq!(
            uninstall_hooks(only_ours).unwrap(),
            json!({"model": "opus"})
        );
    }

    #[test]
    fn uninstall_leaves_a_users_empty_structures_alone() {
        let before = json!({"hooks": {"Stop": [], "Notification": [{"hooks": []}]}});
        assert_eq!(uninstall_hooks(before.clone()).unwrap(), before);
    }

    #[rstest]
    #[case::not_an_object(json!([1]), "$", "an object")]
    #[case::hooks_not_an_object(json!({"hooks": []}), "$.hooks", "an object")]
    #[case::event_not_an_array(json!({"hooks": {"SessionStart": {"hooks": []}}}), "$.hooks.SessionStart", "an array")]
    fn refuses_settings_it_cannot_merge_into(
        #[case] settings: Value,
        #[case] at: &str,
        #[case] expected: &str,
    ) {
        let error = install_hooks(settings, AgentKind::Claude, Path::new(BINARY)).unwrap_err();
        assert_eq!((error.at.as_str(), error.expected), (at, expected));
    }
}
