//! Proposal extraction on the labelled dev set (`tests/fixtures/extraction/devset.json`):
//! precision, recall and type accuracy of the phrase rules at several confidence floors, and
//! the time the rules take.
//!
//! `cargo bench --bench extraction` prints Markdown tables for docs/benchmarks.md.

use std::time::Instant;

use carryover::domain::extraction::candidates_from;
use carryover::domain::seed::LearningKind;
use serde_json::Value;

const DEVSET: &str = include_str!("../tests/fixtures/extraction/devset.json");
const HELD_OUT: &str = include_str!("../tests/fixtures/extraction/heldout.json");
const FLOORS: [f64; 5] = [0.6, 0.65, 0.7, 0.75, 0.8];

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    for (name, text) in [
        ("dev set (rules tuned on it)", DEVSET),
        ("held-out set", HELD_OUT),
    ] {
        report(name, text);
    }
}

fn report(name: &str, text: &str) {
    let devset: Value = serde_json::from_str(text).expect("a labelled set is JSON");
    let messages: Vec<(String, bool, Option<LearningKind>)> = devset["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["text"].as_str().unwrap().to_owned(),
                m["durable"].as_bool().unwrap(),
                m["type"].as_str().and_then(LearningKind::parse),
            )
        })
        .collect();
    let durable = messages.iter().filter(|m| m.1).count();
    println!("\n{name}: {} messages, {durable} durable\n", messages.len());
    println!("| floor | proposed | precision | recall | type accuracy |");
    println!("|---:|---:|---:|---:|---:|");
    for floor in FLOORS {
        let (mut proposed, mut correct, mut typed) = (0usize, 0usize, 0usize);
        for (text, is_durable, kind) in &messages {
            let found = candidates_from(std::slice::from_ref(text));
            let Some(best) = found.iter().find(|c| c.confidence >= floor) else {
                continue;
            };
            proposed += 1;
            if *is_durable {
                correct += 1;
                typed += usize::from(Some(best.kind) == *kind);
            }
        }
        println!(
            "| {floor:.2} | {proposed} | {:.3} | {:.3} | {:.3} |",
            correct as f64 / proposed.max(1) as f64,
            correct as f64 / durable as f64,
            typed as f64 / correct.max(1) as f64,
        );
    }
    let texts: Vec<String> = messages.iter().map(|m| m.0.clone()).collect();
    let rounds = 200;
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(candidates_from(std::hint::black_box(&texts)));
    }
    let per_round = started.elapsed() / rounds;
    println!(
        "\nAll {} messages in one call: {:.1} µs ({:.2} µs per message).",
        texts.len(),
        per_round.as_secs_f64() * 1e6,
        per_round.as_secs_f64() * 1e6 / texts.len() as f64
    );
    println!("\nMissed (durable, nothing proposed at 0.65) and wrongly proposed:");
    for (text, is_durable, _) in &messages {
        let found = candidates_from(std::slice::from_ref(text));
        let proposed = found.iter().any(|c| c.confidence >= 0.65);
        if proposed != *is_durable {
            let mark = if *is_durable { "missed" } else { "false" };
            println!("- {mark}: {}", text.replace('\n', " "));
        }
    }
}
