//! `carryover doctor`, the configuration's mistakes as commands and hooks tell them, and the
//! set-up lines of `status`: the real binary in a hermetic home.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

use crate::support::{Hermetic, envelope};

const TYPO: &str = "[retrieval]\ntop_n = 3\nflor = 0.3\n";

fn installed() -> Hermetic {
    let env = Hermetic::new();
    env.init();
    env.carryover().arg("install").assert().success();
    env
}

fn doctor_json(env: &Hermetic) -> Value {
    let output = env.carryover().args(["doctor", "--json"]).output().unwrap();
    serde_json::from_slice(&output.stdout).expect("doctor --json prints JSON")
}

#[test]
fn a_fresh_init_and_install_is_all_ok() {
    let env = installed();
    env.carryover()
        .arg("doctor")
        .assert()
        .success()
        .stdout(contains("Everything is in order."))
        .stdout(contains("Claude Code (user)").and(contains("SessionEnd wired")));
    let report = doctor_json(&env);
    assert_eq!(report["status"], "ok", "{report:#}");
}

#[test]
fn nothing_wired_fails_and_names_the_fix() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .arg("doctor")
        .assert()
        .code(1)
        .stdout(contains("not wired into any agent").and(contains("fix: carryover install")));
}

/// Install refuses a file whose hooks are shaped otherwise than the agent reads them, so
/// doctor names that and the hand fix, not an install that would refuse.
#[test]
fn hooks_of_the_wrong_shape_fail_naming_the_hand_fix_before_install() {
    let env = Hermetic::new();
    env.init();
    let settings = env.home().join(".claude/settings.json");
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    fs_err::write(
        &settings,
        r#"{"hooks": {"SessionStart": {"matcher": "x"}}}"#,
    )
    .unwrap();
    env.carryover().arg("install").assert().code(2);
    env.carryover()
        .arg("doctor")
        .assert()
        .code(1)
        .stdout(contains(
            "$.hooks.SessionStart is not an array, as Claude Code reads its hooks",
        ))
        .stdout(contains("by hand (the agent cannot read it either)"))
        .stdout(contains(
            "fix: fix the settings file above by hand, then carryover install",
        ));
}

#[test]
fn a_wired_binary_that_is_gone_fails_naming_the_fix() {
    let env = Hermetic::new();
    env.init();
    let bin = env.home().join("bin");
    fs_err::create_dir_all(&bin).unwrap();
    let copy = bin.join("carryover");
    fs_err::copy(assert_cmd::cargo::cargo_bin!("carryover"), &copy).unwrap();
    env.carryover()
        .arg("install")
        .arg("--binary")
        .arg(&copy)
        .assert()
        .success();
    env.carryover().arg("doctor").assert().success();
    fs_err::remove_file(&copy).unwrap();
    env.carryover()
        .arg("doctor")
        .assert()
        .code(1)
        .stdout(contains(format!("{} does not exist", copy.display())))
        .stdout(contains(
            "fix: carryover install --agent claude --scope user",
        ))
        .stderr(contains("1 check failed"));
    let report = doctor_json(&env);
    assert_eq!(report["status"], "fail");
    assert_eq!(report["agents"][0]["binaries"][0]["state"], "missing");
    env.carryover()
        .arg("status")
        .assert()
        .success()
        .stdout(contains("wired to a binary that is gone"));
}

#[test]
fn a_config_typo_is_named_with_its_line_on_stderr_and_the_command_runs() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(env.data().join("config.toml"), TYPO).unwrap();
    env.carryover()
        .args(["context", "--json"])
        .assert()
        .success()
        .stderr(contains(
            "config.toml line 3: unknown key `retrieval.flor`, ignored",
        ))
        .stderr(contains("`floor`"));
    env.carryover()
        .arg("doctor")
        .assert()
        .stdout(contains("retrieval.flor").and(contains("fix: edit")))
        .stdout(contains("config.toml line 3"));
}

