//! `identity show|set` and `init --force` as a user runs them: one field changes, the rest is
//! kept, and a refused value writes nothing.

use predicates::str::contains;
use rstest::rstest;
use serde_json::Value;

use crate::support::{Hermetic, succeeded};

fn show(env: &Hermetic) -> Value {
    let output = env
        .carryover()
        .args(["identity", "show", "--json"])
        .output()
        .unwrap();
    serde_json::from_str(&succeeded(&output)).expect("JSON on stdout")
}

fn commits(env: &Hermetic) -> usize {
    env.git(&["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn identity_set_changes_one_field_in_one_commit() {
    let env = Hermetic::new();
    env.init();
    let before = commits(&env);
    let output = env
        .carryover()
        .args(["identity", "set", "timezone", "america/new_york"])
        .output()
        .unwrap();
    assert_eq!(
        succeeded(&output).trim(),
        "timezone: Europe/Lisbon → America/New_York"
    );
    assert_eq!(commits(&env), before + 1);
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        "Identity: set timezone to America/New_York"
    );
    let identity = show(&env);
    assert_eq!(identity["timezone"], "America/New_York");
    assert_eq!(identity["ai_name"], "Juno");
    assert_eq!(identity["principal"], "Mara");
    assert_eq!(identity["style"], "concise");
    assert_eq!(identity["locale"], "en-GB");
}

#[test]
fn identity_set_to_the_same_value_commits_nothing() {
    let env = Hermetic::new();
    env.init();
    let before = commits(&env);
    let output = env
        .carryover()
        .args(["identity", "set", "locale", "en-GB"])
        .output()
        .unwrap();
    assert!(succeeded(&output).contains("already en-GB"));
    assert_eq!(commits(&env), before);
}

#[test]
fn identity_show_lists_every_field() {
    let env = Hermetic::new();
    env.init();
    let output = env.carryover().args(["identity", "show"]).output().unwrap();
    let text = succeeded(&output);
    for line in [
        "ai-name      Juno",
        "principal    Mara",
        "catchphrase  Juno here, ready to go.",
        "style        concise",
        "timezone     Europe/Lisbon",
        "locale       en-GB",
        "voice-id     default",
    ] {
        assert!(text.contains(line), "{line:?} missing from:\n{text}");
    }
}

#[test]
fn identity_needs_a_seed() {
    let env = Hermetic::new();
    env.carryover()
        .args(["identity", "set", "locale", "en-GB"])
        .assert()
        .code(2)
        .stderr(contains("carryover init"));
    assert!(!env.seed_path().exists());
}

#[rstest]
#[case::a_zone_typo(&["identity", "set", "timezone", "Europe/Lisbn"], "did you mean Europe/Lisbon?")]
#[case::a_city_for_a_zone(&["identity", "set", "timezone", "Lisbon"], "did you mean Europe/Lisbon?")]
#[case::a_language_name(&["identity", "set", "locale", "english"], "did you mean en?")]
#[case::a_posix_locale(&["identity", "set", "locale", "pt_BR.UTF-8"], "did you mean pt-BR?")]
#[case::an_unknown_style(&["identity", "set", "style", "verbose"], "concise, detailed or adaptive")]
#[case::an_unknown_key(&["identity", "set", "mood", "calm"], "ai-name, principal, catchphrase, style, timezone, locale, voice-id")]
#[case::init_with_a_zone_typo(
    &["init", "--force", "--ai-name", "Nova", "--principal", "Mara", "--timezone", "Europe/Lisbn"],
    "did you mean Europe/Lisbon?"
)]
#[case::init_with_a_language_name(
    &["init", "--force", "--ai-name", "Nova", "--principal", "Mara", "--locale", "english"],
    "did you mean en?"
)]
fn a_refused_value_writes_nothing(#[case] args: &[&str], #[case] hint: &str) {
    let env = Hermetic::new();
    env.init();
    let seed = fs_err::read(env.seed_path()).unwrap();
    let before = commits(&env);
    let output = env.carryover().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(hint), "{hint:?} missing from: {stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(
        fs_err::read(env.seed_path()).unwrap(),
        seed,
        "the seed changed"
    );
    assert_eq!(commits(&env), before, "a commit was made");
}

