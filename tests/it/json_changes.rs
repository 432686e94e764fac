//! What a script gets from a command that changes something, asked for `--json`: one JSON
//! document on stdout saying what changed, and nothing else there.

use serde_json::Value;

use crate::support::Hermetic;

/// Runs `args` in `env`; it must succeed and print exactly one JSON document on stdout.
fn run_json(env: &Hermetic, args: &[&str]) -> Value {
    let output = env.carryover().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "carryover {args:?}: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "carryover {args:?}: not one JSON document ({error}): {}\nstderr: {stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

#[rstest::rstest]
#[case::pin("", &["learnings", "pin", "7Qm2v", "--json"],
    &[("/id", "\"pat_7Qm2vXk9LdRa\""), ("/pinned", "true"), ("/changed", "true")])]
#[case::pin_again("learnings pin 7Qm2v", &["learnings", "pin", "7Qm2v", "--json"],
    &[("/pinned", "true"), ("/changed", "false")])]
#[case::unpin("learnings pin 7Qm2v", &["learnings", "unpin", "7Qm2v", "--json"],
    &[("/pinned", "false"), ("/changed", "true")])]
#[case::scope_global("", &["learnings", "scope", "7Qm2v", "global", "--json"],
    &[("/id", "\"pat_7Qm2vXk9LdRa\""), ("/changed", "true"), ("/project_before", "null")])]
#[case::forget("", &["learnings", "forget", "Mt6gD", "--json"],
    &[("/id", "\"ins_Mt6gD4xCk2Za\""), ("/forgotten", "true"), ("/rewritten_versions", "null")])]
#[case::accept("", &["proposals", "accept", "Q4mZ8", "--json"],
    &[("/accepted/0/project", "null"), ("/rejected", "[]")])]
#[case::reject("", &["proposals", "reject", "T7nB3", "F2hJ6", "--json"],
    &[("/accepted", "[]"), ("/rejected", "[\"prp_T7nB3vKd9Spe\",\"prp_F2hJ6qRw1Xtb\"]")])]
#[case::identity_set("", &["identity", "set", "timezone", "Asia/Tokyo", "--json"],
    &[("/key", "\"timezone\""), ("/before", "\"Europe/Lisbon\""), ("/after", "\"Asia/Tokyo\""), ("/changed", "true")])]
#[case::flag_set("", &["flags", "set", "startup-instruction", "make check", "--json"],
    &[("/name", "\"startup-instruction\""), ("/value", "\"make check\""), ("/scope", "\"global\"")])]
#[case::flag_unset("flags set review-proposals true",
    &["flags", "unset", "review-proposals", "--json"],
    &[("/name", "\"review-proposals\""), ("/removed", "true"), ("/scope", "\"global\"")])]
#[case::no_remote("", &["sync", "remote", "show", "--json"], &[("/remote", "null")])]
fn a_change_asked_for_json_says_what_it_changed(
    #[case] before: &str,
    #[case] args: &[&str],
    #[case] expected: &[(&str, &str)],
) {
    let env = Hermetic::new();
    env.install_example_seed();
    if !before.is_empty() {
        let setup = env.carryover().args(before.split(' ')).output().unwrap();
        crate::support::succeeded(&setup);
    }
    let value = run_json(&env, args);
    for (pointer, want) in expected {
        let want: Value = serde_json::from_str(want).unwrap();
        assert_eq!(value.pointer(pointer), Some(&want), "{pointer} in {value}");
    }
}
