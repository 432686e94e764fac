//! End to end with the real Claude Code client: installed from the npm registry, wired by
//! `carryover install`, talking to a stand-in of the model API, so the assertions are on what
//! actually reached the model. Skipped, loudly, when the client cannot be installed; `.ci/run`
//! installs it and sets `CARRYOVER_E2E_REQUIRED=1`, which turns a skip into a failure.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model_standin::ModelStandIn;
use crate::npm_client::{NpmClient, entries_starting};
use crate::support::{Hermetic, git_in as git};

/// The newest client version, run end to end (the payload fixtures are from 2.1.328; its model
/// table is the same, checked with tools/model-table/extract.py).
const CLIENT_VERSION: &str = "2.1.331";

/// Claude Code: its npm package ships a native binary per platform, which the wrapper
/// package would copy into place in a postinstall script that npm may not run.
const CLIENT: NpmClient = NpmClient {
    name: "Claude Code",
    variable: "CARRYOVER_E2E_CLAUDE",
    package: "@anthropic-ai/claude-code",
    version: CLIENT_VERSION,
    directory: "claude-code-e2e",
    candidates: |prefix| {
        let scope = prefix.join("node_modules/@anthropic-ai");
        let mut candidates: Vec<PathBuf> = entries_starting(&scope, "claude-code-")
            .into_iter()
            .map(|package| package.join("claude"))
            .collect();
        candidates.push(scope.join("claude-code/bin/claude.exe"));
        candidates
    },
    via_node: false,
};

fn client_or_skip() -> Option<PathBuf> {
    CLIENT.or_skip()
}

