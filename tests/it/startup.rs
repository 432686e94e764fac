//! The start-up instruction end to end: flags, trust, once per session.

use predicates::str::contains;

use crate::support::{Replay, envelope, fixture};

const INSTRUCTION: &str =
    "Before anything else this session, run `make status` and report its result in one line.";

/// The notes project with the fixture template, the flag set, and (optionally) trusted.
fn notes(trusted: bool) -> Replay {
    let replay = Replay::new("notes");
    let dir = replay.project.join(".carryover");
    fs_err::create_dir_all(&dir).unwrap();
    fs_err::copy(fixture("startup/_startup.md"), dir.join("_startup.md")).unwrap();
    replay
        .env
        .carryover()
        .args(["flags", "set", "startup-instruction", "make status"])
        .assert()
        .success();
    if trusted {
        replay
            .env
            .carryover()
            .args(["trust", "--yes", "--cwd"])
            .arg(&replay.project)
            .assert()
            .success()
            .stdout(contains("Trusted"));
    }
    replay
}

/// The hook's output for a fixture payload: the context and the user's message.
fn start(replay: &Replay, payload: &str) -> (String, Option<String>) {
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(replay.payload(payload))
        .output()
        .unwrap();
    assert!(output.status.success());
    let (value, context) = envelope(&output.stdout);
    (context, value["systemMessage"].as_str().map(str::to_owned))
}

#[test]
fn once_per_session_across_startup_resume_compact_and_clear() {
    let replay = notes(true);
    let opens_with_it = |payload: &str| start(&replay, payload).0.starts_with(INSTRUCTION);
    assert!(
        opens_with_it("sessionstart-startup-1"),
        "a new session gets it"
    );
    assert!(
        !opens_with_it("sessionstart-resume-1"),
        "a resume does not repeat it"
    );
    assert!(
        !opens_with_it("sessionstart-compact-1"),
        "a compaction does not repeat it"
    );
    assert!(
        opens_with_it("sessionstart-clear-1"),
        "a cleared session is a new one"
    );
    assert!(!opens_with_it("sessionstart-resume-2"));
    assert!(
        !opens_with_it("sessionstart-startup-1"),
        "a start that reuses an instructed session's id is not told again"
    );
}

#[test]
fn a_resumed_session_never_gets_it_even_if_it_missed_it_at_startup() {
    let replay = notes(true);
    let opens_with_it = |payload: &str| start(&replay, payload).0.starts_with(INSTRUCTION);
    assert!(!opens_with_it("sessionstart-resume-1"));
    assert!(!opens_with_it("sessionstart-compact-1"));
}

#[test]
fn an_untrusted_or_changed_template_injects_nothing_and_says_how_to_trust_it() {
    let replay = notes(false);
    let (context, message) = start(&replay, "sessionstart-startup-1");
    assert!(!context.contains("make status"), "{context}");
    let message = message.expect("the user is told");
    assert!(message.contains("carryover trust --cwd"), "{message}");

    replay
        .env
        .carryover()
        .args(["trust", "--yes", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success();
    assert!(
        start(&replay, "sessionstart-clear-1")
            .0
            .starts_with(INSTRUCTION)
    );

    let template = replay.project.join(".carryover/_startup.md");
    let changed = fs_err::read_to_string(&template)
        .unwrap()
        .replace("in one line", "in detail");
    fs_err::write(&template, changed).unwrap();
    let (context, message) = start(&replay, "sessionstart-startup-1");
    assert!(
        !context.contains("make status"),
        "a changed template needs trust again"
    );
    assert!(message.unwrap().contains("new or changed"));

    replay
        .env
        .carryover()
        .args(["trust", "--yes", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success();
    replay
        .env
        .carryover()
        .args(["trust", "--revoke", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success()
        .stdout(contains("No longer trusted"));
    assert!(
        !start(&replay, "sessionstart-clear-1")
            .0
            .contains("make status")
    );
    replay
        .env
        .carryover()
        .args(["trust", "--list"])
        .assert()
        .success()
        .stdout(contains("No project template is trusted."));
}

#[test]
fn project_flags_win_over_global_ones() {
    let replay = notes(true);
    replay
        .env
        .carryover()
        .args(["flags", "set", "--project", "--cwd"])
        .arg(&replay.project)
        .args(["startup-instruction", "false"])
        .assert()
        .success()
        .stdout(contains("now does not apply"));
    assert!(
        !start(&replay, "sessionstart-startup-1")
            .0
            .contains("make status")
    );
    let listed = replay
        .env
        .carryover()
        .args(["flags", "list", "--json", "--cwd"])
        .arg(&replay.project)
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(
        listed["startup-instruction"],
        serde_json::json!({"value": false, "scope": "project"})
    );

    // A script is told the same: the global value applies again.
    let unset = replay
        .env
        .carryover()
        .args(["flags", "unset", "--project", "--json", "--cwd"])
        .arg(&replay.project)
        .arg("startup-instruction")
        .output()
        .unwrap();
    let unset: serde_json::Value =
        serde_json::from_str(&crate::support::succeeded(&unset)).unwrap();
    assert_eq!(
        unset,
        serde_json::json!({
            "name": "startup-instruction",
            "removed": true,
            "scope": "project",
            "startup_instruction_applies": true,
        })
    );
    assert!(
        start(&replay, "sessionstart-clear-1")
            .0
            .starts_with(INSTRUCTION)
    );
}

#[test]
fn the_users_own_template_needs_no_trust() {
    let replay = Replay::new("notes");
    let templates = replay.env.data().join("templates");
    fs_err::create_dir_all(&templates).unwrap();
    fs_err::write(
        templates.join("_startup.md"),
        "---\ntype: agent/instruction\n---\nWorking on {{project.name}} ({{session.source}}).\n",
    )
    .unwrap();
    let (context, message) = start(&replay, "sessionstart-startup-1");
    assert!(
        context.starts_with("Working on notes (startup)."),
        "{context}"
    );
    assert!(
        !message.unwrap_or_default().contains("trust"),
        "no trust needed"
    );
}

#[test]
fn the_context_preview_shows_the_instruction_without_recording_it() {
    let replay = notes(true);
    for _ in 0..2 {
        let output = replay
            .env
            .carryover()
            .args([
                "context",
                "--json",
                "--session-id",
                "2c764cf4-ae92-42d8-88b5-e0f2690d8874",
                "--cwd",
            ])
            .arg(&replay.project)
            .output()
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(value["startup_instruction"], true);
        assert!(value["context"].as_str().unwrap().starts_with(INSTRUCTION));
    }
    assert!(
        start(&replay, "sessionstart-startup-1")
            .0
            .starts_with(INSTRUCTION),
        "the preview recorded nothing"
    );
}

#[test]
fn the_untrusted_warning_is_given_once_per_session() {
    let replay = notes(false);
    let warned = |payload: &str| {
        start(&replay, payload)
            .1
            .is_some_and(|message| message.contains("carryover trust --cwd"))
    };
    assert!(
        warned("sessionstart-startup-1"),
        "the first start is warned"
    );
    assert!(
        !warned("sessionstart-startup-1"),
        "a second start of the same session is not"
    );
    assert!(
        warned("sessionstart-clear-1"),
        "a new session id is warned again"
    );
}
