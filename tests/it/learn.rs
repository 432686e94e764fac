//! `learn` refuses secrets and warns about near-duplicates; `learnings forget --purge` takes a
//! learning's text out of the data home's whole git history.

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::Hermetic;

#[rstest::rstest]
#[case::aws_access_key("The CI deploy key is AKIAZ3MTQ7LP4XN2WBQD")]
#[case::github_token("push with ghp_8fK2mQ9xLp4Rt7Wv1Zb3Nc6Hd0Js5Ya2Ue4G")]
fn learn_refuses_a_secret_and_commits_nothing(#[case] text: &str) {
    let env = Hermetic::new();
    env.init();
    let commits = env.git(&["rev-list", "--count", "--all"]);
    let seed = fs_err::read(env.seed_path()).unwrap();
    env.carryover()
        .args(["learn", "insight", text])
        .assert()
        .code(2)
        .stderr(contains("looks like it holds a secret"))
        .stderr(contains("hint:"));
    assert_eq!(env.git(&["rev-list", "--count", "--all"]), commits);
    assert_eq!(fs_err::read(env.seed_path()).unwrap(), seed);
    let secret = text.split_whitespace().last().unwrap();
    assert!(!env.git(&["log", "-p", "--all"]).contains(secret));
}

#[test]
fn learn_warns_about_a_near_duplicate_and_still_learns_it() {
    let env = Hermetic::new();
    env.init();
    let first = env
        .carryover()
        .args([
            "learn",
            "--json",
            "insight",
            "Staging resets every Sunday night",
        ])
        .assert()
        .success();
    let id: serde_json::Value = serde_json::from_slice(&first.get_output().stdout).unwrap();
    let id = id["id"].as_str().unwrap().to_owned();
    env.carryover()
        .args(["learn", "pattern", "staging resets every sunday night."])
        .assert()
        .success()
        .stdout(contains("Learned pattern"))
        .stderr(contains(format!("is close to {id}")))
        .stderr(contains("Staging resets every Sunday night"));
    env.carryover()
        .args(["learn", "insight", "Mara prefers tabs over spaces"])
        .assert()
        .success()
        .stderr(contains("is close to").not());
    env.carryover()
        .args(["learn", "insight", "Staging resets every Sunday night"])
        .assert()
        .code(2)
        .stderr(contains("already exists"));
}

#[test]
fn a_long_learning_is_kept_whole_but_warned_about_and_listed_cut() {
    let env = Hermetic::new();
    env.init();
    let long: String = (0..300).map(|i| format!("word{i} ")).collect();
    let learned = env
        .carryover()
        .args(["learn", "--json", "insight", long.trim()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&learned.stderr);
    assert!(learned.status.success(), "{stderr}");
    assert!(stderr.contains("characters long"), "{stderr}");
    let value: serde_json::Value = serde_json::from_slice(&learned.stdout).unwrap();
    assert_eq!(value["content"], long.trim(), "kept whole");
    assert_eq!(
        value["source"], "carryover learn",
        "as `learnings show --json` gives it"
    );
    assert!(value["confirmed_at"].is_string(), "{value}");
    env.carryover()
        .args(["learn", "--pin", "pattern", "Answer in British English"])
        .assert()
        .success();
    let listed = env
        .carryover()
        .args(["learnings", "list"])
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(lines.iter().all(|l| l.chars().count() < 260), "{listed}");
    assert!(listed.contains('…'), "{listed}");
    let id_column = |line: &str| line.find("ins_").or_else(|| line.find("pat_"));
    assert_eq!(
        id_column(lines[0]),
        id_column(lines[1]),
        "ids line up: {listed}"
    );
    env.carryover()
        .args(["learnings", "list", "--project"])
        .assert()
        .success()
        .stdout(contains("No learnings for this project yet."));
}

#[test]
fn forget_purge_leaves_no_commit_holding_the_text() {
    let env = Hermetic::new();
    env.init();
    let text = "The merger codename is Bluefin Harbor";
    for learning in [
        "Deploys go out on Tuesdays",
        text,
        "Mara reviews on Fridays",
    ] {
        env.carryover()
            .args(["learn", "insight", learning])
            .assert()
            .success();
    }
    let list = env
        .carryover()
        .args(["learnings", "list", "--json"])
        .assert()
        .success();
    let listed: serde_json::Value = serde_json::from_slice(&list.get_output().stdout).unwrap();
    let id = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["content"] == text)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let subjects_before = env.git(&["log", "--all", "--format=%s"]);
    assert!(env.git(&["log", "-p", "--all"]).contains("Bluefin"));

    env.carryover()
        .args(["learnings", "forget", "--purge", &id])
        .assert()
        .success()
        .stdout(contains("rewrote"));

    assert!(!env.git(&["log", "-p", "--all"]).contains("Bluefin"));
    env.git(&["fsck", "--strict", "--no-progress", "--unreachable"]);
    let unreachable = env.git(&["fsck", "--strict", "--no-progress", "--unreachable"]);
    assert_eq!(unreachable, "", "old objects pruned");
    assert_eq!(env.git(&["status", "--porcelain"]), "");
    let subjects_after = env.git(&["log", "--all", "--format=%s"]);
    assert_eq!(
        subjects_after,
        format!("Forget: remove learning {id}\n{subjects_before}"),
        "every other commit is still there"
    );
    env.carryover()
        .args(["learnings", "list"])
        .assert()
        .success()
        .stdout(contains("Deploys go out on Tuesdays"))
        .stdout(contains("Mara reviews on Fridays"))
        .stdout(contains("Bluefin").not());
    let objects = walk(&env.data().join(".git"));
    assert!(
        !objects
            .iter()
            .any(|bytes| contains_bytes(bytes, b"Bluefin")),
        "no file of the repository holds it"
    );
}

