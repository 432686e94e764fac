//! A hermetic environment for running the binary: temp `HOME`, `CARRYOVER_HOME`, `XDG_*`, git
//! configuration isolated from the machine's, and a fixed clock.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// The instant every test runs at (`CARRYOVER_NOW`).
pub const NOW: &str = "2026-11-22T18:40:00Z";

/// A fresh home and data home for one test.
pub struct Hermetic {
    root: TempDir,
}

impl Hermetic {
    pub fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        for dir in [
            "home",
            "data",
            "xdg/data",
            "xdg/config",
            "xdg/state",
            "xdg/cache",
        ] {
            fs_err::create_dir_all(root.path().join(dir)).unwrap();
        }
        Self { root }
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    pub fn data(&self) -> PathBuf {
        self.root.path().join("data")
    }

    pub fn seed_path(&self) -> PathBuf {
        self.data().join("seed.json")
    }

    /// `carryover` with only the variables this environment sets.
    pub fn carryover(&self) -> Command {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin!("carryover"));
        self.apply(&mut command);
        command
    }

    /// The same environment for a plain process (used to spawn concurrent writers).
    pub fn std_carryover(&self) -> StdCommand {
        let mut command = StdCommand::new(assert_cmd::cargo::cargo_bin!("carryover"));
        command.current_dir(self.home());
        command.env_clear();
        for (key, value) in self.variables() {
            command.env(key, value);
        }
        command
    }

    /// Runs `carryover ARGS` (a shell command line) on a pseudo-terminal made by `script`, so
    /// that it sees a terminal, typing `input`; returns whether it succeeded and what the
    /// terminal showed.
    pub fn on_a_terminal(&self, args: &str, input: &str, extra: &[(&str, &str)]) -> (bool, String) {
        use std::io::Write;
        let mut command = StdCommand::new("script");
        command
            .args(["-qec", &format!("\"$CARRYOVER_BIN\" {args}"), "/dev/null"])
            .current_dir(self.home())
            .env_clear()
            .envs(self.variables())
            .envs(extra.iter().copied())
            .env("CARRYOVER_BIN", assert_cmd::cargo::cargo_bin!("carryover"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command
            .spawn()
            .expect("`script` (util-linux) provides the terminal");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let shown = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), shown)
    }

    /// `program` (an agent) in this environment with the real clock, as an agent runs
    /// carryover's hooks: they inherit everything but `CARRYOVER_NOW`.
    pub fn agent(&self, program: &Path, cwd: &Path) -> StdCommand {
        let mut command = StdCommand::new(program);
        command.current_dir(cwd);
        command.env_clear();
        for (key, value) in self.variables() {
            if key != "CARRYOVER_NOW" {
                command.env(key, value);
            }
        }
        command
    }

    fn apply(&self, command: &mut Command) {
        // The working directory decides the project; the test's own checkout must not leak in.
        command.current_dir(self.home());
        command.env_clear();
        for (key, value) in self.variables() {
            command.env(key, value);
        }
    }

    /// The variables this environment sets, for processes built by hand.
    pub fn variables(&self) -> Vec<(String, String)> {
        let root = self.root.path();
        let path = |p: &str| root.join(p).to_string_lossy().into_owned();
        vec![
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("HOME".into(), path("home")),
            ("CARRYOVER_HOME".into(), path("data")),
            ("XDG_DATA_HOME".into(), path("xdg/data")),
            ("XDG_CONFIG_HOME".into(), path("xdg/config")),
            ("XDG_STATE_HOME".into(), path("xdg/state")),
            ("XDG_CACHE_HOME".into(), path("xdg/cache")),
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("GIT_CONFIG_GLOBAL".into(), "/dev/null".into()),
            ("CARRYOVER_NOW".into(), NOW.into()),
        ]
    }

    /// Sets up Juno serving Mara through `init`, so the seed is committed.
    pub fn init(&self) {
        self.carryover()
            .args([
                "init",
                "--ai-name",
                "Juno",
                "--principal",
                "Mara",
                "--style",
                "concise",
            ])
            .args(["--timezone", "Europe/Lisbon", "--locale", "en-GB"])
            .assert()
            .success();
    }

    /// Installs the example seed (12 learnings, 3 pending proposals) and commits it the way
    /// carryover would, by letting a `learn` create the repository around it.
    pub fn install_example_seed(&self) {
        fs_err::copy(fixture("seed/seed.json"), self.seed_path()).unwrap();
        self.carryover()
            .args([
                "learn",
                "insight",
                "The example seed was installed for this test",
            ])
            .assert()
            .success();
    }

    /// A copy of the shop-api session's transcript (a real Claude Code one) in the home.
    pub fn shop_api_transcript(&self) -> PathBuf {
        let path = self.home().join("shop-api.jsonl");
        fs_err::copy(
            fixture(
                "claude-code-2.1.328/transcripts/shop-api--81b8f225-6c82-470b-98cc-ec96494e08b9.jsonl",
            ),
            &path,
        )
        .unwrap();
        path
    }

    /// `git <args>` in the data home's repository.
    pub fn git(&self, args: &[&str]) -> String {
        let output = StdCommand::new("git")
            .arg("-C")
            .arg(self.data())
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }
}

/// The standard output of a command that must have succeeded; on failure, its exit code and
/// standard error say why.
pub fn succeeded(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8 on stdout")
}

