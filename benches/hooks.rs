//! Whole-process latency of the hooks, against `/bin/true` as the process-start floor.
//!
//! `cargo bench --bench hooks` builds the release binary, generates the data in a temp dir
//! (seeds of 100 to 100,000 learnings, transcripts of 1 to 200 MB) and prints a Markdown
//! table (runs, median, p90, peak RSS) for docs/benchmarks.md. `CARRYOVER_BENCH_RUNS` caps
//! the runs per row (default 200; slow rows take fewer, at least 5);
//! `CARRYOVER_BENCH_QUICK=1` keeps only the two smallest seeds and the 1 MB transcript.
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
const PROMPT_PAYLOAD: &str =
    include_str!("../tests/fixtures/claude-code-2.1.328/hooks/userpromptsubmit-task-1.json");
const STATUS_PAYLOAD: &[u8] =
    include_bytes!("../tests/fixtures/claude-code-2.1.328/statusline/statusline-after-reply.json");

struct Row {
    name: String,
    runs: usize,
    median: Duration,
    p90: Duration,
    peak_rss_kib: Option<u64>,
}

/// Learning counts of the generated seeds.
const SEED_SIZES: [usize; 4] = [100, 1_000, 10_000, 100_000];
/// Transcript sizes in MB.
const TRANSCRIPT_SIZES: [usize; 3] = [1, 50, 200];
/// Wall time a row may take, which bounds the runs of slow rows.
const ROW_BUDGET: Duration = Duration::from_secs(4);

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let max_runs: usize = std::env::var("CARRYOVER_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let quick = std::env::var_os("CARRYOVER_BENCH_QUICK").is_some();
    let seed_sizes: &[usize] = if quick { &SEED_SIZES[..2] } else { &SEED_SIZES };
    let transcript_sizes: &[usize] = if quick {
        &TRANSCRIPT_SIZES[..1]
    } else {
        &TRANSCRIPT_SIZES
    };
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_carryover"));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rows = vec![measure(
        "/bin/true (process start floor)",
        max_runs,
        START_PAYLOAD,
        || {},
        || Command::new("/bin/true"),
    )];

    let example = data_home(dir.path(), "example", EXAMPLE_SEED.to_owned());
    rows.push(measure(
        "hook session-start, example seed (12 learnings, not indexed)",
        max_runs,
        START_PAYLOAD,
        || {},
        || hook(&binary, &example, "session-start"),
    ));
    for &count in seed_sizes {
        eprintln!("generating and indexing {count} learnings");
        let home = data_home(dir.path(), &format!("seed-{count}"), generated_seed(count));
        write_handoff(&binary, dir.path(), &home);
        let status = hook(&binary, &home, "index")
            .arg("--json")
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "indexing {count} learnings failed");
        rows.push(measure(
            &format!("hook session-start, {} learnings", thousands(count)),
            max_runs,
            START_PAYLOAD,
            || {},
            || hook(&binary, &home, "session-start"),
        ));
        rows.push(measure(
            &format!("hook prompt, {} learnings", thousands(count)),
            max_runs,
            &prompt_payload(),
            || {},
            || hook(&binary, &home, "prompt"),
        ));
        rows.push(measure(
            &format!("statusline, {} learnings", thousands(count)),
            max_runs,
            STATUS_PAYLOAD,
            || {},
            || hook(&binary, &home, "statusline"),
        ));
        rows.push(measure(
            &format!("index, {} learnings from scratch", thousands(count)),
            max_runs,
            b"",
            || {
                let _ = std::fs::remove_dir_all(home.join("index"));
            },
            || {
                let mut command = hook(&binary, &home, "index");
                command.arg("--json");
                command
            },
        ));
    }
    for &megabytes in transcript_sizes {
        eprintln!("generating a {megabytes} MB transcript");
        let transcript = generated_transcript(
            dir.path(),
            &format!("{megabytes}mb"),
            megabytes * 1024 * 1024,
        );
        let payload = |event: &str, extra: (&str, &str)| {
            let mut payload = serde_json::json!({
                "session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
                "transcript_path": transcript,
                "cwd": dir.path(),
                "hook_event_name": event,
            });
            payload[extra.0] = extra.1.into();
            serde_json::to_vec(&payload).unwrap()
        };
        let pre_compact = payload("PreCompact", ("trigger", "auto"));
        rows.push(measure(
            &format!("hook pre-compact, {megabytes} MB transcript"),
            max_runs,
            &pre_compact,
            || {},
            || hook(&binary, &example, "pre-compact"),
        ));
        // A resume whose transcript holds carryover's block only at its start: the worst
        // case, the backward search reads its whole bound (32 MB) before giving up.
        let mut resume: serde_json::Value =
            serde_json::from_slice(&payload("SessionStart", ("source", "resume"))).unwrap();
        resume["transcript_path"] = generated_transcript_with_block(
            dir.path(),
            &format!("{megabytes}mb-block"),
            megabytes * 1024 * 1024,
        )
        .to_string_lossy()
        .into_owned()
        .into();
        rows.push(measure(
            &format!("hook session-start (resume), {megabytes} MB transcript, block at its start"),
            max_runs,
            &serde_json::to_vec(&resume).unwrap(),
            || {},
            || hook(&binary, &example, "session-start"),
        ));
        let session_end = payload("SessionEnd", ("reason", "other"));
        let home = data_home(
            dir.path(),
            &format!("session-end-{megabytes}"),
            EXAMPLE_SEED.to_owned(),
        );
        rows.push(measure(
            &format!("hook session-end, {megabytes} MB transcript (handoff + seed commit)"),
            max_runs.min(50),
            &session_end,
            || {},
            || hook(&binary, &home, "session-end"),
        ));
    }

    println!("| command | runs | median | p90 | peak RSS |");
    println!("|---|---:|---:|---:|---:|");
    for row in rows {
        println!(
            "| {} | {} | {:.2} ms | {:.2} ms | {} |",
            row.name,
            row.runs,
            row.median.as_secs_f64() * 1e3,
            row.p90.as_secs_f64() * 1e3,
            row.peak_rss_kib.map_or_else(
                || "n/a".to_owned(),
                |kib| format!("{:.1} MB", kib as f64 / 1024.0)
            )
        );
    }
}

