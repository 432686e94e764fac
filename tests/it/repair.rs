//! A corrupt seed is restored from git by whichever command reads it first.

use predicates::str::contains;

use crate::support::{Hermetic, envelope};

fn truncate_seed(env: &Hermetic) {
    let text = fs_err::read_to_string(env.seed_path()).unwrap();
    fs_err::write(env.seed_path(), &text[..text.len() / 2]).unwrap();
}

fn corrupted_copies(env: &Hermetic) -> Vec<String> {
    fs_err::read_dir(env.data())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("seed.json.corrupted-"))
        .collect()
}

/// An initialised home whose seed holds one learning, committed.
fn with_a_learning() -> Hermetic {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["learn", "pattern", "Keeps commits small"])
        .assert()
        .success();
    env
}

/// Runs `command`, which must succeed (its stderr shown when it does not).
fn succeeds(env: &Hermetic, command: &[&str]) -> std::process::Output {
    let output = env.carryover().args(command).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[rstest::rstest]
#[case::by_status(&["status"])]
#[case::by_context(&["context"])]
#[case::by_the_hook(&["hook", "session-start"])]
#[case::by_a_listing(&["learnings", "list"])]
#[case::by_a_recall(&["recall", "split the refactoring commits into smaller reviewable pieces"])]
#[case::by_learn(&["learn", "pattern", "Runs the linter first"])]
fn a_truncated_seed_is_restored_and_the_bad_file_kept(#[case] command: &[&str]) {
    let env = with_a_learning();
    let good = fs_err::read_to_string(env.seed_path()).unwrap();
    truncate_seed(&env);
    let bad = fs_err::read_to_string(env.seed_path()).unwrap();

    let output = succeeds(&env, command);
    let told = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // A hook tells the user in its payload and the log on stderr; a command on stderr.
    let times = if command[0] == "hook" { 2 } else { 1 };
    assert_eq!(
        told.matches("repaired").count(),
        times,
        "the user must be told once: {told}"
    );
    assert!(told.contains("seed.json.corrupted-"), "{told}");

    if command[0] != "learn" {
        assert_eq!(fs_err::read_to_string(env.seed_path()).unwrap(), good);
    }
    let kept = corrupted_copies(&env);
    assert_eq!(
        kept,
        vec!["seed.json.corrupted-20261122T184000Z".to_owned()]
    );
    assert_eq!(
        fs_err::read_to_string(env.data().join(&kept[0])).unwrap(),
        bad
    );
    assert!(
        env.git(&["log", "--format=%s"])
            .lines()
            .any(|subject| subject.starts_with("Repair: restore seed.json from "))
    );
    assert_eq!(
        env.git(&["status", "--porcelain"]),
        "",
        "the corrupt copy must not be tracked"
    );
}

#[rstest::rstest]
#[case::by_learn(&["learn", "pattern", "Runs the linter first"])]
#[case::by_status(&["status"])]
fn a_missing_seed_with_a_history_is_restored(#[case] command: &[&str]) {
    let env = with_a_learning();
    // What a sync killed between git's removal of the seed and its rewrite leaves.
    fs_err::remove_file(env.seed_path()).unwrap();

    succeeds(&env, command);
    let seed = fs_err::read_to_string(env.seed_path()).unwrap();
    assert!(seed.contains("Keeps commits small"), "{seed}");
    assert!(
        corrupted_copies(&env).is_empty(),
        "there was no file to keep"
    );
}

#[test]
fn the_newest_valid_version_wins_even_when_a_bad_one_was_committed() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["learn", "pattern", "The newest good learning"])
        .assert()
        .success();
    truncate_seed(&env);
    env.git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qam",
        "a bad commit",
    ]);
    env.carryover()
        .args(["context"])
        .assert()
        .success()
        .stdout(contains("The newest good learning"));
}

#[test]
fn with_no_good_history_the_hook_still_starts_the_session() {
    let env = Hermetic::new();
    fs_err::write(env.seed_path(), "{\"version\": \"1.0.0\", \"identity\": {").unwrap();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let (value, context) = envelope(&output.stdout);
    assert!(context.contains("could not load the seed"), "{context}");
    assert!(
        value["systemMessage"]
            .as_str()
            .unwrap()
            .contains("no valid version")
    );
    assert!(
        env.seed_path().exists(),
        "the only copy must stay where it is"
    );
    assert!(corrupted_copies(&env).is_empty());

    env.carryover()
        .arg("status")
        .assert()
        .code(1)
        .stdout(contains("unusable"))
        .stderr(contains("no valid version"));
}

#[test]
fn an_invalid_but_well_formed_seed_is_repaired_too() {
    let env = Hermetic::new();
    env.init();
    let text = fs_err::read_to_string(env.seed_path())
        .unwrap()
        .replace("\"Juno\"", "\"\"");
    fs_err::write(env.seed_path(), text).unwrap();
    env.carryover()
        .arg("context")
        .assert()
        .success()
        .stdout(contains("Identity: Juno"));
}
