//! Counts of confirmed learnings by kind and the most recent few of each.

use crate::domain::context::Section;
use crate::domain::seed::{Learned, Learning, LearningKind};

use super::clip;

/// How many recent learnings of each kind the summary lists.
pub const RECENT_PER_KIND: usize = 5;

const MAX_LEARNING_CHARS: usize = 240;

/// `Learnings: 12 confirmed (6 patterns, …)`, then up to `per_kind` most recent learnings of
/// each kind (newest first) with `+N more`. Unconfirmed learnings are not shown.
pub fn learning_summary(learned: &Learned, per_kind: usize) -> Section {
    let by_kind: Vec<(LearningKind, Vec<&Learning>)> = LearningKind::ALL
        .into_iter()
        .map(|kind| {
            let mut confirmed: Vec<&Learning> =
                learned.of(kind).iter().filter(|l| l.confirmed).collect();
            confirmed.sort_by_key(|l| std::cmp::Reverse(l.recency()));
            (kind, confirmed)
        })
        .collect();
    let total: usize = by_kind.iter().map(|(_, list)| list.len()).sum();
    if total == 0 {
        return Section::fixed(vec!["No confirmed learnings yet.".to_owned()]);
    }
    let counts = by_kind
        .iter()
        .map(|(kind, list)| count_phrase(*kind, list.len()))
        .collect::<Vec<_>>()
        .join(", ");
    let mut section = Section::items(format!("Learnings: {total} confirmed ({counts})"));
    for (kind, list) in by_kind.iter().filter(|(_, list)| !list.is_empty()) {
        section.push_fixed(format!("{} ({}):", kind.heading(), list.len()));
        for learning in list.iter().take(per_kind) {
            section.push_keyed_item(
                format!("  - {}", clip(&learning.content, MAX_LEARNING_CHARS)),
                learning.id.clone(),
            );
        }
        if list.len() > per_kind {
            section.push_fixed(format!("  +{} more", list.len() - per_kind));
        }
    }
    section
}

fn count_phrase(kind: LearningKind, count: usize) -> String {
    let noun = match (kind, count) {
        (LearningKind::Pattern, 1) => "pattern",
        (LearningKind::Pattern, _) => "patterns",
        (LearningKind::Insight, 1) => "insight",
        (LearningKind::Insight, _) => "insights",
        (LearningKind::SelfKnowledge, _) => "self-knowledge",
    };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::Timestamp;
    use rstest::rstest;

    fn learning(content: &str, day: u8, confirmed: bool) -> Learning {
        Learning {
            id: format!("id_{content}"),
            content: content.to_owned(),
            source: String::new(),
            extracted_at: Timestamp::parse(&format!("2026-10-{day:02}T09:00:00Z")).unwrap(),
            confirmed_at: None,
            confirmed,
            tags: Vec::new(),
            project: None,
            pinned: false,
            extra: Default::default(),
        }
    }

    #[test]
    fn says_so_when_nothing_is_confirmed() {
        let mut learned = Learned::default();
        learned.patterns.push(learning("draft", 1, false));
        assert_eq!(
            learning_summary(&learned, 5).render(),
            "No confirmed learnings yet."
        );
    }

    #[test]
    fn counts_by_kind_and_lists_the_newest_first() {
        let learned = Learned {
            patterns: vec![learning("old", 1, true), learning("new", 9, true)],
            self_knowledge: vec![learning("me", 3, true), learning("draft", 4, false)],
            ..Learned::default()
        };
        assert_eq!(
            learning_summary(&learned, 5).render(),
            "Learnings: 3 confirmed (2 patterns, 0 insights, 1 self-knowledge)\n\
             Patterns (2):\n  - new\n  - old\n\
             Self-knowledge (1):\n  - me"
        );
    }

    #[rstest]
    #[case::under_the_limit(3, 5, None)]
    #[case::at_the_limit(5, 5, None)]
    #[case::over_the_limit(8, 5, Some("  +3 more"))]
    fn lists_at_most_per_kind_with_a_count_of_the_rest(
        #[case] stored: u8,
        #[case] per_kind: usize,
        #[case] more: Option<&str>,
    ) {
        let learned = Learned {
            insights: (1..=stored)
                .map(|d| learning(&format!("i{d}"), d, true))
                .collect(),
            ..Learned::default()
        };
        let text = learning_summary(&learned, per_kind).render();
        let listed = text.lines().filter(|l| l.starts_with("  - ")).count();
        assert_eq!(listed, usize::from(stored).min(per_kind));
        assert_eq!(text.lines().last().filter(|l| l.contains("more")), more);
    }
}
