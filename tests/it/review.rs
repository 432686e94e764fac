//! Reviewing proposals and managing learnings from the command line.

use std::process::{Command, Stdio};

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::Hermetic;

fn seed_json(env: &Hermetic) -> serde_json::Value {
    serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap()
}

fn status_of(env: &Hermetic, id: &str) -> String {
    let seed = seed_json(env);
    let proposal = seed["state"]["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
        .clone();
    proposal["status"].as_str().unwrap().to_owned()
}

#[test]
fn accept_and_reject_by_prefix_commit_and_index() {
    let env = Hermetic::new();
    env.install_example_seed();
    env.carryover()
        .args(["proposals", "accept", "Q4mZ8"])
        .assert()
        .success()
        .stdout(contains("Accepted as pat_"));
    env.carryover()
        .args(["proposals", "reject", "prp_T7n"])
        .assert()
        .success()
        .stdout(contains("Rejected prp_T7nB3vKd9Spe"));
    assert_eq!(status_of(&env, "prp_Q4mZ8xWc2Lna"), "accepted");
    assert_eq!(status_of(&env, "prp_T7nB3vKd9Spe"), "rejected");
    let seed = seed_json(&env);
    let learned = seed["learned"]["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| {
            l["content"]
                .as_str()
                .unwrap()
                .starts_with("Prefers table-driven")
        })
        .unwrap()
        .clone();
    assert_eq!(learned["confirmed"], true);
    assert!(learned["confirmedAt"].is_string());
    let log = env.git(&["log", "--format=%s"]);
    let subjects: Vec<&str> = log.lines().take(2).collect();
    assert_eq!(
        subjects,
        vec![
            "Review: accept 0, reject 1 proposal(s)",
            "Review: accept 1, reject 0 proposal(s)"
        ]
    );
    let index = fs_err::read_dir(env.data().join("index")).unwrap().count();
    assert_eq!(index, 1, "accepting refreshed the index");
    env.carryover()
        .arg("context")
        .assert()
        .success()
        .stdout(contains(
            "Proposed learnings awaiting the user's review (1, newest first):",
        ));
}

#[test]
fn unknown_ambiguous_and_decided_prefixes_are_refused_without_writing() {
    let env = Hermetic::new();
    env.install_example_seed();
    let before = fs_err::read(env.seed_path()).unwrap();
    env.carryover()
        .args(["proposals", "accept", "nope"])
        .assert()
        .code(2)
        .stderr(contains("no proposal matches"));
    env.carryover()
        .args(["proposals", "accept", "Y9cL5"])
        .assert()
        .code(2)
        .stderr(contains("already rejected"));
    env.carryover()
        .args(["learnings", "show", "pat_"])
        .assert()
        .code(2)
        .stderr(contains("matches several learnings"));
    env.carryover()
        .args(["proposals", "accept", "Q4mZ8", "nope"])
        .assert()
        .code(2);
    assert_eq!(
        fs_err::read(env.seed_path()).unwrap(),
        before,
        "one bad prefix writes nothing"
    );
}

#[test]
fn review_needs_a_terminal() {
    let env = Hermetic::new();
    env.install_example_seed();
    env.carryover()
        .args(["proposals", "review"])
        .assert()
        .code(2)
        .stderr(contains("needs a terminal"));
    // Run by the assistant, the refusal tells it to leave the review to the user.
    env.carryover()
        .args(["proposals", "review"])
        .env("CLAUDECODE", "1")
        .assert()
        .code(2)
        .stderr(contains("is for the user, in their own terminal"))
        .stderr(contains("tell the user"))
        .stderr(contains("accept").not());
}

#[test]
fn review_on_a_terminal_applies_the_decisions_together() {
    let env = Hermetic::new();
    env.install_example_seed();
    let binary = assert_cmd::cargo::cargo_bin!("carryover");
    let mut command = Command::new("script");
    command
        .args([
            "-qec",
            &format!("{} proposals review", binary.display()),
            "/dev/null",
        ])
        .current_dir(env.home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    command
        .env("HOME", env.home())
        .env("CARRYOVER_HOME", env.data())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    let mut child = command
        .spawn()
        .expect("`script` (util-linux) provides the terminal");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"a\nr\nq\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(
        status_of(&env, "prp_T7nB3vKd9Spe"),
        "accepted",
        "newest first: T7nB3 was asked first"
    );
    assert_eq!(status_of(&env, "prp_Q4mZ8xWc2Lna"), "rejected");
    assert_eq!(
        status_of(&env, "prp_F2hJ6qRw1Xtb"),
        "pending",
        "quit before the third"
    );
    assert!(
        env.git(&["log", "-1", "--format=%s"])
            .starts_with("Review: accept 1, reject 1")
    );
}

#[test]
fn learnings_list_search_show_and_forget() {
    let env = Hermetic::new();
    env.install_example_seed();
    let listed: serde_json::Value = serde_json::from_slice(
        &env.carryover()
            .args(["learnings", "list", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 13);
    let found: serde_json::Value = serde_json::from_slice(
        &env.carryover()
            .args([
                "learnings",
                "search",
                "staging",
                "database",
                "fixtures",
                "--top",
                "2",
                "--json",
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(found[0]["id"], "ins_Mt6gD4xCk2Za");
    assert!(found[0]["score"].is_number());
    let unrelated = env
        .carryover()
        .args(["learnings", "search", "banana", "bread", "recipe"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&unrelated.stdout).trim(),
        "No learning matches \"banana bread recipe\" (searched 13; `learnings list` shows them all).",
        "{}",
        String::from_utf8_lossy(&unrelated.stderr)
    );
    env.carryover()
        .args(["learnings", "show", "7Qm2"])
        .assert()
        .success()
        .stdout(contains("thiserror"));
    env.carryover()
        .args(["learnings", "forget", "Mt6g"])
        .assert()
        .success()
        .stdout(contains("Forgot ins_Mt6gD4xCk2Za"));
    let seed: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    assert!(
        !seed["learned"].to_string().contains("ins_Mt6gD4xCk2Za"),
        "only a tombstone (id and text hash) is left: {}",
        seed["learned"]
    );
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        "Forget: remove learning ins_Mt6gD4xCk2Za"
    );
}

#[test]
fn review_offers_each_scope_once() {
    let env = Hermetic::new();
    env.install_example_seed();
    // The example's proposals are global: "as global" would offer the same thing twice.
    let (ok, shown) = env.on_a_terminal("proposals review", "q\n", &[]);
    assert!(ok, "{shown}");
    assert!(
        shown.contains("accept (global), accept for home, reject, skip or quit? [a/p/r/s/q]"),
        "{shown}"
    );
    assert!(!shown.contains("accept as global"), "{shown}");
}
