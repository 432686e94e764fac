//! In-process micro-benchmarks of the hot paths of a session start and a pre-compact, on the
//! sizes the whole-process benchmark uses: `cargo bench --bench micro` (divan).

use std::hint::black_box;

use carryover::domain::context::{Section, compose};
use carryover::domain::ports::{DigestScope, TranscriptReader};
use carryover::domain::retrieval::{Bm25, StoredVectors, content_hash, fuse};
use carryover::domain::seed::{Seed, decode_seed};
use carryover::infrastructure::{BuiltinEmbedder, ClaudeTranscriptReader};

const EXAMPLE_SEED: &str = include_str!("../tests/fixtures/seed/seed.json");
const SHOP_API_TRANSCRIPT: &str = include_str!(
    "../tests/fixtures/claude-code-2.1.328/transcripts/shop-api--81b8f225-6c82-470b-98cc-ec96494e08b9.jsonl"
);
const QUERY: &str = "shop-api feature/retry-budget Add retry budget to the HTTP client \
     Write migration for the orders table Wire the fetcher to the new queue";
const SIZES: [usize; 3] = [100, 1_000, 10_000];

fn main() {
    divan::main();
}

/// A seed text with `count` confirmed learnings over ten topics.
fn seed_text(count: usize) -> String {
    let mut seed: serde_json::Value = serde_json::from_str(EXAMPLE_SEED).unwrap();
    let topics = [
        "rust", "postgres", "react", "testing", "ci", "http", "git", "docs", "security", "queues",
    ];
    let list = seed["learned"]["patterns"].as_array_mut().unwrap();
    list.clear();
    for n in 0..count {
        let topic = topics[n % topics.len()];
        list.push(serde_json::json!({
            "id": format!("pat_{n:012}"),
            "content": format!("Learning {n} about {topic}: keep the {topic} setup explicit and documented so that the next session does not have to rediscover it"),
            "source": "bench",
            "extractedAt": "2026-10-01T09:00:00.000Z",
            "confirmedAt": "2026-10-02T09:00:00.000Z",
            "confirmed": true,
            "tags": [topic],
        }));
    }
    serde_json::to_string_pretty(&seed).unwrap()
}

fn contents(seed: &Seed) -> Vec<&str> {
    seed.learned
        .patterns
        .iter()
        .map(|l| l.content.as_str())
        .collect()
}

#[divan::bench(args = SIZES)]
fn decode_seed_with_learnings(bencher: divan::Bencher, count: usize) {
    let text = seed_text(count);
    bencher.bench(|| decode_seed(black_box(&text)).unwrap());
}

#[divan::bench(args = SIZES)]
fn bm25_scores(bencher: divan::Bencher, count: usize) {
    let seed = decode_seed(&seed_text(count)).unwrap();
    let documents = contents(&seed);
    bencher.bench(|| Bm25::new(documents.iter().copied()).scores(black_box(QUERY)));
}

#[divan::bench]
fn embed_query_builtin(bencher: divan::Bencher) {
    let embedder = BuiltinEmbedder::compiled();
    bencher.bench(|| embedder.embed_one(black_box(QUERY)));
}

#[divan::bench(args = SIZES)]
fn stored_vectors_lookup_and_similarity(bencher: divan::Bencher, count: usize) {
    let seed = decode_seed(&seed_text(count)).unwrap();
    let embedder = BuiltinEmbedder::compiled();
    let mut builder = StoredVectors::builder();
    for learning in &seed.learned.patterns {
        builder.insert(
            &learning.id,
            content_hash(&learning.content),
            &embedder.embed_one(&learning.content),
        );
    }
    let stored = StoredVectors::from_bytes(builder.finish().as_bytes().to_vec()).unwrap();
    let query = embedder.embed_one(QUERY);
    bencher.bench(|| {
        seed.learned
            .patterns
            .iter()
            .map(|l| {
                stored
                    .find_current(&l.id, content_hash(&l.content))
                    .map_or(0.0, |slot| stored.similarity(slot, &query))
            })
            .sum::<f32>()
    });
}

#[divan::bench(args = SIZES)]
fn fuse_scores(bencher: divan::Bencher, count: usize) {
    let similarity: Vec<f32> = (0..count).map(|n| (n % 97) as f32 / 97.0).collect();
    let lexical: Vec<f32> = (0..count).map(|n| (n % 13) as f32).collect();
    bencher.bench(|| fuse(black_box(&similarity), black_box(&lexical)));
}

#[divan::bench]
fn compose_over_budget(bencher: divan::Bencher) {
    let sections = || {
        (0..7)
            .map(|s| {
                let mut section = Section::items(format!("Section {s}:"));
                for n in 0..200 {
                    section.push_item(format!("  item {n} of section {s}, with some words"));
                }
                section
            })
            .collect::<Vec<_>>()
    };
    bencher
        .with_inputs(sections)
        .bench_values(|sections| compose(sections, 9_000));
}

#[divan::bench]
fn transcript_last_usage_200_mb(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("transcript.jsonl");
    let big = format!(
        "{}\n",
        serde_json::json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": "x".repeat(200_000)}]}})
    );
    let mut text = String::with_capacity(200 << 20);
    while text.len() < 200 << 20 {
        text.push_str(SHOP_API_TRANSCRIPT);
        text.push_str(&big);
    }
    text.push_str(SHOP_API_TRANSCRIPT);
    std::fs::write(&path, text).unwrap();
    let reader = ClaudeTranscriptReader;
    bencher.bench(|| pollster::block_on(reader.last_usage(&path)).unwrap());
}

#[divan::bench]
fn transcript_digest_shop_api(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("transcript.jsonl");
    std::fs::write(&path, SHOP_API_TRANSCRIPT).unwrap();
    let reader = ClaudeTranscriptReader;
    bencher.bench(|| pollster::block_on(reader.digest(&path, DigestScope::Whole)).unwrap());
}

/// What the first redaction in a process pays: building the compiled-in rules and their
/// keyword index (the patterns compile later, each when a keyword first calls for it).
#[divan::bench]
fn redaction_rules_build(bencher: divan::Bencher) {
    use carryover::domain::redaction::{RuleSet, compiled_in_rules};
    bencher.bench(|| RuleSet::from_files(compiled_in_rules()));
}

/// Reading the same rules from their TOML, as the build script does once.
#[divan::bench]
fn redaction_rules_parse_toml(bencher: divan::Bencher) {
    let files = [
        include_str!("../assets/redaction/gitleaks.toml"),
        include_str!("../assets/redaction/carryover.toml"),
    ];
    bencher.bench(|| carryover::domain::redaction::RuleSet::parse(black_box(&files)).unwrap());
}

/// One redaction of a typical checkpoint line, rules already parsed.
#[divan::bench]
fn redaction_of_a_line(bencher: divan::Bencher) {
    let line = "Run the payment tests against staging with the key in .env and push to main.";
    let _ = carryover::domain::redaction::redact(line);
    bencher.bench(|| carryover::domain::redaction::redact(black_box(line)).into_owned());
}

/// The first redaction in a process of a line that names common keywords ("key", "token",
/// "password", "api"): building the rules and compiling every rule those keywords select.
#[divan::bench]
fn redaction_cold_with_common_keywords(bencher: divan::Bencher) {
    use carryover::domain::redaction::{RuleSet, compiled_in_rules};
    let line = "Rotate the api key and the token; the password policy says so.";
    bencher.bench(|| {
        let rules = RuleSet::from_files(compiled_in_rules());
        rules.find(black_box(line)).len()
    });
}
