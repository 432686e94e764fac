//! Claude Code's own memory as learning proposals (ADR 0014): harvested at session end from
//! the memory files a session wrote, and imported from a project's memory folder.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{Hermetic, fixture};

const SESSION: &str = "0b6f3c2e-8d41-4a7b-9e5c-1f2a3b4c5d6e";

/// `~/code/shop-api`, outside git, so its project root is the directory itself.
fn project(env: &Hermetic) -> PathBuf {
    let dir = env.home().join("code").join("shop-api");
    fs_err::create_dir_all(&dir).unwrap();
    dir
}

/// Claude Code's memory folder for `project`: its path, non-alphanumerics as `-`.
fn memory_folder(env: &Hermetic, project: &Path) -> PathBuf {
    let name: String = project
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    env.home()
        .join(".claude/projects")
        .join(name)
        .join("memory")
}

/// The fixture folder (two memories and the `MEMORY.md` index) copied where Claude Code
/// keeps `project`'s memories.
fn install_fixture_memories(env: &Hermetic, project: &Path) -> PathBuf {
    let folder = memory_folder(env, project);
    fs_err::create_dir_all(&folder).unwrap();
    for name in ["MEMORY.md", "feedback_terse_answers.md", "user_role.md"] {
        fs_err::copy(fixture(&format!("claude-memory/{name}")), folder.join(name)).unwrap();
    }
    folder
}

/// Every pending proposal, whatever its project (the test runs outside the project).
fn pending(env: &Hermetic) -> Vec<Value> {
    let out = env
        .carryover()
        .args(["proposals", "list", "--all-projects", "--json"])
        .assert()
        .success();
    serde_json::from_slice::<Value>(&out.get_output().stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// (type, content, whether project-scoped) of each entry, sorted by type.
fn summary(entries: &[Value]) -> Vec<(String, String, bool)> {
    let mut summary: Vec<_> = entries
        .iter()
        .map(|p| {
            (
                p["type"].as_str().unwrap().to_owned(),
                p["content"].as_str().unwrap().to_owned(),
                !p["project"].is_null(),
            )
        })
        .collect();
    summary.sort();
    summary
}

fn import(env: &Hermetic, project: &Path) -> Value {
    let out = env
        .carryover()
        .args(["import", "claude-memory", "--json", "--cwd"])
        .arg(project)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn a_memory_the_session_wrote_or_edited_ends_as_a_pending_proposal() {
    let env = Hermetic::new();
    env.init();
    let project = project(&env);
    let folder = memory_folder(&env, &project);
    fs_err::create_dir_all(&folder).unwrap();
    let written = folder.join("feedback_terse_answers.md");
    let edited = folder.join("user_role.md");
    // The edit's result is on disk only: the transcript holds the replaced strings.
    fs_err::copy(fixture("claude-memory/user_role.md"), &edited).unwrap();
    let content =
        fs_err::read_to_string(fixture("claude-memory/feedback_terse_answers.md")).unwrap();
    let rows = [
        json!({"type": "user", "message": {"role": "user", "content": "Tidy up the retry code, please."}}),
        json!({"type": "assistant", "message": {"role": "assistant", "model": "claude-opus-4-5", "content": [
            {"type": "tool_use", "id": "toolu_w", "name": "Write", "input": {"file_path": written, "content": content}},
            {"type": "tool_use", "id": "toolu_e", "name": "Edit", "input": {"file_path": edited, "old_string": "Rust", "new_string": "Rust"}},
        ]}}),
        json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_w", "content": format!("File created successfully at: {}", written.display())},
            {"type": "tool_result", "tool_use_id": "toolu_e", "content": "The file has been updated."},
        ]}}),
        json!({"type": "assistant", "message": {"role": "assistant", "model": "claude-opus-4-5", "content": [
            {"type": "text", "text": "Noted; I saved it to memory."},
        ]}}),
    ];
    let transcript = env.home().join("session.jsonl");
    let text: String = rows.iter().map(|row| format!("{row}\n")).collect();
    fs_err::write(&transcript, text).unwrap();
    let payload = json!({
        "session_id": SESSION,
        "transcript_path": transcript,
        "cwd": project,
        "hook_event_name": "SessionEnd",
        "reason": "other",
    });
    env.carryover()
        .args(["hook", "session-end"])
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .stdout("");

    let proposals = pending(&env);
    assert_eq!(
        summary(&proposals),
        [
            (
                "pattern".to_owned(),
                "Keep answers terse and skip the closing summary of what was changed".to_owned(),
                true
            ),
            (
                "self_knowledge".to_owned(),
                "Mara is a backend engineer who works in Rust and Postgres every day".to_owned(),
                false
            ),
        ]
    );
    assert!(proposals.iter().all(|p| p["source"] == SESSION));
    let seed: Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    assert!(
        seed["state"]["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["method"] == "claude-memory" && p["confidence"] == 0.9)
    );
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        format!("Session end: {SESSION}; propose 2 learning(s)")
    );
}

#[test]
fn importing_proposes_each_memory_once_and_says_why_the_rest_were_skipped() {
    let env = Hermetic::new();
    env.init();
    let project = project(&env);
    install_fixture_memories(&env, &project);

    let first = import(&env, &project);
    assert_eq!(
        summary(first["imported"].as_array().unwrap()),
        [
            (
                "pattern".to_owned(),
                "Keep answers terse and skip the closing summary of what was changed".to_owned(),
                true
            ),
            (
                "self_knowledge".to_owned(),
                "Mara is a backend engineer who works in Rust and Postgres every day".to_owned(),
                false
            ),
        ]
    );
    assert_eq!(
        first["skipped"],
        json!([{"file": "MEMORY.md", "reason": "the folder's index, not a memory"}])
    );
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        "Import: 2 learning(s) from Claude Code's memory"
    );
    assert_eq!(pending(&env).len(), 2);

    let commits = env.git(&["rev-list", "--count", "HEAD"]);
    let again = import(&env, &project);
    assert_eq!(again["imported"], json!([]));
    let reasons: Vec<(&str, &str)> = again["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["file"].as_str().unwrap(), s["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    for (file, reason) in &reasons[1..] {
        assert!(reason.starts_with("same text as prp_"), "{file}: {reason}");
    }
    assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), commits);
    assert_eq!(pending(&env).len(), 2);
}

#[test]
fn a_dry_run_and_a_forced_project_scope() {
    let env = Hermetic::new();
    env.init();
    let project = project(&env);
    let folder = install_fixture_memories(&env, &project);
    let out = env
        .carryover()
        .args(["import", "claude-memory", "--dry-run", "--project", "--dir"])
        .arg(&folder)
        .args(["--cwd"])
        .arg(&project)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("self_knowledge"), "{text}");
    assert!(text.contains("[project shop-api]"), "{text}");
    assert!(
        !text.contains("[global]"),
        "--project scopes the user memory too: {text}"
    );
    assert!(text.contains("skipped MEMORY.md"), "{text}");
    assert!(text.contains("nothing was written"), "{text}");
    assert!(pending(&env).is_empty());
}

#[test]
fn a_missing_folder_or_seed_is_refused_with_a_hint() {
    let env = Hermetic::new();
    let project = project(&env);
    env.carryover()
        .args(["import", "claude-memory", "--cwd"])
        .arg(&project)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("carryover init"));
    env.init();
    env.carryover()
        .args(["import", "claude-memory", "--cwd"])
        .arg(&project)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no such memory folder"))
        .stderr(predicates::str::contains("hint:"));
}
