//! Documents a session writes for later: a decision log or ADR, a state or handoff file
//! (`STATE.md`, `RESUME-HERE.md`, `HANDOFF_IMPLEMENTATION.md`). Their headings are the
//! session's own summary of what it decided and where it stands ("1. Pin `mcp` to 1.28.x",
//! "Discovery: GPU Convolution Not Implemented"), so the handoff names them; the headings of a
//! template ("Context", "Immediate Next Steps") say nothing and are left out.

/// Headings kept of one document at most.
pub const MAX_HEADINGS: usize = 6;
/// Documents kept of one session at most.
pub const MAX_NOTES: usize = 12;
/// A longer line is prose that opens with `#`, not a heading. Headings are kept whole: they
/// are cut only once redacted, so no cut can hide part of a secret from redaction.
const MAX_HEADING_CHARS: usize = 300;
/// Words a heading needs to say something of its own.
const MIN_WORDS: usize = 2;

/// What a document the session wrote or edited records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotesKind {
    /// A decision log or an ADR.
    Decisions,
    /// Where the work stands, for whoever picks it up: a state, status or handoff file.
    State,
}

/// How a tool call changed a document: its headings before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotesChange {
    /// The whole text was written: its headings replace the earlier ones.
    Written,
    /// Part of it was replaced: the replaced part's headings go, the new part's are added.
    Edited,
}

/// A document the session wrote for later, with the headings its writes gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenNotes {
    /// Its path as the tool call gave it.
    pub path: String,
    /// What it records.
    pub kind: NotesKind,
    /// Its informative headings, oldest first: the last one written or added is last.
    pub headings: Vec<String>,
}

/// Whether a written file records a decision (an ADR, a decision log): a document in a
/// decisions folder or named for decisions.
pub fn is_decision_file(path: &str) -> bool {
    let lower = path.replace('\\', "/").to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let document = name
        .rsplit_once('.')
        .is_none_or(|(_, extension)| DOCUMENT_EXTENSIONS.contains(&extension));
    // A template is the form decisions are written on, not one of them.
    if !document || name.contains("template") {
        return false;
    }
    lower.contains("/adr/")
        || lower.contains("/adrs/")
        || lower.contains("/decisions/")
        || name.starts_with("adr-")
        || name.contains("decision")
}

/// Documents: a decision is written in prose, not in code (`decision_verify.py` is code).
const DOCUMENT_EXTENSIONS: [&str; 7] = ["md", "markdown", "mdx", "rst", "txt", "adoc", "org"];

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

/// Words that name a part of a document, not what it says: a heading made of them alone
/// ("Immediate Next Steps", "Overall Project Status", "Diese Session erledigt") is a frame.
const FRAME_WORDS: [&str; 74] = [
    "accomplished",
    "achieved",
    "aktueller",
    "alternatives",
    "and",
    "are",
    "background",
    "change",
    "changelog",
    "changes",
    "completed",
    "components",
    "consequences",
    "considered",
    "contents",
    "context",
    "current",
    "decision",
    "decisions",
    "details",
    "diese",
    "done",
    "drivers",
    "erledigt",
    "for",
    "goal",
    "goals",
    "immediate",
    "implementation",
    "in",
    "key",
    "kontext",
    "log",
    "next",
    "nächste",
    "notes",
    "of",
    "open",
    "options",
    "outcome",
    "overall",
    "overview",
    "phase",
    "plan",
    "problem",
    "progress",
    "project",
    "questions",
    "rationale",
    "recent",
    "references",
    "schritte",
    "session",
    "state",
    "status",
    "steps",
    "summary",
    "table",
    "the",
    "this",
    "tl;dr",
    "tldr",
    "todo",
    "todos",
    "update",
    "updates",
    "was",
    "we",
    "week",
    "week's",
    "what",
    "where",
    "work",
    "zusammenfassung",
];

/// The informative headings of a Markdown text, in order, each once: marks, emphasis and
/// numbering stripped ("## 1. **Pin `mcp` to 1.28.x**" → "Pin `mcp` to 1.28.x"); frames,
/// one-word headings and lines inside code blocks left out.
pub fn note_headings(markdown: &str) -> Vec<String> {
    let mut headings: Vec<String> = Vec::new();
    let mut fence: Option<&str> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        let opens = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, opens) {
            (Some(open), Some(mark)) if mark == open => fence = None,
            (None, Some(mark)) => fence = Some(mark),
            _ => {}
        }
        if fence.is_some() || opens.is_some() {
            continue;
        }
        let Some(heading) = heading_text(line) else {
            continue;
        };
        if is_frame(&heading) || heading.split_whitespace().count() < MIN_WORDS {
            continue;
        }
        if !headings.contains(&heading) {
            headings.push(heading);
        }
    }
    headings
}

