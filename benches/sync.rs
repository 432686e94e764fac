//! `carryover sync` with a 10,000-learning seed: two data homes (two machines) and a bare
//! remote on disk, whole-process times, and the remote's size after many syncs.
//!
//! `cargo bench --bench sync` prints a Markdown table for docs/benchmarks.md. The machines
//! take turns: each adds one learning to its seed (as a `learn` would) and syncs, so every
//! sync after the first merges the other machine's change. `CARRYOVER_BENCH_SYNCS` sets how
//! many syncs (default 1,000); `CARRYOVER_BENCH_LEARNINGS` the seed's size (default 10,000).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use carryover::domain::seed::{Learning, Seed, Timestamp, decode_seed, encode_seed};

const WORDS: [&str; 16] = [
    "payments",
    "staging",
    "deploys",
    "fixtures",
    "retries",
    "migrations",
    "tests",
    "builds",
    "queues",
    "caches",
    "reviews",
    "releases",
    "schemas",
    "metrics",
    "alerts",
    "tokens",
];

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let number = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let syncs = number("CARRYOVER_BENCH_SYNCS", 1_000);
    let learnings = number("CARRYOVER_BENCH_LEARNINGS", 10_000);
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_carryover"));
    let dir = tempfile::tempdir().expect("temp dir");
    let remote = dir.path().join("remote.git");
    git(
        dir.path(),
        &[
            "init",
            "--quiet",
            "--bare",
            "--initial-branch=main",
            "remote.git",
        ],
    );
    let machines = [dir.path().join("laptop"), dir.path().join("desktop")];
    for home in &machines {
        std::fs::create_dir_all(home).unwrap();
        run(
            &binary,
            home,
            &["sync", "remote", "add", remote.to_str().unwrap()],
        );
    }

    let seed = generated_seed(learnings);
    std::fs::write(machines[0].join("seed.json"), encode_seed(&seed)).unwrap();
    let first_push = timed(|| run(&binary, &machines[0], &["sync"]));
    let first_pull = timed(|| run(&binary, &machines[1], &["sync"]));

    let mut times = Vec::with_capacity(syncs);
    for round in 0..syncs {
        let home = &machines[round % 2];
        add_learning(home, round);
        times.push(timed(|| run(&binary, home, &["sync"])));
    }
    // The last change reaches the other machine too.
    run(&binary, &machines[syncs % 2], &["sync"]);
    let a = std::fs::read_to_string(machines[0].join("seed.json")).unwrap();
    let b = std::fs::read_to_string(machines[1].join("seed.json")).unwrap();
    let (a, b) = (decode_seed(&a).unwrap(), decode_seed(&b).unwrap());
    assert_eq!(a.learned.len(), learnings + syncs, "no learning lost");
    assert_eq!(
        a.learned, b.learned,
        "both machines hold the same learnings"
    );

    let seed_bytes = std::fs::metadata(machines[0].join("seed.json"))
        .unwrap()
        .len();
    let remote_loose = du_kib(&remote);
    git(&remote, &["gc", "--quiet"]);
    let remote_packed = du_kib(&remote);
    times.sort_unstable();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];

    println!("| what | figure |");
    println!("|---|---|");
    println!(
        "| learnings in the seed | {learnings} (seed.json {} KiB) |",
        seed_bytes / 1024
    );
    println!(
        "| first sync, pushing the seed to an empty remote | {} |",
        ms(first_push)
    );
    println!(
        "| first sync of a new machine, fetching it | {} |",
        ms(first_pull)
    );
    if !times.is_empty() {
        println!(
            "| sync with one change on each side ({syncs} syncs, machines taking turns): median / p90 / max | {} / {} / {} |",
            ms(pick(0.5)),
            ms(pick(0.9)),
            ms(pick(1.0))
        );
    }
    println!(
        "| remote size after {syncs} syncs, as pushed (loose objects) | {:.1} MiB |",
        remote_loose as f64 / 1024.0
    );
    println!(
        "| remote size after `git gc` | {:.1} MiB |",
        remote_packed as f64 / 1024.0
    );
}

fn generated_seed(count: usize) -> Seed {
    let mut seed = Seed::default();
    seed.identity.principal_name = "Mara".into();
    seed.identity.ai_name = "Juno".into();
    let at = Timestamp::parse("2026-11-01T10:00:00Z").unwrap();
    for i in 0..count {
        seed.learned.insights.push(Learning::new(
            format!("ins_gen{i:07}"),
            text(i),
            "bench".into(),
            at,
            true,
        ));
    }
    seed
}

fn text(i: usize) -> String {
    let word = |n: usize| WORDS[n % WORDS.len()];
    format!(
        "Learning {i}: the {} of the {} service depend on the {} and the {}",
        word(i),
        word(i / 16),
        word(i / 256),
        word(i / 4096)
    )
}

/// One learning added to the machine's seed as `learn` would (the sync commits it).
fn add_learning(home: &Path, round: usize) {
    let path = home.join("seed.json");
    let mut seed = decode_seed(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let at = Timestamp::parse("2026-11-22T10:00:00Z").unwrap();
    seed.learned.patterns.push(Learning::new(
        format!("pat_sync{round:07}"),
        format!(
            "Sync round {round} taught the {} rule",
            WORDS[round % WORDS.len()]
        ),
        "bench".into(),
        at,
        true,
    ));
    std::fs::write(&path, encode_seed(&seed)).unwrap();
}

fn run(binary: &Path, home: &Path, args: &[&str]) {
    let output = Command::new(binary)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CARRYOVER_HOME", home)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .current_dir(home)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "carryover {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn du_kib(dir: &Path) -> u64 {
    let out = Command::new("du").args(["-sk"]).arg(dir).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .and_then(|k| k.parse().ok())
        .unwrap_or(0)
}

fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}
