//! End to end with the real Gemini CLI: installed from the npm registry, wired by `carryover
//! install --agent gemini`, talking to a stand-in of the Gemini API (`GOOGLE_GEMINI_BASE_URL`),
//! so the assertions are on what actually reached the model. Skipped, loudly, when the client
//! cannot be installed; `.ci/run` installs it, names it in `CARRYOVER_E2E_GEMINI` and sets
//! `CARRYOVER_E2E_REQUIRED=1`, which turns a skip into a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use crate::gemini_standin::GeminiStandIn;
use crate::support::Hermetic;

/// The client version the fixtures (`tests/fixtures/gemini-cli-0.61.0`) were captured with.
const CLIENT_VERSION: &str = "0.61.0";

/// The client's entry script (run with `node` from `PATH`), or `None` after saying loudly why
/// the test is skipped (a failure when `CARRYOVER_E2E_REQUIRED` is set).
fn client_or_skip() -> Option<PathBuf> {
    match gemini_client() {
        Ok(client) => Some(client),
        Err(why) if std::env::var_os("CARRYOVER_E2E_REQUIRED").is_some() => {
            panic!("the real Gemini CLI test is required here but cannot run: {why}")
        }
        Err(why) => {
            // Written past the test harness's capture, so a skip is never silent.
            let _ = writeln!(
                std::io::stderr().lock(),
                "\n*** SKIPPED the real Gemini CLI end-to-end test: {why} ***\n"
            );
            None
        }
    }
}

/// `~/.gemini/settings.json` before carryover's hooks join it: an API key's authentication
/// (the stand-in takes any key), and nothing that would reach Google (usage statistics,
/// update checks).
fn write_settings(env: &Hermetic) {
    let dir = env.home().join(".gemini");
    fs_err::create_dir_all(&dir).unwrap();
    let settings = serde_json::json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
    });
    fs_err::write(dir.join("settings.json"), settings.to_string()).unwrap();
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
    // One learning at session start, so that the prompt's is left for the prompt hook; a
    // `-p` run is one request, which must be enough for a handoff.
    fs_err::write(
        env.data().join("config.toml"),
        "[retrieval]\ntop_n = 1\n\n[handoff]\nmin_turns = 1\n",
    )
    .unwrap();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
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
    let model = GeminiStandIn::start();
    write_settings(&env);
    env.carryover()
        .args(["install", "--agent", "gemini", "--binary"])
        .arg(assert_cmd::cargo::cargo_bin!("carryover"))
        .assert()
        .success();

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
    assert!(sent.contains("Identity: Juno (serving Mara)"), "{sent}");
    assert!(
        sent.contains("pattern: Retry budgets for the HTTP client stay below five attempts"),
        "{sent}"
    );
    assert!(
        sent.contains("Learnings for this prompt (carryover):")
            && sent.contains("insight: The payment sandbox integration tests time out unless"),
        "{sent}"
    );

    // Its end wrote one handoff, read from the session file.
    let log = || fs_err::read_to_string(env.data().join("logs/carryover.log")).unwrap_or_default();
    let handoffs = handoff_files(&env.data().join("projects"));
    assert_eq!(handoffs.len(), 1, "{handoffs:?}; log: {}", log());
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
        log()
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

/// Every `handoff.md` under the projects' tree.
fn handoff_files(dir: &Path) -> Vec<PathBuf> {
    files_named(dir, |name| name == "handoff.md")
}

fn files_named(dir: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in fs_err::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| wanted(&n.to_string_lossy()))
            {
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
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// The Gemini CLI's entry script: `CARRYOVER_E2E_GEMINI`, else installed once from the npm
/// registry into `target/gemini-e2e-<version>`.
fn gemini_client() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CARRYOVER_E2E_GEMINI") {
        let path = PathBuf::from(path);
        return is_client(&path)
            .then_some(path.clone())
            .ok_or_else(|| format!("{} is not Gemini CLI {CLIENT_VERSION}", path.display()));
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let prefix = target.join(format!("gemini-e2e-{CLIENT_VERSION}"));
    let script = prefix.join("node_modules/@google/gemini-cli/bundle/gemini.js");
    if is_client(&script) {
        return Ok(script);
    }
    let installed = StdCommand::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(format!("@google/gemini-cli@{CLIENT_VERSION}"))
        .output()
        .map_err(|error| format!("npm is not available ({error})"))?;
    if !installed.status.success() {
        return Err(format!(
            "npm install failed: {}",
            String::from_utf8_lossy(&installed.stderr).trim()
        ));
    }
    is_client(&script)
        .then_some(script)
        .ok_or_else(|| format!("no Gemini CLI {CLIENT_VERSION} under {}", prefix.display()))
}

fn is_client(script: &Path) -> bool {
    StdCommand::new("node")
        .arg(script)
        .arg("--version")
        .output()
        .is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(CLIENT_VERSION)
        })
}
