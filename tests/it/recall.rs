//! `hook prompt` and `recall` (ADR 0011): the few learnings a prompt needs beside it, once
//! per session until a compaction, nothing for chatter, never another project's.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use serde_json::Value;

use crate::support::{Hermetic, fixture};

const PAYMENT: &str = "The payment sandbox integration tests time out unless PAYMENT_SANDBOX_URL points at the local stub";

struct Setup {
    env: Hermetic,
    api: PathBuf,
    web: PathBuf,
}

fn repository(env: &Hermetic, name: &str) -> PathBuf {
    let dir = env.home().join(name);
    fs_err::create_dir_all(&dir).unwrap();
    for args in [
        vec!["init", "-q"],
        vec![
            "remote",
            "add",
            "origin",
            &format!("git@github.com:acme/{name}.git"),
        ],
    ] {
        let status = StdCommand::new("git")
            .arg("-C")
            .arg(&dir)
            .args(&args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()
            .unwrap();
        assert!(status.success());
    }
    dir
}

fn setup() -> Setup {
    let env = Hermetic::new();
    env.init();
    let api = repository(&env, "shop-api");
    let web = repository(&env, "web-app");
    for (kind, text) in [
        ("insight", PAYMENT),
        (
            "pattern",
            "Database migrations are forward-only sqlx files under migrations/",
        ),
        (
            "pattern",
            "Never commit directly to main; open a pull request",
        ),
    ] {
        env.carryover()
            .current_dir(&api)
            .args(["learn", kind, "--project", text])
            .assert()
            .success();
    }
    Setup { env, api, web }
}

/// A real payload of Claude Code 2.1.328, sent from `project`, with `changes` applied.
fn payload(name: &str, project: &Path, changes: &[(&str, &str)]) -> Vec<u8> {
    let text =
        fs_err::read_to_string(fixture(&format!("claude-code-2.1.328/hooks/{name}.json"))).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    value["cwd"] = Value::from(project.to_string_lossy().into_owned());
    for (key, new) in changes {
        value[*key] = Value::from(*new);
    }
    serde_json::to_vec(&value).unwrap()
}

impl Setup {
    /// Runs `hook prompt`; returns its stdout (empty when nothing was recalled).
    fn prompt(&self, stdin: Vec<u8>) -> String {
        let output = self
            .env
            .carryover()
            .args(["hook", "prompt"])
            .write_stdin(stdin)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }
}

#[test]
fn a_prompt_that_needs_a_learning_gets_it_once() {
    let s = setup();
    let printed = s.prompt(payload("userpromptsubmit-task-1", &s.api, &[]));
    let value: Value = serde_json::from_str(printed.trim()).expect("one JSON object");
    assert_eq!(
        value["hookSpecificOutput"]["hookEventName"],
        "UserPromptSubmit"
    );
    let context = value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with("Learnings for this prompt (carryover):"),
        "{context}"
    );
    assert!(
        context.contains(&format!("insight: {PAYMENT}")),
        "{context}"
    );
    assert!(context.lines().count() <= 4, "at most three: {context}");
    let again = s.prompt(payload("userpromptsubmit-task-1", &s.api, &[]));
    assert_eq!(again, "", "the session was given it already");
}

#[test]
fn chatter_and_slash_commands_get_nothing() {
    let s = setup();
    assert_eq!(
        s.prompt(payload("userpromptsubmit-chat-1", &s.api, &[])),
        ""
    );
    for prompt in [
        "thanks!",
        "ok go ahead",
        "/compact keep the payment notes",
        "谢谢你的帮助",
    ] {
        let sent = payload("userpromptsubmit-task-1", &s.api, &[("prompt", prompt)]);
        assert_eq!(s.prompt(sent), "", "{prompt}");
    }
}

#[test]
fn another_projects_learnings_are_never_recalled() {
    let s = setup();
    assert_eq!(
        s.prompt(payload("userpromptsubmit-task-1", &s.web, &[])),
        ""
    );
}

#[test]
fn a_compaction_lets_a_learning_be_recalled_again() {
    let s = setup();
    let session = "e5918f80-89bd-4b6a-ab8c-6573341f299b";
    assert!(
        !s.prompt(payload("userpromptsubmit-task-1", &s.api, &[]))
            .is_empty()
    );
    // The compaction's session start: the model lost what carryover had said.
    let compact = payload(
        "sessionstart-compact-1",
        &s.api,
        &[
            ("session_id", session),
            ("transcript_path", "/nonexistent.jsonl"),
        ],
    );
    let start = s
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(compact)
        .output()
        .unwrap();
    assert!(start.status.success());
    let at_start = String::from_utf8_lossy(&start.stdout).contains(PAYMENT);
    let after = s.prompt(payload("userpromptsubmit-task-1", &s.api, &[]));
    // Given again after the compaction: by the start's block, else beside the prompt; never
    // both.
    assert_ne!(after.contains(PAYMENT), at_start, "{after}");
}

#[test]
fn recall_previews_without_recording() {
    let s = setup();
    let session = "e5918f80-89bd-4b6a-ab8c-6573341f299b";
    for _ in 0..2 {
        let output = s
            .env
            .carryover()
            .current_dir(&s.api)
            .args(["recall", "--json", "--session-id", session])
            .args([
                "why",
                "do",
                "the",
                "payment",
                "sandbox",
                "integration",
                "tests",
                "keep",
                "timing",
                "out?",
            ])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let value: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(value["recalled"][0]["content"], PAYMENT, "{value}");
        assert!(value["recalled"][0]["probability"].as_f64().unwrap() > 0.5);
        assert_eq!(value["considered"], 3);
    }
    assert!(
        !s.prompt(payload("userpromptsubmit-task-1", &s.api, &[]))
            .is_empty()
    );
    s.env
        .carryover()
        .current_dir(&s.api)
        .args(["recall", "continue"])
        .assert()
        .success()
        .stdout("Nothing recalled (too few content words).\n");
}

#[test]
fn a_pasted_20_kb_prompt_is_answered_within_bounds() {
    let s = setup();
    let pasted = format!(
        "The payment sandbox integration tests time out again, log below\n{}",
        "ERROR sandbox request timed out after 30s (attempt 3)\n".repeat(400)
    );
    assert!(pasted.len() > 20_000);
    let printed = s.prompt(payload(
        "userpromptsubmit-task-1",
        &s.api,
        &[("prompt", &pasted)],
    ));
    assert!(printed.len() < 2_000, "{printed}");
}

#[test]
fn the_hook_fails_open() {
    let s = setup();
    // A damaged seed with no history to restore it from.
    fs_err::remove_dir_all(s.env.data().join(".git")).unwrap();
    fs_err::write(s.env.seed_path(), "{ not json").unwrap();
    assert_eq!(
        s.prompt(payload("userpromptsubmit-task-1", &s.api, &[])),
        ""
    );
    assert_eq!(s.prompt(b"not a payload".to_vec()), "");
}
