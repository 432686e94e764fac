//! Pre-compact and the session-start notices, replaying the real client's payloads.

use std::path::{Path, PathBuf};

use predicates::str::contains;
use serde_json::Value;

use crate::support::{Hermetic, Replay, envelope, succeeded};

#[test]
fn the_real_sequence_compact_then_compact_again_then_clear() {
    let replay = Replay::new("notes");
    replay.pre_compact("precompact-manual-1");

    let state = replay.state();
    assert_eq!(state["session_id"], "2c764cf4-ae92-42d8-88b5-e0f2690d8874");
    assert_eq!(state["pre_compaction_tokens"], 171_203);
    assert_eq!(
        state["context_window"], 1_000_000,
        "the transcript's model claude-opus-5-5 has a 1M window"
    );
    assert_eq!(state["pre_compaction_tier"], "NOMINAL");
    assert_eq!(state["trigger"], "manual");
    let checkpoint = PathBuf::from(state["checkpoint"].as_str().unwrap());
    assert!(checkpoint.starts_with(replay.project_dir().join("checkpoints")));
    let document = fs_err::read_to_string(&checkpoint).unwrap();
    assert!(document.contains("  - hello there"), "{document}");

    let first = replay.session_start("sessionstart-compact-1");
    assert!(
        first.starts_with(&format!(
            "<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">Context was compacted at NOMINAL tier (17% fill). Review checkpoint at {}. Resume from the last recorded state.</compaction-notice>",
            checkpoint.display()
        )),
        "{first}"
    );
    assert!(
        first.contains("Resumption summary from the checkpoint:\nLast requests:\n  - hello there"),
        "{first}"
    );
    assert!(first.contains("Identity: Juno (serving Mara)"));
    assert!(
        replay.state()["pre_compaction_fill"].is_null(),
        "the notice is one-time"
    );

    let second = replay.session_start("sessionstart-compact-1");
    assert!(!second.contains("compaction-notice"), "{second}");
    assert!(second.starts_with("Identity: Juno"), "{second}");

    let cleared = replay.session_start("sessionstart-clear-1");
    assert!(
        cleared.starts_with("<session-reset>New session started. No prior compaction state detected.</session-reset>"),
        "{cleared}"
    );
}

#[test]
fn a_configured_window_changes_fill_and_tier() {
    let replay = Replay::new("notes");
    fs_err::write(
        replay.env.data().join("config.toml"),
        "[context]\nwindow_tokens = 200000\n",
    )
    .unwrap();
    replay.pre_compact("precompact-manual-1");
    let context = replay.session_start("sessionstart-compact-1");
    assert!(
        context.starts_with("<compaction-notice tier=\"CRITICAL\" fill=\"0.86\">"),
        "{context}"
    );
}

