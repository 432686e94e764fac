//! End to end with the real Gemini CLI: installed from the npm registry, wired by `carryover
//! install --agent gemini`, talking to a stand-in of the Gemini API (`GOOGLE_GEMINI_BASE_URL`),
//! so the assertions are on what actually reached the model. Skipped, loudly, when the client
//! cannot be installed; `.ci/run` installs it, names it in `CARRYOVER_E2E_GEMINI` and sets
//! `CARRYOVER_E2E_REQUIRED=1`, which turns a skip into a failure.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::agent_e2e::{
    assert_start_and_recall_reached_the_model, learn_both, log, one_learning_at_start,
};
use crate::gemini_standin::GeminiStandIn;
use crate::npm_client::NpmClient;
use crate::support::{Hermetic, files_named, git_in as git, handoff_files};

/// The client version the fixtures (`tests/fixtures/gemini-cli-0.61.0`) were captured with.
const CLIENT_VERSION: &str = "0.61.0";

/// Gemini CLI: a Node bundle, run with `node` from `PATH`.
const CLIENT: NpmClient = NpmClient {
    name: "Gemini CLI",
    variable: "CARRYOVER_E2E_GEMINI",
    package: "@google/gemini-cli",
    version: CLIENT_VERSION,
    directory: "gemini-e2e",
    candidates: |prefix| vec![prefix.join("node_modules/@google/gemini-cli/bundle/gemini.js")],
    via_node: true,
};

fn client_or_skip() -> Option<PathBuf> {
    CLIENT.or_skip()
}

/// `~/.gemini/settings.json` before carryover's hooks join it: an API key's authentication
/// (the stand-in takes any key), and nothing that would reach Google (usage statistics,
/// update checks), with the comments Gemini CLI allows in it.
const SETTINGS: &str = r#"{
  // The stand-in takes any key.
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  /* Nothing reaches Google. */
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
"#;

fn write_settings(env: &Hermetic) {
    let dir = env.home().join(".gemini");
    fs_err::create_dir_all(&dir).unwrap();
    fs_err::write(dir.join("settings.json"), SETTINGS).unwrap();
}

/// Runs `gemini -p <prompt>` in `project`.
fn run_gemini(env: &Hermetic, client: &Path, model: &GeminiStandIn, project: &Path, prompt: &str) {
    let output = env
        .agent(Path::new("node"), project)
        .arg(client)
        // A named model skips the router, whose classifier call would want JSON and retry
        // with backoff (a minute and a half) before falling back.
        .args(["-m", "gemini-2.5-flash", "-p", prompt])
        .env("GEMINI_API_KEY", "dummy")
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        .env("GOOGLE_GEMINI_BASE_URL", model.base_url())
        .stdin(Stdio::null())
        .output()
        .expect("run gemini");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "gemini -p {prompt:?}: {stderr}");
}

#[test]
fn the_real_gemini_cli_receives_identity_learnings_recall_and_the_previous_handoff() {
    let Some(client) = client_or_skip() else {
        return;
    };
    let env = Hermetic::new();
    env.init();
    one_learning_at_start(&env);
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    learn_both(&env, &project);
    let model = GeminiStandIn::start();
    write_settings(&env);
    env.carryover()
        .args(["install", "--agent", "gemini", "--binary"])
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();
    let settings = fs_err::read_to_string(env.home().join(".gemini/settings.json")).unwrap();
    assert!(
        settings.contains("// The stand-in takes any key.") && settings.contains("/* Nothing"),
        "the user's comments are kept: {settings}"
    );

    // A new session: identity and the relevant learning at its start, the learning the
    // prompt needs beside the prompt.
    run_gemini(
        &env,
        &client,
        &model,
        &project,
        "why do the payment sandbox integration tests keep timing out with the retry budget?",
    );
    let sent = model.take_requests().join("\n");
    assert_start_and_recall_reached_the_model(&sent);

    // Its end wrote one handoff, read from the session file.
    let handoffs = handoff_files(&env.data().join("projects"));
    assert_eq!(handoffs.len(), 1, "{handoffs:?}; log: {}", log(&env));
    let first = fs_err::read_to_string(&handoffs[0]).unwrap();
    assert!(
        first.contains("why do the payment sandbox integration tests keep timing out"),
        "{first}"
    );

    // The next session receives it.
    run_gemini(&env, &client, &model, &project, "What is left to do?");
    let sent = model.take_requests().join("\n");
    assert!(
        sent.contains("Handoff from the previous session (just now, "),
        "{sent}; log: {}",
        log(&env)
    );
    assert!(
        sent.contains("why do the payment sandbox integration tests keep timing out"),
        "{sent}"
    );
    // The per-turn PreCompress wrote no checkpoint.
    let checkpoints = files_named(&env.data().join("projects"), |name| {
        name.contains("checkpoint")
    });
    assert!(checkpoints.is_empty(), "{checkpoints:?}");
}
