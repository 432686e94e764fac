//! Handoff quality on real sessions (`tests/fixtures/real-sessions/`): each transcript goes
//! through the real reader, the handoff builder and the session-start section, within the
//! handoff's share of the budget; the injected text is checked against the gold facts a
//! labeller wrote for the next session (see the set's README for the matching rule).
//!
//! `cargo bench --bench handoff` prints the tune part's fact recall (plain and weighted),
//! injected size and the noise strings found, and the same for `seen`: the first held-out part
//! (sessions 01-33 split `heldout`), `seen2` (sessions 34-44, split `fresh`), `seen3`
//! (sessions 45-52, split `fresh2`), `seen4` (sessions 53-61, split `fresh3`), `seen5`
//! (sessions 62-65, split `fresh4`), `seen6` (sessions 66-69, split `fresh5`), `seen7`
//! (sessions 70-74, split `fresh6`), `seen8` (sessions 75-78, split `fresh7`), `seen9`
//! (sessions 79-86, split `fresh8`), `seen10` (sessions 87-88, split `fresh9`), `seen11`
//! (sessions 89-91, split `fresh10`), `seen12` (sessions 92-93, split `fresh11`),
//! `seen13` (sessions 94-96, split `fresh12`), `seen14` (sessions 97-101, split
//! `fresh13`), `seen15` (sessions 102-106, split `fresh14`), `seen16` (sessions 107-112,
//! split `fresh15`), `seen17` (sessions 113-118, split `fresh16`), `seen18` (sessions
//! 119-124, split `fresh17`), `seen19` (sessions 125-130, split `fresh18`), `seen20`
//! (sessions 131-136, split `fresh19`), `seen21` (sessions 137-142, split `fresh20`),
//! `seen22` (sessions 143-148, split `fresh21`), `seen23` (sessions 149-154, split `fresh22`),
//! `seen24` (sessions 155-160, split `fresh23`), `seen25` (sessions 161-163, split
//! `fresh24`), `seen26` (sessions 164-167, split `fresh25`), `seen27` (sessions 168-175,
//! splits `fresh26` and `fresh27`) and `seen28` (sessions 180-182, split `fresh29`), each
//! measured once and tuned on since; `codex` (c01-c08, split `codex1`) is the tune part of
//! the real Codex sessions, whose transcripts go through the Codex reader, and `codex-seen`
//! (c09-c15, split `codex2`) their held-out part, measured once.
//! `-- --heldout` adds the next held-out part once one is built (`HELD_OUT`; none is left
//! now). `-- --detail tune` (or `seen` … `seen28`, `codex`, `codex-seen`, or `all`) adds each
//! session's missed facts and its injected text; the held-out part is never shown in detail.
//! `-- --losses` adds where the facts are lost (`support/handoff_losses.rs`): those the whole
//! handoff file holds, and those a greedy chooser that knows the gold would carry within the share, from the file's
//! lines and from those and the sentences of the replies the digest keeps. `-- --dump FILE`
//! writes every session but the held-out part's injected text, handoff file, kept replies and
//! gold facts as JSON, for trying a chooser outside Rust.

use std::path::Path;

use carryover::domain::handoff::{
    HANDOFF_MAX_CHARS, HandoffOrigin, HandoffScope, build_handoff, handoff_section, read_handoff,
};
use carryover::domain::ports::{DigestScope, TranscriptReader};
use carryover::domain::seed::Timestamp;
use carryover::infrastructure::AgentTranscriptReader;
use serde::Deserialize;

#[path = "support/handoff_losses.rs"]
mod losses;

use losses::{FactLosses, matches_group, normalise};

const GOLD: [&str; 32] = [
    include_str!("../tests/fixtures/real-sessions/handoff-gold-01-13.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-14-26.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-27-33.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh2.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh3.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh4.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh5.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh6.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh7.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh8.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh9.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh10.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh11.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh12.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh13.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh14.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh15.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh16.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh17.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh18.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh19.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh20.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh21.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh22.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh23.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh24.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh25.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh26.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh27.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-fresh29.json"),
    include_str!("../tests/fixtures/real-sessions/handoff-gold-codex.json"),
];

