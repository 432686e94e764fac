//! `hook session-start` over the real client's payloads.

use crate::support::{Hermetic, envelope, fixture, session_start_fixtures, succeeded};

#[test]
fn every_real_payload_gets_identity_learnings_proposals_and_state() {
    for payload in session_start_fixtures() {
        // A fresh home each time: what one start told a session is not repeated to it.
        let env = Hermetic::new();
        env.install_example_seed();
        let output = env
            .carryover()
            .args(["hook", "session-start"])
            .pipe_stdin(&payload)
            .unwrap()
            .output()
            .unwrap();
        assert!(output.status.success(), "{payload:?}");
        let (_, context) = envelope(&output.stdout);
        // 13 confirmed; outside shop-api, the one naming shop-api, another project the seed
        // knows, is left out (ADR 0010).
        let sent: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&payload).unwrap()).unwrap();
        let total = if sent["cwd"].as_str().unwrap().ends_with("/shop-api") {
            "/13"
        } else {
            "/12"
        };
        for expected in [
            "Identity: Juno (serving Mara)",
            "Style: concise | Timezone: Europe/Lisbon | Locale: en-GB",
            total,
            "Proposed learnings awaiting the user's review (3, newest first):",
            "  T7nB3 insight  \"The fetcher's retry budget must stay bel...\" (0.84)",
            "Last session: 1 day ago (2026-11-21 18:40 UTC)",
            "Active projects: shop-api, notes",
            "Checkpoint: ckpt_2026-11-21_001",
        ] {
            assert!(
                context.contains(expected),
                "{payload:?}: {expected:?} missing in\n{context}"
            );
        }
        assert!(
            !context.contains("Uses anyhow in binaries only"),
            "the rejected proposal leaked"
        );
        assert!(context.chars().count() <= 9_000);
    }
}

#[test]
fn it_never_modifies_the_seed() {
    let env = Hermetic::new();
    env.install_example_seed();
    let before = fs_err::read(env.seed_path()).unwrap();
    let modified = fs_err::metadata(env.seed_path())
        .unwrap()
        .modified()
        .unwrap();
    let commits = env.git(&["rev-list", "--count", "HEAD"]);
    for payload in session_start_fixtures() {
        env.carryover()
            .args(["hook", "session-start"])
            .pipe_stdin(payload)
            .unwrap()
            .assert()
            .success();
    }
    assert_eq!(fs_err::read(env.seed_path()).unwrap(), before);
    assert_eq!(
        fs_err::metadata(env.seed_path())
            .unwrap()
            .modified()
            .unwrap(),
        modified
    );
    assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), commits);
}

#[test]
fn first_run_prints_a_setup_context_and_tells_the_user() {
    let env = Hermetic::new();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .pipe_stdin(fixture(
            "claude-code-2.1.328/hooks/sessionstart-startup-1.json",
        ))
        .unwrap()
        .output()
        .unwrap();
    assert!(output.status.success());
    let (value, context) = envelope(&output.stdout);
    assert!(context.contains("carryover init"), "{context}");
    assert!(
        value["systemMessage"]
            .as_str()
            .unwrap()
            .contains("carryover init")
    );
    assert!(!env.seed_path().exists(), "the hook must not create a seed");

    // Run by hand before any hook is installed, it claims no installation either.
    let text = succeeded(&env.carryover().arg("context").output().unwrap());
    assert!(
        text.contains("carryover is not set up yet") && !text.contains("installed"),
        "{text}"
    );
}

#[rstest::rstest]
#[case::empty(b"" as &[u8])]
#[case::broken(b"{\"session_id\": \"abc")]
#[case::not_json(b"\x00\xff garbage")]
fn tolerates_missing_or_broken_stdin(#[case] stdin: &[u8]) {
    let env = Hermetic::new();
    env.init();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(output.status.success());
    let (_, context) = envelope(&output.stdout);
    assert!(context.contains("Identity: Juno (serving Mara)"));
}

#[test]
fn without_any_home_it_still_prints_a_valid_payload() {
    let env = Hermetic::new();
    let output = env
        .carryover()
        .env_remove("HOME")
        .env_remove("CARRYOVER_HOME")
        .env_remove("XDG_DATA_HOME")
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let (_, context) = envelope(&output.stdout);
    assert!(context.contains("CARRYOVER_HOME"), "{context}");
    assert!(!output.stderr.is_empty());
}

#[test]
fn pai_dir_switches_to_complement_mode() {
    let env = Hermetic::new();
    env.init();
    let output = env
        .carryover()
        .env("PAI_DIR", env.home())
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    let (_, context) = envelope(&output.stdout);
    assert!(!context.contains("Identity:"), "{context}");
    assert!(context.contains("No confirmed learnings yet."));
}

#[test]
fn a_malformed_config_falls_back_to_defaults_and_logs_it() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(env.data().join("config.toml"), "[context\nbudget_chars = ").unwrap();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let (_, context) = envelope(&output.stdout);
    assert!(context.contains("Identity: Juno"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("config.toml"));
    let log = fs_err::read_to_string(env.data().join("logs/carryover.log")).unwrap();
    assert!(
        log.contains("session-start") && log.contains("config.toml"),
        "{log}"
    );
}

#[test]
fn the_plain_agent_gets_the_bare_text() {
    let env = Hermetic::new();
    env.init();
    let output = env
        .carryover()
        .args(["hook", "session-start", "--agent", "plain"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with("<session-reset>New session started. No prior compaction state detected.</session-reset>\n\nIdentity: Juno (serving Mara)"),
        "{text}"
    );
}

#[test]
fn a_configured_budget_is_respected() {
    let env = Hermetic::new();
    env.install_example_seed();
    fs_err::write(
        env.data().join("config.toml"),
        "[context]\nbudget_chars = 500\n",
    )
    .unwrap();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    let (_, context) = envelope(&output.stdout);
    assert!(
        context.chars().count() <= 500,
        "{} chars",
        context.chars().count()
    );
    assert!(context.contains("\n\nIdentity: Juno"), "{context}");
    assert!(context.contains("more not shown"), "{context}");
}
