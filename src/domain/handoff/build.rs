//! A handoff from a session's digest, without a model: todos by state, files, requests and the
//! last reply, with secrets redacted.

use std::path::Path;

use crate::domain::format::clip;
use crate::domain::redact::redact;
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{SessionDigest, TodoStatus};

use super::Handoff;

const REQUESTS_KEPT: usize = 10;
const MAX_ITEM: usize = 300;
const MAX_MESSAGE: usize = 1_500;

/// Builds the handoff: completed todos → accomplished, in-progress ones → in progress, pending
/// ones → next steps; files relative to the project root; the last ten requests; the last
/// reply. Every text passes through the redactor.
pub fn build_handoff(
    digest: &SessionDigest,
    session_id: &str,
    project_name: &str,
    root: &Path,
    now: Timestamp,
) -> Handoff {
    let clean = |text: &str, max: usize| clip(&redact(text), max);
    let todos = |status: TodoStatus| -> Vec<String> {
        digest
            .todos_in(status)
            .map(|todo| clean(&todo.content, MAX_ITEM))
            .collect()
    };
    let (files, _) = digest.files_shown();
    let files_changed: Vec<String> = files
        .iter()
        .map(|file| {
            let relative = Path::new(file)
                .strip_prefix(root)
                .map_or_else(|_| file.clone(), |p| p.to_string_lossy().into_owned());
            clean(&relative, MAX_ITEM)
        })
        .collect();
    let mut accomplished = todos(TodoStatus::Completed);
    if accomplished.is_empty() && !files_changed.is_empty() {
        accomplished.push(format!("Changed {}", files_changed.join(", ")));
    }
    let skip = digest.user_requests.len().saturating_sub(REQUESTS_KEPT);
    Handoff {
        session_id: session_id.to_owned(),
        timestamp: now,
        project: project_name.to_owned(),
        duration_turns: digest.user_turns,
        files_changed,
        accomplished,
        in_progress: todos(TodoStatus::InProgress),
        decisions: Vec::new(),
        next_steps: todos(TodoStatus::Pending),
        requests: digest.user_requests[skip..]
            .iter()
            .map(|r| clean(r, MAX_ITEM))
            .collect(),
        last_message: digest
            .last_assistant_message
            .as_deref()
            .map(|m| redact(m).trim().chars().take(MAX_MESSAGE).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::TodoItem;

    fn digest() -> SessionDigest {
        let mut digest = SessionDigest {
            user_requests: vec![
                "please add the retry budget".into(),
                "use key sk-abcdefghijklmnopqrstu".into(),
            ],
            user_turns: 2,
            todos: vec![
                TodoItem {
                    content: "Add retry budget".into(),
                    status: TodoStatus::Completed,
                },
                TodoItem {
                    content: "Write timeout test".into(),
                    status: TodoStatus::InProgress,
                },
                TodoItem {
                    content: "Document the policy".into(),
                    status: TodoStatus::Pending,
                },
            ],
            last_assistant_message: Some(
                "Done: wrote notes.txt. token ghp_abcdefghijklmnopqrstuvwxyz0123".into(),
            ),
            ..SessionDigest::default()
        };
        digest.touch_file("/home/u/shop-api/notes.txt");
        digest
    }

    #[test]
    fn maps_todos_files_requests_and_the_last_reply() {
        let handoff = build_handoff(
            &digest(),
            "s1",
            "shop-api",
            Path::new("/home/u/shop-api"),
            Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
        );
        assert_eq!(handoff.accomplished, vec!["Add retry budget"]);
        assert_eq!(handoff.in_progress, vec!["Write timeout test"]);
        assert_eq!(handoff.next_steps, vec!["Document the policy"]);
        assert_eq!(handoff.files_changed, vec!["notes.txt"]);
        assert_eq!(handoff.duration_turns, 2);
        assert_eq!(handoff.requests[1], "use key [REDACTED]");
        assert_eq!(
            handoff.last_message.as_deref(),
            Some("Done: wrote notes.txt. token [REDACTED]")
        );
    }

    #[test]
    fn without_todos_the_changed_files_are_what_was_accomplished() {
        let mut digest = digest();
        digest.todos.clear();
        let handoff = build_handoff(
            &digest,
            "s1",
            "p",
            Path::new("/home/u/shop-api"),
            Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
        );
        assert_eq!(handoff.accomplished, vec!["Changed notes.txt"]);
    }

    #[test]
    fn renders_the_compatible_format() {
        let handoff = build_handoff(
            &digest(),
            "s1",
            "shop-api",
            Path::new("/home/u/shop-api"),
            Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
        );
        let text = handoff.render();
        assert!(text.starts_with("---\nsession_id: s1\ntimestamp: 2026-11-22T18:40:00+00:00\nproject: shop-api\nduration_turns: 2\nfiles_changed:\n  - notes.txt\n---\n"), "{text}");
        for heading in [
            "## What Was Accomplished",
            "## What's In Progress",
            "## Suggested Next Steps",
            "## User Requests",
            "## Last Assistant Message",
        ] {
            assert!(text.contains(heading), "{heading} missing:\n{text}");
        }
        assert!(
            !text.contains("## Key Decisions Made"),
            "empty sections are left out"
        );
    }
}