#[derive(Deserialize)]
struct GoldFile {
    sessions: Vec<Session>,
}

#[derive(Deserialize)]
struct Session {
    file: String,
    split: String,
    cwd: String,
    facts: Vec<Fact>,
    #[serde(default)]
    noise: Vec<String>,
}

#[derive(Deserialize)]
struct Fact {
    id: String,
    kind: String,
    fact: String,
    #[serde(rename = "match")]
    groups: Vec<Vec<String>>,
    weight: u32,
}

/// One session's figures.
struct Scored {
    facts: usize,
    recalled: usize,
    weight: u32,
    weight_recalled: u32,
    chars: usize,
    noise: Vec<String>,
    missed: Vec<String>,
    text: String,
    losses: FactLosses,
    /// The handoff file's body and the replies the digest keeps, for `--dump`.
    document: String,
    replies: Vec<String>,
}

/// The part measured once by `--heldout`, when one is left (its gold splits).
const HELD_OUT: &[&str] = &[];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|arg| arg == "--list") {
        return;
    }
    let detail = args
        .iter()
        .position(|arg| arg == "--detail")
        .and_then(|at| args.get(at + 1))
        .cloned();
    let sessions: Vec<Session> = GOLD
        .iter()
        .flat_map(|text| {
            serde_json::from_str::<GoldFile>(text)
                .expect("gold file")
                .sessions
        })
        .collect();
    println!(
        "| Split | Sessions | Fact recall | Weighted recall | Injected chars (mean / max) | Noise found |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    // The held-out part is measured once, when a change is done being tuned: `--heldout`.
    // The earlier held-out parts have been measured and are tuned on: `seen` to `seen28`.
    let mut splits: Vec<(&str, &[&str])> = vec![
        ("tune", &["tune"]),
        ("seen", &["heldout"]),
        ("seen2", &["fresh"]),
        ("seen3", &["fresh2"]),
        ("seen4", &["fresh3"]),
        ("seen5", &["fresh4"]),
        ("seen6", &["fresh5"]),
        ("seen7", &["fresh6"]),
        ("seen8", &["fresh7"]),
        ("seen9", &["fresh8"]),
        ("seen10", &["fresh9"]),
        ("seen11", &["fresh10"]),
        ("seen12", &["fresh11"]),
        ("seen13", &["fresh12"]),
        ("seen14", &["fresh13"]),
        ("seen15", &["fresh14"]),
        ("seen16", &["fresh15"]),
        ("seen17", &["fresh16"]),
        ("seen18", &["fresh17"]),
        ("seen19", &["fresh18"]),
        ("seen20", &["fresh19"]),
        ("seen21", &["fresh20"]),
        ("seen22", &["fresh21"]),
        ("seen23", &["fresh22"]),
        ("seen24", &["fresh23"]),
        ("seen25", &["fresh24"]),
        ("seen26", &["fresh25"]),
        ("seen27", &["fresh26", "fresh27"]),
        ("seen28", &["fresh29"]),
        ("codex", &["codex1"]),
        ("codex-seen", &["codex2"]),
    ];
    if args.iter().any(|arg| arg == "--heldout") {
        if HELD_OUT.is_empty() {
            eprintln!("every part has been measured: no held-out part is left");
        } else {
            splits.push(("heldout", HELD_OUT));
        }
    }
    let dump_path = args
        .iter()
        .position(|arg| arg == "--dump")
        .and_then(|at| args.get(at + 1));
    let mut dumped = Vec::new();
    let mut losses = Vec::new();
    for &(split, stored) in &splits {
        let scored: Vec<(&Session, Scored)> = sessions
            .iter()
            .filter(|session| stored.contains(&session.split.as_str()))
            .map(|session| (session, score(session)))
            .collect();
        let facts: usize = scored.iter().map(|(_, s)| s.facts).sum();
        let recalled: usize = scored.iter().map(|(_, s)| s.recalled).sum();
        let weight: u32 = scored.iter().map(|(_, s)| s.weight).sum();
        let weight_recalled: u32 = scored.iter().map(|(_, s)| s.weight_recalled).sum();
        let chars: Vec<usize> = scored.iter().map(|(_, s)| s.chars).collect();
        let noise: usize = scored.iter().map(|(_, s)| s.noise.len()).sum();
        println!(
            "| {split} | {} | {:.2} ({recalled}/{facts}) | {:.2} | {:.0} / {} | {noise} |",
            scored.len(),
            recalled as f64 / facts.max(1) as f64,
            f64::from(weight_recalled) / f64::from(weight.max(1)),
            chars.iter().sum::<usize>() as f64 / chars.len().max(1) as f64,
            chars.iter().max().unwrap_or(&0),
        );
        let sum = |measure: fn(&FactLosses) -> usize| -> usize {
            scored.iter().map(|(_, s)| measure(&s.losses)).sum()
        };
        losses.push((
            split,
            facts,
            recalled,
            FactLosses {
                in_file: sum(|l| l.in_file),
                chosen_from_file: sum(|l| l.chosen_from_file),
                chosen_with_replies: sum(|l| l.chosen_with_replies),
            },
        ));
        if dump_path.is_some() && !split.starts_with("heldout") {
            dumped.extend(
                scored
                    .iter()
                    .map(|(session, scored)| dump_row(session, scored)),
            );
        }
        if matches!(detail.as_deref(), Some(d) if d == split || d == "all")
            && !split.starts_with("heldout")
        {
            for (session, scored) in &scored {
                eprintln!(
                    "\n== {} {}/{} facts, {} chars, noise {:?}",
                    session.file, scored.recalled, scored.facts, scored.chars, scored.noise
                );
                for missed in &scored.missed {
                    eprintln!("  missed {missed}");
                }
                eprintln!("{}", scored.text);
            }
        }
    }
    if losses_wanted() {
        print_losses(&losses);
    }
    if let Some(path) = dump_path {
        let rows = serde_json::to_string(&dumped).expect("the dump serialises");
        std::fs::write(path, rows).expect("the dump file");
    }
}

