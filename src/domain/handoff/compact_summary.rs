//! The client's own compaction summary (Claude Code writes one at every compaction, with
//! numbered sections): what was pending and what was under way when it was written.

/// The parts of a compaction summary a handoff uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompactSummary {
    /// `Pending Tasks:` items.
    pub pending: Vec<String>,
    /// `Current Work:`, its first paragraph.
    pub current_work: Option<String>,
    /// Lines that record a choice (`decided`, `instead of`, `chose`).
    pub decisions: Vec<String>,
}

const DECISION_WORDS: [&str; 7] = [
    "decided",
    "decision",
    "instead of",
    "chose ",
    "opted",
    "agreed",
    "going with",
];

/// Reads `text`; sections it lacks stay empty.
pub fn read_compact_summary(text: &str) -> CompactSummary {
    let mut summary = CompactSummary::default();
    let mut section = String::new();
    let mut current = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(heading) = section_heading(trimmed) {
            section = heading;
            continue;
        }
        if trimmed.is_empty() {
            if section == "current work" && !current.is_empty() {
                section.clear();
            }
            continue;
        }
        let item = list_item(trimmed);
        match section.as_str() {
            "pending tasks" if summary.pending.len() < 10 && !item.is_empty() => {
                if !item.eq_ignore_ascii_case("none") && !item.starts_with("None") {
                    summary.pending.push(item.clone());
                }
            }
            "current work" => current.push(trimmed.to_owned()),
            // The user's own words come through the requests, and file notes describe code.
            "all user messages" | "files and code sections" => {}
            _ => {
                let lower = item.to_lowercase();
                // `**Key Technical Decisions:**` names the list that follows.
                let lead_in = item.trim_end_matches('*').ends_with(':');
                if summary.decisions.len() < 5
                    && !lead_in
                    && item.len() < 400
                    && !item.starts_with("//")
                    && DECISION_WORDS.iter().any(|word| lower.contains(word))
                {
                    summary.decisions.push(item);
                }
            }
        }
    }
    summary.current_work = (!current.is_empty()).then(|| current.join(" "));
    summary
}

/// A line's text without its bullet, and without the bold of a lead-in
/// (`- **Wrong branch**: created …` → `Wrong branch: created …`).
fn list_item(line: &str) -> String {
    let item = line.trim_start_matches(['-', ' ']);
    match item.strip_prefix("**") {
        Some(bold) => bold.replacen("**", "", 1).trim().to_owned(),
        None => item.trim_start_matches(['*', ' ']).trim().to_owned(),
    }
}

/// `7. Pending Tasks:`, `## Current Work`, `**Pending Tasks**:` → the lowercased name.
fn section_heading(line: &str) -> Option<String> {
    let line = line.trim_start_matches('#').trim();
    let line = line
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches('.')
        .trim();
    let name = line.trim_matches(['*', ':', ' ']).trim_end_matches(':');
    let lower = name.to_lowercase();
    let known = [
        "pending tasks",
        "current work",
        "optional next step",
        "primary request and intent",
        "key technical concepts",
        "files and code sections",
        "errors and fixes",
        "problem solving",
        "all user messages",
        "summary",
        "analysis",
    ];
    (line.len() < 60 && known.contains(&lower.as_str())).then_some(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "This session is being continued.\n\nAnalysis:\n1. The user decided to use Ark UI instead of Chakra.\n\nSummary:\n1. Primary Request and Intent:\n   Build a tree view.\n\n7. Pending Tasks:\n   - Fix the duplicate key warnings\n   - Run tests after the fix\n\n8. Current Work:\n   I was about to fix the duplicate key issue.\n   It is in build-context-tree.ts.\n\n9. Optional Next Step:\n   Fix it.\n";

    #[test]
    fn quoted_messages_and_file_notes_are_no_decisions() {
        let summary = read_compact_summary(
            "Summary:\n3. Files and Code Sections:\n   - src/a.rs: uses X instead of Y\n6. All user messages:\n   - \"maybe use github mcp instead of gh?\"\n4. Problem Solving:\n   - Chose a streaming writer instead of double buffering\n",
        );
        assert_eq!(
            summary.decisions,
            ["Chose a streaming writer instead of double buffering"]
        );
    }

    #[test]
    fn reads_pending_tasks_current_work_and_decisions() {
        let summary = read_compact_summary(SUMMARY);
        assert_eq!(
            summary.pending,
            vec!["Fix the duplicate key warnings", "Run tests after the fix"]
        );
        assert_eq!(
            summary.current_work.as_deref(),
            Some("I was about to fix the duplicate key issue. It is in build-context-tree.ts.")
        );
        assert_eq!(
            summary.decisions,
            vec!["1. The user decided to use Ark UI instead of Chakra."]
        );
    }

    #[test]
    fn a_lead_in_is_no_decision_and_bold_is_dropped() {
        let summary = read_compact_summary(
            "Summary:\n4. Problem Solving:\n   - **Key Technical Decisions:**\n   - **Wrong branch**: created feat/a instead of feat/b\n",
        );
        assert_eq!(
            summary.decisions,
            ["Wrong branch: created feat/a instead of feat/b"]
        );
    }

    #[test]
    fn a_summary_without_sections_yields_nothing() {
        assert_eq!(
            read_compact_summary("just prose"),
            CompactSummary::default()
        );
    }

    #[test]
    fn none_is_no_pending_task() {
        let summary = read_compact_summary("Pending Tasks:\n- None explicitly requested\n");
        assert!(summary.pending.is_empty());
    }
}
