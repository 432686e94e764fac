//! The handoff file: YAML front matter, then the four sections (compatible with existing
//! `handoff.md` files), then what carryover adds.

use crate::domain::seed::Timestamp;
use crate::domain::transcript::MAX_FILES_CHANGED;

/// Heading of what got done.
pub const SECTION_ACCOMPLISHED: &str = "What Was Accomplished";
/// Heading of what is half done.
pub const SECTION_IN_PROGRESS: &str = "What's In Progress";
/// Heading of decisions.
pub const SECTION_DECISIONS: &str = "Key Decisions Made";
/// Heading of what comes next.
pub const SECTION_NEXT_STEPS: &str = "Suggested Next Steps";
const SECTION_REQUESTS: &str = "User Requests";
const SECTION_LAST_MESSAGE: &str = "Last Assistant Message";

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
    /// Files written or edited, at most 20.
    pub files_changed: Vec<String>,
    /// Completed work.
    pub accomplished: Vec<String>,
    /// Work in progress.
    pub in_progress: Vec<String>,
    /// Decisions.
    pub decisions: Vec<String>,
    /// What comes next.
    pub next_steps: Vec<String>,
    /// The user's requests, oldest first.
    pub requests: Vec<String>,
    /// The assistant's last reply.
    pub last_message: Option<String>,
}

impl Handoff {
    /// How much it says: a handoff never replaces a richer one of the same session.
    pub fn richness(&self) -> usize {
        self.files_changed.len()
            + self.accomplished.len()
            + self.in_progress.len()
            + self.decisions.len()
            + self.next_steps.len()
            + self.requests.len()
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
            (SECTION_ACCOMPLISHED, &self.accomplished),
            (SECTION_IN_PROGRESS, &self.in_progress),
            (SECTION_DECISIONS, &self.decisions),
            (SECTION_NEXT_STEPS, &self.next_steps),
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
            out.push_str(&format!(
                "\n## {SECTION_LAST_MESSAGE}\n{}\n",
                message.trim()
            ));
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
