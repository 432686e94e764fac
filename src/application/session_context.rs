//! Composes what a session start injects from the seed.

use std::sync::Arc;

use crate::domain::context::{
    Mode, Section, SessionContext, ShownLearning, compose, setup_notice, unusable_seed_notice,
};
use crate::domain::format::{
    RECENT_PER_KIND, identity_summary, learning_summary, pending_proposals, session_state,
};
use crate::domain::ports::{Clock, SeedRepository};
use crate::domain::seed::Seed;

/// What the caller wants composed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextRequest {
    /// Full or complement.
    pub mode: Mode,
    /// Character budget of the text.
    pub budget_chars: usize,
}

/// Builds the session context. It never fails: whatever cannot be read becomes a short notice
/// in the text and a message for the user, because a session must always start.
pub struct SessionContextService<S> {
    seeds: S,
    clock: Arc<dyn Clock>,
}

impl<S: SeedRepository> SessionContextService<S> {
    /// A service over the given seed store and clock.
    pub fn new(seeds: S, clock: Arc<dyn Clock>) -> Self {
        Self { seeds, clock }
    }

    /// The context for the next session.
    pub async fn compose(&self, request: ContextRequest) -> SessionContext {
        let mut user_notices = Vec::new();
        let seed = match self.seeds.load().await {
            Ok(Some(loaded)) => {
                if let Some(repaired) = loaded.repaired {
                    user_notices.push(format!(
                        "repaired {}: {}; restored the version of commit {} and kept the bad file as {}",
                        self.seeds.location().display(),
                        repaired.problem,
                        repaired.from_commit,
                        repaired.kept.display()
                    ));
                }
                Some(loaded.seed)
            }
            Ok(None) => None,
            Err(error) => {
                let problem = error.to_string();
                user_notices.push(problem.clone());
                return self.short(unusable_seed_notice(&problem), false, request, user_notices);
            }
        };
        match seed {
            Some(seed) if !seed.needs_setup() => self.full(&seed, request, user_notices),
            _ => self.short(setup_notice(), true, request, user_notices),
        }
    }

    fn full(
        &self,
        seed: &Seed,
        request: ContextRequest,
        user_notices: Vec<String>,
    ) -> SessionContext {
        let mut sections: Vec<Section> = Vec::with_capacity(4);
        if request.mode == Mode::Full {
            sections.push(identity_summary(&seed.identity));
        }
        sections.push(learning_summary(&seed.learned, RECENT_PER_KIND));
        sections.push(pending_proposals(&seed.state.proposals));
        sections.push(session_state(&seed.state, self.clock.now()));
        let composed = compose(sections, request.budget_chars);
        let learnings = shown_learnings(seed, &composed.keys);
        SessionContext {
            text: composed.text,
            needs_setup: false,
            mode: request.mode,
            learnings,
            learnings_total: seed.confirmed_learnings().count(),
            proposal_count: seed.pending_proposals().count(),
            user_notices,
        }
    }

    fn short(
        &self,
        notice: Section,
        needs_setup: bool,
        request: ContextRequest,
        user_notices: Vec<String>,
    ) -> SessionContext {
        SessionContext {
            text: compose(vec![notice], request.budget_chars).text,
            needs_setup,
            mode: request.mode,
            learnings: Vec::new(),
            learnings_total: 0,
            proposal_count: 0,
            user_notices,
        }
    }
}

