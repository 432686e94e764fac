//! Crash safety and concurrency on one data home: writers killed with SIGKILL at arbitrary
//! moments leave every file either as it was or as it became, and mixed processes running at
//! once lose no update and never block a session.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use carryover::domain::seed::decode_seed;
use serde_json::{Value, json};

use crate::support::{Hermetic, fixture};

/// A small deterministic generator: the kill moments differ per round, the same every run.
struct Moments(u64);

impl Moments {
    fn next_micros(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

fn spawn_with(env: &Hermetic, args: &[&str], stdin: Option<&[u8]>) -> Child {
    let mut child = env
        .std_carryover()
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let _ = std::io::Write::write_all(&mut pipe, bytes);
    }
    child
}

/// Kills `child` with SIGKILL after `micros`, unless it finished first.
fn kill_after(mut child: Child, micros: u64) {
    std::thread::sleep(Duration::from_micros(micros));
    let _ = child.kill();
    let _ = child.wait();
}

fn learnings(env: &Hermetic) -> Vec<String> {
    let text = fs_err::read_to_string(env.seed_path()).unwrap();
    let seed = decode_seed(&text).expect("seed.json is always a valid seed");
    seed.learned
        .patterns
        .iter()
        .map(|l| l.content.clone())
        .collect()
}

/// Waits for a `git` that a killed carryover had started to finish: killing carryover does
/// not kill its child, which completes its commit on its own.
fn wait_for_git(env: &Hermetic) {
    let git = env.data().join(".git");
    let locks = ["index.lock", "HEAD.lock", "refs/heads/main.lock"];
    let busy = || locks.iter().any(|lock| git.join(lock).exists());
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let mut quiet = 0;
    while quiet < 3 && std::time::Instant::now() < deadline {
        quiet = if busy() { 0 } else { quiet + 1 };
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn assert_history_intact(env: &Hermetic) {
    wait_for_git(env);
    env.git(&["fsck", "--no-progress", "--strict"]);
    env.git(&["log", "--format=%H", "-n", "1"]);
}

#[test]
fn killed_learn_processes_leave_the_old_or_the_new_seed_and_an_intact_history() {
    let env = Hermetic::new();
    env.init();
    let mut moments = Moments(0x9e37_79b9_7f4a_7c15);
    let mut known = learnings(&env);
    for round in 0..40 {
        let text = format!("Learning number {round} written while being killed");
        let child = spawn_with(&env, &["learn", "pattern", &text], None);
        kill_after(child, moments.next_micros(40_000));
        let now = learnings(&env);
        let grew = now.len() == known.len() + 1 && now.last() == Some(&text);
        assert!(
            now == known || grew,
            "round {round}: the seed is neither the old nor the new one"
        );
        assert!(
            now.starts_with(&known),
            "round {round}: an earlier learning was lost"
        );
        known = now;
        assert_history_intact(&env);
    }
    // Whatever was killed, the next writer works and commits everything on disk.
    env.carryover()
        .args(["learn", "pattern", "The last learning after the crashes"])
        .assert()
        .success();
    assert_eq!(learnings(&env).len(), known.len() + 1);
    assert_eq!(env.git(&["status", "--porcelain", "seed.json"]), "");
}

#[test]
fn killed_hooks_leave_state_and_handoffs_whole() {
    let env = Hermetic::new();
    env.init();
    let transcript = env.shop_api_transcript();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(project.join(".git")).unwrap();
    let payload = |event: &str, extra: (&str, &str)| {
        let mut value = json!({
            "session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
            "transcript_path": transcript,
            "cwd": project,
            "hook_event_name": event,
        });
        value[extra.0] = extra.1.into();
        value.to_string().into_bytes()
    };
    let pre_compact = payload("PreCompact", ("trigger", "manual"));
    let session_end = payload("SessionEnd", ("reason", "other"));
    let projects = env.data().join("projects");
    let mut moments = Moments(0x2545_f491_4f6c_dd1d);
    for round in 0..30 {
        let (args, stdin) = if round % 2 == 0 {
            (["hook", "pre-compact"], &pre_compact)
        } else {
            (["hook", "session-end"], &session_end)
        };
        let child = spawn_with(&env, &args, Some(stdin));
        kill_after(child, moments.next_micros(30_000));
        for entry in walk(&projects) {
            let name = entry.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with(".carryover-") {
                continue; // a temp file a killed writer left; never read as data
            }
            let text = fs_err::read_to_string(&entry).unwrap();
            if name == "context-state.json" {
                let state: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("round {round}: state is not whole: {e}"));
                assert_eq!(state["trigger"], "manual");
            } else if name == "handoff.md" {
                assert!(
                    text.starts_with("---\n") && text.ends_with('\n') && text.contains("## "),
                    "round {round}: a half-written handoff: {text:?}"
                );
            }
        }
        if let Ok(seed) = fs_err::read_to_string(env.seed_path()) {
            decode_seed(&seed).expect("the seed stays valid");
        }
    }
    assert_history_intact(&env);
    // The hooks still work afterwards and the start shows the handoff.
    let out = env
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(session_end.clone())
        .assert()
        .success();
    assert!(out.get_output().stdout.is_empty());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = fs_err::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn mixed_processes_at_once_lose_no_update_and_never_block_a_session() {
    const LEARNERS: usize = 4;
    let env = Hermetic::new();
    env.install_example_seed();
    let transcript = env.shop_api_transcript();
    let start = fs_err::read(fixture(
        "claude-code-2.1.328/hooks/sessionstart-startup-1.json",
    ))
    .unwrap();
    let hook_payload = |session: &str, event: &str| {
        json!({"session_id": session, "transcript_path": transcript, "cwd": env.home(),
            "hook_event_name": event, "trigger": "auto", "reason": "other"})
        .to_string()
        .into_bytes()
    };
    let pending: Vec<String> = {
        let listed = env
            .carryover()
            .args(["proposals", "list", "--json"])
            .assert()
            .success();
        let listed: Value = serde_json::from_slice(&listed.get_output().stdout).unwrap();
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let before = learnings(&env).len();
    let outcomes = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for n in 0..LEARNERS {
            let env = &env;
            handles.push(scope.spawn(move || {
                let text = format!("Concurrent learning {n} about the shared data home");
                let ok = env
                    .std_carryover()
                    .args(["learn", "pattern", &text])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .unwrap()
                    .success();
                ("learn", ok)
            }));
        }
        {
            let env = &env;
            let id = pending[0].clone();
            handles.push(scope.spawn(move || {
                let ok = env
                    .std_carryover()
                    .args(["proposals", "accept", &id])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .unwrap()
                    .success();
                ("accept", ok)
            }));
        }
        for n in 0..6 {
            let env = &env;
            let (args, stdin): (&[&str], Vec<u8>) = match n % 3 {
                0 => (&["hook", "session-start"], start.clone()),
                1 => (
                    &["hook", "pre-compact"],
                    hook_payload(&format!("s{n}"), "PreCompact"),
                ),
                _ => (
                    &["hook", "session-end"],
                    hook_payload(&format!("s{n}"), "SessionEnd"),
                ),
            };
            handles.push(scope.spawn(move || {
                let mut child = spawn_with(env, args, Some(&stdin));
                let started = std::time::Instant::now();
                let ok = child.wait().unwrap().success();
                assert!(started.elapsed() < Duration::from_secs(10), "a hook hung");
                ("hook", ok)
            }));
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    assert!(
        outcomes.iter().all(|(_, ok)| *ok),
        "every process succeeded: {outcomes:?}"
    );
    let after = learnings(&env);
    assert_eq!(after.len(), before + LEARNERS, "no learn was lost");
    let seed: Value =
        serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap();
    let accepted = seed["state"]["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pending[0].as_str())
        .unwrap();
    assert_eq!(accepted["status"], "accepted", "the accept was not lost");
    assert_history_intact(&env);
    // A session end that ran last leaves its last-session bookkeeping uncommitted, by design;
    // nothing else may be.
    let status = env.carryover().args(["status", "--json"]).output().unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["git"]["uncommitted_changes"], false, "{status}");
}

#[test]
fn a_hook_that_cannot_get_the_seed_lock_fails_open_within_its_bound() {
    let env = Hermetic::new();
    env.init();
    let lock = std::fs::File::create(env.data().join(".seed.json.lock")).unwrap();
    lock.lock().unwrap();
    let transcript = env.shop_api_transcript();
    let started = std::time::Instant::now();
    let out = env
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(
            json!({"session_id": "s1", "transcript_path": transcript, "cwd": env.home(),
                "reason": "other"})
            .to_string(),
        )
        .assert()
        .success();
    let waited = started.elapsed();
    assert!(out.get_output().stdout.is_empty());
    assert!(waited < Duration::from_secs(3), "waited {waited:?}");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("lock"), "the diagnostic says why: {stderr}");
    // The handoff does not need the seed and was still written.
    assert!(
        walk(&env.data().join("projects"))
            .iter()
            .any(|p| p.ends_with("handoff.md"))
    );
    lock.unlock().unwrap();
}