/// The real `UserPromptSubmit` payload, sent from the generated project, asking about one of
/// the generated learnings' topics.
fn prompt_payload() -> Vec<u8> {
    let mut payload: serde_json::Value = serde_json::from_str(PROMPT_PAYLOAD).unwrap();
    let start: serde_json::Value = serde_json::from_slice(START_PAYLOAD).unwrap();
    payload["cwd"] = start["cwd"].clone();
    payload["prompt"] = "why do the retry budget tests for the HTTP client keep failing?".into();
    serde_json::to_vec(&payload).unwrap()
}

/// `12345` as `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `carryover hook <event>`, or `carryover index` / `carryover statusline` for those events,
/// on a data home.
fn hook(binary: &Path, home: &Path, event: &str) -> Command {
    let mut command = Command::new(binary);
    match event {
        "index" | "statusline" => command.arg(event),
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

/// Gives the start payload's project a handoff, as a real session end would (the shop-api
/// session's), so session-start rows read and inject one; the state file follows from the
/// first session start.
fn write_handoff(binary: &Path, dir: &Path, home: &Path) {
    let transcript = dir.join("shop-api.jsonl");
    std::fs::write(&transcript, SHOP_API_TRANSCRIPT).unwrap();
    let start: serde_json::Value = serde_json::from_slice(START_PAYLOAD).unwrap();
    let payload = serde_json::to_vec(&serde_json::json!({
        "session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
        "transcript_path": transcript,
        "cwd": start["cwd"],
        "hook_event_name": "SessionEnd",
        "reason": "other",
    }))
    .unwrap();
    run_once(hook(binary, home, "session-end"), &payload);
    let written = hook(binary, home, "session-start")
        .args(["--agent", "plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(START_PAYLOAD)?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        String::from_utf8_lossy(&written.stdout).contains("Handoff from the previous session"),
        "the benchmark project has no handoff"
    );
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
/// a large tool result in each round as real sessions have, so the hook must not read it all;
/// it opens with a user message that states a preference.
fn generated_transcript(dir: &Path, name: &str, size: usize) -> PathBuf {
    let path = dir.join(format!("transcript-{name}.jsonl"));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let big_result = serde_json::json!({
        "type": "user",
        "isSidechain": false,
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "x".repeat(200_000)}]},
    })
    .to_string();
    // One opinionated user message, so that session-end rows run the proposal extraction's
    // whole path (seed read, rules, deduplication) and not only the rules.
    let opinion = serde_json::json!({
        "type": "user",
        "isSidechain": false,
        "message": {"role": "user", "content": "I prefer early returns over nested if blocks."},
    })
    .to_string();
    file.write_all(opinion.as_bytes()).unwrap();
    file.write_all(b"\n").unwrap();
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

/// [`generated_transcript`] opening with carryover's session-start block, as Claude Code
/// records it (an `attachment` row of type `hook_additional_context`).
fn generated_transcript_with_block(dir: &Path, name: &str, size: usize) -> PathBuf {
    let plain = generated_transcript(dir, name, size);
    let path = dir.join(format!("transcript-{name}-with-block.jsonl"));
    let block = serde_json::json!({
        "type": "attachment",
        "isSidechain": false,
        "timestamp": "2026-11-22T18:00:00.000Z",
        "attachment": {"type": "hook_additional_context", "hookEvent": "SessionStart",
            "content": ["Identity: Juno\n\n[carryover: session context]"]},
    })
    .to_string();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(block.as_bytes()).unwrap();
    file.write_all(b"\n").unwrap();
    std::io::copy(&mut std::fs::File::open(&plain).unwrap(), &mut file).unwrap();
    file.flush().unwrap();
    let _ = std::fs::remove_file(plain);
    path
}

/// Times `make()`'s process over up to `max_runs` runs after a few warm-up runs; a slow row
/// gets fewer runs (at least 5) so that it stays within [`ROW_BUDGET`]. `prepare` runs
/// before each process, untimed.
fn measure(
    name: &str,
    max_runs: usize,
    stdin: &[u8],
    prepare: impl Fn(),
    make: impl Fn() -> Command,
) -> Row {
    eprintln!("measuring {name}");
    prepare();
    let first = run_once(make(), stdin);
    let affordable = (ROW_BUDGET.as_secs_f64() / first.as_secs_f64().max(1e-6)) as usize;
    let runs = affordable.clamp(5, max_runs.max(5));
    for _ in 0..(runs / 10).min(10) {
        prepare();
        run_once(make(), stdin);
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            prepare();
            run_once(make(), stdin)
        })
        .collect();
    times.sort();
    prepare();
    Row {
        name: name.to_owned(),
        runs,
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
