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
        .take_while(|line| line.starts_with("  ["))
        .collect();
    assert_eq!(section.len(), 5, "{context}");
    let top_two = section[..2].join("\n");
    assert!(
        top_two.contains("retries with exponential backoff"),
        "{context}"
    );
    assert!(top_two.contains("shop-api integration tests"), "{context}");
}

#[test]
fn json_scores_follow_the_shown_order() {
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
    for learning in value["learnings"].as_array().unwrap() {
        let line = format!(
            "[{:.2}] {}: {}",
            learning["score"].as_f64().unwrap(),
            learning["type"].as_str().unwrap(),
            learning["content"].as_str().unwrap()
        );
        assert!(context.contains(&line), "{line} not in {context}");
    }
}