/// Whether every word of a heading names a part of a document (dates and numbers count).
fn is_frame(heading: &str) -> bool {
    heading
        .split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric() && c != ';' && c != '\'')
                .to_lowercase()
        })
        .filter(|word| !word.is_empty())
        .all(|word| {
            FRAME_WORDS.contains(&word.as_str())
                || word
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '-' || c == '.')
        })
}

/// The text of an ATX heading (`#` to `######` and a space, indented 3 spaces at most),
/// without its marks.
fn heading_text(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let line = line.trim();
    if line.chars().count() > MAX_HEADING_CHARS {
        return None;
    }
    let marks = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&marks) {
        return None;
    }
    let text = line[marks..].strip_prefix(' ')?.trim();
    // A closing sequence of `#` counts only after a space: "Migrate to C#" keeps its `#`.
    let text = match text.trim_end_matches('#') {
        open if open.len() < text.len() && (open.is_empty() || open.ends_with(' ')) => open.trim(),
        _ => text,
    };
    let text = text.replace("**", "").replace("__", "");
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '`');
    Some(strip_numbering(text).trim().to_owned())
}

/// "1. ", "0019. ", "2) ", "Decision: " and the like opening a heading; a version ("2.0
/// migration") is no numbering.
fn strip_numbering(text: &str) -> &str {
    let after_number = text.trim_start_matches(|c: char| c.is_ascii_digit());
    let text = match after_number.strip_prefix(['.', ':', ')']) {
        Some(rest) if after_number.len() < text.len() && rest.starts_with(' ') => rest.trim_start(),
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
    #[case("docs/adr/0004-cache.md", true)]
    #[case("/p/docs/decisions/use-postgres.md", true)]
    #[case("DECISIONS.md", true)]
    #[case("src/adrian.rs", false)]
    #[case("src/core/decision_verify.py", false)]
    #[case("tests/test_decision_verify.py", false)]
    #[case("docs/adr/0019-defer-py-typed-marker.md", true)]
    #[case("docs/adr/0000-template.md", false)]
    #[case("decisions/TEMPLATE.md", false)]
    fn recognises_decision_files(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_decision_file(path), expected);
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
    #[case::two_words_decide("# 2. Use Rust\n## Considered Options\n", &["Use Rust"])]
    #[case::decision_lead(
        "# Decision: 11labs MCP Tools statt Voice-Server\n## Context\n",
        &["11labs MCP Tools statt Voice-Server"]
    )]
    #[case::emphasis_and_marks(
        "### **Discovery: GPU Convolution Not Implemented** ✅\n### ✅ Completed the CPU backend\n",
        &["Discovery: GPU Convolution Not Implemented ✅", "Completed the CPU backend"]
    )]
    #[case::frames(
        "## Overview\n## Immediate Next Steps\n## OVERALL PROJECT STATUS:\n## Phase 2\n## Diese Session erledigt\n## TL;DR — where we are (2026-07-27)\n",
        &[]
    )]
    #[case::repeated("## In flight right now\ntext\n## In flight right now\n", &["In flight right now"])]
    #[case::not_headings("#hashtag line\n####### seven\n    # indented code\n", &[])]
    #[case::code_blocks(
        "## Build it\n```bash\n# All targets build successfully\nmake\n```\n~~~\n# Recovery hint here\n~~~\n",
        &["Build it"]
    )]
    #[case::versions_and_sharps(
        "## 2.0 migration plan\n## Migrate to C#\n## Closed heading ##\n",
        &["2.0 migration plan", "Migrate to C#", "Closed heading"]
    )]
    fn keeps_the_informative_headings(#[case] markdown: &str, #[case] expected: &[&str]) {
        assert_eq!(note_headings(markdown), expected);
    }

    #[test]
    fn a_long_heading_is_kept_whole_for_redaction_and_an_overlong_line_is_prose() {
        let heading = format!("## Rotate the key {}", "x".repeat(150));
        assert_eq!(note_headings(&heading), [&heading[3..]]);
        assert!(note_headings(&format!("# {}", "word ".repeat(80))).is_empty());
    }
}
