//! `carryover proposals`: look at proposals and accept or reject them.

use std::sync::Arc;

use crate::domain::ports::{Clock, IdGenerator, ProjectCatalog, SeedRepository};
use crate::domain::prefix::resolve_prefix;
use crate::domain::project::Project;
use crate::domain::scope::{EVERY_PROJECT, Visibility};
use crate::domain::seed::{Learning, Proposal, ProposalStatus, Seed};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;
use super::known_projects::known_projects;

/// What to do with a proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Turn it into a confirmed learning, in the scope given.
    Accept(AcceptScope),
    /// Decline it; it is not proposed again.
    Reject,
}

/// Where an accepted proposal's learning belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AcceptScope {
    /// Where the proposal says (ADR 0010).
    AsProposed,
    /// Every project.
    Global,
    /// One project (its id).
    Project(String),
}

/// What a review changed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReviewOutcome {
    /// Learnings created by accepting.
    pub accepted: Vec<Learning>,
    /// Ids of rejected proposals.
    pub rejected: Vec<String>,
}

/// The proposals a listing shows, and the ids of those it leaves out as other projects'.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProposalListing {
    /// Newest first.
    pub shown: Vec<Proposal>,
    /// The ids of those a session in the project asked about would not be shown: other
    /// projects'. Short ids are made unique over these too, so that any can be typed.
    pub elsewhere: Vec<String>,
}

/// Proposal review.
pub struct Review<S> {
    seeds: S,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    catalog: Option<Arc<dyn ProjectCatalog>>,
}

impl<S: SeedRepository> Review<S> {
    /// A service over the given ports.
    pub fn new(seeds: S, clock: Arc<dyn Clock>, ids: Arc<dyn IdGenerator>) -> Self {
        Self {
            seeds,
            clock,
            ids,
            catalog: None,
        }
    }

    /// Knows the projects `catalog` lists, so that a listing for one project leaves out what
    /// its session start would (a global proposal naming another project, ADR 0010).
    pub fn with_catalog(mut self, catalog: Arc<dyn ProjectCatalog>) -> Self {
        self.catalog = Some(catalog);
        self
    }