#[test]
fn the_context_preview_does_not_consume_the_notice() {
    let replay = Replay::new("notes");
    replay.pre_compact("precompact-manual-1");
    for _ in 0..2 {
        replay
            .env
            .carryover()
            .args([
                "context",
                "--source",
                "compact",
                "--session-id",
                "2c764cf4-ae92-42d8-88b5-e0f2690d8874",
                "--cwd",
            ])
            .arg(&replay.project)
            .assert()
            .success()
            .stdout(contains(
                "<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">",
            ));
    }
    let json: Value = serde_json::from_slice(
        &replay
            .env
            .carryover()
            .args(["context", "--json", "--source", "compact", "--cwd"])
            .arg(&replay.project)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(json["notice"], "compaction");
    assert!(
        replay
            .session_start("sessionstart-compact-1")
            .contains("compaction-notice tier=")
    );
}

#[test]
fn without_pre_compact_the_transcript_boundary_gives_the_figures() {
    let replay = Replay::new("notes");
    let context = replay.session_start("sessionstart-compact-1");
    assert!(
        context.starts_with("<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">Context was compacted at NOMINAL tier (17% fill, 171,243 tokens before compaction"),
        "{context}"
    );
    assert!(
        !replay
            .session_start("sessionstart-compact-1")
            .contains("compaction-notice")
    );
}

#[test]
fn a_resume_carries_no_notice() {
    let replay = Replay::new("notes");
    replay.pre_compact("precompact-manual-1");
    for payload in ["sessionstart-resume-1", "sessionstart-resume-2"] {
        let context = replay.session_start(payload);
        assert!(
            context.starts_with("Identity: Juno"),
            "{payload}: {context}"
        );
    }
    assert!(
        replay
            .session_start("sessionstart-compact-1")
            .contains("<compaction-notice tier=")
    );
}

#[rstest::rstest]
#[case::empty(b"" as &[u8])]
#[case::garbage(b"not json")]
#[case::hostile_session(
    br#"{"session_id": "../../../etc/x", "transcript_path": "/nonexistent.jsonl", "cwd": "/tmp"}"#
)]
fn pre_compact_always_exits_0_silently(#[case] stdin: &[u8]) {
    let env = Hermetic::new();
    let output = env
        .carryover()
        .args(["hook", "pre-compact"])
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    let written: Vec<_> = walk(env.data().parent().unwrap())
        .into_iter()
        .filter(|p| p.is_file())
        .collect();
    let outside: Vec<_> = written
        .iter()
        .filter(|p| !p.starts_with(env.data()))
        .collect();
    assert!(
        outside.is_empty(),
        "written outside the data home: {outside:?}"
    );
    assert!(
        written
            .iter()
            .all(|p| !p.to_string_lossy().contains("..") && !p.to_string_lossy().contains("etc")),
        "a hostile session id reached a file name: {written:?}"
    );
}

#[test]
fn a_corrupt_state_file_loses_the_notice_not_the_session() {
    let replay = Replay::new("notes");
    replay.pre_compact("precompact-manual-1");
    fs_err::write(replay.project_dir().join("context-state.json"), "{ broken").unwrap();
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(replay.payload("sessionstart-compact-1"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let (_, context) = envelope(&output.stdout);
    assert!(context.contains("Identity: Juno"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("context-state.json"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs_err::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}

/// Runs `hook EVENT` with the fixture `payload` as session `session`; returns stdout's context.
fn hook_as(replay: &Replay, event: &str, payload: &str, session: &str) -> String {
    let mut value: Value = serde_json::from_slice(&replay.payload(payload)).unwrap();
    value["session_id"] = session.into();
    let output = replay
        .env
        .carryover()
        .args(["hook", event])
        .write_stdin(serde_json::to_vec(&value).unwrap())
        .output()
        .unwrap();
    succeeded(&output);
    match output.stdout.is_empty() {
        true => String::new(),
        false => envelope(&output.stdout).1,
    }
}

#[test]
fn two_sessions_of_one_project_each_get_their_own_compaction_notice() {
    let replay = Replay::new("notes");
    hook_as(&replay, "pre-compact", "precompact-manual-1", "session-a");
    hook_as(&replay, "pre-compact", "precompact-manual-1", "session-b");
    let mut checkpoints = Vec::new();
    for session in ["session-a", "session-b"] {
        let context = hook_as(&replay, "session-start", "sessionstart-compact-1", session);
        assert!(
            context.starts_with("<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">"),
            "{session}: {context}"
        );
        let checkpoint = context
            .split_once("Review checkpoint at ")
            .and_then(|(_, rest)| rest.split_once(". Resume"))
            .map(|(path, _)| path.to_owned())
            .unwrap_or_else(|| panic!("no checkpoint named: {context}"));
        checkpoints.push(checkpoint);
        let again = hook_as(&replay, "session-start", "sessionstart-compact-1", session);
        assert!(
            !again.contains("compaction-notice"),
            "{session} told twice: {again}"
        );
    }
    assert_ne!(
        checkpoints[0], checkpoints[1],
        "each session is shown its own checkpoint"
    );
}

#[test]
fn a_pre_compact_payload_that_is_not_json_records_nothing() {
    let replay = Replay::new("notes");
    replay.pre_compact("precompact-manual-1");
    let before = replay.state();
    let output = replay
        .env
        .carryover()
        .args(["hook", "pre-compact"])
        .current_dir(&replay.project)
        .write_stdin("{bad")
        .output()
        .unwrap();
    assert!(output.status.success() && output.stdout.is_empty());
    assert_eq!(replay.state(), before, "the recorded compaction is kept");
    let checkpoints = fs_err::read_dir(replay.project_dir().join("checkpoints"))
        .unwrap()
        .count();
    assert_eq!(checkpoints, 1, "no empty checkpoint is written");
}
