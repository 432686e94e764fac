//! Learning retrieval at session start, on the real project of the fixtures.

use crate::support::Replay;

#[test]
fn the_learnings_relevant_to_the_project_come_first() {
    let replay = Replay::new("shop-api");
    replay.session_end("sessionend-other-4");
    let context = replay.session_start("sessionstart-startup-2");
    let section: Vec<&str> = context
        .lines()
        .skip_while(|line| !line.starts_with("Relevant learnings ("))
        .skip(1)
        .take_while(|line| line.starts_with("  ") && line.contains(": "))
        .collect();
    assert_eq!(section.len(), 5, "{context}");
    let top_two = section[..2].join("\n");
    assert!(
        top_two.contains("retries with exponential backoff"),
        "{context}"
    );
    assert!(top_two.contains("shop-api integration tests"), "{context}");
}

/// The model sees the learnings in rank order without numbers; scripts get the score that
/// ranked each one, and those scores never rise down the list (ADR 0008).
#[test]
fn json_scores_are_the_ranking_in_the_shown_order() {
    let replay = Replay::new("shop-api");
    replay.session_end("sessionend-other-4");
    let output = replay
        .env
        .carryover()
        .args(["context", "--json", "--cwd"])
        .arg(&replay.project)
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let context = value["context"].as_str().unwrap();
    let learnings = value["learnings"].as_array().unwrap();
    assert!(learnings.len() >= 2, "{value}");
    let mut shown_at = 0;
    let mut previous = f64::INFINITY;
    for learning in learnings {
        let line = format!(
            "  {}: {}",
            learning["type"].as_str().unwrap(),
            learning["content"].as_str().unwrap()
        );
        let at = context[shown_at..]
            .find(&line)
            .unwrap_or_else(|| panic!("{line} not after {shown_at} in {context}"));
        shown_at += at + line.len();
        let score = learning["score"].as_f64().unwrap();
        assert!(score <= previous, "scores out of order: {value}");
        previous = score;
    }
    assert!(
        !context.contains("] pattern:") && !context.contains("] insight:"),
        "{context}"
    );
}
