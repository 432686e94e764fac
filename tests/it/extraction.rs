//! Learning proposals from what the user said: `proposals extract` and `hook session-end`
//! on real transcript rows, real files and real git.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::Hermetic;

const SESSION: &str = "5d2c9a41-7b3e-4f0a-9c61-2e8f4b7a1d90";

/// A Claude Code transcript whose user says `messages`, with an assistant reply after each.
fn transcript(env: &Hermetic, name: &str, messages: &[&str]) -> PathBuf {
    let path = env.home().join(format!("{name}.jsonl"));
    let mut rows = String::new();
    for (n, message) in messages.iter().enumerate() {
        rows.push_str(
            &json!({"parentUuid": null, "isSidechain": false, "type": "user",
                "message": {"role": "user", "content": message},
                "uuid": format!("u{n}"), "sessionId": SESSION})
            .to_string(),
        );
        rows.push('\n');
        rows.push_str(
            &json!({"parentUuid": format!("u{n}"), "isSidechain": false, "type": "assistant",
                "message": {"role": "assistant", "model": "claude-opus-5-5",
                    "content": [{"type": "text", "text": "Done."}],
                    "usage": {"input_tokens": 10, "output_tokens": 2}},
                "uuid": format!("a{n}"), "sessionId": SESSION})
            .to_string(),
        );
        rows.push('\n');
    }
    fs_err::write(&path, rows).unwrap();
    path
}

const OPINIONATED: [&str; 5] = [
    "Add a retry budget to the HTTP client.",
    "I prefer early returns over nested if blocks.",
    "Here is the log:\n```\nnever retry on 500\n```\nCan you check it?",
    "No, the config lives in config/app.toml, not in the repo root.",
    "Never commit directly to main in this repo. Thanks!",
];