/// The learnings behind the keys the composed text kept, in the text's order. The keys are
/// few (a handful per kind), so the learnings are scanned once against them.
fn shown_learnings(seed: &Seed, keys: &[String]) -> Vec<ShownLearning> {
    let mut found: Vec<Option<ShownLearning>> = vec![None; keys.len()];
    for (kind, learning) in seed.confirmed_learnings() {
        if let Some(slot) = keys.iter().position(|key| *key == learning.id) {
            found[slot] = Some(ShownLearning {
                id: learning.id.clone(),
                kind,
                content: learning.content.clone(),
                score: None,
            });
        }
    }
    found.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::SeedError;
    use crate::domain::ports::{LoadedSeed, MockClock, MockSeedRepository, Repaired};
    use crate::domain::seed::{SeedDecodeError, Timestamp, decode_seed};
    use rstest::rstest;

    const EXAMPLE: &str = include_str!("../../tests/fixtures/seed/seed.json");

    fn clock() -> Arc<dyn Clock> {
        let mut clock = MockClock::new();
        clock
            .expect_now()
            .returning(|| Timestamp::parse("2026-11-22T18:40:00Z").unwrap());
        Arc::new(clock)
    }

    fn store(result: fn() -> Result<Option<LoadedSeed>, SeedError>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().times(1).returning(result);
        seeds
            .expect_location()
            .returning(|| "/data/seed.json".into());
        seeds.expect_update().never();
        seeds
    }

    fn example() -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed: decode_seed(EXAMPLE).unwrap(),
            repaired: None,
        }))
    }

    fn request(mode: Mode) -> ContextRequest {
        ContextRequest {
            mode,
            budget_chars: 9_000,
        }
    }

    #[test]
    fn full_mode_holds_identity_learnings_proposals_and_state() {
        let service = SessionContextService::new(store(example), clock());
        let context = pollster::block_on(service.compose(request(Mode::Full)));
        for expected in [
            "Identity: Juno (serving Mara)",
            "Learnings: 12 confirmed (6 patterns, 4 insights, 2 self-knowledge)",
            "  +1 more",
            "Pending proposals (3):",
            "[pattern] Prefers table-driven tests",
            "Last session: 1 day ago (2026-11-21 18:40 UTC)",
            "Checkpoint: ckpt_2026-11-21_001",
        ] {
            assert!(
                context.text.contains(expected),
                "{expected:?} missing from:\n{}",
                context.text
            );
        }
        assert!(
            !context.text.contains("Uses anyhow in binaries only"),
            "rejected proposal shown"
        );
        assert!(!context.needs_setup);
        assert_eq!((context.learnings_total, context.proposal_count), (12, 3));
        assert_eq!(context.learnings.len(), 11);
        assert!(context.user_notices.is_empty());
    }

    #[test]
    fn complement_mode_leaves_the_identity_out() {
        let service = SessionContextService::new(store(example), clock());
        let context = pollster::block_on(service.compose(request(Mode::Complement)));
        assert!(!context.text.contains("Identity:"));
        assert!(context.text.contains("Learnings: 12 confirmed"));
        assert_eq!(context.mode, Mode::Complement);
    }

    fn placeholder() -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed: Seed::default(),
            repaired: None,
        }))
    }

    #[rstest]
    #[case::no_seed(|| Ok(None))]
    #[case::placeholder_principal(placeholder)]
    fn first_run_asks_for_init(#[case] result: fn() -> Result<Option<LoadedSeed>, SeedError>) {
        let service = SessionContextService::new(store(result), clock());
        let context = pollster::block_on(service.compose(request(Mode::Full)));
        assert!(context.needs_setup);
        assert!(context.text.contains("carryover init"), "{}", context.text);
        assert_eq!(context.learnings_total, 0);
    }

    #[test]
    fn an_unusable_seed_still_yields_a_context_and_tells_the_user() {
        let service = SessionContextService::new(
            store(|| {
                Err(SeedError::Decode {
                    path: "/data/seed.json".into(),
                    source: SeedDecodeError::UnsupportedVersion {
                        found: "2.0.0".into(),
                    },
                })
            }),
            clock(),
        );
        let context = pollster::block_on(service.compose(request(Mode::Full)));
        assert!(
            context.text.contains("seed version 2.0.0 is not supported"),
            "{}",
            context.text
        );
        assert!(!context.needs_setup);
        assert_eq!(context.user_notices.len(), 1);
    }

    #[test]
    fn a_repair_is_reported_to_the_user() {
        let service = SessionContextService::new(
            store(|| {
                Ok(Some(LoadedSeed {
                    seed: decode_seed(EXAMPLE).unwrap(),
                    repaired: Some(Repaired {
                        problem: "not valid JSON".into(),
                        kept: "/data/seed.json.corrupted-1".into(),
                        from_commit: "abc1234".into(),
                    }),
                }))
            }),
            clock(),
        );
        let context = pollster::block_on(service.compose(request(Mode::Full)));
        assert!(context.user_notices[0].contains("restored the version of commit abc1234"));
        assert!(context.text.contains("Identity: Juno"));
    }

    #[test]
    fn stays_within_a_small_budget() {
        let service = SessionContextService::new(store(example), clock());
        let context = pollster::block_on(service.compose(ContextRequest {
            mode: Mode::Full,
            budget_chars: 600,
        }));
        assert!(context.text.chars().count() <= 600);
        assert!(context.text.starts_with("Identity: Juno"));
        assert!(context.learnings.len() < 11);
    }
}
