//! Rules a well-formed seed must also satisfy; each problem names its JSON path.

use std::fmt;

use super::{FormatVersion, LearningKind, Seed};

/// One broken rule, located by JSON path (`$.identity.aiName: must not be empty`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationIssue {
    /// JSON path from the document root, `$`-rooted.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl ValidationIssue {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// A value of a known field that this version does not know (a newer minor's).
    pub fn is_unknown_value(&self) -> bool {
        self.message.starts_with("unknown variant")
    }
}

impl fmt::Display for ValidationIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every rule the seed breaks, in document order with duplicate ids last; empty when it is
/// valid. Paths are only formatted for the problems found: a session start validates every
/// learning of the seed.
pub fn validate(seed: &Seed) -> Vec<ValidationIssue> {
    let mut issues = Vec::new();
    if FormatVersion::parse(&seed.version).is_none() {
        issues.push(ValidationIssue::new(
            "$.version",
            format!("{:?} is not a version such as 1.0.0", seed.version),
        ));
    }
    if let super::ResponseStyle::Other(raw) = &seed.identity.preferences.response_style {
        // Only a newer minor version may hold a style this one does not know (the decoder
        // then reads it leniently); in a 1.0 seed it is damage.
        issues.push(ValidationIssue::new(
            "$.identity.preferences.responseStyle",
            format!("unknown variant `{raw}`, expected one of `concise`, `detailed`, `adaptive`"),
        ));
    }
    require_text(&mut issues, &seed.identity.principal_name, || {
        "$.identity.principalName".into()
    });
    require_text(&mut issues, &seed.identity.ai_name, || {
        "$.identity.aiName".into()
    });

    let entries = seed.learned.len() + seed.state.proposals.len();
    let mut ids: Vec<(&str, Location)> = Vec::with_capacity(entries);
    for kind in LearningKind::ALL {
        for (index, learning) in seed.learned.of(kind).iter().enumerate() {
            let at = Location::Learning(kind, index);
            require_text(&mut issues, &learning.id, || at.field("id"));
            require_text(&mut issues, &learning.content, || at.field("content"));
            ids.push((&learning.id, at));
        }
    }
    for (index, proposal) in seed.state.proposals.iter().enumerate() {
        let at = Location::Proposal(index);
        require_text(&mut issues, &proposal.id, || at.field("id"));
        require_text(&mut issues, &proposal.content, || at.field("content"));
        ids.push((&proposal.id, at));
        if let Some(confidence) = proposal.confidence
            && !(0.0..=1.0).contains(&confidence)
        {
            issues.push(ValidationIssue::new(
                at.field("confidence"),
                format!("must be between 0 and 1, not {confidence}"),
            ));
        }
    }
    issues.extend(duplicate_ids(ids));
    issues
}

/// Where an entry sits, kept unformatted until a problem needs its path.
#[derive(Debug, Clone, Copy)]
enum Location {
    Learning(LearningKind, usize),
    Proposal(usize),
}

impl Location {
    fn field(self, name: &str) -> String {
        match self {
            Self::Learning(kind, index) => format!("$.learned.{}[{index}].{name}", kind.list_key()),
            Self::Proposal(index) => format!("$.state.proposals[{index}].{name}"),
        }
    }
}

fn require_text(issues: &mut Vec<ValidationIssue>, value: &str, path: impl FnOnce() -> String) {
    if value.trim().is_empty() {
        issues.push(ValidationIssue::new(path(), "must not be empty"));
    }
}

