//! `carryover learn`: add a confirmed learning by hand.

use std::sync::Arc;

use crate::domain::ports::{Clock, IdGenerator, SeedRepository};
use crate::domain::seed::{Learning, LearningKind};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;

/// What `learn` records as the source of a learning typed by the user.
pub const MANUAL_SOURCE: &str = "carryover learn";

/// Where a new learning belongs and how it is shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LearnOptions {
    /// Labels.
    pub tags: Vec<String>,
    /// The project it belongs to; `None` makes it global.
    pub project: Option<String>,
    /// Always shown first at session start.
    pub pinned: bool,
}

/// Adds confirmed learnings to the seed.
pub struct Learn<S> {
    seeds: S,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

impl<S: SeedRepository> Learn<S> {
    /// A service over the given seed store, clock and id source.
    pub fn new(seeds: S, clock: Arc<dyn Clock>, ids: Arc<dyn IdGenerator>) -> Self {
        Self { seeds, clock, ids }
    }

    /// Adds `content` as a confirmed learning of `kind`; refuses empty text, a missing seed and
    /// a learning whose text (ignoring case and spacing) is already stored under that kind.
    pub async fn learn(
        &self,
        kind: LearningKind,
        content: &str,
        options: LearnOptions,
    ) -> Result<Learning, AppError> {
        // Control characters (a terminal escape) and invisible marks (zero-width spaces) are
        // not text: they are removed, and what is left must say something.
        let content = content
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .filter(|c| !crate::domain::format::is_invisible_format(*c))
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if content.is_empty() {
            return Err(AppError::Rule(RuleError::Empty {
                what: "the learning",
            }));
        }
        let now = self.clock.now();
        let mut learning = Learning::new(
            self.ids.next_id(kind.id_prefix()),
            content,
            MANUAL_SOURCE.to_owned(),
            now,
            true,
        );
        learning.tags = options.tags;
        learning.project = options.project;
        learning.pinned = options.pinned;
        let added = learning.clone();
        self.seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                let wanted = normalise(&learning.content);
                if let Some(existing) = seed
                    .learned
                    .of(kind)
                    .iter()
                    .find(|existing| normalise(&existing.content) == wanted)
                {
                    return Err(RuleError::DuplicateLearning {
                        id: existing.id.clone(),
                    }
                    .into());
                }
                let reason = ChangeReason::Learn {
                    kind,
                    id: learning.id.clone(),
                };
                seed.learned.of_mut(kind).push(learning);
                Ok((seed, reason))
            }))
            .await?;
        Ok(added)
    }
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches('.')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ports::{MockClock, MockIdGenerator, MockSeedRepository};
    use crate::domain::seed::{Seed, Timestamp};
    use rstest::rstest;
    use std::sync::Mutex;

    fn clock() -> Arc<dyn Clock> {
        let mut clock = MockClock::new();
        clock
            .expect_now()
            .returning(|| Timestamp::parse("2026-11-22T10:00:00Z").unwrap());
        Arc::new(clock)
    }

    fn ids() -> Arc<dyn IdGenerator> {
        let mut ids = MockIdGenerator::new();
        ids.expect_next_id()
            .returning(|prefix| format!("{prefix}NEW"));
        Arc::new(ids)
    }

    fn existing_seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        seed
    }

    /// A store that applies the edit to `current` and keeps what it would have written.
    fn store(current: Option<Seed>, written: Arc<Mutex<Option<Seed>>>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().times(1).returning(move |edit| {
            let (seed, reason) = edit(current.clone())?;
            assert_eq!(reason.to_string(), "Learn: add insight ins_NEW");
            *written.lock().unwrap() = Some(seed.clone());
            Ok(seed)
        });
        seeds
    }

    #[test]
    fn adds_a_confirmed_learning_with_an_id_and_times() {
        let written = Arc::new(Mutex::new(None));
        let service = Learn::new(
            store(Some(existing_seed()), written.clone()),
            clock(),
            ids(),
        );
        let learning = pollster::block_on(service.learn(
            LearningKind::Insight,
            "  Staging resets   every Sunday ",
            LearnOptions {
                tags: vec!["staging".into()],
                ..LearnOptions::default()
            },
        ))
        .unwrap();
        assert_eq!(learning.id, "ins_NEW");
        assert_eq!(learning.content, "Staging resets every Sunday");
        assert!(learning.confirmed);
        assert_eq!(learning.confirmed_at, Some(learning.extracted_at));
        let seed = written.lock().unwrap().clone().unwrap();
        assert_eq!(seed.learned.insights, vec![learning]);
    }

    #[rstest]
    #[case::same_text("Staging resets every Sunday")]
    #[case::other_case_and_full_stop("staging RESETS every sunday.")]
    fn refuses_a_duplicate(#[case] again: &str) {
        let mut seed = existing_seed();
        let written = Arc::new(Mutex::new(None));
        let first = Learn::new(store(Some(seed.clone()), written.clone()), clock(), ids());
        pollster::block_on(first.learn(
            LearningKind::Insight,
            "Staging resets every Sunday",
            LearnOptions::default(),
        ))
        .unwrap();
        seed = written.lock().unwrap().clone().unwrap();
        let mut seeds = MockSeedRepository::new();
        seeds
            .expect_update()
            .returning(move |edit| edit(Some(seed.clone())).map(|(s, _)| s));
        let second = Learn::new(seeds, clock(), ids());
        let error =
            pollster::block_on(second.learn(LearningKind::Insight, again, LearnOptions::default()))
                .unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::DuplicateLearning { id }) if id == "ins_NEW")
        );
    }

    #[test]
    fn needs_a_seed() {
        let mut seeds = MockSeedRepository::new();
        seeds
            .expect_update()
            .returning(|edit| edit(None).map(|(s, _)| s));
        let error = pollster::block_on(Learn::new(seeds, clock(), ids()).learn(
            LearningKind::Pattern,
            "x",
            LearnOptions::default(),
        ))
        .unwrap_err();
        assert!(matches!(error, AppError::Rule(RuleError::NotInitialised)));
    }

    #[test]
    fn refuses_blank_text_without_touching_the_store() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let error = pollster::block_on(Learn::new(seeds, clock(), ids()).learn(
            LearningKind::Pattern,
            " \n ",
            LearnOptions::default(),
        ))
        .unwrap_err();
        assert!(matches!(error, AppError::Rule(RuleError::Empty { .. })));
    }
}
