//! The learnings a session start shows: the relevant ones with scores, else the most recent.

use crate::domain::context::{Section, estimate_tokens};
use crate::domain::seed::LearningKind;

use super::injected_line;

const MAX_LEARNING_CHARS: usize = 240;

/// A learning to list.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedLearning<'a> {
    /// Its id (the section's key for it).
    pub id: &'a str,
    /// Its kind.
    pub kind: LearningKind,
    /// Its text.
    pub content: &'a str,
    /// The score that ranked it, when it was ranked (reported to scripts, not to the model).
    pub score: Option<f32>,
}

/// `Relevant learnings (3/15, ~120 tokens):` then `  pattern: …` lines, most relevant first
/// (the order is the ranking; a number would tell the model nothing more, ADR 0008); `total`
/// counts every learning the session could have been shown.
pub fn relevant_learnings(listed: &[ListedLearning<'_>], total: usize) -> Section {
    let lines: Vec<(String, &str)> = listed
        .iter()
        .map(|l| {
            (
                format!(
                    "  {}: {}",
                    l.kind.as_str(),
                    injected_line(l.content, MAX_LEARNING_CHARS)
                ),
                l.id,
            )
        })
        .collect();
    let tokens: usize = lines.iter().map(|(line, _)| estimate_tokens(line)).sum();
    let mut section = Section::items(format!(
        "Relevant learnings ({}/{total}, ~{tokens} tokens):",
        listed.len()
    ));
    for (line, id) in lines {
        section.push_keyed_item(line, id.to_owned());
    }
    section
}

/// `Recent learnings (5/15):` for when nothing can be ranked, or `No confirmed learnings yet.`
pub fn recent_learnings(listed: &[ListedLearning<'_>], total: usize) -> Section {
    if total == 0 || listed.is_empty() {
        return Section::fixed(vec!["No confirmed learnings yet.".to_owned()]);
    }
    let mut section = Section::items(format!("Recent learnings ({}/{total}):", listed.len()));
    for learning in listed {
        section.push_keyed_item(
            format!(
                "  {}: {}",
                learning.kind.as_str(),
                injected_line(learning.content, MAX_LEARNING_CHARS)
            ),
            learning.id.to_owned(),
        );
    }
    section
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(score: Option<f32>) -> Vec<ListedLearning<'static>> {
        vec![
            ListedLearning {
                id: "pat_1",
                kind: LearningKind::Pattern,
                content: "Adds retries with backoff",
                score,
            },
            ListedLearning {
                id: "ins_1",
                kind: LearningKind::Insight,
                content: "Sandbox is flaky",
                score: score.map(|s| s - 0.2),
            },
        ]
    }

    #[test]
    fn relevant_learnings_keep_their_order_without_numbers() {
        let section = relevant_learnings(&listed(Some(0.89)), 15);
        assert_eq!(
            section.render(),
            "Relevant learnings (2/15, ~16 tokens):\n  pattern: Adds retries with backoff\n  insight: Sandbox is flaky"
        );
        assert_eq!(section.keys().collect::<Vec<_>>(), vec!["pat_1", "ins_1"]);
    }

    #[test]
    fn recent_learnings_are_the_fallback() {
        assert_eq!(
            recent_learnings(&listed(None), 15).render(),
            "Recent learnings (2/15):\n  pattern: Adds retries with backoff\n  insight: Sandbox is flaky"
        );
        assert_eq!(
            recent_learnings(&[], 0).render(),
            "No confirmed learnings yet."
        );
    }
}
