//! Fitting sections into the client's character cap: shrink before dropping.

use super::Section;

/// Characters a session start injects by default; Claude Code cuts `additionalContext` at
/// 10,000, so this leaves room for what the client adds.
pub const DEFAULT_BUDGET_CHARS: usize = 9_000;

/// No configuration may raise the budget past the client's own cap.
pub const HARD_CAP_CHARS: usize = 10_000;

const SEPARATOR: &str = "\n\n";

/// The text that fits, and what of the input it still holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    /// The context text.
    pub text: String,
    /// Keys of the items that survived, in the order the text shows them.
    pub keys: Vec<String>,
    /// Indexes (into the input) of the sections the text shows.
    pub kept: Vec<usize>,
}

/// Joins the non-empty sections with blank lines in at most `budget` characters. While over
/// budget, the largest section that still has items drops its last one; only when no section
/// can shrink is the last section dropped whole. Earlier sections therefore survive longest.
pub fn compose(sections: Vec<Section>, budget: usize) -> Composed {
    let (mut kept, mut sections): (Vec<usize>, Vec<Section>) = sections
        .into_iter()
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .unzip();
    let separator = SEPARATOR.chars().count();
    let total = |sections: &[Section]| -> usize {
        let text: usize = sections.iter().map(Section::char_len).sum();
        text + separator * sections.len().saturating_sub(1)
    };
    let mut size = total(&sections);
    while size > budget && !sections.is_empty() {
        let largest = sections
            .iter_mut()
            .filter(|section| section.can_shrink())
            .max_by_key(|section| section.char_len());
        match largest {
            Some(section) => {
                let before = section.char_len();
                section.shrink();
                size = size + section.char_len() - before;
            }
            None => {
                sections.pop();
                kept.pop();
                size = total(&sections);
            }
        }
    }
    Composed {
        text: sections
            .iter()
            .map(Section::render)
            .collect::<Vec<_>>()
            .join(SEPARATOR),
        keys: sections
            .iter()
            .flat_map(Section::keys)
            .map(str::to_owned)
            .collect(),
        kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn list(heading: &str, items: usize) -> Section {
        let mut section = Section::items(format!("{heading}:"));
        for index in 0..items {
            section.push_item(format!("  - item {index:03} of {heading}"));
        }
        section
    }

    #[test]
    fn joins_sections_with_blank_lines_when_they_fit() {
        let text = compose(
            vec![
                Section::fixed(vec!["a".into()]),
                Section::empty(),
                Section::fixed(vec!["b".into()]),
            ],
            100,
        );
        assert_eq!(text.text, "a\n\nb");
    }

    #[rstest]
    #[case::roomy(10_000)]
    #[case::tight(400)]
    #[case::tiny(40)]
    #[case::nothing_fits(3)]
    fn never_exceeds_the_budget(#[case] budget: usize) {
        let sections = vec![
            list("first", 30),
            Section::fixed(vec!["x".repeat(30)]),
            list("last", 50),
        ];
        assert!(compose(sections, budget).text.encode_utf16().count() <= budget);
    }

    #[test]
    fn the_budget_counts_utf16_units_as_the_client_does() {
        let mut section = Section::items("Learnings:".into());
        for _ in 0..30 {
            section.push_item("🙂".repeat(250));
        }
        let text = compose(vec![section], 9_000).text;
        assert!(
            text.encode_utf16().count() <= 9_000,
            "{}",
            text.encode_utf16().count()
        );
        assert!(text.chars().count() < 4_600);
    }

    #[test]
    fn shrinks_every_list_before_dropping_a_section() {
        let fixed = Section::fixed(vec!["fixed".into()]);
        let text = compose(vec![list("first", 20), fixed, list("last", 20)], 200).text;
        assert!(
            text.contains("first:") && text.contains("fixed") && text.contains("last:"),
            "{text}"
        );
        assert!(text.contains("more not shown"));
    }

    #[test]
    fn drops_later_sections_first_when_shrinking_is_not_enough() {
        let big = |name: &str| Section::fixed(vec![name.repeat(40)]);
        let composed = compose(vec![big("a"), Section::empty(), big("b"), big("c")], 90);
        assert_eq!(
            composed.text,
            format!("{}\n\n{}", "a".repeat(40), "b".repeat(40))
        );
        assert_eq!(
            composed.kept,
            [0, 2],
            "indexes into the input, empty ones skipped"
        );
    }
}
