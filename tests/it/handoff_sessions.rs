//! Which sessions leave a handoff and which one the next session is shown, through the real
//! binary: work leaves one even after a single prompt, talk alone does not displace work,
//! nothing leaves nothing (and the log says why), open threads carry forward.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::{Replay, envelope};

const WORK: &str = "11111111-1111-4111-8111-111111111111";
const CHAT: &str = "22222222-2222-4222-8222-222222222222";
const LATER: &str = "33333333-3333-4333-8333-333333333333";

/// A transcript of one session: `rows` as Claude Code writes them.
fn transcript(replay: &Replay, session: &str, rows: &[serde_json::Value]) -> PathBuf {
    let path = replay
        .env
        .home()
        .join(".claude/transcripts")
        .join(format!("{session}.jsonl"));
    let text: String = rows.iter().map(|row| format!("{row}\n")).collect();
    fs_err::write(&path, text).unwrap();
    path
}

fn request(text: &str) -> serde_json::Value {
    json!({"type": "user", "message": {"role": "user", "content": text}})
}

fn reply(text: &str) -> serde_json::Value {
    json!({"type": "assistant", "message": {"model": "claude-opus-5-5", "content": [{"type": "text", "text": text}]}})
}

fn tool(id: &str, name: &str, input: serde_json::Value) -> serde_json::Value {
    json!({"type": "assistant", "message": {"model": "claude-opus-5-5", "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
}

fn result(id: &str, output: &str) -> serde_json::Value {
    json!({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": output}]}})
}

fn end(replay: &Replay, session: &str, transcript: &Path) {
    let payload = json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": replay.project,
        "hook_event_name": "SessionEnd",
        "reason": "other",
    });
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success() && output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn start(replay: &Replay) -> String {
    let payload = json!({
        "session_id": "44444444-4444-4444-8444-444444444444",
        "transcript_path": replay.env.home().join(".claude/transcripts/none.jsonl"),
        "cwd": replay.project,
        "hook_event_name": "SessionStart",
        "source": "startup",
    });
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(output.status.success());
    envelope(&output.stdout).1
}

fn handoff(replay: &Replay, session: &str) -> Option<String> {
    fs_err::read_to_string(
        replay
            .project_dir()
            .join("sessions")
            .join(session)
            .join("handoff.md"),
    )
    .ok()
}

/// One prompt that wrote a file and committed it, with a todo left open.
fn work_session(replay: &Replay) -> PathBuf {
    let file = replay.project.join("src/retry.rs");
    transcript(
        replay,
        WORK,
        &[
            request("add a retry budget to the order fetcher"),
            tool(
                "w1",
                "Write",
                json!({"file_path": file, "content": "fn retry() {}"}),
            ),
            result("w1", "File created successfully"),
            tool(
                "t1",
                "TodoWrite",
                json!({"todos": [
                    {"content": "Add the retry budget", "status": "completed"},
                    {"content": "Deploy the staging stack", "status": "pending"},
                ]}),
            ),
            result("t1", "Todos have been modified successfully"),
            tool(
                "b1",
                "Bash",
                json!({"command": "git add -A && git commit -m 'Add a retry budget'"}),
            ),
            result("b1", "[main 37016ac] Add a retry budget\n 1 file changed"),
            reply("Added the retry budget and committed it as 37016ac."),
        ],
    )
}

#[test]
fn a_single_prompt_that_did_work_leaves_a_handoff() {
    let replay = Replay::new("shop-api");
    let path = work_session(&replay);
    end(&replay, WORK, &path);
    let text = handoff(&replay, WORK).expect("a handoff");
    for expected in [
        "substantive: true",
        "- First request: add a retry budget to the order fetcher",
        "- Committed 37016ac on main: Add a retry budget",
        "- Todo (pending): Deploy the staging stack",
        "src/: retry.rs",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
}

#[test]
fn a_session_that_did_nothing_leaves_none_and_the_log_says_why() {
    let replay = Replay::new("shop-api");
    let path = transcript(
        &replay,
        CHAT,
        &[
            request("what does idempotent mean?"),
            reply("Same result however often."),
        ],
    );
    end(&replay, CHAT, &path);
    assert_eq!(handoff(&replay, CHAT), None);
    let log = fs_err::read_to_string(replay.env.data().join("logs/carryover.log")).unwrap();
    assert!(
        log.contains("no handoff written: no work done and 1 request(s)"),
        "{log}"
    );
}

#[test]
fn a_chat_after_work_does_not_displace_it_and_open_threads_carry_forward() {
    let replay = Replay::new("shop-api");
    let path = work_session(&replay);
    end(&replay, WORK, &path);
    let chat = transcript(
        &replay,
        CHAT,
        &[
            request("what does idempotent mean?"),
            reply("Same result however often."),
            request("and in HTTP?"),
            reply("PUT and DELETE are idempotent, POST is not."),
        ],
    );
    end(&replay, CHAT, &chat);
    let chat_handoff = handoff(&replay, CHAT).expect("two requests leave a handoff");
    assert!(
        chat_handoff.contains("substantive: false"),
        "{chat_handoff}"
    );

    let context = start(&replay);
    assert!(
        context.contains("Committed 37016ac on main: Add a retry budget"),
        "the session that did work is shown, not the chat:\n{context}"
    );

    let later = transcript(
        &replay,
        LATER,
        &[
            request("rename the fetcher module"),
            tool(
                "w2",
                "Write",
                json!({"file_path": replay.project.join("src/fetch.rs"), "content": "x"}),
            ),
            result("w2", "File created successfully"),
            reply("Renamed."),
        ],
    );
    end(&replay, LATER, &later);
    let text = handoff(&replay, LATER).unwrap();
    assert!(
        text.contains("- Todo (pending): Deploy the staging stack (open since session 11111111)"),
        "the open todo came along through the chat:\n{text}"
    );
}
