//! The git-backed seed store: commits, versions, concurrency.

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::{Hermetic, Replay, fixture};

#[test]
fn every_change_of_content_is_a_commit_that_says_what_changed() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["learn", "self_knowledge", "Asks before force-pushing"])
        .assert()
        .success();
    let log = env.git(&["log", "--format=%s"]);
    let subjects: Vec<&str> = log.lines().collect();
    assert_eq!(subjects.len(), 2);
    assert!(
        subjects[0].starts_with("Learn: add self_knowledge slf_"),
        "{subjects:?}"
    );
    assert_eq!(subjects[1], "Init: Juno serving Mara");
    let tracked = env.git(&["ls-files"]);
    assert_eq!(tracked, ".gitignore\nseed.json\nseed.schema.json\n");
}

#[test]
fn a_seed_of_another_major_version_is_refused_and_left_untouched() {
    let env = Hermetic::new();
    fs_err::copy(fixture("seed/seed-wrong-major.json"), env.seed_path()).unwrap();
    let before = fs_err::read(env.seed_path()).unwrap();
    env.carryover()
        .args(["learn", "pattern", "Anything at all"])
        .assert()
        .code(2)
        .stderr(contains("seed version 2.0.0 is not supported"))
        .stderr(contains("left untouched"));
    env.carryover()
        .args(["init", "--ai-name", "A", "--principal", "B", "--force"])
        .assert()
        .code(2);
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("not supported"));
    assert_eq!(fs_err::read(env.seed_path()).unwrap(), before);
    assert!(!env.data().join(".git").exists());
}

#[test]
fn concurrent_learn_processes_lose_nothing() {
    const WRITERS: usize = 6;
    const EACH: usize = 4;
    let env = Hermetic::new();
    env.init();
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let env = &env;
            scope.spawn(move || {
                for n in 0..EACH {
                    let status = env
                        .std_carryover()
                        .args([
                            "learn",
                            "pattern",
                            &format!("Learning {writer}-{n} from a concurrent writer"),
                        ])
                        .stdout(std::process::Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success(), "writer {writer} failed on learning {n}");
                }
            });
        }
    });
    let seed: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    let patterns = seed["learned"]["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), WRITERS * EACH);
    let commits: usize = env
        .git(&["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .unwrap();
    assert_eq!(commits, 1 + WRITERS * EACH);
    assert_eq!(env.git(&["status", "--porcelain"]), "");
}

#[test]
fn carryover_seed_points_at_another_seed() {
    let env = Hermetic::new();
    let elsewhere = env.home().join(".pai");
    fs_err::create_dir_all(&elsewhere).unwrap();
    fs_err::copy(fixture("seed/seed.json"), elsewhere.join("seed.json")).unwrap();
    env.carryover()
        .env("CARRYOVER_SEED", elsewhere.join("seed.json"))
        .arg("context")
        .assert()
        .success()
        .stdout(contains("Identity: Juno (serving Mara)"));
    assert!(!env.seed_path().exists());
}

#[test]
fn session_ends_without_proposals_save_the_last_session_without_a_commit() {
    let replay = Replay::new("shop-api");
    let env = &replay.env;
    let log = || env.git(&["log", "--format=%s"]);
    let before = log();
    replay.session_end("sessionend-other-3");
    replay.session_end("sessionend-other-4");
    assert_eq!(log(), before, "no commit for the last-session bookkeeping");
    let seed: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    assert_eq!(
        seed["state"]["lastSessionId"],
        "81b8f225-6c82-470b-98cc-ec96494e08b9"
    );
    assert_eq!(seed["state"]["lastSessionAt"], "2026-11-22T18:40:00.000Z");
    assert_eq!(
        seed["state"]["activeProjects"],
        serde_json::json!(["shop-api", "notes"])
    );
    let status = env.carryover().args(["status", "--json"]).output().unwrap();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["git"]["uncommitted_changes"], false, "{status}");
    env.carryover()
        .arg("status")
        .assert()
        .success()
        .stdout(contains("uncommitted").not());

    // The next change of content commits the bookkeeping along with it.
    env.carryover()
        .args(["learn", "pattern", "Prefers small pull requests"])
        .assert()
        .success();
    assert_eq!(log().lines().count(), before.lines().count() + 1);
    let committed: serde_json::Value =
        serde_json::from_str(&env.git(&["show", "HEAD:seed.json"])).unwrap();
    assert_eq!(committed["state"], seed["state"]);
}

#[test]
fn a_hand_edit_is_still_reported_as_uncommitted() {
    let env = Hermetic::new();
    env.init();
    let text = fs_err::read_to_string(env.seed_path()).unwrap();
    fs_err::write(env.seed_path(), text.replace("\"Juno\"", "\"Iris\"")).unwrap();
    let status = env.carryover().args(["status", "--json"]).output().unwrap();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["git"]["uncommitted_changes"], true, "{status}");
}
