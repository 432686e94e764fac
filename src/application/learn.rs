//! `carryover learn`: add a confirmed learning by hand.

use std::sync::Arc;

use crate::domain::ports::{Clock, Embedder, IdGenerator, SeedRepository};
use crate::domain::scope::scopes_overlap;
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
    /// The identity `project` went by before its `origin` remote was added: a learning
    /// stored under it is the project's too (`Project::former_id`). Only read with `project`.
    pub former_project: Option<String>,
    /// Always shown first at session start.
    pub pinned: bool,
}

/// A stored learning that says nearly what a new one says.
#[derive(Debug, Clone, PartialEq)]
pub struct NearLearning {
    /// Its id.
    pub id: String,
    /// Its text.
    pub content: String,
    /// Built-in model cosine (1.0 for the same text once case, spacing and a final full stop
    /// are ignored).
    pub similarity: f32,
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

    /// The stored learning closest to `content`, when its similarity is at least `threshold`
    /// (the one proposals use to drop near-duplicates). Only a warning hangs on it, so an
    /// embedder that fails finds nothing rather than stopping `learn`.
    pub async fn near<E: Embedder>(
        &self,
        embedder: &E,
        content: &str,
        threshold: f32,
    ) -> Result<Option<NearLearning>, AppError> {
        let Some(loaded) = self.seeds.load().await? else {
            return Ok(None);
        };
        let content = clean(content);
        let wanted = normalise(&content);
        let learnings: Vec<&Learning> = loaded.seed.learned.iter().map(|(_, l)| l).collect();
        if let Some(same) = learnings.iter().find(|l| normalise(&l.content) == wanted) {
            return Ok(Some(NearLearning {
                id: same.id.clone(),
                content: same.content.clone(),
                similarity: 1.0,
            }));
        }
        if learnings.is_empty() {
            return Ok(None);
        }
        let mut texts = vec![content];
        texts.extend(learnings.iter().map(|l| l.content.clone()));
        let Ok(vectors) = embedder.embed(&texts).await else {
            return Ok(None);
        };
        let Some((new, known)) = vectors.split_first() else {
            return Ok(None);
        };
        let closest = learnings
            .iter()
            .zip(known)
            .map(|(learning, vector)| (learning, dot(new, vector)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        Ok(closest
            .filter(|(_, similarity)| *similarity >= threshold)
            .map(|(learning, similarity)| NearLearning {
                id: learning.id.clone(),
                content: learning.content.clone(),
                similarity,
            }))
    }

    /// Adds `content` as a confirmed learning of `kind`; refuses empty text, text that looks
    /// like it holds a secret (learnings are committed and injected, where a transcript's
    /// secrets are redacted), a missing seed and a learning whose text (ignoring case and
    /// spacing) is already stored under that kind where a session would see both (the same
    /// fact may belong to two projects; one stored under the project's former identity is
    /// the project's).
    pub async fn learn(
        &self,
        kind: LearningKind,
        content: &str,
        options: LearnOptions,
    ) -> Result<Learning, AppError> {
        let content = clean(content);
        if content.is_empty() {
            return Err(AppError::Rule(RuleError::Empty {
                what: "the learning",
            }));
        }
        if let Some(finding) = crate::domain::redaction::find_secrets(&content)
            .into_iter()
            .next()
        {
            return Err(AppError::Rule(RuleError::SecretInLearning {
                rule: finding.rule,
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
        let former = options.former_project;
        let added = learning.clone();
        self.seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                let wanted = normalise(&learning.content);
                // A learning stored under the project's former identity is the project's too.
                let former = former.as_deref();
                if let Some(existing) = seed.learned.of(kind).iter().find(|existing| {
                    let stored = existing.project.as_deref();
                    normalise(&existing.content) == wanted
                        && (scopes_overlap(stored, learning.project.as_deref())
                            || (stored.is_some() && stored == former))
                }) {
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

/// Terminal escapes (a colour code: the escape and its parameters), control characters and
/// invisible marks (zero-width spaces) are not text: they are removed, and runs of spacing
/// become one space. Words after an unterminated escape are kept.
fn clean(content: &str) -> String {
    crate::domain::format::without_terminated_escapes(content)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|c| !crate::domain::format::is_invisible_format(*c))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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
    #[case::colour_codes("Escape \u{1b}[31mRED\u{1b}[0m text", "Escape RED text")]
    #[case::zero_width_and_tabs("Use\u{200b} tabs\tand  spaces\n", "Use tabs and spaces")]
    #[case::a_bell("Ring\u{7}the bell", "Ring the bell")]
    #[case::a_window_title("Keeps\u{1b}]0;pwned\u{7} titles short", "Keeps titles short")]
    #[case::unterminated_keeps_its_words(
        "keep \u{1b}]unterminated osc then more words",
        "keep ]unterminated osc then more words"
    )]
    #[case::a_lone_escape("lone \u{1b} esc then words", "lone esc then words")]
    fn a_learning_keeps_only_its_visible_text(#[case] typed: &str, #[case] kept: &str) {
        assert_eq!(clean(typed), kept);
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

    #[rstest]
    #[case::global_twice(None, None, true)]
    #[case::project_after_global(None, Some("path:/home/u/b"), true)]
    #[case::global_after_project(Some("path:/home/u/a"), None, true)]
    #[case::same_project(Some("path:/home/u/a"), Some("path:/home/u/a"), true)]
    #[case::another_project(Some("path:/home/u/a"), Some("path:/home/u/b"), false)]
    #[case::the_project_before_its_remote(
        Some("path:/home/u/shop"),
        Some("git:github.com/u/shop"),
        true
    )]
    fn a_duplicate_is_the_same_text_where_a_session_sees_both(
        #[case] first: Option<&str>,
        #[case] second: Option<&str>,
        #[case] duplicate: bool,
    ) {
        let written = Arc::new(Mutex::new(None));
        let options = |project: Option<&str>| LearnOptions {
            project: project.map(str::to_owned),
            former_project: project
                .filter(|p| p.starts_with("git:"))
                .map(|_| "path:/home/u/shop".to_owned()),
            ..LearnOptions::default()
        };
        let text = "Tests run with make check";
        let learn = Learn::new(
            store(Some(existing_seed()), written.clone()),
            clock(),
            ids(),
        );
        pollster::block_on(learn.learn(LearningKind::Insight, text, options(first))).unwrap();
        let seed = written.lock().unwrap().clone().unwrap();
        let mut seeds = MockSeedRepository::new();
        seeds
            .expect_update()
            .returning(move |edit| edit(Some(seed.clone())).map(|(s, _)| s));
        let again = Learn::new(seeds, clock(), ids());
        let result = pollster::block_on(again.learn(LearningKind::Insight, text, options(second)));
        assert_eq!(
            matches!(
                result,
                Err(AppError::Rule(RuleError::DuplicateLearning { .. }))
            ),
            duplicate,
            "{result:?}"
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

    #[rstest]
    #[case::aws_access_key("The CI key is AKIAZ3MTQ7LP4XN2WBQD for the deploy bucket")]
    #[case::github_token("use ghp_8fK2mQ9xLp4Rt7Wv1Zb3Nc6Hd0Js5Ya2Ue4G to push")]
    #[case::typed_password("my password is Tr0ub4dor&3horse")]
    fn refuses_text_that_holds_a_secret_without_touching_the_store(#[case] text: &str) {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let error = pollster::block_on(Learn::new(seeds, clock(), ids()).learn(
            LearningKind::Insight,
            text,
            LearnOptions::default(),
        ))
        .unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::SecretInLearning { .. })),
            "{error}"
        );
        assert!(
            !error.to_string().contains(&text[12..20]),
            "the secret is not echoed"
        );
    }

    fn seed_with(contents: &[&str]) -> Seed {
        let mut seed = existing_seed();
        for (n, content) in contents.iter().enumerate() {
            seed.learned.insights.push(Learning::new(
                format!("ins_{n}"),
                (*content).to_owned(),
                MANUAL_SOURCE.to_owned(),
                Timestamp::parse("2026-11-01T10:00:00Z").unwrap(),
                true,
            ));
        }
        seed
    }

    /// An embedder whose vectors say: texts about staging point one way, about deploys
    /// another, the rest a third.
    fn topical_embedder() -> crate::domain::ports::MockEmbedder {
        let mut embedder = crate::domain::ports::MockEmbedder::new();
        embedder.expect_embed().returning(|texts| {
            Ok(texts
                .iter()
                .map(|t| {
                    let t = t.to_lowercase();
                    if t.contains("staging") {
                        vec![1.0, 0.0, 0.0]
                    } else if t.contains("deploy") {
                        vec![0.0, 1.0, 0.0]
                    } else {
                        vec![0.0, 0.0, 1.0]
                    }
                })
                .collect())
        });
        embedder
    }

    #[rstest]
    #[case::same_text_ignoring_case("STAGING resets every Sunday.", Some(("ins_0", 1.0)))]
    #[case::similar_by_the_model("The staging database is wiped weekly", Some(("ins_0", 1.0)))]
    #[case::unrelated("Mara prefers tabs", None)]
    fn finds_a_near_duplicate(#[case] text: &str, #[case] expected: Option<(&str, f32)>) {
        let mut seeds = MockSeedRepository::new();
        let seed = seed_with(&["Staging resets every Sunday", "Deploys go out on Tuesdays"]);
        seeds.expect_load().returning(move || {
            Ok(Some(crate::domain::ports::LoadedSeed {
                seed: seed.clone(),
                repaired: None,
            }))
        });
        let service = Learn::new(seeds, clock(), ids());
        let near = pollster::block_on(service.near(&topical_embedder(), text, 0.8)).unwrap();
        assert_eq!(
            near.map(|n| (n.id, n.similarity)),
            expected.map(|(id, s)| (id.to_owned(), s))
        );
    }
}
