//! Documents a session writes for later: a decision log or ADR, a state or handoff file
//! (`STATE.md`, `RESUME-HERE.md`, `HANDOFF_IMPLEMENTATION.md`). Their headings are the
//! session's own summary of what it decided and where it stands ("1. Pin `mcp` to 1.28.x",
//! "Discovery: GPU Convolution Not Implemented"), so the handoff names them; the generic
//! headings of a template ("Context", "Consequences") say nothing and are left out.

use crate::domain::format::clip;

/// Headings kept of one document at most.
pub const MAX_HEADINGS: usize = 6;
/// Documents kept of one session at most.
pub const MAX_NOTES: usize = 12;
/// A heading is cut to this.
const MAX_HEADING: usize = 120;
/// Words a heading needs to say something of its own.
const MIN_WORDS: usize = 3;

/// What a document the session wrote or edited records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotesKind {
    /// A decision log or an ADR.
    Decisions,
    /// Where the work stands, for whoever picks it up: a state, status or handoff file.
    State,
}

/// A document the session wrote for later, with the headings its writes gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenNotes {
    /// Its path as the tool call gave it.
    pub path: String,
    /// What it records.
    pub kind: NotesKind,
    /// Its informative headings, in the order written: a write's replace the earlier ones,
    /// an edit's are added.
    pub headings: Vec<String>,
}

/// Names of a file that tells where the work stands, as the whole stem.
const STATE_NAMES: [&str; 4] = ["state", "status", "progress", "handoff"];
/// Words of such a name anywhere in the stem ("2025-12-03_SESSION_STATUS",
/// "HANDOFF_IMPLEMENTATION").
const STATE_WORDS: [&str; 7] = [
    "session-state",
    "session-status",
    "handoff-",
    "hand-off",
    "resume-here",
    "next-steps",
    "current-work",
];

/// Whether `path` is a Markdown file that tells where the work stands, by its name:
/// `STATE.md`, `docs/STATUS.md`, `SESSION_STATUS.md`, `HANDOFF_IMPLEMENTATION.md`.
pub fn is_state_file(path: &str) -> bool {
    let lower = path.replace('\\', "/").to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    if stem.contains("template") {
        return false;
    }
    let stem = stem.replace(['_', ' '], "-");
    STATE_NAMES.contains(&stem.as_str()) || STATE_WORDS.iter().any(|word| stem.contains(word))
}

/// Headings of a template or a document's frame: they name a part, not what it says.
const GENERIC: [&str; 24] = [
    "alternatives",
    "background",
    "consequences",
    "context",
    "current state",
    "decision",
    "decision outcome",
    "decisions",
    "details",
    "implementation",
    "next steps",
    "notes",
    "open questions",
    "options",
    "overview",
    "problem",
    "rationale",
    "references",
    "status",
    "summary",
    "table of contents",
    "tl;dr",
    "todo",
    "what was done",
];

/// The informative headings of a Markdown text, in order, each once: marks, emphasis and
/// numbering stripped ("## 1. **Pin `mcp` to 1.28.x**" → "Pin `mcp` to 1.28.x"), and
/// generic or one-word headings left out.
pub fn note_headings(markdown: &str) -> Vec<String> {
    let mut headings: Vec<String> = Vec::new();
    for line in markdown.lines() {
        let Some(heading) = heading_text(line) else {
            continue;
        };
        let lower = heading.to_lowercase();
        let generic = GENERIC.contains(&lower.trim_end_matches(':'));
        if generic || heading.split_whitespace().count() < MIN_WORDS {
            continue;
        }
        let heading = clip(&heading, MAX_HEADING);
        if !headings.contains(&heading) {
            headings.push(heading);
        }
    }
    headings
}

/// The text of an ATX heading (`#` to `######` and a space), without its marks.
fn heading_text(line: &str) -> Option<String> {
    let line = line.trim();
    let marks = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&marks) {
        return None;
    }
    let text = line[marks..].strip_prefix(' ')?;
    let text = text.trim().trim_end_matches('#').trim();
    let text = text.replace("**", "").replace("__", "");
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '`');
    Some(strip_numbering(text).trim().to_owned())
}

/// "1. ", "0019. ", "D3: ", "Decision: " and the like opening a heading.
fn strip_numbering(text: &str) -> &str {
    let after_number = text.trim_start_matches(|c: char| c.is_ascii_digit());
    let text = match after_number.strip_prefix(['.', ':', ')']) {
        Some(rest) if after_number.len() < text.len() => rest.trim_start(),
        _ => text,
    };
    for lead in ["Decision:", "Decision -", "ADR:"] {
        if let Some(rest) = text.strip_prefix(lead) {
            return rest.trim_start();
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::state("STATE.md", true)]
    #[case::status_in_docs("docs/STATUS.md", true)]
    #[case::session_status("SESSION_STATUS.md", true)]
    #[case::session_state_in_memory("~/.claude/projects/p/memory/session-state.md", true)]
    #[case::handoff("HANDOFF_IMPLEMENTATION.md", true)]
    #[case::resume_here(r"C:\Users\c\memory\RESUME-HERE.md", true)]
    #[case::dated_checkpoint("2025-12-03-175900_SESSION_STATUS.md", true)]
    #[case::progress("progress.md", true)]
    #[case::readme("README.md", false)]
    #[case::code("src/state.rs", false)]
    #[case::a_state_machine_doc("docs/statemachine.md", false)]
    #[case::template("STATE_TEMPLATE.md", false)]
    #[case::status_bar_doc("status-bar-colors.md", false)]
    fn knows_state_files_by_name(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_state_file(path), expected, "{path}");
    }

    #[rstest]
    #[case::numbered_decision(
        "# Decisions\n\n## 1. Pin `mcp` to 1.28.x. Do not upgrade to 2.x yet.\n\nWhy…",
        &["Pin `mcp` to 1.28.x. Do not upgrade to 2.x yet."]
    )]
    #[case::adr_title(
        "# 0019. Defer `py.typed` Marker Until Stable\n\n## Context\n\n## Decision\n",
        &["Defer `py.typed` Marker Until Stable"]
    )]
    #[case::decision_lead(
        "# Decision: 11labs MCP Tools statt Voice-Server\n## Context\n",
        &["11labs MCP Tools statt Voice-Server"]
    )]
    #[case::emphasis_and_marks(
        "### **Discovery: GPU Convolution Not Implemented** ✅\n### ✅ Completed the CPU backend\n",
        &["Discovery: GPU Convolution Not Implemented ✅", "Completed the CPU backend"]
    )]
    #[case::generic_and_short("## Overview\n## Next Steps\n## Status:\n## Phase 2\n", &[])]
    #[case::repeated("## In flight right now\ntext\n## In flight right now\n", &["In flight right now"])]
    #[case::not_headings("#hashtag line\n####### seven\ncode # comment\n", &[])]
    fn keeps_the_informative_headings(#[case] markdown: &str, #[case] expected: &[&str]) {
        assert_eq!(note_headings(markdown), expected);
    }
}
