//! Putting a session start's parts together within the budget, and saying what survived.

use super::{Section, compose};

/// The last line of every context a session start injects. The resume check looks for it in
/// the transcript to tell whether carryover's block is still in the model's context.
pub const CONTEXT_MARKER: &str = "[carryover: session context]";

const SEPARATOR_CHARS: usize = 2;

/// The parts of a session start's context, in the order the text shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The queued start-up instruction.
    Instruction,
    /// Compaction notice or session reset.
    Notice,
    /// First run, or a seed that cannot be used.
    Setup,
    /// Who the assistant is and whom it serves.
    Identity,
    /// What an earlier session left.
    Handoff,
    /// The learnings for this project.
    Learnings,
    /// Pending proposals.
    Proposals,
    /// Last session, active projects.
    State,
}

/// The assembled text and what of it survived the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The text, ending with [`CONTEXT_MARKER`] unless it is empty.
    pub text: String,
    /// The parts the text shows, in order.
    pub kept: Vec<Part>,
    /// Ids of the learnings the text shows, in order.
    pub learnings: Vec<String>,
}

impl Assembled {
    /// Whether `part` made it into the text.
    pub fn shows(&self, part: Part) -> bool {
        self.kept.contains(&part)
    }
}

/// Composes `parts` (in the order given) in at most `budget` characters, marker included;
/// parts shrink before later ones are dropped (see [`compose`]). Nothing to say gives an
/// empty text, without the marker.
pub fn assemble(parts: Vec<(Part, Section)>, budget: usize) -> Assembled {
    let room = budget.saturating_sub(CONTEXT_MARKER.chars().count() + SEPARATOR_CHARS);
    let (names, sections): (Vec<Part>, Vec<Section>) = parts.into_iter().unzip();
    let composed = compose(sections, room);
    if composed.text.is_empty() {
        return Assembled {
            text: String::new(),
            kept: Vec::new(),
            learnings: Vec::new(),
        };
    }
    let kept: Vec<Part> = composed.kept.iter().map(|&index| names[index]).collect();
    let learnings = match kept.contains(&Part::Learnings) {
        true => composed.keys,
        false => Vec::new(),
    };
    Assembled {
        text: format!("{}\n\n{CONTEXT_MARKER}", composed.text),
        kept,
        learnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn learnings(count: usize) -> Section {
        let mut section = Section::items("Relevant learnings:".into());
        for n in 0..count {
            section.push_keyed_item(format!("  pattern: learning number {n}"), format!("id{n}"));
        }
        section
    }

    #[test]
    fn reports_the_parts_and_learnings_it_kept_and_ends_with_the_marker() {
        let assembled = assemble(
            vec![
                (
                    Part::Notice,
                    Section::fixed(vec!["<session-reset/>".into()]),
                ),
                (Part::Handoff, Section::empty()),
                (Part::Learnings, learnings(2)),
            ],
            1_000,
        );
        assert_eq!(assembled.kept, [Part::Notice, Part::Learnings]);
        assert_eq!(assembled.learnings, ["id0", "id1"]);
        assert!(assembled.text.ends_with("\n\n[carryover: session context]"));
        assert!(assembled.shows(Part::Notice) && !assembled.shows(Part::Handoff));
    }

    #[test]
    fn nothing_to_say_is_an_empty_text() {
        let assembled = assemble(vec![(Part::Handoff, Section::empty())], 1_000);
        assert_eq!(assembled.text, "");
        assert!(assembled.kept.is_empty());
    }

    #[rstest]
    #[case::roomy(1_000)]
    #[case::tight(120)]
    #[case::marker_only_is_too_much(20)]
    #[case::zero(0)]
    fn the_marker_counts_against_the_budget(#[case] budget: usize) {
        let assembled = assemble(
            vec![
                (
                    Part::Identity,
                    Section::fixed(vec!["Identity: Juno".into()]),
                ),
                (Part::Learnings, learnings(20)),
            ],
            budget,
        );
        assert!(
            assembled.text.encode_utf16().count() <= budget,
            "{}",
            assembled.text
        );
    }

    #[test]
    fn learnings_dropped_by_the_budget_are_not_reported() {
        let big = Section::fixed(vec!["x".repeat(200)]);
        let assembled = assemble(
            vec![(Part::Identity, big), (Part::Learnings, learnings(3))],
            240,
        );
        assert!(!assembled.shows(Part::Learnings));
        assert!(assembled.learnings.is_empty());
    }
}