#[test]
fn a_bad_value_takes_its_default_and_the_rest_of_the_file_holds() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(
        env.data().join("config.toml"),
        "[context]\nbudget_chars = \"big\"\n[retrieval]\nfloor = 1.5\n",
    )
    .unwrap();
    env.carryover()
        .arg("status")
        .assert()
        .success()
        .stderr(contains("line 2: `context.budget_chars`"))
        .stderr(contains("line 4: `retrieval.floor`: 1.5 is not in 0 to 1"))
        .stdout(contains("(2 problems: run `carryover doctor`)"));
}

#[test]
fn a_config_typo_reaches_the_user_once_per_session() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(env.data().join("config.toml"), TYPO).unwrap();
    let project = env.home().join("code/p");
    fs_err::create_dir_all(&project).unwrap();
    let start = |session: &str| {
        let payload = format!(
            r#"{{"session_id":"{session}","cwd":"{}","source":"startup"}}"#,
            project.display()
        );
        let output = env
            .carryover()
            .args(["hook", "session-start"])
            .write_stdin(payload)
            .output()
            .unwrap();
        assert!(output.status.success());
        envelope(&output.stdout).0
    };
    let first = start("s1");
    let message = first["systemMessage"].as_str().unwrap_or_default();
    assert!(
        message.contains("config.toml line 3: unknown key `retrieval.flor`"),
        "{first:#}"
    );
    let again = start("s1");
    assert!(again.get("systemMessage").is_none(), "{again:#}");
    let prompt = env
        .carryover()
        .args(["hook", "prompt"])
        .write_stdin(format!(
            r#"{{"session_id":"s1","cwd":"{}","prompt":"zebra"}}"#,
            project.display()
        ))
        .output()
        .unwrap();
    assert!(prompt.status.success());
    assert!(
        !String::from_utf8_lossy(&prompt.stdout).contains("systemMessage"),
        "{}",
        String::from_utf8_lossy(&prompt.stdout)
    );
    let other = start("s2");
    assert!(other["systemMessage"].as_str().is_some(), "{other:#}");
}

#[test]
fn the_prompt_hook_tells_a_session_the_start_did_not() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(env.data().join("config.toml"), TYPO).unwrap();
    let prompt = || {
        let output = env
            .carryover()
            .args(["hook", "prompt"])
            .write_stdin(r#"{"session_id":"s9","prompt":"zebra"}"#)
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first: Value = serde_json::from_str(&prompt()).expect("one JSON object");
    assert!(
        first["systemMessage"]
            .as_str()
            .unwrap()
            .contains("retrieval.flor")
    );
    assert_eq!(prompt().trim(), "");
}

#[test]
fn status_counts_in_the_right_number_and_shows_the_set_up() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .arg("status")
        .assert()
        .success()
        .stdout(contains("Git:        1 commit,"))
        .stdout(contains("0 patterns, 0 insights, 0 self-knowledge"))
        .stdout(contains("Config:").and(contains("(absent: every key at its default)")))
        .stdout(contains(
            "Hooks:      no agent settings found (run `carryover install`)",
        ))
        .stdout(contains("Index:      nothing to index yet"));
    env.carryover()
        .args([
            "learn", "insight", "the", "tests", "run", "with", "make", "check",
        ])
        .assert()
        .success();
    env.carryover().arg("install").assert().success();
    env.carryover()
        .arg("status")
        .assert()
        .success()
        .stdout(contains("Git:        2 commits,"))
        .stdout(contains("0 patterns, 1 insight, 0 self-knowledge"))
        .stdout(contains("Hooks:      Claude Code (user) wired"))
        .stdout(contains("Index:      up to date (1 learning indexed)"));
    let output = env.carryover().args(["status", "--json"]).output().unwrap();
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["hooks"][0]["wiring"], "complete");
    assert_eq!(value["index"]["fresh"], true);
    assert_eq!(value["config"]["present"], false);
}