#[test]
fn init_refuses_a_bad_zone_before_writing_a_first_seed() {
    let env = Hermetic::new();
    env.carryover()
        .args(["init", "--ai-name", "Juno", "--principal", "Mara"])
        .args(["--timezone", "Lisbon"])
        .assert()
        .code(2)
        .stderr(contains("\"Lisbon\" is not an IANA time zone"))
        .stderr(contains("did you mean Europe/Lisbon?"));
    assert!(!env.seed_path().exists());
}

#[test]
fn init_force_keeps_every_field_it_is_not_given() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["learn", "pattern", "Survives a forced init"])
        .assert()
        .success();
    let output = env
        .carryover()
        .args(["identity", "set", "catchphrase", "At your service."])
        .output()
        .unwrap();
    succeeded(&output);
    let output = env
        .carryover()
        .args(["init", "--force", "--ai-name", "Nova", "--json"])
        .output()
        .unwrap();
    let written: Value = serde_json::from_str(&succeeded(&output)).unwrap();
    assert_eq!(written["ai_name"], "Nova");
    let identity = show(&env);
    assert_eq!(
        written, identity,
        "init prints the identity as `identity show` does"
    );
    assert_eq!(identity["ai_name"], "Nova");
    assert_eq!(identity["principal"], "Mara");
    assert_eq!(identity["catchphrase"], "At your service.");
    assert_eq!(identity["style"], "concise");
    assert_eq!(identity["timezone"], "Europe/Lisbon");
    assert_eq!(identity["locale"], "en-GB");
    let learnings = env
        .carryover()
        .args(["learnings", "list", "--json"])
        .output()
        .unwrap();
    assert!(succeeded(&learnings).contains("Survives a forced init"));
}

#[test]
fn init_takes_a_valid_tz_and_ignores_an_invalid_one() {
    let env = Hermetic::new();
    let output = env
        .carryover()
        .env("TZ", "Lisbon")
        .args(["init", "--ai-name", "Juno", "--principal", "Mara", "--json"])
        .output()
        .unwrap();
    let written: Value = serde_json::from_str(&succeeded(&output)).unwrap();
    assert_eq!(written["timezone"], "UTC");
    let other = Hermetic::new();
    let output = other
        .carryover()
        .env("TZ", ":America/Sao_Paulo")
        .args(["init", "--ai-name", "Juno", "--principal", "Mara", "--json"])
        .output()
        .unwrap();
    let written: Value = serde_json::from_str(&succeeded(&output)).unwrap();
    assert_eq!(written["timezone"], "America/Sao_Paulo");
}

#[rstest]
#[case::identity_set(&["identity", "set", "--help"], "carryover identity set timezone Europe/Lisbon")]
#[case::identity_show(&["identity", "show", "--help"], "carryover identity show --json")]
#[case::init(&["init", "--help"], "carryover init --ai-name Juno")]
fn help_has_an_example(#[case] args: &[&str], #[case] example: &str) {
    let output = Hermetic::new().carryover().args(args).output().unwrap();
    let text = succeeded(&output);
    assert!(text.contains(example), "{example:?} missing from:\n{text}");
}

#[test]
fn init_force_on_a_terminal_offers_the_current_values_and_asks_again_after_a_bad_one() {
    let env = Hermetic::new();
    env.init();
    // Name, principal, catchphrase and style keep their offered values; a misspelt zone is
    // refused with the likely one and asked again; the locale keeps its value.
    let (ok, shown) =
        env.on_a_terminal("init --force", "Nova\n\n\n\nLisbn\nEurope/Berlin\n\n", &[]);
    assert!(ok, "{shown}");
    assert!(shown.contains("Assistant's name [Juno]"), "{shown}");
    assert!(shown.contains("Time zone [Europe/Lisbon]"), "{shown}");
    assert!(shown.contains("did you mean Europe/Lisbon?"), "{shown}");
    let out = env
        .carryover()
        .args(["identity", "show", "--json"])
        .assert()
        .success();
    let identity: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let text = identity.to_string();
    for expected in ["Nova", "Mara", "Europe/Berlin", "en-GB", "concise"] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
}
