//! Resumed sessions, on a transcript the real client wrote with carryover's block in it: the
//! block is not injected twice, and only what changed since reaches the model.

use serde_json::json;

use crate::support::{Replay, envelope};

const SESSION: &str = "9f8577d1-5638-4c70-a7db-f48d11b5126a";

fn resume(replay: &Replay, session: &str, transcript: &str) -> (String, serde_json::Value) {
    let payload = json!({
        "session_id": session,
        "transcript_path": replay.env.home().join(".claude/transcripts").join(transcript),
        "cwd": replay.project,
        "hook_event_name": "SessionStart",
        "source": "resume",
    });
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (value, context) = envelope(&output.stdout);
    (context, value)
}

#[test]
fn a_transcript_that_holds_carryovers_block_gets_nothing_again() {
    let replay = Replay::new("notes");
    let (context, _) = resume(&replay, SESSION, &format!("{SESSION}.jsonl"));
    assert_eq!(context, "", "the client replays the block it stored");
}

#[test]
fn a_handoff_written_since_the_block_reaches_the_resumed_session() {
    let replay = Replay::new("notes");
    // Another session of the project ended after the resumed one's block was injected.
    let other = replay.project_dir().join("sessions/other-session");
    fs_err::create_dir_all(&other).unwrap();
    fs_err::write(
        other.join("handoff.md"),
        "---\nsession_id: other-session\ntimestamp: 2026-11-23T12:00:00Z\n---\n\n## What's In Progress\n- the payment sandbox stub\n",
    )
    .unwrap();
    let (context, _) = resume(&replay, SESSION, &format!("{SESSION}.jsonl"));
    assert!(
        context.starts_with("Handoff from a session that ended since this one began ("),
        "{context}"
    );
    assert!(
        context.contains("  - the payment sandbox stub"),
        "{context}"
    );
    assert!(!context.contains("Identity:"), "{context}");
    let (again, _) = resume(&replay, SESSION, &format!("{SESSION}.jsonl"));
    assert_eq!(again, "", "told once: the record holds it now");
}

#[test]
fn a_transcript_compacted_without_a_block_since_gets_the_whole_block() {
    let replay = Replay::new("notes");
    let session = "2c764cf4-ae92-42d8-88b5-e0f2690d8874";
    let (context, _) = resume(&replay, session, &format!("{session}.jsonl"));
    assert!(context.starts_with("Identity: Juno"), "{context}");
    assert!(context.contains("Relevant learnings ("), "{context}");
    assert!(!context.contains("<session-reset>") && !context.contains("compaction-notice"));
}
