//! Handoffs: written at session end, the newest injected at the next session start.

use std::path::Path;
use std::time::{Duration, SystemTime};

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::{Replay, slug, succeeded};

const SHOP_API_SESSION: &str = "81b8f225-6c82-470b-98cc-ec96494e08b9";

fn handoff_path(replay: &Replay) -> std::path::PathBuf {
    replay
        .project_dir()
        .join("sessions")
        .join(SHOP_API_SESSION)
        .join("handoff.md")
}

fn set_mtime(path: &Path, seconds_ago: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago))
        .unwrap();
}

fn write_handoff(replay: &Replay, session: &str, text: &str, seconds_ago: u64) {
    let path = replay
        .project_dir()
        .join("sessions")
        .join(session)
        .join("handoff.md");
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    fs_err::write(&path, text).unwrap();
    set_mtime(&path, seconds_ago);
}

#[test]
fn session_end_then_startup_carries_the_handoff() {
    let replay = Replay::new("shop-api");
    replay.session_end("sessionend-other-4");
    let text = fs_err::read_to_string(handoff_path(&replay)).unwrap();
    assert!(text.starts_with(&format!("---\nsession_id: {SHOP_API_SESSION}\ntimestamp: 2026-11-22T18:40:00+00:00\nproject: shop-api\nduration_turns: 2\nbranch: master\nsubstantive: true\nfiles_changed:\n  - notes.txt\n---\n")), "{text}");
    for expected in [
        "## Goal\n- First request: TOOLS please add the retry budget",
        "## Files Changed\n- notes.txt",
        "## Earlier Turns\n- Done: wrote notes.txt and planned the next steps.",
        "## User Requests\n- continue with the tests",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    // The session's TodoWrite call failed (the client had the tool disabled): its list is
    // no work done and no plan.
    assert!(!text.contains("Add retry budget to the fetcher"), "{text}");

    let context = replay.session_start("sessionstart-startup-2");
    assert!(context.contains("Handoff from the previous session (just now, 2026-11-22 18:40 UTC; session 81b8f225, 2 turns, on branch master):"), "{context}");
    assert!(
        context.contains("please add the retry budget") && context.contains("notes.txt"),
        "{context}"
    );
    assert!(context.contains(&format!(
        "Full handoff: {}",
        handoff_path(&replay).display()
    )));
}

#[test]
fn session_end_records_the_last_session_in_the_seed() {
    let replay = Replay::new("shop-api");
    let before = replay.env.git(&["log", "-1", "--format=%H"]);
    replay.session_end("sessionend-other-4");
    let seed: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(replay.env.seed_path()).unwrap()).unwrap();
    assert_eq!(seed["state"]["lastSessionId"], SHOP_API_SESSION);
    assert_eq!(seed["state"]["lastSessionAt"], "2026-11-22T18:40:00.000Z");
    assert_eq!(
        seed["state"]["activeProjects"],
        serde_json::json!(["shop-api", "notes"])
    );
    assert_eq!(
        replay.env.git(&["log", "-1", "--format=%H"]),
        before,
        "no proposal, no content change: the bookkeeping is saved without a commit"
    );
}

#[test]
fn a_session_with_too_few_turns_leaves_no_handoff() {
    let replay = Replay::new("notes");
    replay.session_end("sessionend-other-1");
    assert!(!replay.project_dir().join("sessions").exists());
}

#[test]
fn another_projects_handoff_is_never_injected() {
    let replay = Replay::new("shop-api");
    replay.session_end("sessionend-other-4");
    let context = replay.session_start("sessionstart-startup-1");
    assert!(!context.contains("Handoff from"), "{context}");
}

