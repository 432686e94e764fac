//! End to end with the real GitHub Copilot CLI: installed from the npm registry, wired by
//! `carryover install --agent copilot`, in its offline BYOK mode against a stand-in of the
//! Chat Completions API (`COPILOT_PROVIDER_BASE_URL`), so the assertions are on what actually
//! reached the model. Skipped, loudly, when the client cannot be installed; `.ci/run` installs
//! it, names it in `CARRYOVER_E2E_COPILOT` and sets `CARRYOVER_E2E_REQUIRED=1`, which turns a
//! skip into a failure.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::agent_e2e::{
    assert_start_and_recall_reached_the_model, learn_both, log, one_learning_at_start,
};
use crate::chat_standin::ChatStandIn;
use crate::npm_client::{NpmClient, entries_starting};
use crate::support::{Hermetic, git_in as git, handoff_files};

/// The client version the fixtures (`tests/fixtures/copilot-cli-1.0.102`) were captured with.
const CLIENT_VERSION: &str = "1.0.102";

/// Copilot CLI: the npm package's loader picks a native executable from an optional
/// dependency per platform (`@github/copilot-linux-x64`…); the test runs that executable.
const CLIENT: NpmClient = NpmClient {
    name: "Copilot CLI",
    variable: "CARRYOVER_E2E_COPILOT",
    package: "@github/copilot",
    version: CLIENT_VERSION,
    directory: "copilot-e2e",
    candidates: |prefix| {
        entries_starting(&prefix.join("node_modules/@github"), "copilot-")
            .into_iter()
            .map(|dir| dir.join("copilot"))
            .collect()
    },
    via_node: false,
};

/// Where the executable unpacks its bundle (some 200 MB) on a first run: beside it, shared by
/// every run, rather than in each test's home.
fn unpack_dir(client: &Path) -> PathBuf {
    client
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .join(".copilot-unpacked")
}

/// Runs `copilot -p <prompt>` in `project`, offline, against the stand-in.
fn run_copilot(env: &Hermetic, client: &Path, model: &ChatStandIn, project: &Path, prompt: &str) {
    let output = env
        .agent(client, project)
        .args(["-p", prompt, "--allow-all-tools", "--no-auto-update"])
        .env("COPILOT_OFFLINE", "true")
        .env("COPILOT_PROVIDER_BASE_URL", model.base_url())
        .env("COPILOT_MODEL", "gpt-4.1")
        .env("COPILOT_AUTO_UPDATE", "false")
        .env("COPILOT_PKG_CACHE_HOME", unpack_dir(client))
        .stdin(Stdio::null())
        .output()
        .expect("run copilot");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "copilot -p {prompt:?}: {stderr}");
}

#[test]
fn the_real_copilot_cli_receives_identity_learnings_recall_and_the_previous_handoff() {
    let Some(client) = CLIENT.or_skip() else {
        return;
    };
    let env = Hermetic::new();
    env.init();
    one_learning_at_start(&env);
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    learn_both(&env, &project);
    let model = ChatStandIn::start();
    env.carryover()
        .args(["install", "--agent", "copilot", "--binary"])
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();
    let hooks_file = env.home().join(".copilot/hooks/carryover.json");
    assert!(hooks_file.is_file());

    // A new session: identity and the relevant learning at its start (sessionStart's
    // `additionalContext`), the learning the prompt needs beside the prompt
    // (userPromptSubmitted's).
    run_copilot(
        &env,
        &client,
        &model,
        &project,
        "why do the payment sandbox integration tests keep timing out with the retry budget?",
    );
    let sent = model.take_requests().join("\n");
    assert_start_and_recall_reached_the_model(&sent);

    // Its end wrote one handoff, read from `~/.copilot/session-state/<id>/events.jsonl`, as
    // the sessionEnd payload names no transcript.
    let handoffs = handoff_files(&env.data().join("projects"));
    assert_eq!(handoffs.len(), 1, "{handoffs:?}; log: {}", log(&env));
    let first = fs_err::read_to_string(&handoffs[0]).unwrap();
    assert!(
        first.contains("why do the payment sandbox integration tests keep timing out"),
        "{first}"
    );

    // The next session receives it.
    run_copilot(&env, &client, &model, &project, "What is left to do?");
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

    // Uninstall takes away the file install made.
    env.carryover()
        .args(["uninstall", "--agent", "copilot"])
        .assert()
        .success();
    assert!(!hooks_file.exists());
}