fn extract(env: &Hermetic, transcript: &Path, extra: &[&str]) -> Value {
    let out = env
        .carryover()
        .args([
            "proposals",
            "extract",
            "--json",
            "--session-id",
            SESSION,
            "--transcript",
        ])
        .arg(transcript)
        .args(extra)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// The texts an `extract --json` result proposes, in its order.
fn proposed_contents(result: &Value) -> Vec<&str> {
    result["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["content"].as_str().unwrap())
        .collect()
}

fn pending_texts(env: &Hermetic) -> Vec<String> {
    let seed: Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    seed["state"]["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "pending")
        .map(|p| p["content"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_dry_run_shows_the_proposals_and_writes_nothing() {
    let env = Hermetic::new();
    env.init();
    let file = transcript(&env, "opinionated", &OPINIONATED);
    let before = env.git(&["rev-list", "--count", "HEAD"]);
    let result = extract(&env, &file, &["--dry-run"]);
    let proposed = proposed_contents(&result);
    assert_eq!(
        proposed,
        [
            "Prefers early returns over nested if blocks.",
            "Never commit directly to main in this repo.",
            "The config lives in config/app.toml, not in the repo root.",
        ]
    );
    let scopes: Vec<bool> = result["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["project"].is_string())
        .collect();
    assert_eq!(scopes, [false, true, true], "{result}");
    assert!(
        result["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["id"].is_null()),
        "a dry run names no proposal that exists: {result}"
    );
    assert_eq!(result["added"], 0);
    assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), before);
    assert!(pending_texts(&env).is_empty());
    let said = env
        .carryover()
        .args(["proposals", "extract", "--dry-run", "--transcript"])
        .arg(&file)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&said.stdout);
    assert!(
        said.contains("Prefers early returns over nested if blocks.  [global]"),
        "{said}"
    );
    assert!(said.contains("in this repo.  [project "), "{said}");
}

#[test]
fn a_dry_run_lists_the_cued_sentences_it_let_go_and_why() {
    let env = Hermetic::new();
    env.init();
    let file = transcript(
        &env,
        "audited",
        &[
            "Should we always squash the commits?",
            "Here is the log:\n```\nnever retry on 500\n```\nIt always fails on the second run.",
            "I prefer early returns over nested if blocks.",
        ],
    );
    let result = extract(&env, &file, &["--dry-run"]);
    let ignored: Vec<(u64, &str, &str)> = result["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["message"].as_u64().unwrap(),
                i["text"].as_str().unwrap(),
                i["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ignored,
        [
            (1, "Should we always squash the commits?", "a question"),
            (
                2,
                "It always fails on the second run.",
                "describes a problem"
            ),
        ]
    );
    assert_eq!(result["proposals"].as_array().unwrap().len(), 1);
}

#[test]
fn a_programs_advice_pasted_by_the_user_is_not_proposed() {
    let env = Hermetic::new();
    env.init();
    let file = transcript(
        &env,
        "pasted",
        &[
            "I'm getting this in the browser console:\nWarning: Each child in a list should have a unique \"key\" prop.\nYou should always pass a key to each child in a list.\n    at TodoList (TodoList.jsx:12)\ncan you fix it?",
            "Here's the log:\n\n  You should always call close() before dropping the handle.\n  Never reuse a handle after close.\n\nWhy does it say that?",
            "the build prints\n[vite] warning: You should never import server code into the client bundle. Always use the api route instead.\nwhat does that mean",
            "(node:1234) Warning: Always handle promise rejections. Never leave them unhandled.",
            "From now on, always run cargo fmt before committing.",
        ],
    );
    let result = extract(&env, &file, &["--dry-run"]);
    let proposed = proposed_contents(&result);
    assert_eq!(
        proposed,
        ["From now on, always run cargo fmt before committing."],
        "{result}"
    );
}

#[test]
fn extracting_commits_the_proposals_once_and_the_next_session_lists_them() {
    let env = Hermetic::new();
    env.init();
    let file = transcript(&env, "opinionated", &OPINIONATED);
    let result = extract(&env, &file, &[]);
    assert_eq!(result["added"], 3);
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        format!("Propose: 3 learning(s) from session {SESSION}")
    );
    let seed: Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    let first = &seed["state"]["proposals"][0];
    assert_eq!(first["method"], "rules");
    assert_eq!(first["source"], SESSION);
    assert_eq!(first["type"], "pattern");

    let again = extract(&env, &file, &[]);
    assert_eq!(again["added"], 0, "nothing proposed twice");
    assert_eq!(again["dropped"].as_array().unwrap().len(), 3);

    let context = env
        .carryover()
        .args(["context", "--json"])
        .assert()
        .success();
    let value: Value = serde_json::from_slice(&context.get_output().stdout).unwrap();
    assert_eq!(value["proposal_count"], 3);
    assert!(
        value["context"]
            .as_str()
            .unwrap()
            .contains("pattern  \"Prefers early returns over nested if blo...\" (0.85)")
    );
}

#[test]
fn a_rejected_proposal_is_not_proposed_again() {
    let env = Hermetic::new();
    env.init();
    let file = transcript(
        &env,
        "first",
        &["Never commit directly to main in this repo."],
    );
    extract(&env, &file, &[]);
    let listed = env
        .carryover()
        .args(["proposals", "list", "--json"])
        .assert()
        .success();
    let listed: Value = serde_json::from_slice(&listed.get_output().stdout).unwrap();
    let id = listed[0]["id"].as_str().unwrap().to_owned();
    env.carryover()
        .args(["proposals", "reject", &id])
        .assert()
        .success();
    let later = transcript(
        &env,
        "later",
        &["never commit directly to main in this repo!"],
    );
    let result = extract(&env, &later, &[]);
    assert_eq!(result["added"], 0);
    assert_eq!(result["dropped"][0]["reason"], format!("same text as {id}"));
}

#[test]
fn session_end_proposes_in_its_own_commit_and_caps_the_count() {
    let env = Hermetic::new();
    env.init();
    fs_err::write(
        env.data().join("config.toml"),
        "[proposals]\nmax_per_session = 2\n",
    )
    .unwrap();
    let file = transcript(&env, "session", &OPINIONATED);
    let payload = json!({
        "session_id": SESSION,
        "transcript_path": file,
        "cwd": env.home(),
        "hook_event_name": "SessionEnd",
        "reason": "other",
    });
    env.carryover()
        .args(["hook", "session-end"])
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .stdout("");
    assert_eq!(pending_texts(&env).len(), 2);
    assert_eq!(
        env.git(&["log", "-1", "--format=%s"]).trim(),
        format!("Session end: {SESSION}; propose 2 learning(s)")
    );
}

#[test]
fn a_transcript_that_cannot_be_read_is_refused() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["proposals", "extract", "--transcript"])
        .arg(env.home().join("missing.jsonl"))
        .assert()
        .code(2);
}

/// The built-in model's similarity on near-duplicate and distinct learnings, against the
/// default threshold (`proposals.duplicate_similarity`): the pairs it was chosen from.
#[rstest::rstest]
#[case(
    "Prefers table-driven tests with rstest cases.",
    "Prefers table-driven tests with rstest over one test function per case.",
    true
)]
#[case(
    "Always squash-merge feature branches.",
    "Always squash-merge feature branches, never rebase-merge.",
    true
)]
#[case(
    "Never commit directly to main in this repo.",
    "Never commit directly to main.",
    true
)]
#[case(
    "Use thiserror instead of anyhow in library crates.",
    "Use thiserror in library crates instead of anyhow.",
    true
)]
#[case(
    "Never force-push to shared branches.",
    "Don't ever push with --force to shared branches.",
    true
)]
#[case(
    "Always use UTC timestamps in logs.",
    "Always use UTC timestamps in logs and in the database.",
    true
)]
#[case(
    "Prefers early returns over nested if blocks.",
    "Prefers table-driven tests with rstest cases.",
    false
)]
#[case(
    "Always use UTC timestamps in logs.",
    "Never log request bodies.",
    false
)]
#[case(
    "Never commit directly to main in this repo.",
    "Never merge on Fridays.",
    false
)]
#[case(
    "The integration tests need a running Postgres on port 5433.",
    "The orders table is partitioned by month.",
    false
)]
fn the_duplicate_threshold_separates_restatements_from_other_learnings(
    #[case] a: &str,
    #[case] b: &str,
    #[case] duplicate: bool,
) {
    let embedder = carryover::infrastructure::BuiltinEmbedder::compiled();
    let (x, y) = (embedder.embed_one(a), embedder.embed_one(b));
    let similarity: f32 = x.iter().zip(&y).map(|(p, q)| p * q).sum();
    let threshold = carryover::application::ProposalSettings::default().duplicate_similarity;
    assert_eq!(
        similarity >= threshold,
        duplicate,
        "{similarity:.3}: {a} | {b}"
    );
}