#[test]
fn doctor_json_has_its_shape() {
    let env = installed();
    fs_err::write(env.data().join("config.toml"), TYPO).unwrap();
    let report = doctor_json(&env);
    assert_eq!(report["status"], "warn");
    let checks = report["checks"].as_array().unwrap();
    for check in checks {
        for key in ["area", "subject", "status", "detail", "fix"] {
            assert!(check.get(key).is_some(), "{key} missing in {check}");
        }
    }
    let areas: Vec<&str> = checks.iter().filter_map(|c| c["area"].as_str()).collect();
    for area in ["hooks", "seed", "index", "config", "trust", "clients"] {
        assert!(areas.contains(&area), "{area} missing: {areas:?}");
    }
    let typo = checks
        .iter()
        .find(|c| c["subject"] == "retrieval.flor")
        .expect("the typo is a check");
    assert_eq!(typo["status"], "warn");
    let agent = &report["agents"][0];
    assert_eq!(
        (&agent["agent"], &agent["scope"], &agent["wiring"]),
        (
            &Value::from("claude"),
            &Value::from("user"),
            &Value::from("complete")
        )
    );
    assert_eq!(agent["events"].as_array().unwrap().len(), 4);
    assert_eq!(report["clients"].as_array().unwrap().len(), 5);
}

#[test]
fn a_config_that_is_not_toml_is_a_failed_check_not_a_stop() {
    let env = installed();
    fs_err::write(
        env.data().join("config.toml"),
        "[context\nbudget_chars = 1\n",
    )
    .unwrap();
    env.carryover()
        .arg("doctor")
        .assert()
        .code(1)
        .stdout(contains("not valid TOML").and(contains("config.toml line 1")));
    env.carryover().arg("status").assert().code(2);
}

#[cfg(unix)]
#[test]
fn the_agents_versions_are_reported_and_a_missing_one_is_no_failure() {
    use std::os::unix::fs::PermissionsExt;
    let env = installed();
    let bin = env.home().join("agents-bin");
    fs_err::create_dir_all(&bin).unwrap();
    let claude = bin.join("claude");
    fs_err::write(&claude, "#!/bin/sh\necho '9.9.9 (Claude Code)'\n").unwrap();
    fs_err::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = env
        .carryover()
        .args(["doctor", "--json"])
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let clients = report["clients"].as_array().unwrap();
    assert_eq!(clients[0]["program"], "claude");
    assert_eq!(clients[0]["version"], "9.9.9 (Claude Code)");
    assert_eq!(clients.len(), 5, "absent ones are listed too, as null");
}

#[test]
fn doctor_colours_its_verdicts_on_a_terminal_only() {
    let env = Hermetic::new();
    env.init();
    let (_, shown) = env.on_a_terminal("doctor", "", &[]);
    assert!(
        shown.contains("\u{1b}[31m") || shown.contains("\u{1b}[32m"),
        "{shown:?}"
    );
    let (_, shown) = env.on_a_terminal("doctor", "", &[("NO_COLOR", "1")]);
    assert!(!shown.contains('\u{1b}'), "{shown:?}");
    let piped = env.carryover().arg("doctor").output().unwrap();
    assert!(!String::from_utf8_lossy(&piped.stdout).contains('\u{1b}'));
}

#[test]
fn an_agent_wired_twice_is_a_warning_naming_the_file_to_take_out() {
    let env = installed();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    env.carryover()
        .current_dir(&project)
        .args(["install", "--scope", "project"])
        .assert()
        .success();
    // The project's hooks run `carryover` by name, which is not on this test's PATH: a failed
    // check beside the warning, whose fix is PATH, not installing again.
    let out = env
        .carryover()
        .current_dir(&project)
        .arg("doctor")
        .assert()
        .stdout(contains("runs carryover more than once"))
        .stdout(contains("fix: put carryover on PATH"))
        .stdout(contains(format!(
            "fix: carryover uninstall --agent claude --scope project --cwd {}",
            project.display()
        )));
    let shown = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    // Taking out the file named fixes it.
    env.carryover()
        .current_dir(&project)
        .args(["uninstall", "--scope", "project"])
        .assert()
        .success();
    env.carryover()
        .current_dir(&project)
        .arg("doctor")
        .assert()
        .success()
        .stdout(
            contains("runs carryover")
                .not()
                .and(contains("Everything is in order.")),
        );
    let committed = project.join(".claude/settings.json");
    assert!(shown.contains(&*committed.to_string_lossy()), "{shown}");
}
