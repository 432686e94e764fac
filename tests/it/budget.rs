//! The session-start context stays within its character budget however much there is to say:
//! 5,000 learnings, a 1 MB handoff and a long start-up template.

use serde_json::{Value, json};

use crate::support::{Hermetic, Replay, envelope, fixture};

const SESSION: &str = "0b6f5c1e-2a44-4f7e-9d51-3c2e1f0a9b77";

fn crowded() -> Replay {
    let replay = Replay::new("notes");
    let mut seed: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture("seed/seed.json")).unwrap()).unwrap();
    let patterns = seed["learned"]["patterns"].as_array_mut().unwrap();
    for n in 0..5_000 {
        patterns.push(json!({
            "id": format!("pat_bulk{n:06}"),
            "content": format!("Note {n} about the notes project: keep the sync of notes with the server explicit {}", "and long ".repeat(n % 40)),
            "source": "test",
            "extractedAt": "2026-10-01T09:00:00.000Z",
            "confirmedAt": "2026-10-02T09:00:00.000Z",
            "confirmed": true,
            "tags": [],
        }));
    }
    fs_err::write(replay.env.seed_path(), seed.to_string()).unwrap();

    let handoff = replay
        .project_dir()
        .join("sessions")
        .join(SESSION)
        .join("handoff.md");
    fs_err::create_dir_all(handoff.parent().unwrap()).unwrap();
    let mut text =
        String::from("---\nsession: 0b6f5c1e\nproject: notes\n---\n# Handoff\n\n## In Progress\n");
    while text.len() < 1024 * 1024 {
        text.push_str("- Syncing the notes index with the server, one folder at a time\n");
    }
    fs_err::write(&handoff, text).unwrap();

    let dir = replay.project.join(".carryover");
    fs_err::create_dir_all(&dir).unwrap();
    let mut template = String::from(
        "---\ntype: agent/instruction\nrequires-startup-instruction: true\n---\nRun `{{feature_flags.startup-instruction}}` first.\n",
    );
    while template.len() < 60 * 1024 {
        template.push_str("Then check that every notebook opens and that its attachments load.\n");
    }
    fs_err::write(dir.join("_startup.md"), template).unwrap();
    replay
        .env
        .carryover()
        .args(["flags", "set", "startup-instruction", "make status"])
        .assert()
        .success();
    replay
        .env
        .carryover()
        .args(["trust", "--yes", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success();
    replay
}

#[test]
fn a_crowded_session_start_stays_within_the_default_budget() {
    let replay = crowded();
    let context = replay.session_start("sessionstart-startup-1");
    let length = context.encode_utf16().count();
    assert!(length <= 9_000, "{length} characters");
    assert!(
        context.starts_with("Run `make status` first."),
        "the instruction leads"
    );
    assert!(context.contains("Handoff from the previous session"));
    assert!(
        // One of the 5,012 names shop-api, another project the seed knows (ADR 0010).
        context.contains("/5011, ~") || context.contains("/5011):"),
        "{context}"
    );
    assert!(
        context.contains("more not shown"),
        "the handoff was cut, and says so"
    );
}

#[test]
fn a_budget_above_the_cap_is_held_to_the_cap() {
    let replay = crowded();
    fs_err::write(
        replay.env.data().join("config.toml"),
        "[context]\nbudget_chars = 50000\n",
    )
    .unwrap();
    let context = replay.session_start("sessionstart-startup-1");
    assert!(
        context.encode_utf16().count() <= 10_000,
        "{}",
        context.encode_utf16().count()
    );
    let json = replay
        .env
        .carryover()
        .args(["context", "--json", "--cwd"])
        .arg(&replay.project)
        .assert()
        .success();
    let value: Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    assert!(value["context"].as_str().unwrap().encode_utf16().count() <= 10_000);
}

/// The client counts its 10,000 cap in UTF-16 units: thirty learnings of emoji (8,056 code
/// points, 15,226 units) used to pass carryover's count and be cut by the client.
#[test]
fn the_cap_is_counted_as_the_client_counts_it() {
    let env = Hermetic::new();
    env.init();
    for n in 0..30 {
        env.carryover()
            .args(["learn", "pattern", &format!("{n} {}", "🙂".repeat(260))])
            .assert()
            .success();
    }
    fs_err::write(
        env.data().join("config.toml"),
        "[context]\nbudget_chars = 10000\n[retrieval]\ntop_n = 30\nfloor = 0.0\n",
    )
    .unwrap();
    let output = env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(r#"{"source":"startup"}"#)
        .output()
        .unwrap();
    let (_, context) = envelope(&output.stdout);
    assert!(context.contains("🙂"), "{context}");
    assert!(
        context.encode_utf16().count() <= 10_000,
        "{}",
        context.encode_utf16().count()
    );
}
