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

const START_PAYLOAD: &[u8] =
    include_bytes!("../tests/fixtures/claude-code-2.1.328/hooks/sessionstart-startup-2.json");
const SHOP_API_TRANSCRIPT: &str = include_str!(
    "../tests/fixtures/claude-code-2.1.328/transcripts/shop-api--81b8f225-6c82-470b-98cc-ec96494e08b9.jsonl"
);
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
    let status = hook(&binary, &thousand, "index")
        .args(["--json"])
        .status()
        .unwrap();
    assert!(status.success(), "indexing the 1,000-learning seed failed");
    let ten_thousand = data_home(dir.path(), "10000", generated_seed(10_000));

    let transcript = generated_transcript(dir.path(), "200mb", 200 * 1024 * 1024);
    let session_end_transcript = generated_transcript(dir.path(), "50mb", 50 * 1024 * 1024);
    let session_end_home = data_home(dir.path(), "session-end", EXAMPLE_SEED.to_owned());
    let session_end_payload = serde_json::to_vec(&serde_json::json!({
        "session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
        "transcript_path": session_end_transcript,
        "cwd": dir.path(),
        "hook_event_name": "SessionEnd",
        "reason": "other",
    }))
    .unwrap();
    let pre_compact_payload = serde_json::to_vec(&serde_json::json!({
        "session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
        "transcript_path": transcript,
        "cwd": dir.path(),
        "hook_event_name": "PreCompact",
        "trigger": "auto",
    }))
    .unwrap();

    let rows = vec![
        measure(
            "/bin/true (process start floor)",
            runs,
            START_PAYLOAD,
            || Command::new("/bin/true"),
        ),
        measure(
            "hook session-start, example seed (12 learnings)",
            runs,
            START_PAYLOAD,
            || hook(&binary, &example, "session-start"),
        ),
        measure(
            "hook session-start, 1,000 learnings",
            runs,
            START_PAYLOAD,
            || hook(&binary, &thousand, "session-start"),
        ),
        measure(
            "hook pre-compact, 200 MB transcript",
            runs,
            &pre_compact_payload,
            || hook(&binary, &example, "pre-compact"),
        ),
        measure(
            "index, 10,000 learnings from scratch",
            runs.min(5),
            b"",
            || {
                let _ = std::fs::remove_dir_all(ten_thousand.join("index"));
                let mut command = hook(&binary, &ten_thousand, "index");
                command.arg("--json");
                command
            },
        ),
        measure(
            "hook session-end, 50 MB transcript (handoff + seed commit)",
            runs.min(50),
            &session_end_payload,
            || hook(&binary, &session_end_home, "session-end"),
        ),
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

/// `carryover hook <event>`, or `carryover index` for the event `index`, on a data home.
fn hook(binary: &Path, home: &Path, event: &str) -> Command {
    let mut command = Command::new(binary);
    match event {
        "index" => command.arg("index"),
        _ => command.args(["hook", event]),
    };
    command
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

/// A Claude Code transcript of about `size` bytes: the shop-api session's rows repeated, with
/// a large tool result in each round as real sessions have, so the hook must not read it all.
fn generated_transcript(dir: &Path, name: &str, size: usize) -> PathBuf {
    let path = dir.join(format!("transcript-{name}.jsonl"));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let big_result = serde_json::json!({
        "type": "user",
        "isSidechain": false,
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "x".repeat(200_000)}]},
    })
    .to_string();
    let mut written = 0;
    while written < size {
        file.write_all(SHOP_API_TRANSCRIPT.as_bytes()).unwrap();
        file.write_all(big_result.as_bytes()).unwrap();
        file.write_all(b"\n").unwrap();
        written += SHOP_API_TRANSCRIPT.len() + big_result.len() + 1;
    }
    file.write_all(SHOP_API_TRANSCRIPT.as_bytes()).unwrap();
    file.flush().unwrap();
    path
}

fn measure(name: &str, runs: usize, stdin: &[u8], make: impl Fn() -> Command) -> Row {
    for _ in 0..runs.min(10) {
        run_once(make(), stdin);
    }
    let mut times: Vec<Duration> = (0..runs).map(|_| run_once(make(), stdin)).collect();
    times.sort();
    Row {
        name: name.to_owned(),
        median: times[times.len() / 2],
        p90: times[times.len() * 9 / 10],
        peak_rss_kib: peak_rss(make(), stdin),
    }
}

/// Runs one process with the payload on stdin and returns its wall time.
fn run_once(mut command: Command, stdin_bytes: &[u8]) -> Duration {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let started = Instant::now();
    let mut child = command.spawn().expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(stdin_bytes);
    }
    let status = child.wait().expect("wait");
    let elapsed = started.elapsed();
    assert!(status.success(), "command failed");
    elapsed
}

/// Peak RSS in KiB of one run, measured by `/usr/bin/time`; `None` when it is not installed.
fn peak_rss(command: Command, stdin_bytes: &[u8]) -> Option<u64> {
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
        let _ = stdin.write_all(stdin_bytes);
    }
    let output = child.wait_with_output().ok()?;
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}