/// A file under `tests/fixtures`.
pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(relative)
}

/// Every SessionStart payload captured from the real client.
pub fn session_start_fixtures() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs_err::read_dir(fixture("claude-code-2.1.328/hooks"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("sessionstart-")
        })
        .collect();
    paths.sort();
    assert!(paths.len() >= 7, "fixtures missing: {paths:?}");
    paths
}

/// Parses the hook's stdout, asserting it is exactly one JSON object, and returns it with its
/// `additionalContext`.
pub fn envelope(stdout: &[u8]) -> (Value, String) {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = stream.next().expect("one JSON value").expect("valid JSON");
    assert!(
        stream.next().is_none(),
        "more than one value on stdout: {text}"
    );
    assert_eq!(
        value["hookSpecificOutput"]["hookEventName"], "SessionStart",
        "{text}"
    );
    let context = value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("additionalContext is a string")
        .to_owned();
    (value, context)
}

/// The real client's payloads replayed against temp copies of their transcripts and temp
/// checkouts of their projects (`~/code/notes`, `~/code/shop-api`), with the example seed.
pub struct Replay {
    pub env: Hermetic,
    /// The project the replay's state and handoffs are checked in.
    pub project: PathBuf,
    transcripts: PathBuf,
}

impl Replay {
    /// A replay whose checked project is `~/code/<project>`.
    pub fn new(project: &str) -> Self {
        let env = Hermetic::new();
        env.install_example_seed();
        for name in ["notes", "shop-api"] {
            fs_err::create_dir_all(env.home().join("code").join(name).join(".git")).unwrap();
        }
        let transcripts = env.home().join(".claude/transcripts");
        fs_err::create_dir_all(&transcripts).unwrap();
        for entry in fs_err::read_dir(fixture("claude-code-2.1.328/transcripts")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let session = name.split_once("--").unwrap().1.to_owned();
            let relocated = fs_err::read_to_string(&path).unwrap().replace(
                "/home/user/code/",
                &format!("{}/", env.home().join("code").display()),
            );
            fs_err::write(transcripts.join(session), relocated).unwrap();
        }
        let project = env.home().join("code").join(project);
        Self {
            env,
            project,
            transcripts,
        }
    }

    /// A fixture payload with its transcript and cwd pointing into this replay.
    pub fn payload(&self, name: &str) -> Vec<u8> {
        let text =
            fs_err::read_to_string(fixture(&format!("claude-code-2.1.328/hooks/{name}.json")))
                .unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let transcript = Path::new(value["transcript_path"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_owned();
        value["transcript_path"] = self
            .transcripts
            .join(transcript)
            .to_string_lossy()
            .into_owned()
            .into();
        let project = Path::new(value["cwd"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_owned();
        value["cwd"] = self
            .env
            .home()
            .join("code")
            .join(project)
            .to_string_lossy()
            .into_owned()
            .into();
        serde_json::to_vec(&value).unwrap()
    }

    /// Runs a hook that must print nothing.
    pub fn silent_hook(&self, event: &str, payload: &str) {
        let output = self
            .env
            .carryover()
            .args(["hook", event])
            .write_stdin(self.payload(payload))
            .output()
            .unwrap();
        assert!(output.status.success());
        assert!(
            output.stdout.is_empty(),
            "{event} printed {:?}",
            String::from_utf8_lossy(&output.stdout)
        );
    }

    /// `hook pre-compact` with a fixture payload.
    pub fn pre_compact(&self, payload: &str) {
        self.silent_hook("pre-compact", payload);
    }

    /// `hook session-end` with a fixture payload.
    pub fn session_end(&self, payload: &str) {
        self.silent_hook("session-end", payload);
    }

    /// `hook session-start` with a fixture payload; returns the injected context.
    pub fn session_start(&self, payload: &str) -> String {
        let output = self
            .env
            .carryover()
            .args(["hook", "session-start"])
            .write_stdin(self.payload(payload))
            .output()
            .unwrap();
        assert!(output.status.success());
        envelope(&output.stdout).1
    }

    /// `<data home>/projects/<slug>` of the checked project.
    pub fn project_dir(&self) -> PathBuf {
        self.env.data().join("projects").join(slug(&self.project))
    }

    /// The checked project's context state.
    pub fn state(&self) -> serde_json::Value {
        serde_json::from_str(
            &fs_err::read_to_string(self.project_dir().join("context-state.json")).unwrap(),
        )
        .unwrap()
    }
}

/// The path-style slug of a directory.
/// The slug carryover gives the project at `path` (a repository without a remote, or a
/// plain directory: known by its path).
pub fn slug(path: &Path) -> String {
    use carryover::domain::project::{Project, SlugStyle};
    Project::at(path).slug(SlugStyle::Path).as_str().to_owned()
}

/// Runs `git ARGS` in `dir` (a test's project, not the data home) as a test user, with no
/// global or system configuration; returns its stdout, and panics with its stderr when it
/// fails.
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let output = StdCommand::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Every file under `dir` whose name `wanted` accepts.
pub fn files_named(dir: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
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

/// Every `handoff.md` under `dir`.
pub fn handoff_files(dir: &Path) -> Vec<PathBuf> {
    files_named(dir, |name| name == "handoff.md")
}
