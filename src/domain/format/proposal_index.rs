//! The compact index of pending proposals: short id, type, 40 characters, confidence.

use crate::domain::context::Section;
use crate::domain::seed::Proposal;

use super::short_ids;

/// Proposals listed before `+N more`.
pub const PROPOSALS_SHOWN: usize = 5;
const CONTENT_CHARS: usize = 40;

/// `Pending proposals (7, newest first):`, at most five lines such as
/// `  Q4mZ8 pattern  "Prefers table-driven tests with rstest c..." (0.78)`, `  +2 more`, and
/// `Review: carryover proposals review`. Empty when nothing is pending. Ids are the shortest
/// unique prefixes over all pending proposals, so any shown one can be typed back.
pub fn proposal_index<'a>(proposals: impl IntoIterator<Item = &'a Proposal>) -> Section {
    let mut pending: Vec<&Proposal> = proposals.into_iter().filter(|p| p.is_pending()).collect();
    if pending.is_empty() {
        return Section::empty();
    }
    pending.sort_by(|a, b| {
        b.extracted_at
            .cmp(&a.extracted_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    let ids: Vec<&str> = pending.iter().map(|p| p.id.as_str()).collect();
    let short = short_ids(&ids, 5);
    let mut section = Section::items(format!(
        "Pending proposals ({}, newest first):",
        pending.len()
    ));
    for (proposal, id) in pending.iter().zip(&short).take(PROPOSALS_SHOWN) {
        let flat = proposal
            .content
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let content = if flat.chars().count() > CONTENT_CHARS {
            format!(
                "{}...",
                flat.chars().take(CONTENT_CHARS).collect::<String>()
            )
        } else {
            flat
        };
        let confidence = proposal
            .confidence
            .map_or_else(|| "N/A".to_owned(), |c| format!("{c:.2}"));
        section.push_item(format!(
            "  {id} {:<8} \"{}\" ({confidence})",
            proposal.kind.as_str(),
            content.replace('"', "'")
        ));
    }
    if pending.len() > PROPOSALS_SHOWN {
        section.push_fixed(format!("  +{} more", pending.len() - PROPOSALS_SHOWN));
    }
    section.push_fixed("Review: carryover proposals review".to_owned());
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{LearningKind, ProposalStatus, Timestamp};

    fn proposal(
        id: &str,
        day: u8,
        content: &str,
        confidence: Option<f64>,
        status: ProposalStatus,
    ) -> Proposal {
        Proposal {
            id: id.to_owned(),
            kind: LearningKind::Pattern,
            content: content.to_owned(),
            source: String::new(),
            extracted_at: Timestamp::parse(&format!("2026-11-{day:02}T10:00:00Z")).unwrap(),
            status,
            method: None,
            confidence,
            decided_at: None,
            extra: Default::default(),
        }
    }

    #[test]
    fn lists_newest_first_with_short_ids_cut_content_and_confidence() {
        let all = [
            proposal(
                "prp_T7nB3vKd9Spe",
                20,
                "Short one",
                None,
                ProposalStatus::Pending,
            ),
            proposal(
                "prp_Q4mZ8xWc2Lna",
                21,
                "Prefers table-driven tests with rstest cases over copy-pasted test functions",
                Some(0.78),
                ProposalStatus::Pending,
            ),
            proposal(
                "prp_Y9cL5mNt4Gha",
                22,
                "Rejected",
                Some(0.4),
                ProposalStatus::Rejected,
            ),
        ];
        assert_eq!(
            proposal_index(&all).render(),
            "Pending proposals (2, newest first):\n\
             \x20 Q4mZ8 pattern  \"Prefers table-driven tests with rstest c...\" (0.78)\n\
             \x20 T7nB3 pattern  \"Short one\" (N/A)\n\
             Review: carryover proposals review"
        );
    }

    #[test]
    fn at_most_five_then_a_count() {
        let all: Vec<Proposal> = (1..=8)
            .map(|d| {
                proposal(
                    &format!("prp_{d}xxxxxx"),
                    d,
                    "x",
                    None,
                    ProposalStatus::Pending,
                )
            })
            .collect();
        let text = proposal_index(&all).render();
        assert_eq!(text.lines().filter(|l| l.contains("\"x\"")).count(), 5);
        assert!(text.contains("  +3 more"));
    }

    #[test]
    fn nothing_pending_is_an_empty_section() {
        assert!(
            proposal_index(&[proposal("prp_a", 1, "x", None, ProposalStatus::Accepted)]).is_empty()
        );
    }
}
