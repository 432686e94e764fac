//! Learning proposals on real user messages (`tests/fixtures/real-sessions/messages-*.json`,
//! 2,908 messages of published Claude Code and other agents' sessions, labelled durable or not):
//! precision and recall of the phrase rules at the session-end floor, per language.
//!
//! `cargo bench --bench proposals` prints the tune part and `seen` … `seen31`, the earlier
//! held-out parts (up to `messages-fresh35.json`, the messages of nine real Codex sessions;
//! each measured once, tuned on since); `-- --heldout` adds the
//! held-out part, the stored splits in `HELD_OUT` (none now: the next fresh set goes there;
//! measure it once, when tuning is done). `-- --detail` lists the false proposals and
//! misses of every part but the held-out one; `-- --explain ID` every candidate of one message
//! outside it. A second table gives, per part, how many durable messages' proposals get the
//! scope their label gives (project or global), against the rewritten text's alone.

use carryover::domain::extraction::candidates_from;
use carryover::domain::scope::{ProposedScope, candidate_scope, proposed_scope};
use carryover::domain::transcript::remembered_note;
use serde_json::Value;

const SETS: [&str; 37] = [
    include_str!("../tests/fixtures/real-sessions/messages-01-26.json"),
    include_str!("../tests/fixtures/real-sessions/messages-extra.json"),
    include_str!("../tests/fixtures/real-sessions/messages-27-33.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh2.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh3.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh4.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh5.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh6.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh7.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh8.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh9.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh10.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh11.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh12.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh13.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh14.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh15.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh16.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh18.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh17.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh19.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh20.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh21.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh22.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh23.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh24.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh25.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh26.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh27.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh29.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh30.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh31.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh32.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh33.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh34.json"),
    include_str!("../tests/fixtures/real-sessions/messages-fresh35.json"),
];
/// The held-out part's stored splits: none until a set no change has seen is added (the
/// last, `fresh35`, was measured once and is `seen31` since).
const HELD_OUT: [&str; 0] = [];
/// The session-end floor (`ProposalSettings::default().floor`).
const FLOOR: f64 = 0.65;

