//! The short summary a checkpoint keeps so the assistant can pick up where it was.

use std::path::Path;

use crate::domain::format::data_line;
use crate::domain::transcript::{SessionDigest, TodoStatus};

const REQUESTS_SHOWN: usize = 3;
const MAX_LINE: usize = 200;

/// Lines: the last few requests, the files changed (relative to the project root when inside
/// it), open todo items, and the assistant's last message, with secrets redacted (the lines go
/// into a checkpoint file and into the next session's context). Empty when the digest is.
pub fn resumption_summary(digest: &SessionDigest, root: Option<&Path>) -> Vec<String> {
    summary_lines(&digest.redacted(), root)
}

fn summary_lines(digest: &SessionDigest, root: Option<&Path>) -> Vec<String> {
    let mut lines = Vec::new();
    let skip = digest.user_requests.len().saturating_sub(REQUESTS_SHOWN);
    if !digest.user_requests.is_empty() {
        lines.push("Last requests:".to_owned());
        for request in &digest.user_requests[skip..] {
            lines.push(format!("  - {}", data_line(request, MAX_LINE)));
        }
    }
    if !digest.files.is_empty() {
        let (shown, more) = digest.files_shown();
        let mut files: Vec<String> = shown.iter().map(|f| relative(f, root)).collect();
        if more > 0 {
            files.push(format!("+{more} more"));
        }
        lines.push(format!(
            "Files written or edited: {}",
            data_line(&files.join(", "), MAX_LINE * 2)
        ));
    }
    let open: Vec<_> = digest
        .todos
        .iter()
        .filter(|todo| todo.status != TodoStatus::Completed)
        .collect();
    if !open.is_empty() {
        lines.push("Open todo items:".to_owned());
        for todo in open {
            lines.push(format!(
                "  - [{}] {}",
                todo.status,
                data_line(&todo.content, MAX_LINE)
            ));
        }
    }
    if let Some(message) = &digest.last_assistant_message {
        lines.push(format!(
            "Last assistant message: {}",
            data_line(message, MAX_LINE)
        ));
    }
    lines
}

fn relative(file: &str, root: Option<&Path>) -> String {
    root.and_then(|root| Path::new(file).strip_prefix(root).ok())
        .map_or_else(|| file.to_owned(), |rel| rel.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_requests_and_replies_are_redacted() {
        let digest = SessionDigest {
            user_requests: vec!["use sk-ant-api03-Zx9Qv3LmT7pR2sW8yB4nC6dF1gH5jK0aE now".into()],
            user_turns: 1,
            last_assistant_message: Some("set AWS key AKIAYQLCW4PPSA7WT7WE".into()),
            ..SessionDigest::default()
        };
        let text = resumption_summary(&digest, None).join("\n");
        assert!(!text.contains("sk-ant-api03-Zx9"), "{text}");
        assert!(!text.contains("AKIAYQLCW4PPSA7WT7WE"), "{text}");
    }
    use crate::domain::transcript::TodoItem;

    #[test]
    fn summarises_requests_files_open_todos_and_the_last_message() {
        let mut digest = SessionDigest {
            user_requests: vec!["one".into(), "two".into(), "three".into(), "four".into()],
            user_turns: 4,
            todos: vec![
                TodoItem {
                    content: "done".into(),
                    status: TodoStatus::Completed,
                },
                TodoItem {
                    content: "doing".into(),
                    status: TodoStatus::InProgress,
                },
                TodoItem {
                    content: "next".into(),
                    status: TodoStatus::Pending,
                },
            ],
            last_assistant_message: Some("Done.".into()),
            ..SessionDigest::default()
        };
        digest.touch_file("/p/src/a.rs");
        digest.touch_file("/elsewhere/b.rs");
        assert_eq!(
            resumption_summary(&digest, Some(Path::new("/p"))),
            vec![
                "Last requests:",
                "  - two",
                "  - three",
                "  - four",
                "Files written or edited: /elsewhere/b.rs, src/a.rs",
                "Open todo items:",
                "  - [in progress] doing",
                "  - [pending] next",
                "Last assistant message: Done.",
            ]
        );
    }

    #[test]
    fn an_empty_digest_has_no_summary() {
        assert!(resumption_summary(&SessionDigest::default(), None).is_empty());
    }
}