/// Runs `claude -p <args>` in `project` against `model`; returns its JSON result.
fn run_claude(
    env: &Hermetic,
    client: &Path,
    project: &Path,
    model: &ModelStandIn,
    args: &[&str],
) -> Value {
    let output = env
        .agent(client, project)
        .args(["-p"])
        .args(args)
        .args(["--output-format", "json"])
        .env("ANTHROPIC_BASE_URL", model.base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-standin")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .output()
        .expect("run claude");
    assert!(
        output.status.success(),
        "claude {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("claude printed JSON")
}

#[test]
fn the_real_client_puts_a_recalled_learning_beside_the_prompt_and_nothing_beside_chatter() {
    let Some(client) = client_or_skip() else {
        return;
    };
    let env = Hermetic::new();
    env.init();
    // One learning at session start, so that the prompt's is left for the prompt hook.
    fs_err::write(env.data().join("config.toml"), "[retrieval]\ntop_n = 1\n").unwrap();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    git(
        &project,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "Add retry budget to the HTTP client",
        ],
    );
    for (kind, text) in [
        (
            "pattern",
            "Retry budgets for the HTTP client stay below five attempts",
        ),
        (
            "insight",
            "The payment sandbox integration tests time out unless PAYMENT_SANDBOX_URL points at the local stub",
        ),
    ] {
        env.carryover()
            .current_dir(&project)
            .args(["learn", kind, "--project", text])
            .assert()
            .success();
    }
    env.carryover()
        .arg("install")
        .arg("--binary")
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();
    let model = ModelStandIn::start();
    let first = run_claude(
        &env,
        &client,
        &project,
        &model,
        &["why do the payment sandbox integration tests keep timing out?"],
    );
    let sent = model.take_messages().join("\n");
    assert!(
        sent.contains("Learnings for this prompt (carryover):"),
        "{sent}"
    );
    assert!(
        sent.contains("insight: The payment sandbox integration tests time out unless"),
        "{sent}"
    );
    let session = first["session_id"].as_str().unwrap().to_owned();
    run_claude(
        &env,
        &client,
        &project,
        &model,
        &["continue", "--resume", &session],
    );
    let sent = model.take_messages();
    let last = sent.last().expect("a request");
    // The first turn's recall is replayed with the history; "continue" added none.
    assert_eq!(
        last.matches("Learnings for this prompt").count(),
        1,
        "{last}"
    );
}

#[test]
fn the_real_client_receives_identity_learnings_handoff_compaction_and_reset() {
    let Some(client) = client_or_skip() else {
        return;
    };
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args([
            "learn",
            "pattern",
            "Retry budgets for the HTTP client stay below five attempts",
        ])
        .assert()
        .success();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    git(
        &project,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "Add retry budget to the HTTP client",
        ],
    );
    env.carryover()
        .arg("install")
        .arg("--binary")
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();
    let model = ModelStandIn::start();
    let claude = |args: &[&str]| run_claude(&env, &client, &project, &model, args);
    let session_of = |result: &Value| result["session_id"].as_str().unwrap().to_owned();

    // A new session: identity, the relevant learning, and a reset notice reach the model.
    let first = claude(&["Add a retry budget to the HTTP client"]);
    let sent = model.take_messages().join("\n");
    assert!(sent.contains("Identity: Juno (serving Mara)"), "{sent}");
    assert!(sent.contains("pattern: Retry budgets for the HTTP client stay below five attempts"));
    assert!(sent.contains("<session-reset>"));
    let first_id = session_of(&first);

    // A resume: the client replays the block it stored, so carryover adds nothing to it.
    claude(&["Which tests cover it?", "--resume", &first_id]);
    let sent = model.take_messages().join("\n");
    assert_eq!(blocks(&sent), 1, "one block in the resumed request: {sent}");
    assert!(sent.contains("Retry budgets for the HTTP client stay below five attempts"));

    // The next session receives the handoff the first one left at its end.
    let second = claude(&["What is left to do?"]);
    let sent = model.take_messages().join("\n");
    assert!(
        sent.contains("Handoff from the previous session (just now, ")
            && sent.contains(&format!("session {}", &first_id[..8])),
        "{sent}"
    );
    assert!(sent.contains("Add a retry budget to the HTTP client"));
    let second_id = session_of(&second);

    // After /compact, the next request carries the compaction notice with tier and fill, the
    // identity and learnings once, and no other session's handoff.
    claude(&["/compact", "--resume", &second_id]);
    model.take_messages();
    claude(&["Carry on", "--resume", &second_id]);
    let sent = model.take_messages().join("\n");
    assert!(
        sent.contains(r#"<compaction-notice tier=\"WARNING\" fill=\"0.72\">"#),
        "{sent}"
    );
    assert_eq!(blocks(&sent), 1, "{sent}");
    assert!(
        !sent.contains("Handoff from"),
        "no other session's handoff: {sent}"
    );
    claude(&["And then?", "--resume", &second_id]);
    assert_eq!(blocks(&model.take_messages().join("\n")), 1);

    // After /clear, a new session whose first request carries the reset, not the notice.
    let cleared = claude(&["/clear", "--resume", &second_id]);
    let cleared_id = session_of(&cleared);
    assert_ne!(cleared_id, second_id, "/clear starts a new session");
    claude(&["Start over", "--resume", &cleared_id]);
    let sent = model.take_messages().join("\n");
    assert!(sent.contains("<session-reset>"), "{sent}");
    assert!(!sent.contains("compaction-notice"), "{sent}");
    assert_eq!(blocks(&sent), 1, "{sent}");
}

/// How many of carryover's blocks a request holds.
fn blocks(sent: &str) -> usize {
    sent.matches("Identity: Juno (serving Mara)").count()
}

/// A measurement, not a check (`cargo test --test it request_sizes -- --ignored --nocapture`):
/// the bytes of the conversation the real client sends at a new session's first prompt, at a
/// resume and after a compaction, without carryover and with the hooks of this build or of
/// the binary `CARRYOVER_E2E_HOOKS` names (to compare versions).
#[test]
#[ignore = "a measurement, run on demand"]
fn request_sizes() {
    let Some(client) = client_or_skip() else {
        return;
    };
    let this_build = PathBuf::from(assert_cmd::cargo::cargo_bin!("carryover"));
    let hooks = std::env::var_os("CARRYOVER_E2E_HOOKS").map_or(this_build, PathBuf::from);
    let without = conversation_sizes(&client, None);
    let with = conversation_sizes(&client, Some(&hooks));
    let _ = writeln!(
        std::io::stderr().lock(),
        "hooks: {}\n| moment | without carryover | with | added |\n|---|---:|---:|---:|",
        hooks.display()
    );
    for (moment, (without, with)) in ["startup", "resume", "after /compact"]
        .iter()
        .zip(without.iter().zip(with))
    {
        let _ = writeln!(
            std::io::stderr().lock(),
            "| {moment} | {without} | {with} | {} |",
            with.saturating_sub(*without)
        );
    }
}

/// The size of the largest request's `messages` at startup, resume and after a compaction.
fn conversation_sizes(client: &Path, hooks: Option<&Path>) -> [usize; 3] {
    let env = Hermetic::new();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    git(
        &project,
        &["commit", "-q", "--allow-empty", "-m", "Add retry budget"],
    );
    if let Some(hooks) = hooks {
        // The measured version sets up its own data home and wiring.
        let carryover = |args: &[&str]| {
            let output = env.agent(hooks, &env.home()).args(args).output().unwrap();
            assert!(
                output.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        carryover(&[
            "init",
            "--ai-name",
            "Juno",
            "--principal",
            "Mara",
            "--style",
            "concise",
        ]);
        carryover(&[
            "learn",
            "pattern",
            "Retry budgets for the HTTP client stay below five attempts",
        ]);
        carryover(&["install", "--binary", &hooks.to_string_lossy()]);
    }
    let model = ModelStandIn::start();
    let largest = || {
        model
            .take_messages()
            .iter()
            .filter_map(|body| serde_json::from_str::<Value>(body).ok())
            .map(|body| body["messages"].to_string().len())
            .max()
            .unwrap_or(0)
    };
    let claude = |args: &[&str]| run_claude(&env, client, &project, &model, args);
    let first = claude(&["Add a retry budget to the HTTP client"]);
    let startup = largest();
    let id = first["session_id"].as_str().unwrap().to_owned();
    claude(&["Which tests cover it?", "--resume", &id]);
    let resume = largest();
    claude(&["/compact", "--resume", &id]);
    largest();
    claude(&["Carry on", "--resume", &id]);
    [startup, resume, largest()]
}
