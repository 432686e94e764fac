//! The numbered list of proposals awaiting review.

use crate::domain::context::Section;
use crate::domain::seed::Proposal;

use super::clip;

const MAX_PROPOSAL_CHARS: usize = 200;

/// `Pending proposals (2):` then `  1. [pattern] content (source: …)`; an empty section when
/// nothing is pending, so callers can drop it.
pub fn pending_proposals<'a>(proposals: impl IntoIterator<Item = &'a Proposal>) -> Section {
    let pending: Vec<&Proposal> = proposals.into_iter().filter(|p| p.is_pending()).collect();
    if pending.is_empty() {
        return Section::empty();
    }
    let mut section = Section::items(format!("Pending proposals ({}):", pending.len()));
    for (number, proposal) in pending.iter().enumerate() {
        let source = if proposal.source.trim().is_empty() {
            String::new()
        } else {
            format!(" (source: {})", proposal.source.trim())
        };
        section.push_item(format!(
            "  {}. [{}] {}{source}",
            number + 1,
            proposal.kind,
            clip(&proposal.content, MAX_PROPOSAL_CHARS)
        ));
    }
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{LearningKind, ProposalStatus, Timestamp};

    fn proposal(content: &str, status: ProposalStatus, source: &str) -> Proposal {
        Proposal {
            id: format!("prp_{content}"),
            kind: LearningKind::Insight,
            content: content.to_owned(),
            source: source.to_owned(),
            extracted_at: Timestamp::parse("2026-11-21T18:40:00Z").unwrap(),
            status,
            method: None,
            confidence: None,
            decided_at: None,
            project: None,
            extra: Default::default(),
        }
    }

    #[test]
    fn is_empty_when_nothing_is_pending() {
        let decided = [proposal("a", ProposalStatus::Rejected, "s")];
        assert_eq!(pending_proposals(&decided).render(), "");
    }

    #[test]
    fn numbers_pending_ones_with_type_content_and_source() {
        let all = [
            proposal("first", ProposalStatus::Pending, "s1"),
            proposal("gone", ProposalStatus::Rejected, "s1"),
            proposal("second", ProposalStatus::Pending, ""),
        ];
        assert_eq!(
            pending_proposals(&all).render(),
            "Pending proposals (2):\n  1. [insight] first (source: s1)\n  2. [insight] second"
        );
    }
}
