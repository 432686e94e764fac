//! `carryover statusline` on the real client's status payloads, and the window it records
//! for the session.

use serde_json::Value;

use crate::support::{Replay, fixture};

fn payload(replay: &Replay, name: &str) -> Value {
    let text = fs_err::read_to_string(fixture(&format!(
        "claude-code-2.1.328/statusline/{name}.json"
    )))
    .unwrap()
    .replace("/home/user/code/notes", &replay.project.to_string_lossy());
    serde_json::from_str(&text).unwrap()
}

fn statusline(replay: &Replay, payload: &Value) -> String {
    let output = replay
        .env
        .carryover()
        .arg("statusline")
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn prints_fill_tier_and_waiting_proposals_on_one_line() {
    let replay = Replay::new("notes");
    assert_eq!(
        statusline(&replay, &payload(&replay, "statusline-before-first-reply")),
        "ctx –/1M · 3 proposals to review\n"
    );
    assert_eq!(
        statusline(&replay, &payload(&replay, "statusline-after-reply")),
        "ctx 72% (720k/1M) WARNING · 3 proposals to review\n"
    );
}

#[test]
fn a_broken_payload_still_prints_a_line() {
    let replay = Replay::new("notes");
    let output = replay
        .env
        .carryover()
        .arg("statusline")
        .write_stdin("{not json")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
}

/// The client's own window, recorded by the status line, decides the fill pre-compact
/// records, whatever the model table says (here a model it does not know).
#[test]
fn pre_compact_uses_the_window_the_client_reported() {
    let replay = Replay::new("notes");
    let mut status = payload(&replay, "statusline-after-reply");
    status["session_id"] = "2c764cf4-ae92-42d8-88b5-e0f2690d8874".into();
    status["context_window"]["context_window_size"] = 250_000.into();
    statusline(&replay, &status);
    replay.pre_compact("precompact-manual-1");
    let state = replay.state();
    assert_eq!(state["context_window"], 250_000, "{state}");
    assert_eq!(state["pre_compaction_tier"], "LOW", "{state}");
}