#[test]
fn disabled_handoffs_are_neither_written_nor_injected() {
    let replay = Replay::new("shop-api");
    write_handoff(&replay, "older", "## Notes\n- from before\n", 60);
    fs_err::write(
        replay.env.data().join("config.toml"),
        "[handoff]\nenabled = false\n",
    )
    .unwrap();
    replay.session_end("sessionend-other-4");
    assert!(!handoff_path(&replay).exists());
    assert!(
        !replay
            .session_start("sessionstart-startup-2")
            .contains("from before")
    );
    replay
        .env
        .carryover()
        .args(["handoff", "list", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success()
        .stdout(contains("older"))
        .stdout(contains("the next session starts with it").not());
}

#[test]
fn the_newest_by_modification_time_wins_and_empty_ones_are_skipped() {
    let replay = Replay::new("shop-api");
    write_handoff(&replay, "oldest", "## Notes\n- oldest one\n", 3_000);
    write_handoff(&replay, "middle", "## Notes\n- middle one\n", 2_000);
    write_handoff(&replay, "newest-but-empty", "\n\n", 10);
    let context = replay.session_start("sessionstart-startup-2");
    assert!(
        context.contains("- middle one") && !context.contains("oldest one"),
        "{context}"
    );

    let project = replay.project.clone();
    replay
        .env
        .carryover()
        .args(["handoff", "show", "--cwd"])
        .arg(&project)
        .assert()
        .success()
        .stdout(contains("- middle one"));
    let listed = replay
        .env
        .carryover()
        .args(["handoff", "list", "--cwd"])
        .arg(&project)
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let order: Vec<&str> = listed
        .lines()
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(order, vec!["newest-but-empty", "middle", "oldest"]);
    let marked: Vec<&str> = listed
        .lines()
        .filter(|l| l.ends_with("(the next session starts with it)"))
        .collect();
    assert!(
        marked.len() == 1 && marked[0].contains("middle"),
        "{listed}"
    );

    // Named the long way round, the project is the same one, and its JSON says so.
    let roundabout = project.join("..").join(project.file_name().unwrap());
    let value = listed_json(&replay, &roundabout);
    assert_eq!(
        value["root"].as_str().map(std::path::PathBuf::from),
        Some(project.clone())
    );
    let next: Vec<&str> = value["handoffs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["next"] == true)
        .filter_map(|row| row["session"].as_str())
        .collect();
    assert_eq!(next, ["middle"]);

    // Through a symbolic link, the directory is named as a hook's `cwd` names it.
    let link = project.parent().unwrap().join("shop-api-link");
    std::os::unix::fs::symlink(&project, &link).unwrap();
    let value = listed_json(&replay, &link);
    assert_eq!(
        value["root"].as_str().map(std::path::PathBuf::from),
        Some(link)
    );
}

/// `handoff list --json --cwd dir`'s answer.
fn listed_json(replay: &Replay, dir: &Path) -> serde_json::Value {
    let output = replay
        .env
        .carryover()
        .args(["handoff", "list", "--json", "--cwd"])
        .arg(dir)
        .output()
        .unwrap();
    serde_json::from_str(&succeeded(&output)).unwrap()
}

#[test]
fn handoff_commands_speak_json_and_refuse_bad_input() {
    let replay = Replay::new("shop-api");
    replay
        .env
        .carryover()
        .args(["handoff", "show", "--cwd"])
        .arg(&replay.project)
        .assert()
        .code(2)
        .stderr(contains("no handoff"));
    let none = replay
        .env
        .carryover()
        .args(["handoff", "show", "--json", "--cwd"])
        .arg(&replay.project)
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2), "as in text");
    let value: serde_json::Value = serde_json::from_slice(&none.stdout).unwrap();
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no handoff"),
        "{value}"
    );
    replay
        .env
        .carryover()
        .args(["handoff", "list", "--cwd", "/nonexistent/dir"])
        .assert()
        .code(2);
    replay.session_end("sessionend-other-4");
    let output = replay
        .env
        .carryover()
        .args(["handoff", "show", "--json", "--cwd"])
        .arg(&replay.project)
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["session"], SHOP_API_SESSION);
    assert!(value["text"].as_str().unwrap().contains("## Goal"));
    let output = replay
        .env
        .carryover()
        .args(["context", "--json", "--cwd"])
        .arg(&replay.project)
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        value["handoff"],
        handoff_path(&replay).to_string_lossy().as_ref()
    );
}

#[rstest::rstest]
#[case::traversal("../../../escaped")]
#[case::absolute("/tmp/escaped")]
#[case::dot("..")]
fn hostile_session_ids_write_nothing(#[case] session: &str) {
    let replay = Replay::new("shop-api");
    let mut payload: serde_json::Value =
        serde_json::from_slice(&replay.payload("sessionend-other-4")).unwrap();
    payload["session_id"] = session.into();
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(serde_json::to_vec(&payload).unwrap())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("not usable as a file name"));
    assert!(!replay.project_dir().join("sessions").exists());
    assert!(!replay.env.data().join("escaped").exists() && !Path::new("/tmp/escaped").exists());
}

#[test]
fn secrets_in_the_transcript_are_redacted() {
    let replay = Replay::new("shop-api");
    let transcript = replay.env.home().join("secret.jsonl");
    fs_err::write(
        &transcript,
        concat!(
            r#"{"type":"user","message":{"content":"deploy with token ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eW"}}"#, "\n",
            r#"{"type":"user","message":{"content":"and password=hunter2 for the db"}}"#, "\n",
        ),
    )
    .unwrap();
    let payload = serde_json::json!({"session_id": "secret-session", "transcript_path": transcript, "cwd": replay.project});
    replay
        .env
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let text = fs_err::read_to_string(
        replay
            .project_dir()
            .join("sessions/secret-session/handoff.md"),
    )
    .unwrap();
    assert!(
        text.contains("token [REDACTED]") && text.contains("password=[REDACTED]"),
        "{text}"
    );
    assert!(!text.contains("ghp_") && !text.contains("hunter2"));
}

#[test]
fn a_configured_projects_dir_and_basename_slug_are_used() {
    let replay = Replay::new("shop-api");
    let amplifier = replay.env.home().join(".amplifier/projects");
    fs_err::write(
        replay.env.data().join("config.toml"),
        format!(
            "[handoff]\nprojects_dir = \"{}\"\nslug = \"basename\"\n",
            amplifier.display()
        ),
    )
    .unwrap();
    replay.session_end("sessionend-other-4");
    assert!(
        amplifier
            .join("shop-api/sessions")
            .join(SHOP_API_SESSION)
            .join("handoff.md")
            .exists()
    );
    assert!(
        !replay
            .env
            .data()
            .join("projects")
            .join(slug(&replay.project))
            .join("sessions")
            .exists()
    );
    assert!(
        replay
            .session_start("sessionstart-startup-2")
            .contains("Handoff from the previous session")
    );
}

#[test]
fn session_ends_help_names_its_agents_without_output_shapes_it_never_prints() {
    crate::support::Hermetic::new()
        .carryover()
        .args(["hook", "session-end", "--help"])
        .assert()
        .success()
        .stdout(contains("(claude, codex, gemini, copilot, cursor"))
        .stdout(contains("plain)"))
        .stdout(contains("hookSpecificOutput").not());
}
