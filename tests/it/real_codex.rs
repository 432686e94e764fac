//! End to end with the real Codex CLI: installed from the npm registry, wired by `carryover
//! install --agent codex`, talking to a stand-in of the OpenAI Responses API through a custom
//! model provider, so the assertions are on what actually reached the model. Skipped, loudly,
//! when the client cannot be installed; `.ci/run` installs it, names it in
//! `CARRYOVER_E2E_CODEX` and sets `CARRYOVER_E2E_REQUIRED=1`, which turns a skip into a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use crate::responses_standin::ResponsesStandIn;
use crate::support::Hermetic;

/// The client version the fixtures (`tests/fixtures/codex-0.169.0`) were captured with.
const CLIENT_VERSION: &str = "0.169.0";

/// The client, or `None` after saying loudly why the test is skipped (a failure when
/// `CARRYOVER_E2E_REQUIRED` is set).
fn client_or_skip() -> Option<PathBuf> {
    match codex_client() {
        Ok(client) => Some(client),
        Err(why) if std::env::var_os("CARRYOVER_E2E_REQUIRED").is_some() => {
            panic!("the real Codex CLI test is required here but cannot run: {why}")
        }
        Err(why) => {
            // Written past the test harness's capture, so a skip is never silent.
            let _ = writeln!(
                std::io::stderr().lock(),
                "\n*** SKIPPED the real Codex CLI end-to-end test: {why} ***\n"
            );
            None
        }
    }
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
    assert!(sent.contains("Identity: Juno (serving Mara)"), "{sent}");
    assert!(
        sent.contains("pattern: Retry budgets for the HTTP client stay below five attempts"),
        "{sent}"
    );
    assert!(sent.contains("<session-reset>"), "{sent}");
    assert!(
        sent.contains("Learnings for this prompt (carryover):")
            && sent.contains("insight: The payment sandbox integration tests time out unless"),
        "{sent}"
    );

    // Its end wrote a handoff for the next session.
    let handoffs = handoff_files(&env.data().join("projects"));
    assert!(
        handoffs
            .iter()
            .any(|path| path.to_string_lossy().contains(&first)),
        "no handoff of session {first} in {handoffs:?}; log: {}",
        fs_err::read_to_string(env.data().join("logs/carryover.log")).unwrap_or_default()
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

/// Every `handoff.md` under the projects' tree.
fn handoff_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in fs_err::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|n| n == "handoff.md") {
                found.push(path);
            }
        }
    }
    found
}

fn git(dir: &Path, args: &[&str]) {
    let status = StdCommand::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// The Codex CLI executable: `CARRYOVER_E2E_CODEX`, else installed once from the npm registry
/// into `target/codex-e2e-<version>` (the package ships a native binary per platform).
fn codex_client() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CARRYOVER_E2E_CODEX") {
        let path = PathBuf::from(path);
        return is_client(&path)
            .then_some(path.clone())
            .ok_or_else(|| format!("{} is not Codex CLI {CLIENT_VERSION}", path.display()));
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let prefix = target.join(format!("codex-e2e-{CLIENT_VERSION}"));
    if let Some(found) = native_binary(&prefix) {
        return Ok(found);
    }
    let installed = StdCommand::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(format!("@openai/codex@{CLIENT_VERSION}"))
        .output()
        .map_err(|error| format!("npm is not available ({error})"))?;
    if !installed.status.success() {
        return Err(format!(
            "npm install failed: {}",
            String::from_utf8_lossy(&installed.stderr).trim()
        ));
    }
    native_binary(&prefix).ok_or_else(|| {
        format!(
            "no Codex CLI {CLIENT_VERSION} binary for this platform under {}",
            prefix.display()
        )
    })
}

/// The platform package's binary (`@openai/codex-<platform>/vendor/<triple>/bin/codex`), else
/// the package's launcher (which needs node).
fn native_binary(prefix: &Path) -> Option<PathBuf> {
    let scope = prefix.join("node_modules/@openai");
    let mut candidates: Vec<PathBuf> = fs_err::read_dir(&scope)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("codex-"))
        .flat_map(|entry| {
            fs_err::read_dir(entry.path().join("vendor"))
                .into_iter()
                .flatten()
        })
        .flatten()
        .map(|triple| triple.path().join("bin/codex"))
        .collect();
    candidates.push(prefix.join("node_modules/.bin/codex"));
    candidates.into_iter().find(|path| is_client(path))
}

fn is_client(path: &Path) -> bool {
    StdCommand::new(path)
        .arg("--version")
        .output()
        .is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(CLIENT_VERSION)
        })
}
