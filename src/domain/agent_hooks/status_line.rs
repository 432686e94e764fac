//! Claude Code's `statusLine` setting: carryover's gauge where the user has none, never over
//! a status line of their own.

use std::path::Path;

use serde_json::{Value, json};

use super::{ShapeError, hook_command};

/// What wiring the status line did, or would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusLineChange {
    /// There was none: carryover's was added.
    Added,
    /// carryover's was there, and now runs this binary.
    Updated,
    /// carryover's was there as it should be.
    Unchanged,
    /// The user has a status line of their own; it was left alone.
    KeptTheirs,
    /// carryover's was taken out (uninstall).
    Removed,
    /// Nothing to do (uninstall, and none of carryover's was there).
    Absent,
}

/// Whether `command` runs carryover's status line: a program named `carryover` whose first
/// argument is `statusline`.
pub fn is_carryover_status_line(command: &str) -> bool {
    let Some((program, rest)) = super::command::first_word(command.trim_start()) else {
        return false;
    };
    super::command::is_carryover_program(Path::new(&program))
        && rest.split_whitespace().next() == Some("statusline")
}

fn is_ours(status_line: &Value) -> bool {
    status_line["command"]
        .as_str()
        .is_some_and(is_carryover_status_line)
}

/// Whether `settings` hold a status line of the user's own (not carryover's).
pub fn has_own_status_line(settings: &Value) -> bool {
    settings
        .get("statusLine")
        .is_some_and(|line| !line.is_null() && !is_ours(line))
}

/// `settings` with carryover's status line running `binary`, unless the user has their own.
pub fn install_status_line(
    mut settings: Value,
    binary: &Path,
) -> Result<(Value, StatusLineChange), ShapeError> {
    let root = settings.as_object_mut().ok_or_else(|| ShapeError {
        at: "$".into(),
        expected: "an object",
    })?;
    let wanted = json!({"type": "command", "command": hook_command(binary, &["statusline"])});
    let change = match root.get("statusLine") {
        None | Some(Value::Null) => StatusLineChange::Added,
        Some(existing) if !is_ours(existing) => {
            return Ok((settings, StatusLineChange::KeptTheirs));
        }
        Some(existing) if existing["command"] == wanted["command"] => {
            return Ok((settings, StatusLineChange::Unchanged));
        }
        Some(_) => StatusLineChange::Updated,
    };
    match root.get_mut("statusLine").and_then(Value::as_object_mut) {
        // Keep the user's other fields of carryover's entry (such as `padding`).
        Some(existing) => {
            existing.insert("type".into(), wanted["type"].clone());
            existing.insert("command".into(), wanted["command"].clone());
        }
        None => {
            root.insert("statusLine".into(), wanted);
        }
    }
    Ok((settings, change))
}

/// `settings` without carryover's status line; a status line of the user's stays.
pub fn uninstall_status_line(mut settings: Value) -> (Value, StatusLineChange) {
    let ours = settings.get("statusLine").is_some_and(is_ours);
    match settings.as_object_mut() {
        Some(root) if ours => {
            root.remove("statusLine");
            (settings, StatusLineChange::Removed)
        }
        _ => (settings, StatusLineChange::Absent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const BIN: &str = "/opt/bin/carryover";

    #[rstest]
    #[case::none(json!({}), StatusLineChange::Added)]
    #[case::ours(json!({"statusLine": {"type": "command", "command": "/opt/bin/carryover statusline"}}), StatusLineChange::Unchanged)]
    #[case::ours_moved(json!({"statusLine": {"type": "command", "command": "/old/carryover statusline", "padding": 2}}), StatusLineChange::Updated)]
    #[case::theirs(json!({"statusLine": {"type": "command", "command": "~/.claude/my-line.sh"}}), StatusLineChange::KeptTheirs)]
    fn wires_the_gauge_only_where_the_user_has_none(
        #[case] settings: Value,
        #[case] expected: StatusLineChange,
    ) {
        let before = settings.clone();
        let (after, change) = install_status_line(settings, Path::new(BIN)).unwrap();
        assert_eq!(change, expected);
        match change {
            StatusLineChange::KeptTheirs | StatusLineChange::Unchanged => assert_eq!(after, before),
            _ => assert_eq!(
                after["statusLine"]["command"],
                "/opt/bin/carryover statusline"
            ),
        }
        if expected == StatusLineChange::Updated {
            assert_eq!(
                after["statusLine"]["padding"], 2,
                "the user's other fields stay"
            );
        }
    }

    #[test]
    fn uninstall_takes_out_only_carryovers() {
        let ours = json!({"statusLine": {"type": "command", "command": "'/a b/carryover' statusline"}, "x": 1});
        assert_eq!(
            uninstall_status_line(ours),
            (json!({"x": 1}), StatusLineChange::Removed)
        );
        let theirs = json!({"statusLine": {"type": "command", "command": "my-line"}});
        assert_eq!(
            uninstall_status_line(theirs.clone()),
            (theirs, StatusLineChange::Absent)
        );
    }

    #[rstest]
    #[case("/usr/local/bin/carryover statusline", true)]
    #[case("'/home/me/My Tools/carryover' statusline", true)]
    #[case("carryover hook session-start", false)]
    #[case("/bin/statusline carryover", false)]
    fn recognises_carryovers_status_line(#[case] command: &str, #[case] ours: bool) {
        assert_eq!(is_carryover_status_line(command), ours);
    }
}