/// One session as `--dump` writes it.
fn dump_row(session: &Session, scored: &Scored) -> serde_json::Value {
    let facts: Vec<serde_json::Value> = session
        .facts
        .iter()
        .map(|fact| {
            serde_json::json!({
                "id": fact.id,
                "kind": fact.kind,
                "fact": fact.fact,
                "match": fact.groups,
                "weight": fact.weight,
            })
        })
        .collect();
    serde_json::json!({
        "file": session.file,
        "split": session.split,
        "shown": scored.text,
        "document": scored.document,
        "replies": scored.replies,
        "facts": facts,
    })
}

/// The table of `--losses`: per part, then over every part shown.
fn print_losses(losses: &[(&str, usize, usize, FactLosses)]) {
    println!(
        "\n| Split | Facts | Shown | In the file | Chosen from the file | Chosen from the file and replies |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let cell =
        |found: usize, facts: usize| format!("{:.2} ({found})", found as f64 / facts.max(1) as f64);
    let row = |split: &str, facts: usize, shown: usize, measures: &FactLosses| {
        println!(
            "| {split} | {facts} | {} | {} | {} | {} |",
            cell(shown, facts),
            cell(measures.in_file, facts),
            cell(measures.chosen_from_file, facts),
            cell(measures.chosen_with_replies, facts),
        );
    };
    let mut total = (0, 0, FactLosses::default());
    for (split, facts, shown, measures) in losses {
        row(split, *facts, *shown, measures);
        total.0 += facts;
        total.1 += shown;
        total.2.in_file += measures.in_file;
        total.2.chosen_from_file += measures.chosen_from_file;
        total.2.chosen_with_replies += measures.chosen_with_replies;
    }
    row("all", total.0, total.1, &total.2);
}

/// The injected text of one session's handoff, scored against its gold facts.
fn score(session: &Session) -> Scored {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-sessions")
        .join(&session.file);
    let material = handoff_material(&path, &session.cwd);
    let text = material.shown;
    let haystack = normalise(&text);
    let mut scored = Scored {
        facts: session.facts.len(),
        recalled: 0,
        weight: 0,
        weight_recalled: 0,
        chars: text.chars().count(),
        noise: Vec::new(),
        missed: Vec::new(),
        losses: FactLosses::default(),
        text,
        document: material.document,
        replies: material.replies,
    };
    for fact in &session.facts {
        scored.weight += fact.weight;
        let found = fact
            .groups
            .iter()
            .all(|group| matches_group(&haystack, group));
        if found {
            scored.recalled += 1;
            scored.weight_recalled += fact.weight;
        } else {
            scored.missed.push(format!(
                "{} [{}] {:?}: {}",
                fact.id, fact.kind, fact.groups, fact.fact
            ));
        }
    }
    scored.noise = session
        .noise
        .iter()
        .filter(|noise| haystack.contains(&normalise(noise)))
        .cloned()
        .collect();
    if losses_wanted() {
        let groups: Vec<Vec<Vec<String>>> = session
            .facts
            .iter()
            .map(|fact| fact.groups.clone())
            .collect();
        // The heading (with its line break) and the pointer are written whatever is chosen.
        let fixed = scored
            .text
            .lines()
            .next()
            .map_or(0, |line| line.chars().count() + 1)
            + scored
                .text
                .lines()
                .last()
                .map_or(0, |line| line.chars().count());
        let room = HANDOFF_MAX_CHARS.saturating_sub(fixed);
        scored.losses = losses::fact_losses(&groups, &scored.document, &scored.replies, room);
    }
    scored
}

/// Whether `--losses` asked where the facts are lost (it takes longer than the figures).
fn losses_wanted() -> bool {
    std::env::args().any(|arg| arg == "--losses")
}

/// A session's handoff as the bench reads it.
struct Material {
    /// What the next session would be shown.
    shown: String,
    /// The handoff file's body, below its front matter.
    document: String,
    /// The replies the digest keeps: the closing reply of each of the newest turns, and the
    /// last reply.
    replies: Vec<String>,
}

/// The transcript read whole, the handoff built, written, read back and cut to its share.
fn handoff_material(transcript: &Path, cwd: &str) -> Material {
    let digest = pollster::block_on(AgentTranscriptReader.digest(transcript, DigestScope::Whole))
        .expect("the transcript reads");
    let now = Timestamp::parse("2026-11-23T09:00:00Z").expect("timestamp");
    let name = cwd
        .rsplit(['/', '\\'])
        .find(|part| !part.is_empty())
        .unwrap_or("project");
    let handoff = build_handoff(
        &digest,
        HandoffScope {
            session_id: "bench",
            project_name: name,
            root: cwd,
            previous: None,
        },
        now,
    );
    let rendered = handoff.render();
    let parsed = read_handoff(&rendered).expect("a handoff reads back");
    let shown = handoff_section(
        &parsed,
        HandoffOrigin::Previous,
        "~/.local/share/carryover/projects/project/handoffs/bench.md",
        now,
        now,
        HANDOFF_MAX_CHARS,
    )
    .render();
    let document = rendered
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(rendered.as_str(), |(_, body)| body)
        .to_owned();
    let mut replies = digest.turn_replies.clone();
    replies.extend(digest.last_assistant_message.clone());
    Material {
        shown,
        document,
        replies,
    }
}
