//! `flags`: setting, reading and removing feature flags, and what they refuse.

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::Replay;

#[test]
fn flag_commands_refuse_bad_input_and_a_malformed_config() {
    let replay = Replay::new("notes");
    replay
        .env
        .carryover()
        .args(["flags", "set", "bad name", "x"])
        .assert()
        .code(2)
        .stderr(contains("not a flag name"));
    replay
        .env
        .carryover()
        .args(["flags", "get", "missing"])
        .assert()
        .code(2)
        .stderr(contains("not set"));
    let config = replay.env.data().join("config.toml");
    fs_err::write(&config, "[feature_flags]\nretries = 3\n").unwrap();
    replay
        .env
        .carryover()
        .args(["flags", "set", "a", "true"])
        .assert()
        .code(2)
        .stderr(contains("config.toml").and(contains("retries")));
    assert_eq!(
        fs_err::read_to_string(&config).unwrap(),
        "[feature_flags]\nretries = 3\n"
    );
}

#[test]
fn unsetting_a_flag_where_it_is_not_set_says_where_it_is() {
    let replay = Replay::new("notes");
    let flags = |args: &[&str]| {
        let mut command = replay.env.carryover();
        command
            .arg("flags")
            .args(args)
            .arg("--cwd")
            .arg(&replay.project);
        command
    };
    flags(&["set", "--project", "startup-instruction", "false"])
        .assert()
        .success();
    flags(&["unset", "startup-instruction"])
        .assert()
        .code(2)
        .stderr(contains("startup-instruction is not set globally"))
        .stderr(contains("add --project"));
    flags(&["unset", "--project", "startup-instruction"])
        .assert()
        .success()
        .stdout(contains("startup-instruction removed for this project"));
    flags(&["unset", "--project", "startup-instruction"])
        .assert()
        .code(2)
        .stderr(contains("is not set for this project; nothing was changed"));
}