struct Message {
    id: String,
    text: String,
    language: String,
    durable: bool,
    split: String,
    /// The labelled scope of a durable message: `project` or `global`.
    scope: Option<String>,
    /// The name of the project it was said in (its repository's name).
    project: String,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|arg| arg == "--list") {
        return;
    }
    let detail = args.iter().any(|arg| arg == "--detail");
    // `--explain ID` prints every candidate (below the floor too) of one tune message.
    let explain = args
        .iter()
        .position(|arg| arg == "--explain")
        .and_then(|at| args.get(at + 1));
    let messages: Vec<Message> = SETS
        .iter()
        .flat_map(|text| {
            let value: Value = serde_json::from_str(text).expect("a labelled set is JSON");
            let list = value
                .get("messages")
                .cloned()
                .unwrap_or(value)
                .as_array()
                .cloned()
                .unwrap_or_default();
            list.into_iter().map(|m| Message {
                id: m["id"].as_str().unwrap_or_default().to_owned(),
                text: m["text"].as_str().unwrap_or_default().to_owned(),
                language: m["language"].as_str().unwrap_or("en").to_owned(),
                durable: m["durable"].as_bool().unwrap_or(false),
                split: m["split"].as_str().unwrap_or("tune").to_owned(),
                scope: m["scope"].as_str().map(str::to_owned),
                project: m["source"]["repo"]
                    .as_str()
                    .and_then(|repo| repo.rsplit('/').next())
                    .unwrap_or_default()
                    .to_owned(),
            })
        })
        .collect();
    if let Some(id) = explain {
        for message in messages
            .iter()
            .filter(|m| !HELD_OUT.contains(&m.split.as_str()) && &m.id == id)
        {
            for candidate in candidates_from(std::slice::from_ref(&message.text)) {
                eprintln!(
                    "{:.2} {:?} {:?}",
                    candidate.confidence, candidate.family, candidate.text
                );
            }
        }
        return;
    }
    // The held-out part is measured once, when tuning is done: `--heldout`.
    let mut splits: Vec<(&str, &[&str])> = vec![
        ("tune", &["tune"]),
        ("seen", &["heldout"]),
        ("seen2", &["fresh"]),
        ("seen3", &["fresh2"]),
        ("seen4", &["fresh3"]),
        ("seen5", &["fresh4", "fresh5"]),
        ("seen6", &["fresh6"]),
        ("seen7", &["fresh7"]),
        ("seen8", &["fresh8"]),
        ("seen9", &["fresh9"]),
        ("seen10", &["fresh10"]),
        ("seen11", &["fresh11"]),
        ("seen12", &["fresh12"]),
        ("seen13", &["fresh13"]),
        ("seen14", &["fresh14"]),
        ("seen15", &["fresh15"]),
        ("seen16", &["fresh16", "fresh18"]),
        ("seen17", &["fresh17"]),
        ("seen18", &["fresh19"]),
        ("seen19", &["fresh20"]),
        ("seen20", &["fresh21", "fresh22"]),
        ("seen21", &["fresh23"]),
        ("seen22", &["fresh24"]),
        ("seen23", &["fresh25"]),
        ("seen24", &["fresh26", "fresh27"]),
        ("seen25", &["fresh29"]),
        ("seen26", &["fresh30"]),
        ("seen27", &["fresh31"]),
        ("seen28", &["fresh32"]),
        ("seen29", &["fresh33"]),
        ("seen30", &["fresh34"]),
        ("seen31", &["fresh35"]),
    ];
    if args.iter().any(|arg| arg == "--heldout") {
        splits.push(("heldout", &HELD_OUT));
    }
    let mut scopes = Vec::new();
    println!("| part | language | messages | durable | proposed | precision | recall |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for &(split, stored) in &splits {
        let part: Vec<&Message> = messages
            .iter()
            .filter(|m| stored.contains(&m.split.as_str()))
            .collect();
        if part.is_empty() {
            continue;
        }
        let mut languages: Vec<&str> = part.iter().map(|m| m.language.as_str()).collect();
        languages.sort_unstable();
        languages.dedup();
        for language in std::iter::once("all").chain(languages) {
            let chosen: Vec<&&Message> = part
                .iter()
                .filter(|m| language == "all" || m.language == language)
                .collect();
            let (mut proposed, mut correct) = (0usize, 0usize);
            let durable = chosen.iter().filter(|m| m.durable).count();
            for message in &chosen {
                // A `#` memory note is proposed as it stands (the session end's harvest);
                // anything else goes through the rules.
                let found = candidates_from(std::slice::from_ref(&message.text));
                let best = remembered_note(&message.text)
                    .map(str::to_owned)
                    .or_else(|| {
                        found
                            .iter()
                            .find(|c| c.confidence >= FLOOR)
                            .map(|c| c.text.clone())
                    });
                if let Some(best) = best {
                    proposed += 1;
                    correct += usize::from(message.durable);
                    if detail && split != "heldout" && language == "all" && !message.durable {
                        eprintln!(
                            "FALSE {} {:?} -> {:?}",
                            message.id,
                            clip(&message.text),
                            best
                        );
                    }
                } else if detail && split != "heldout" && language == "all" && message.durable {
                    eprintln!("MISS  {} {:?}", message.id, clip(&message.text));
                }
            }
            if language == "all" {
                scopes.push((split, scope_agreement(&chosen)));
            }
            println!(
                "| {split} | {language} | {} | {durable} | {proposed} | {} | {} |",
                chosen.len(),
                ratio(correct, proposed),
                ratio(correct, durable),
            );
        }
    }
    println!(
        "\n| part | scope as labelled, of durable messages proposed | by the rewritten text alone |"
    );
    println!("|---|---:|---:|");
    let mut total = (0, 0, 0);
    for (split, (agree, text_only, proposed)) in &scopes {
        println!(
            "| {split} | {} | {} |",
            ratio(*agree, *proposed),
            ratio(*text_only, *proposed)
        );
        if !split.starts_with("heldout") {
            total = (total.0 + agree, total.1 + text_only, total.2 + proposed);
        }
    }
    println!(
        "| all but held-out | {} | {} |",
        ratio(total.0, total.2),
        ratio(total.1, total.2)
    );
}

/// How many durable messages' proposals get the labelled scope, of those proposed: with the
/// candidate's family and the sentence as said, and with the rewritten text alone.
fn scope_agreement(messages: &[&&Message]) -> (usize, usize, usize) {
    let (mut agree, mut text_only, mut proposed) = (0, 0, 0);
    for message in messages.iter().filter(|m| m.durable) {
        let Some(label) = message.scope.as_deref() else {
            continue;
        };
        let found = candidates_from(std::slice::from_ref(&message.text));
        let Some(best) = found.iter().find(|c| c.confidence >= FLOOR) else {
            continue;
        };
        let named = |scope: ProposedScope| match scope {
            ProposedScope::Project => "project",
            ProposedScope::Global => "global",
        };
        proposed += 1;
        agree += usize::from(named(candidate_scope(best, &message.project)) == label);
        text_only += usize::from(named(proposed_scope(&best.text, &message.project)) == label);
    }
    (agree, text_only, proposed)
}

fn ratio(part: usize, whole: usize) -> String {
    match whole {
        0 => "–".to_owned(),
        _ => format!("{:.2} ({part}/{whole})", part as f64 / whole as f64),
    }
}

fn clip(text: &str) -> String {
    text.chars()
        .take(160)
        .collect::<String>()
        .replace('\n', " ")
}
