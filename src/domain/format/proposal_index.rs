//! The compact index of pending proposals: short id, type, 40 characters, confidence.

use crate::domain::context::Section;
use crate::domain::seed::{Proposal, Timestamp};

use super::short_ids;

/// Proposals listed before `+N more`.
pub const PROPOSALS_SHOWN: usize = 5;
const CONTENT_CHARS: usize = 40;

/// `Proposed learnings awaiting the user's review (7, newest first):`, at most five lines such
/// as `  Q4mZ8 pattern  "Prefers table-driven tests with rstest c..." (0.78)`, then `  +2 more`.
/// Only the proposals `shown` admits are listed (another project's stay out of this one's
/// sessions); empty when none of them is pending. Ids are the shortest unique prefixes over
/// all pending proposals, so any shown one can be typed back wherever the user is. Reviewing
/// is the user's job, so the model is told what waits, not asked to do anything about it.
pub fn proposal_index<'a>(
    proposals: impl IntoIterator<Item = &'a Proposal>,
    shown: impl Fn(&Proposal) -> bool,
) -> Section {
    let all: Vec<&Proposal> = proposals.into_iter().filter(|p| p.is_pending()).collect();
    let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    let every_short = short_ids(&ids, 5);
    let mut pending: Vec<(&Proposal, &String)> = all
        .iter()
        .zip(&every_short)
        .filter(|(proposal, _)| shown(proposal))
        .map(|(proposal, id)| (*proposal, id))
        .collect();
    if pending.is_empty() {
        return Section::empty();
    }
    pending.sort_by(|(a, _), (b, _)| {
        b.extracted_at
            .cmp(&a.extracted_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut section = Section::items(format!(
        "Proposed learnings awaiting the user's review ({}, newest first):",
        pending.len()
    ));
    for (proposal, id) in pending.iter().take(PROPOSALS_SHOWN) {
        let flat = super::injected_line(&proposal.content, usize::MAX);
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
    section
}

/// For a resumed session: one line counting the proposals `shown` admits made since `since`
/// (by sessions that ended meanwhile); empty when there are none.
pub fn new_proposals_line<'a>(
    proposals: impl IntoIterator<Item = &'a Proposal>,
    since: Timestamp,
    shown: impl Fn(&Proposal) -> bool,
) -> Section {
    let (mut new, mut pending) = (0, 0);
    for proposal in proposals.into_iter().filter(|p| p.is_pending() && shown(p)) {
        pending += 1;
        new += usize::from(proposal.extracted_at > since);
    }
    if new == 0 {
        return Section::empty();
    }
    let noun = if new == 1 {
        "learning was"
    } else {
        "learnings were"
    };
    Section::fixed(vec![format!(
        "Since this session began, {new} {noun} proposed for the user's review ({pending} pending in all)."
    )])
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
            project: None,
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
            proposal_index(&all, |_| true).render(),
            "Proposed learnings awaiting the user's review (2, newest first):\n\
             \x20 Q4mZ8 pattern  \"Prefers table-driven tests with rstest c...\" (0.78)\n\
             \x20 T7nB3 pattern  \"Short one\" (N/A)"
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
        let text = proposal_index(&all, |_| true).render();
        assert_eq!(text.lines().filter(|l| l.contains("\"x\"")).count(), 5);
        assert!(text.contains("  +3 more"));
    }

    #[test]
    fn the_model_is_not_asked_to_review() {
        let text = proposal_index(
            &[proposal("prp_a", 1, "x", None, ProposalStatus::Pending)],
            |_| true,
        )
        .render();
        assert!(!text.contains("carryover proposals"), "{text}");
    }

    #[test]
    fn a_resumed_session_hears_only_of_new_proposals() {
        let all = [
            proposal("prp_a", 20, "old", None, ProposalStatus::Pending),
            proposal("prp_b", 22, "new", None, ProposalStatus::Pending),
            proposal("prp_c", 22, "decided", None, ProposalStatus::Rejected),
        ];
        let since = Timestamp::parse("2026-11-21T00:00:00Z").unwrap();
        assert_eq!(
            new_proposals_line(&all, since, |_| true).render(),
            "Since this session began, 1 learning was proposed for the user's review (2 pending in all)."
        );
        let later = Timestamp::parse("2026-11-23T00:00:00Z").unwrap();
        assert!(new_proposals_line(&all, later, |_| true).is_empty());
    }

    #[test]
    fn only_the_proposals_shown_are_listed_with_ids_unique_over_all() {
        let mut own = proposal("prp_Q4mZ8xAa", 21, "ours", None, ProposalStatus::Pending);
        own.project = Some("shop-api".into());
        let mut other = proposal("prp_Q4mZ8xBb", 22, "theirs", None, ProposalStatus::Pending);
        other.project = Some("web".into());
        let all = [own, other];
        let mine = |p: &Proposal| p.project.as_deref() != Some("web");
        let text = proposal_index(&all, mine).render();
        assert!(text.contains("(1, newest first)"), "{text}");
        assert!(text.contains("Q4mZ8xA pattern  \"ours\""), "{text}");
        assert!(!text.contains("theirs"), "{text}");
        let since = Timestamp::parse("2026-11-20T00:00:00Z").unwrap();
        assert!(
            new_proposals_line(&all, since, mine)
                .render()
                .contains("1 learning was proposed for the user's review (1 pending in all)")
        );
        assert!(proposal_index(&all[1..], mine).is_empty());
    }

    #[test]
    fn nothing_pending_is_an_empty_section() {
        assert!(
            proposal_index(
                &[proposal("prp_a", 1, "x", None, ProposalStatus::Accepted)],
                |_| true
            )
            .is_empty()
        );
    }
}
