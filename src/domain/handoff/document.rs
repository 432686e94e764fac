//! The handoff file: YAML front matter, then `##` sections: the four of existing `handoff.md`
//! files (accomplished, in progress, decisions, next steps) among the goal, the open threads,
//! the files, the requests and the last reply.

use crate::domain::seed::Timestamp;
use crate::domain::transcript::MAX_FILES_CHANGED;

/// Heading of what the session set out to do.
pub const SECTION_GOAL: &str = "Goal";
/// Heading of what the session left open.
pub const SECTION_OPEN: &str = "Open Threads";
/// Heading of the changed files, grouped by directory.
pub const SECTION_FILES: &str = "Files Changed";
/// Heading of what got done.
pub const SECTION_ACCOMPLISHED: &str = "What Was Accomplished";
/// Heading of what is half done.
pub const SECTION_IN_PROGRESS: &str = "What's In Progress";
/// Heading of decisions.
pub const SECTION_DECISIONS: &str = "Key Decisions Made";
/// Heading of what comes next.
pub const SECTION_NEXT_STEPS: &str = "Suggested Next Steps";
/// Heading of how earlier turns ended.
pub const SECTION_TURNS: &str = "Earlier Turns";
/// Heading of the user's requests.
pub const SECTION_REQUESTS: &str = "User Requests";
/// Heading of the assistant's last reply.
pub const SECTION_LAST_MESSAGE: &str = "Last Assistant Message";

/// A handoff, ready to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Handoff {
    /// The session that wrote it.
    pub session_id: String,
    /// When.
    pub timestamp: Timestamp,
    /// The project's name.
    pub project: String,
    /// How many requests the user made.
    pub duration_turns: usize,
    /// The git branch the session ended on, when known.
    pub branch: Option<String>,
    /// Whether the session did work (a successful edit, command or commit, a todo list); a
    /// session that only talked does not displace one that did.
    pub substantive: bool,
    /// Files written or edited, newest first, at most 20.
    pub files_changed: Vec<String>,
    /// The session's title and first request.
    pub goal: Vec<String>,
    /// What it left open, the most pressing first.
    pub open_threads: Vec<String>,
    /// The changed files grouped by directory, newest first.
    pub file_groups: Vec<String>,
    /// Completed work.
    pub accomplished: Vec<String>,
    /// Work in progress.
    pub in_progress: Vec<String>,
    /// Decisions.
    pub decisions: Vec<String>,
    /// What comes next.
    pub next_steps: Vec<String>,
    /// The user's requests after the first, oldest first.
    pub requests: Vec<String>,
    /// The opening of the replies that closed the earlier turns, newest first.
    pub earlier_turns: Vec<String>,
    /// The assistant's last reply.
    pub last_message: Option<String>,
}

impl Handoff {
    /// How much it says: a handoff never replaces a richer one of the same session.
    pub fn richness(&self) -> usize {
        self.files_changed.len()
            + self.goal.len()
            + self.open_threads.len()
            + self.accomplished.len()
            + self.in_progress.len()
            + self.decisions.len()
            + self.next_steps.len()
            + self.requests.len()
            + self.earlier_turns.len()
            + usize::from(self.last_message.is_some())
    }

    /// The Markdown file. Empty sections are left out; readers tolerate missing ones.
    pub fn render(&self) -> String {
        let mut out = String::from("---\n");
        out.push_str(&format!("session_id: {}\n", yaml_scalar(&self.session_id)));
        out.push_str(&format!(
            "timestamp: {}\n",
            self.timestamp.rfc3339_seconds()
        ));
        out.push_str(&format!("project: {}\n", yaml_scalar(&self.project)));
        out.push_str(&format!("duration_turns: {}\n", self.duration_turns));
        if let Some(branch) = &self.branch {
            out.push_str(&format!("branch: {}\n", yaml_scalar(branch)));
        }
        out.push_str(&format!("substantive: {}\n", self.substantive));
        if self.files_changed.is_empty() {
            out.push_str("files_changed: []\n");
        } else {
            out.push_str("files_changed:\n");
            for file in self.files_changed.iter().take(MAX_FILES_CHANGED) {
                out.push_str(&format!("  - {}\n", yaml_scalar(file)));
            }
        }
        out.push_str("---\n");
        for (heading, items) in [
            (SECTION_GOAL, &self.goal),
            (SECTION_OPEN, &self.open_threads),
            (SECTION_ACCOMPLISHED, &self.accomplished),
            (SECTION_IN_PROGRESS, &self.in_progress),
            (SECTION_DECISIONS, &self.decisions),
            (SECTION_NEXT_STEPS, &self.next_steps),
            (SECTION_FILES, &self.file_groups),
            (SECTION_TURNS, &self.earlier_turns),
            (SECTION_REQUESTS, &self.requests),
        ] {
            if items.is_empty() {
                continue;
            }
            out.push_str(&format!("\n## {heading}\n"));
            for item in items {
                out.push_str(&format!("- {}\n", item.replace('\n', " ")));
            }
        }
        if let Some(message) = &self.last_message {
            // Quoted line by line: the reply's own headings (`## Suggested Next Steps`) must not
            // become sections of the handoff when it is read back.
            out.push_str(&format!("\n## {SECTION_LAST_MESSAGE}\n"));
            for line in message.trim().lines() {
                out.push_str(&format!("> {line}\n").replace("> \n", ">\n"));
            }
        }
        out
    }
}

/// Quotes a scalar when YAML would otherwise misread it.
fn yaml_scalar(value: &str) -> String {
    let needs_quotes = value.is_empty()
        || value.contains([':', '#', '\'', '"', '\n', '[', ']', '{', '}', ','])
        || value.starts_with(['-', ' ', '!', '&', '*', '?', '|', '>', '%', '@', '`']);
    if needs_quotes {
        format!(
            "\"{}\"",
            value
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', " ")
        )
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("src/a.rs", "src/a.rs")]
    #[case("a: b", "\"a: b\"")]
    #[case("-x", "\"-x\"")]
    #[case("", "\"\"")]
    fn quotes_scalars_only_when_needed(#[case] raw: &str, #[case] written: &str) {
        assert_eq!(yaml_scalar(raw), written);
    }
}
