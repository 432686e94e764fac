//! Which learnings and proposals a session in one project may be shown (ADR 0010): the global
//! ones and its own, never another project's. A global learning that names another project
//! carryover knows, and not this one, is that project's in all but name (0.1 stored no scope):
//! it is kept out too, until `learnings scope` settles it.

use crate::domain::project::Project;
use crate::domain::seed::{Learning, Proposal};

use super::{EVERY_PROJECT, names_project};

/// The rule for one project, given the names of the other projects carryover knows.
#[derive(Debug, Clone)]
pub struct Visibility<'a> {
    project: &'a Project,
    others: Vec<String>,
}

impl<'a> Visibility<'a> {
    /// The rule for sessions in `project`; `known` names every project carryover has seen
    /// (this one's name among them or not).
    pub fn new(project: &'a Project, known: impl IntoIterator<Item = String>) -> Self {
        let own = project.name.to_lowercase();
        let mut others: Vec<String> = known
            .into_iter()
            .filter(|name| name.to_lowercase() != own)
            .collect();
        others.sort_unstable();
        others.dedup();
        Self { project, others }
    }

    /// Whether a session in this project may be shown `learning`.
    pub fn admits(&self, learning: &Learning) -> bool {
        self.admits_scoped(learning.project.as_deref(), &learning.content)
    }

    /// Whether a session in this project may be shown `proposal` (by the same rule as a
    /// learning: the one it would become).
    pub fn admits_proposal(&self, proposal: &Proposal) -> bool {
        self.admits_scoped(proposal.project.as_deref(), &proposal.content)
    }

    fn admits_scoped(&self, scope: Option<&str>, content: &str) -> bool {
        match scope {
            Some(EVERY_PROJECT) => true,
            Some(stored) => self.project.owns(stored),
            None => self.named_other(content).is_none(),
        }
    }

    /// Whether `learning` belongs to this project by its scope (not merely global).
    pub fn is_own(&self, learning: &Learning) -> bool {
        learning
            .project
            .as_deref()
            .is_some_and(|stored| self.project.owns(stored))
    }

    /// The other project a global learning's text names, when it does not name this one.
    pub fn named_other(&self, content: &str) -> Option<&str> {
        if names_project(content, &self.project.name) {
            return None;
        }
        self.others
            .iter()
            .find(|name| names_project(content, name))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::project::ProjectId;
    use crate::domain::seed::Timestamp;
    use rstest::rstest;

    fn project(name: &str) -> Project {
        let id = ProjectId::from_remote(&format!("git@github.com:acme/{name}.git")).unwrap();
        let root = std::path::PathBuf::from(format!("/home/u/{name}"));
        Project::new(root.clone(), root, id)
    }

    fn learning(content: &str, scope: Option<&str>) -> Learning {
        let mut learning = Learning::new(
            "ins_1".into(),
            content.into(),
            "test".into(),
            Timestamp::parse("2026-11-01T00:00:00Z").unwrap(),
            true,
        );
        learning.project = scope.map(str::to_owned);
        learning
    }

    #[rstest]
    #[case::global_plain("Keep summaries to three bullets", None, true)]
    #[case::own_scope(
        "Run `make check` before pushing",
        Some("git:github.com/acme/web-app"),
        true
    )]
    #[case::other_scope(
        "Run `cargo nextest` before pushing",
        Some("git:github.com/acme/shop-api"),
        false
    )]
    #[case::own_path_scope_after_a_remote_was_added(
        "Drafts go in docs/",
        Some("path:/home/u/web-app"),
        true
    )]
    #[case::global_naming_another_project("shop-api: never commit directly to main", None, false)]
    #[case::global_naming_both("web-app calls shop-api through /v2", None, true)]
    #[case::global_naming_this_project("web-app uses pnpm", None, true)]
    #[case::global_naming_an_unknown_project("billing-svc is frozen", None, true)]
    #[case::global_on_purpose("shop-api and web-app share the auth service", Some("*"), true)]
    fn a_session_sees_global_and_its_own_learnings_and_proposals(
        #[case] content: &str,
        #[case] scope: Option<&str>,
        #[case] shown: bool,
    ) {
        let here = project("web-app");
        let rule = Visibility::new(&here, ["shop-api".to_owned(), "web-app".to_owned()]);
        let learning = learning(content, scope);
        assert_eq!(rule.admits(&learning), shown, "{content}");
        let proposal = Proposal {
            id: "prp_1".into(),
            kind: crate::domain::seed::LearningKind::Pattern,
            content: learning.content.clone(),
            source: "test".into(),
            extracted_at: learning.extracted_at,
            status: crate::domain::seed::ProposalStatus::Pending,
            method: None,
            confidence: None,
            decided_at: None,
            project: learning.project.clone(),
            extra: Default::default(),
        };
        assert_eq!(rule.admits_proposal(&proposal), shown, "proposal {content}");
    }

    #[test]
    fn own_is_by_scope_only() {
        let here = project("web-app");
        let rule = Visibility::new(&here, []);
        assert!(rule.is_own(&learning("x", Some("git:github.com/acme/web-app"))));
        assert!(!rule.is_own(&learning("web-app uses pnpm", None)));
    }
}