/// An issue for each id (blank ones aside) that an earlier entry already has, in document
/// order. Sorting beats hashing here: no hasher runs over thousands of ids, and a stable sort
/// keeps the first holder of an id first.
fn duplicate_ids(ids: Vec<(&str, Location)>) -> Vec<ValidationIssue> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by(|a, b| ids[*a].0.cmp(ids[*b].0));
    let mut duplicates: Vec<(usize, usize)> = Vec::new();
    let mut holder = 0;
    for (rank, &position) in order.iter().enumerate() {
        let repeats = rank > 0 && ids[order[rank - 1]].0 == ids[position].0;
        if !repeats {
            holder = position;
        } else if !ids[position].0.trim().is_empty() {
            duplicates.push((position, holder));
        }
    }
    duplicates.sort_unstable();
    duplicates
        .into_iter()
        .map(|(position, holder)| {
            ValidationIssue::new(
                ids[position].1.field("id"),
                format!("duplicates the id at {}", ids[holder].1.field("id")),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{Learning, Proposal, ProposalStatus, Timestamp};
    use rstest::rstest;

    fn learning(id: &str, content: &str) -> Learning {
        Learning {
            id: id.to_owned(),
            content: content.to_owned(),
            source: String::new(),
            extracted_at: Timestamp::parse("2026-10-02T09:12:00Z").unwrap(),
            confirmed_at: None,
            confirmed: true,
            tags: Vec::new(),
            project: None,
            pinned: false,
            extra: Default::default(),
        }
    }

    fn proposal(id: &str, confidence: Option<f64>) -> Proposal {
        Proposal {
            id: id.to_owned(),
            kind: LearningKind::Pattern,
            content: "Prefers rstest tables".to_owned(),
            source: String::new(),
            extracted_at: Timestamp::parse("2026-10-02T09:12:00Z").unwrap(),
            status: ProposalStatus::Pending,
            method: None,
            confidence,
            decided_at: None,
            project: None,
            extra: Default::default(),
        }
    }

    fn valid_seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        seed.identity.ai_name = "Juno".into();
        seed
    }

    #[test]
    fn a_valid_seed_has_no_issues() {
        let mut seed = valid_seed();
        seed.learned.patterns.push(learning("pat_1", "Uses rstest"));
        seed.state.proposals.push(proposal("prp_1", Some(0.5)));
        assert_eq!(validate(&seed), vec![]);
    }

    #[rstest]
    #[case::empty_ai_name(|s: &mut Seed| s.identity.ai_name = " ".into(), "$.identity.aiName: must not be empty")]
    #[case::empty_principal(|s: &mut Seed| s.identity.principal_name.clear(), "$.identity.principalName: must not be empty")]
    #[case::bad_version(|s: &mut Seed| s.version = "1.0".into(), "$.version: \"1.0\" is not a version such as 1.0.0")]
    #[case::empty_learning_content(|s: &mut Seed| s.learned.insights.push(learning("ins_1", "")), "$.learned.insights[0].content: must not be empty")]
    #[case::empty_learning_id(|s: &mut Seed| s.learned.self_knowledge.push(learning("", "x")), "$.learned.selfKnowledge[0].id: must not be empty")]
    #[case::duplicate_id_across_lists(
        |s: &mut Seed| { s.learned.patterns.push(learning("x_1", "a")); s.learned.insights.push(learning("x_1", "b")); },
        "$.learned.insights[0].id: duplicates the id at $.learned.patterns[0].id"
    )]
    #[case::duplicate_id_of_a_proposal(
        |s: &mut Seed| { s.learned.patterns.push(learning("x_1", "a")); s.state.proposals.push(proposal("x_1", None)); },
        "$.state.proposals[0].id: duplicates the id at $.learned.patterns[0].id"
    )]
    #[case::confidence_out_of_range(|s: &mut Seed| s.state.proposals.push(proposal("prp_1", Some(1.5))), "$.state.proposals[0].confidence: must be between 0 and 1, not 1.5")]
    fn names_the_path_of_each_problem(#[case] break_it: fn(&mut Seed), #[case] expected: &str) {
        let mut seed = valid_seed();
        break_it(&mut seed);
        let issues: Vec<String> = validate(&seed).iter().map(ToString::to_string).collect();
        assert_eq!(issues, vec![expected.to_owned()]);
    }

    #[test]
    fn every_repeat_of_an_id_points_at_its_first_holder_in_document_order() {
        let mut seed = valid_seed();
        for id in ["b", "a", "b", "a", "b"] {
            seed.learned.patterns.push(learning(id, "x"));
        }
        let issues: Vec<String> = validate(&seed).iter().map(ToString::to_string).collect();
        assert_eq!(
            issues,
            [
                "$.learned.patterns[2].id: duplicates the id at $.learned.patterns[0].id",
                "$.learned.patterns[3].id: duplicates the id at $.learned.patterns[1].id",
                "$.learned.patterns[4].id: duplicates the id at $.learned.patterns[0].id",
            ]
        );
    }
}