    async fn seed(&self) -> Result<Seed, AppError> {
        Ok(self
            .seeds
            .load()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))?
            .seed)
    }

    /// Proposals, newest first; decided ones only when `all` is set. With `here`, only those
    /// a session in that project is shown (the global ones and its own), the rest counted.
    pub async fn list(
        &self,
        all: bool,
        here: Option<&Project>,
    ) -> Result<ProposalListing, AppError> {
        let seed = self.seed().await?;
        let known = match here {
            Some(_) => known_projects(self.catalog.as_deref(), &seed).await,
            None => Vec::new(),
        };
        let visibility = here.map(|project| Visibility::new(project, known));
        let mut listing = ProposalListing::default();
        for proposal in seed.state.proposals {
            if !(all || proposal.is_pending()) {
                continue;
            }
            match &visibility {
                Some(rule) if !rule.admits_proposal(&proposal) => {
                    listing.elsewhere.push(proposal.id);
                }
                _ => listing.shown.push(proposal),
            }
        }
        listing.shown.sort_by(|a, b| {
            b.extracted_at
                .cmp(&a.extracted_at)
                .then_with(|| a.id.cmp(&b.id))
        });
        Ok(listing)
    }

    /// The proposal whose id starts with `prefix`, whatever its status.
    pub async fn show(&self, prefix: &str) -> Result<Proposal, AppError> {
        let seed = self.seed().await?;
        let ids: Vec<&str> = seed.state.proposals.iter().map(|p| p.id.as_str()).collect();
        let index = resolve_prefix("proposal", &ids, prefix).map_err(AppError::Rule)?;
        Ok(seed.state.proposals[index].clone())
    }

    /// Applies every decision together, under one lock, as one commit; nothing is written when
    /// any prefix is unknown, ambiguous or names a decided proposal.
    pub async fn decide(
        &self,
        decisions: Vec<(String, Decision)>,
    ) -> Result<ReviewOutcome, AppError> {
        let now = self.clock.now();
        let ids = self.ids.clone();
        let outcome = std::sync::Arc::new(std::sync::Mutex::new(ReviewOutcome::default()));
        let record = outcome.clone();
        self.seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                let mut result = ReviewOutcome::default();
                for (prefix, decision) in decisions {
                    let all: Vec<&str> =
                        seed.state.proposals.iter().map(|p| p.id.as_str()).collect();
                    let index = resolve_prefix("proposal", &all, &prefix)?;
                    let proposal = &mut seed.state.proposals[index];
                    if !proposal.is_pending() {
                        return Err(RuleError::AlreadyDecided {
                            id: proposal.id.clone(),
                            status: proposal.status.to_string(),
                        }
                        .into());
                    }
                    proposal.decided_at = Some(now);
                    // A proposal made before the redactor knew a secret's kind must not keep
                    // it: a rejected one stays in the seed for good (it is never proposed
                    // again), an accepted one becomes a learning.
                    proposal.content =
                        crate::domain::redaction::redact(&proposal.content).into_owned();
                    match decision {
                        Decision::Reject => {
                            proposal.status = ProposalStatus::Rejected;
                            result.rejected.push(proposal.id.clone());
                        }
                        Decision::Accept(scope) => {
                            proposal.status = ProposalStatus::Accepted;
                            let mut learning = Learning::new(
                                ids.next_id(proposal.kind.id_prefix()),
                                proposal.content.clone(),
                                proposal.source.clone(),
                                proposal.extracted_at,
                                true,
                            );
                            learning.confirmed_at = Some(now);
                            learning.project = match scope {
                                AcceptScope::AsProposed => proposal.project.clone(),
                                AcceptScope::Global => Some(EVERY_PROJECT.to_owned()),
                                AcceptScope::Project(id) => Some(id),
                            };
                            let kind = proposal.kind;
                            // The same text already learned: the proposal is settled by the
                            // existing learning, which is what the caller is told about.
                            let existing = seed
                                .learned
                                .of(kind)
                                .iter()
                                .find(|l| l.content.trim() == learning.content.trim())
                                .cloned();
                            match existing {
                                Some(existing) => result.accepted.push(existing),
                                None => {
                                    seed.learned.of_mut(kind).push(learning.clone());
                                    result.accepted.push(learning);
                                }
                            }
                        }
                    }
                }
                let reason = ChangeReason::Review {
                    accepted: result.accepted.len(),
                    rejected: result.rejected.len(),
                };
                *record
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = result;
                Ok((seed, reason))
            }))
            .await?;
        let result = outcome
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::fixed_clock;
    use crate::domain::ports::{LoadedSeed, MockIdGenerator, MockSeedRepository};
    use crate::domain::seed::LearningKind;

    fn example() -> Seed {
        crate::application::testing::example_seed()
    }

    fn ids() -> Arc<dyn IdGenerator> {
        let mut ids = MockIdGenerator::new();
        ids.expect_next_id()
            .returning(|prefix| format!("{prefix}NEW"));
        Arc::new(ids)
    }

    fn store(written: Arc<std::sync::Mutex<Option<(Seed, String)>>>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| {
            Ok(Some(LoadedSeed {
                seed: example(),
                repaired: None,
            }))
        });
        seeds.expect_update().returning(move |edit| {
            let (seed, reason) = edit(Some(example()))?;
            *written.lock().unwrap() = Some((seed.clone(), reason.to_string()));
            Ok(seed)
        });
        seeds
    }

    #[test]
    fn accepting_and_rejecting_are_one_commit() {
        let written = Arc::new(std::sync::Mutex::new(None));
        let review = Review::new(store(written.clone()), fixed_clock(), ids());
        let outcome = pollster::block_on(review.decide(vec![
            ("Q4mZ8".into(), Decision::Accept(AcceptScope::AsProposed)),
            ("T7nB3".into(), Decision::Reject),
        ]))
        .unwrap();
        assert_eq!(outcome.accepted[0].id, "pat_NEW");
        assert_eq!(outcome.rejected, vec!["prp_T7nB3vKd9Spe"]);
        let (seed, message) = written.lock().unwrap().clone().unwrap();
        assert_eq!(message, "Review: accept 1, reject 1 proposal(s)");
        let learned = seed
            .learned
            .of(LearningKind::Pattern)
            .iter()
            .find(|l| l.id == "pat_NEW")
            .unwrap();
        assert!(learned.confirmed && learned.confirmed_at.is_some());
        let accepted = seed
            .state
            .proposals
            .iter()
            .find(|p| p.id == "prp_Q4mZ8xWc2Lna")
            .unwrap();
        assert_eq!(
            (accepted.status, accepted.decided_at.is_some()),
            (ProposalStatus::Accepted, true)
        );
    }

    #[test]
    fn a_decided_proposal_cannot_be_decided_again() {
        let review = Review::new(store(Arc::default()), fixed_clock(), ids());
        let error = pollster::block_on(review.decide(vec![(
            "Y9cL5".into(),
            Decision::Accept(AcceptScope::AsProposed),
        )]))
        .unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::AlreadyDecided { .. })),
            "{error:?}"
        );
    }

    #[test]
    fn lists_pending_newest_first_and_shows_any() {
        let review = Review::new(store(Arc::default()), fixed_clock(), ids());
        let pending: Vec<String> = pollster::block_on(review.list(false, None))
            .unwrap()
            .shown
            .into_iter()
            .map(|p| p.id)
            .collect();
        assert_eq!(
            pending,
            vec!["prp_T7nB3vKd9Spe", "prp_Q4mZ8xWc2Lna", "prp_F2hJ6qRw1Xtb"]
        );
        assert_eq!(
            pollster::block_on(review.list(true, None))
                .unwrap()
                .shown
                .len(),
            4
        );
        assert_eq!(
            pollster::block_on(review.show("Y9c")).unwrap().status,
            ProposalStatus::Rejected
        );
    }

    #[test]
    fn a_listing_for_one_project_leaves_out_and_counts_what_its_sessions_are_not_shown() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| {
            let mut seed = example();
            let mut pending = seed.state.proposals.iter_mut().filter(|p| p.is_pending());
            pending.next().unwrap().project = Some("path:/home/u/web".into());
            pending.next().unwrap().content = "web-app: never commit to main".into();
            Ok(Some(LoadedSeed {
                seed,
                repaired: None,
            }))
        });
        let mut catalog = crate::domain::ports::MockProjectCatalog::new();
        catalog.expect_names().returning(|| vec!["web-app".into()]);
        let review = Review::new(seeds, fixed_clock(), ids()).with_catalog(Arc::new(catalog));
        let here = Project::at("/home/u/notes");
        let listing = pollster::block_on(review.list(false, Some(&here))).unwrap();
        assert_eq!(
            (listing.shown.len(), listing.elsewhere.len()),
            (1, 2),
            "{listing:?}"
        );
        let everywhere = pollster::block_on(review.list(false, None)).unwrap();
        assert_eq!((everywhere.shown.len(), everywhere.elsewhere.len()), (3, 0));
    }

    #[test]
    fn accepting_what_is_already_learned_reports_the_existing_learning() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().returning(|edit| {
            let mut seed = example();
            seed.state.proposals[0].content = seed.learned.patterns[0].content.clone();
            let (seed, _) = edit(Some(seed))?;
            assert_eq!(seed.learned.patterns.len(), 6, "no second copy");
            Ok(seed)
        });
        let review = Review::new(seeds, fixed_clock(), ids());
        let outcome = pollster::block_on(review.decide(vec![(
            "Q4mZ8".into(),
            Decision::Accept(AcceptScope::AsProposed),
        )]))
        .unwrap();
        assert_eq!(outcome.accepted[0].id, "pat_7Qm2vXk9LdRa");
    }

    #[rstest::rstest]
    #[case::as_proposed(AcceptScope::AsProposed, Some("git:github.com/acme/shop-api"))]
    #[case::made_global(AcceptScope::Global, Some("*"))]
    #[case::moved(AcceptScope::Project("path:/home/u/notes".into()), Some("path:/home/u/notes"))]
    fn an_accepted_proposal_keeps_or_changes_its_scope(
        #[case] scope: AcceptScope,
        #[case] expected: Option<&str>,
    ) {
        let scoped = || {
            let mut seed = example();
            for proposal in &mut seed.state.proposals {
                proposal.project = Some("git:github.com/acme/shop-api".into());
            }
            seed
        };
        let mut seeds = MockSeedRepository::new();
        seeds
            .expect_update()
            .returning(move |edit| Ok(edit(Some(scoped()))?.0));
        let review = Review::new(seeds, fixed_clock(), ids());
        let outcome =
            pollster::block_on(review.decide(vec![("Q4mZ8".into(), Decision::Accept(scope))]))
                .unwrap();
        assert_eq!(outcome.accepted[0].project.as_deref(), expected);
    }
}
