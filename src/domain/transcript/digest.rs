//! The gist of a session: what was asked, what changed, what is left, what was said last.

use std::fmt;

/// At most this many changed files are kept (the handoff format's limit).
pub const MAX_FILES_CHANGED: usize = 20;

/// What a checkpoint or handoff is built from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionDigest {
    /// The user's own requests, oldest first (commands and tool results excluded).
    pub user_requests: Vec<String>,
    /// How many requests the user made.
    pub user_turns: usize,
    /// Files written or edited by tool calls, each once, in first-touched order.
    pub files_changed: Vec<String>,
    /// The latest todo list.
    pub todos: Vec<TodoItem>,
    /// The assistant's last text reply.
    pub last_assistant_message: Option<String>,
}

impl SessionDigest {
    /// Records a changed file once.
    pub fn touch_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() || self.files_changed.iter().any(|known| known == path) {
            return;
        }
        self.files_changed.push(path.to_owned());
    }

    /// The first 20 changed files and how many more there were.
    pub fn files_shown(&self) -> (&[String], usize) {
        let shown = self.files_changed.len().min(MAX_FILES_CHANGED);
        (
            &self.files_changed[..shown],
            self.files_changed.len() - shown,
        )
    }

    /// Todo items in one state.
    pub fn todos_in(&self, status: TodoStatus) -> impl Iterator<Item = &TodoItem> {
        self.todos.iter().filter(move |todo| todo.status == status)
    }

    /// True when nothing at all was found.
    pub fn is_empty(&self) -> bool {
        self.user_requests.is_empty()
            && self.files_changed.is_empty()
            && self.todos.is_empty()
            && self.last_assistant_message.is_none()
    }
}

/// One todo item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TodoItem {
    /// What it says.
    pub content: String,
    /// Where it stands.
    pub status: TodoStatus,
}

/// A todo item's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
}

impl TodoStatus {
    /// Parses the todo tools' spelling (`in_progress`, `completed`, …).
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" | "todo" | "open" => Some(Self::Pending),
            "in_progress" | "in-progress" | "active" => Some(Self::InProgress),
            "completed" | "done" | "complete" => Some(Self::Completed),
            _ => None,
        }
    }
}

impl fmt::Display for TodoStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pending => "pending",
            Self::InProgress => "in progress",
            Self::Completed => "completed",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_file_once_and_counts_past_the_limit() {
        let mut digest = SessionDigest::default();
        for n in 0..25 {
            digest.touch_file(&format!("f{n}"));
            digest.touch_file(&format!("f{n}"));
        }
        assert_eq!(digest.files_changed.len(), 25);
        let (shown, more) = digest.files_shown();
        assert_eq!((shown.len(), more), (MAX_FILES_CHANGED, 5));
    }
}
