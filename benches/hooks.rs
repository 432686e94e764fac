//! Whole-process latency of the hooks, against `/bin/true` as the process-start floor.
//!
//! `cargo bench --bench hooks` builds the release binary, generates the data in a temp dir and
//! prints a Markdown table (median, p90, peak RSS) for docs/benchmarks.md. Set
//! `CARRYOVER_BENCH_RUNS` to change the number of runs per row (default 200).
//!
//! Peak RSS comes from `/usr/bin/time -f %M` (Debian package `time`): a child started by this
//! process would report at least this process's own RSS, because `posix_spawn` shares its
//! memory until `exec` and Linux carries that high-water mark over.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PAYLOAD: &[u8] =
    include_bytes!("../tests/fixtures/claude-code-2.1.328/hooks/sessionstart-startup-2.json");
const EXAMPLE_SEED: &str = include_str!("../tests/fixtures/seed/seed.json");

struct Row {
    name: String,
    median: Duration,
    p90: Duration,
    peak_rss_kib: Option<u64>,
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let runs: usize = std::env::var("CARRYOVER_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_carryover"));
    let dir = tempfile::tempdir().expect("temp dir");

    let example = data_home(dir.path(), "example", EXAMPLE_SEED.to_owned());
    let thousand = data_home(dir.path(), "1000", generated_seed(1_000));

    let rows = vec![
        measure("/bin/true (process start floor)", runs, || {
            Command::new("/bin/true")
        }),
        measure(
            "hook session-start, example seed (12 learnings)",
            runs,
            || session_start(&binary, &example),
        ),
        measure("hook session-start, 1,000 learnings", runs, || {
            session_start(&binary, &thousand)
        }),
    ];
    println!("runs per row: {runs}\n");
    println!("| command | median | p90 | peak RSS |");
    println!("|---|---:|---:|---:|");
    for row in rows {
        println!(
            "| {} | {:.2} ms | {:.2} ms | {} |",
            row.name,
            row.median.as_secs_f64() * 1e3,
            row.p90.as_secs_f64() * 1e3,
            row.peak_rss_kib.map_or_else(
                || "n/a".to_owned(),
                |kib| format!("{:.1} MB", kib as f64 / 1024.0)
            )
        );
    }
}

fn session_start(binary: &Path, home: &Path) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["hook", "session-start"])
        .env_clear()
        .env("HOME", home)
        .env("CARRYOVER_HOME", home)
        .env("CARRYOVER_NOW", "2026-11-22T18:40:00Z");
    command
}

fn data_home(root: &Path, name: &str, seed: String) -> PathBuf {
    let home = root.join(name);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("seed.json"), seed).unwrap();
    home
}

/// A valid seed with `count` confirmed learnings spread over the three kinds.
fn generated_seed(count: usize) -> String {
    let mut seed: serde_json::Value = serde_json::from_str(EXAMPLE_SEED).unwrap();
    let topics = [
        "rust",
        "postgres",
        "react",
        "testing",
        "ci",
        "http",
        "git",
        "docs",
        "security",
        "observability",
    ];
    for (kind, prefix) in [
        ("patterns", "pat"),
        ("insights", "ins"),
        ("selfKnowledge", "slf"),
    ] {
        let list = seed["learned"][kind].as_array_mut().unwrap();
        list.clear();
        for n in 0..count / 3 + usize::from(kind == "patterns") * (count % 3) {
            let topic = topics[n % topics.len()];
            list.push(serde_json::json!({
                "id": format!("{prefix}_{n:012}"),
                "content": format!("Learning {n} about {topic}: keep the {topic} setup explicit and documented so that the next session does not have to rediscover it"),
                "source": "bench",
                "extractedAt": "2026-10-01T09:00:00.000Z",
                "confirmedAt": format!("2026-10-{:02}T09:00:00.000Z", 1 + n % 28),
                "confirmed": true,
                "tags": [topic],
            }));
        }
    }
    serde_json::to_string_pretty(&seed).unwrap()
}

fn measure(name: &str, runs: usize, make: impl Fn() -> Command) -> Row {
    for _ in 0..runs.min(10) {
        run_once(make());
    }
    let mut times: Vec<Duration> = (0..runs).map(|_| run_once(make())).collect();
    times.sort();
    Row {
        name: name.to_owned(),
        median: times[times.len() / 2],
        p90: times[times.len() * 9 / 10],
        peak_rss_kib: peak_rss(make()),
    }
}

/// Runs one process with the payload on stdin and returns its wall time.
fn run_once(mut command: Command) -> Duration {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let started = Instant::now();
    let mut child = command.spawn().expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(PAYLOAD);
    }
    let status = child.wait().expect("wait");
    let elapsed = started.elapsed();
    assert!(status.success(), "command failed");
    elapsed
}

/// Peak RSS in KiB of one run, measured by `/usr/bin/time`; `None` when it is not installed.
fn peak_rss(command: Command) -> Option<u64> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let mut wrapped = Command::new(time);
    wrapped
        .args(["-f", "%M", "--"])
        .arg(command.get_program())
        .args(command.get_args());
    wrapped.env_clear();
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            wrapped.env(key, value);
        }
    }
    wrapped
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = wrapped.spawn().ok()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(PAYLOAD);
    }
    let output = child.wait_with_output().ok()?;
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}