/// Every file under `dir` (loose objects are compressed; packs may be too: this catches
/// only what is stored plainly, such as logs and the index).
fn walk(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(fs_err::read(&path).unwrap());
        }
    }
    found
}

fn contains_bytes(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The examples of `learn --help`, pasted into a shell as written, learn what they say: no
/// backquote runs a command, no word is taken for an option.
#[test]
fn the_help_examples_learn_what_they_say_when_pasted_into_a_shell() {
    let env = Hermetic::new();
    env.init();
    let help = env.carryover().args(["learn", "--help"]).output().unwrap();
    let help = crate::support::succeeded(&help);
    let examples: Vec<&str> = help
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("carryover learn "))
        .collect();
    assert_eq!(examples.len(), 2, "{help}");
    for example in examples {
        let shell = format!("carryover() {{ \"$CARRYOVER_BIN\" \"$@\"; }}; {example}");
        let output = std::process::Command::new("sh")
            .args(["-c", &shell])
            .current_dir(env.home())
            .env_clear()
            .envs(env.variables())
            .env("CARRYOVER_BIN", assert_cmd::cargo::cargo_bin!("carryover"))
            .output()
            .unwrap();
        crate::support::succeeded(&output);
    }
    let listed = env
        .carryover()
        .args(["learnings", "list", "--all", "--json"])
        .output()
        .unwrap();
    let listed: serde_json::Value =
        serde_json::from_str(&crate::support::succeeded(&listed)).unwrap();
    let mut contents: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["content"].as_str().unwrap())
        .collect();
    contents.sort_unstable();
    assert_eq!(
        contents,
        [
            "Build release binaries with --locked",
            "The tests run with `make check`"
        ]
    );
}

/// Outside git a project is its directory alone: learning "for this project" in `/` or a
/// home folder says so, and a repository says nothing.
#[test]
fn learning_for_a_project_outside_git_says_it_is_that_directory_alone() {
    let env = Hermetic::new();
    env.init();
    let plain = env.home().join("scans");
    let repository = env.home().join("notes");
    fs_err::create_dir_all(&plain).unwrap();
    fs_err::create_dir_all(&repository).unwrap();
    crate::support::git_in(&repository, &["init", "-q"]);
    env.carryover()
        .current_dir(&plain)
        .args(["learn", "insight", "--project", "Scans are kept at 300 dpi"])
        .assert()
        .success()
        .stdout(contains("(project scans)"))
        .stderr(contains(
            "is not in a git repository, so this learning belongs to that directory alone",
        ));
    env.carryover()
        .current_dir(&repository)
        .args([
            "learn",
            "insight",
            "--project",
            "Notes are written in Markdown",
        ])
        .assert()
        .success()
        .stderr(contains("git repository").not());
}
