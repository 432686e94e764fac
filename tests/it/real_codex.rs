//! End to end with the real Codex CLI: installed from the npm registry, wired by `carryover
//! install --agent codex`, talking to a stand-in of the OpenAI Responses API through a custom
//! model provider, so the assertions are on what actually reached the model. Skipped, loudly,
//! when the client cannot be installed; `.ci/run` installs it, names it in
//! `CARRYOVER_E2E_CODEX` and sets `CARRYOVER_E2E_REQUIRED=1`, which turns a skip into a failure.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::agent_e2e::{assert_start_and_recall_reached_the_model, learn_both, log};
use crate::npm_client::{NpmClient, entries_starting};
use crate::responses_standin::ResponsesStandIn;
use crate::support::{Hermetic, git_in as git, handoff_files};

/// The client version the fixtures (`tests/fixtures/codex-0.169.0`) were captured with.
const CLIENT_VERSION: &str = "0.169.0";

/// Codex CLI: the platform package's binary (`@openai/codex-<platform>/vendor/<triple>/bin/codex`),
/// else the package's launcher (which needs node).
const CLIENT: NpmClient = NpmClient {
    name: "Codex CLI",
    variable: "CARRYOVER_E2E_CODEX",
    package: "@openai/codex",
    version: CLIENT_VERSION,
    directory: "codex-e2e",
    candidates: |prefix| {
        let mut candidates: Vec<PathBuf> =
            entries_starting(&prefix.join("node_modules/@openai"), "codex-")
                .into_iter()
                .flat_map(|package| entries_starting(&package.join("vendor"), ""))
                .map(|triple| triple.join("bin/codex"))
                .collect();
        candidates.push(prefix.join("node_modules/.bin/codex"));
        candidates
    },
    via_node: false,
};

fn client_or_skip() -> Option<PathBuf> {
    CLIENT.or_skip()
}

/// A temp `CODEX_HOME` whose `config.toml` sends every request to `model`: a custom provider
/// on the Responses wire API, no approvals, no sandbox (the model's one command commits in a
/// temp repository; a sandbox would need user namespaces a CI container may lack).
fn codex_home(env: &Hermetic, model: &ResponsesStandIn) -> PathBuf {
    let home = env.home().join("codex-home");
    fs_err::create_dir_all(&home).unwrap();
    fs_err::write(
        home.join("config.toml"),
        format!(
            "model = \"standin-model\"\nmodel_provider = \"standin\"\napproval_policy = \"never\"\n\
             sandbox_mode = \"danger-full-access\"\n\n[model_providers.standin]\nname = \"standin\"\n\
             base_url = \"{}\"\nwire_api = \"responses\"\nenv_key = \"STANDIN_API_KEY\"\n",
            model.base_url()
        ),
    )
    .unwrap();
    home
}

/// Runs `codex exec <prompt>` in `project`; returns the session id it printed. Hook trust is
/// bypassed for the run: Codex runs a new hook only once a person trusted it in `/hooks`.
fn run_codex(
    env: &Hermetic,
    client: &Path,
    codex_home: &Path,
    project: &Path,
    prompt: &str,
) -> String {
    let output = env
        .agent(client, project)
        .args([
            "exec",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
        ])
        .arg(prompt)
        .env("CODEX_HOME", codex_home)
        .env("STANDIN_API_KEY", "sk-standin")
        .stdin(Stdio::null())
        .output()
        .expect("run codex");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "codex exec {prompt:?}: {stderr}");
    // An output the client's schema refuses is reported, and its context dropped.
    assert!(!stderr.contains("hook returned invalid"), "{stderr}");
    stderr
        .lines()
        .find_map(|line| line.strip_prefix("session id: "))
        .unwrap_or_else(|| panic!("no session id in: {stderr}"))
        .trim()
        .to_owned()
}

#[test]
fn the_real_codex_cli_receives_identity_learnings_recall_and_the_previous_handoff() {
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
    learn_both(&env, &project);
    let model = ResponsesStandIn::start();
    let codex_home = codex_home(&env, &model);
    env.carryover()
        .env("CODEX_HOME", &codex_home)
        .args(["install", "--agent", "codex", "--binary"])
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();
    assert!(codex_home.join("hooks.json").is_file());

    // A new session: identity, the relevant learning and a reset notice at its start, the
    // learning the prompt needs beside the prompt. The model commits.
    let first = run_codex(
        &env,
        &client,
        &codex_home,
        &project,
        "why do the payment sandbox integration tests keep timing out? Then commit the retry budget.",
    );
    let sent = model.take_requests().join("\n");
    assert_start_and_recall_reached_the_model(&sent);
    assert!(sent.contains("<session-reset>"), "{sent}");

    // Its end wrote a handoff for the next session.
    let handoffs = handoff_files(&env.data().join("projects"));
    assert!(
        handoffs
            .iter()
            .any(|path| path.to_string_lossy().contains(&first)),
        "no handoff of session {first} in {handoffs:?}; log: {}",
        log(&env)
    );

    // The next session receives it.
    let second = run_codex(&env, &client, &codex_home, &project, "What is left to do?");
    assert_ne!(second, first);
    let sent = model.take_requests().join("\n");
    assert!(
        sent.contains("Handoff from the previous session (just now, ")
            && sent.contains(&format!("session {}", &first[..8])),
        "{sent}"
    );
    assert!(
        sent.contains("why do the payment sandbox integration tests keep timing out?"),
        "{sent}"
    );
    // The commit, read from the rollout's `exec_command` call and its output.
    assert!(
        sent.contains("Cap the retry budget at four attempts"),
        "{sent}"
    );
}
