//! `carryover learnings`: list, show, search and forget confirmed learnings.

use crate::domain::ports::{Clock, Embedder, EmbeddingIndex, SeedRepository};
use crate::domain::prefix::resolve_prefix;
use crate::domain::project::Project;
use crate::domain::scope::{EVERY_PROJECT, is_global, scope_label};
use crate::domain::seed::{Learning, LearningKind, Seed};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;
use super::learning_retrieval::rank;

/// A learning with its kind (and its score, from a search).
#[derive(Debug, Clone, PartialEq)]
pub struct FoundLearning {
    /// Its kind.
    pub kind: LearningKind,
    /// The learning.
    pub learning: Learning,
    /// Similarity to the search, when searched.
    pub score: Option<f32>,
}

/// What a search found, best first, and how many learnings it looked through.
#[derive(Debug, Clone, PartialEq)]
pub struct Searched {
    /// The learnings that match, best first.
    pub found: Vec<FoundLearning>,
    /// The learnings in the scopes searched.
    pub searched: usize,
}

/// What a listing shows, and the projects of the learnings it leaves out as other projects'.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// Pinned first, then most recent first.
    pub found: Vec<FoundLearning>,
    /// The stored project of each learning left out that belongs to a project (not a global
    /// one), so that a listing can say where the rest are: a clone moved without a remote
    /// finds its learnings under its former path.
    pub elsewhere: Vec<String>,
}

impl Listed {
    /// The projects left out that bear `here`'s name ([`Project::namesake`]), each with how
    /// many of the learnings left out are its, in the order of their stored identities.
    pub fn namesakes(&self, here: &Project) -> Vec<(&str, usize)> {
        let mut counted: std::collections::BTreeMap<&str, usize> = Default::default();
        for stored in self.elsewhere.iter().filter(|stored| here.namesake(stored)) {
            *counted.entry(stored.as_str()).or_default() += 1;
        }
        counted.into_iter().collect()
    }
}

/// Where `learnings scope` moves a learning.
#[derive(Debug, Clone)]
pub enum ScopeTarget {
    /// Every project, even when its text names one.
    Global,
    /// One project.
    Project(Project),
}

/// A learning as an edit left it, and as it was before.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    /// The learning now.
    pub found: FoundLearning,
    /// The learning before the edit.
    pub before: Learning,
    /// Whether the edit changed anything.
    pub changed: bool,
}

/// Which learnings a listing shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeFilter {
    /// Every learning.
    All,
    /// Global ones only.
    Global,
    /// Those of one project (under its identity, or the path it went by before its `origin`
    /// remote was added, as a session start shows them), not the global ones.
    Project(Project),
}

impl ScopeFilter {
    fn admits(&self, learning: &Learning) -> bool {
        match self {
            Self::All => true,
            Self::Global => is_global(learning.project.as_deref()),
            Self::Project(project) => learning
                .project
                .as_deref()
                .is_some_and(|stored| project.owns(stored)),
        }
    }
}

/// The learnings of the seed.
pub struct Learnings<S, E, I> {
    seeds: S,
    embedder: E,
    index: I,
    clock: std::sync::Arc<dyn Clock>,
}

impl<S: SeedRepository, E: Embedder, I: EmbeddingIndex> Learnings<S, E, I> {
    /// A service over the given ports.
    pub fn new(seeds: S, embedder: E, index: I, clock: std::sync::Arc<dyn Clock>) -> Self {
        Self {
            seeds,
            embedder,
            index,
            clock,
        }
    }

    async fn seed(&self) -> Result<Seed, AppError> {
        Ok(self
            .seeds
            .load()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))?
            .seed)
    }

    /// Confirmed learnings that any of `scopes` admits, pinned first, then most recent first,
    /// and the projects of the other projects' learnings left out.
    pub async fn list(&self, scopes: &[ScopeFilter]) -> Result<Listed, AppError> {
        let seed = self.seed().await?;
        let (admitted, left_out): (Vec<_>, Vec<_>) = seed
            .confirmed_learnings()
            .partition(|(_, learning)| scopes.iter().any(|scope| scope.admits(learning)));
        let mut found: Vec<FoundLearning> = admitted
            .into_iter()
            .map(|(kind, learning)| FoundLearning {
                kind,
                learning: learning.clone(),
                score: None,
            })
            .collect();
        found.sort_by_key(|f| (!f.learning.pinned, std::cmp::Reverse(f.learning.recency())));
        let elsewhere = left_out
            .into_iter()
            .filter_map(|(_, learning)| learning.project.clone())
            .filter(|stored| !is_global(Some(stored)))
            .collect();
        Ok(Listed { found, elsewhere })
    }

    /// Moves the learning whose id starts with `prefix` to `target`. A learning of another
    /// project moves only when `force` is set: run in the wrong directory, the command would
    /// otherwise take it from the project whose sessions use it.
    pub async fn set_scope(
        &self,
        prefix: &str,
        target: ScopeTarget,
        force: bool,
    ) -> Result<Edited, AppError> {
        let change = match &target {
            ScopeTarget::Project(project) => format!("scope {}", project.id.as_str()),
            ScopeTarget::Global => "scope global".to_owned(),
        };
        self.edit(prefix, change, move |learning| {
            let stored = learning.project.as_deref();
            match &target {
                ScopeTarget::Global => {
                    // Global on purpose, even if it names a project (ADR 0010).
                    learning.project = Some(EVERY_PROJECT.to_owned());
                }
                ScopeTarget::Project(project) => {
                    if let Some(other) = stored.filter(|s| !is_global(Some(s)))
                        && !project.owns(other)
                        && !force
                    {
                        return Err(RuleError::OtherProjectsLearning {
                            id: learning.id.clone(),
                            project: scope_label(Some(other)),
                        });
                    }
                    if !stored.is_some_and(|s| project.owns(s)) {
                        learning.project = Some(project.id.as_str().to_owned());
                    }
                }
            }
            Ok(())
        })
        .await
    }

    /// Pins (or unpins) the learning whose id starts with `prefix`.
    pub async fn set_pinned(&self, prefix: &str, pinned: bool) -> Result<Edited, AppError> {
        let change = if pinned { "pin" } else { "unpin" };
        self.edit(prefix, change.to_owned(), move |learning| {
            learning.pinned = pinned;
            Ok(())
        })
        .await
    }

    /// Applies `apply` to the learning whose id starts with `prefix`, as one commit (none
    /// when it changed nothing); nothing is written when `apply` refuses.
    async fn edit(
        &self,
        prefix: &str,
        change: String,
        apply: impl FnOnce(&mut Learning) -> Result<(), RuleError> + Send + 'static,
    ) -> Result<Edited, AppError> {
        let prefix = prefix.to_owned();
        let edited = std::sync::Arc::new(std::sync::Mutex::new(None));
        let record = edited.clone();
        self.seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                let ids: Vec<String> = seed.learned.iter().map(|(_, l)| l.id.clone()).collect();
                let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
                let index = resolve_prefix("learning", &refs, &prefix)?;
                let id = ids[index].clone();
                for kind in LearningKind::ALL {
                    if let Some(learning) =
                        seed.learned.of_mut(kind).iter_mut().find(|l| l.id == id)
                    {
                        let before = learning.clone();
                        apply(learning)?;
                        *record
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Edited {
                            changed: *learning != before,
                            before,
                            found: FoundLearning {
                                kind,
                                learning: learning.clone(),
                                score: None,
                            },
                        });
                        break;
                    }
                }
                Ok((seed, ChangeReason::Edit { id, change }))
            }))
            .await?;
        let found = edited
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        found.ok_or(AppError::Rule(RuleError::NotInitialised))
    }

    /// The learning whose id starts with `prefix`.
    pub async fn show(&self, prefix: &str) -> Result<FoundLearning, AppError> {
        let seed = self.seed().await?;
        let all: Vec<(LearningKind, &Learning)> = seed.learned.iter().collect();
        let ids: Vec<&str> = all.iter().map(|(_, l)| l.id.as_str()).collect();
        let index = resolve_prefix("learning", &ids, prefix).map_err(AppError::Rule)?;
        let (kind, learning) = all[index];
        Ok(FoundLearning {
            kind,
            learning: learning.clone(),
            score: None,
        })
    }

    /// The `top` confirmed learnings closest to `query` (embeddings fused with BM25) among
    /// those any of `scopes` admits, leaving out those that share no word with it and whose
    /// similarity is under `floor`.
    pub async fn search(
        &self,
        query: &str,
        top: usize,
        scopes: &[ScopeFilter],
        floor: f32,
    ) -> Result<Searched, AppError> {
        let seed = self.seed().await?;
        let confirmed: Vec<(LearningKind, &Learning)> = seed
            .confirmed_learnings()
            .filter(|(_, learning)| scopes.iter().any(|scope| scope.admits(learning)))
            .collect();
        let stored = self
            .index
            .load(&self.embedder.model_id())
            .await
            .unwrap_or_default();
        let (ranked, _) = rank(&self.embedder, &stored, &confirmed, query, None)
            .await
            .map_err(|message| {
                AppError::Embed(crate::domain::EmbedError::Unavailable {
                    endpoint: "embedder".into(),
                    message,
                })
            })?;
        let found = ranked
            .into_iter()
            .filter(|r| r.matches(floor))
            .take(top)
            .map(|r| {
                let (kind, learning) = confirmed[r.index];
                FoundLearning {
                    kind,
                    learning: learning.clone(),
                    score: Some(r.fused),
                }
            })
            .collect();
        Ok(Searched {
            found,
            searched: confirmed.len(),
        })
    }

    /// Removes the learning whose id starts with `prefix`, leaving a tombstone so that a
    /// merge with another machine's seed does not bring it back; returns it.
    pub async fn forget(&self, prefix: &str) -> Result<FoundLearning, AppError> {
        let prefix = prefix.to_owned();
        let now = self.clock.now();
        let removed = std::sync::Arc::new(std::sync::Mutex::new(None));
        let record = removed.clone();
        self.seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                let ids: Vec<String> = seed.learned.iter().map(|(_, l)| l.id.clone()).collect();
                let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
                let index = resolve_prefix("learning", &refs, &prefix)?;
                let id = ids[index].clone();
                for kind in LearningKind::ALL {
                    let list = seed.learned.of_mut(kind);
                    if let Some(at) = list.iter().position(|l| l.id == id) {
                        let learning = list.remove(at);
                        seed.bury(&learning, now);
                        *record
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) =
                            Some(FoundLearning {
                                kind,
                                learning,
                                score: None,
                            });
                    }
                }
                Ok((seed, ChangeReason::Forget { id }))
            }))
            .await?;
        let found = removed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        found.ok_or(AppError::Rule(RuleError::UnknownPrefix {
            what: "learning",
            prefix: String::new(),
        }))
    }

    /// Forgets the learning like [`Learnings::forget`], then rewrites the store's history so
    /// that no recorded version holds its text; returns it with the number of versions
    /// rewritten.
    pub async fn forget_and_purge(&self, prefix: &str) -> Result<(FoundLearning, usize), AppError> {
        let found = self.forget(prefix).await?;
        let rewritten = self
            .seeds
            .purge(&found.learning.id, &found.learning.content)
            .await?;
        Ok((found, rewritten))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{empty_index, fixed_clock, flat_embedder};
    use crate::domain::ports::{LoadedSeed, MockSeedRepository};

    fn example() -> Seed {
        crate::application::testing::example_seed()
    }

    fn store() -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| {
            Ok(Some(LoadedSeed {
                seed: example(),
                repaired: None,
            }))
        });
        seeds.expect_update().returning(|edit| {
            let (seed, reason) = edit(Some(example()))?;
            assert_eq!(
                reason.to_string(),
                "Forget: remove learning ins_Mt6gD4xCk2Za"
            );
            let buried: Vec<String> = seed.tombstones().into_iter().map(|t| t.id).collect();
            assert_eq!(buried, ["ins_Mt6gD4xCk2Za"], "a forget leaves a tombstone");
            Ok(seed)
        });
        seeds
    }

    #[test]
    fn lists_shows_and_forgets_by_prefix() {
        let learnings = Learnings::new(store(), flat_embedder(), empty_index(), fixed_clock());
        let listed = pollster::block_on(learnings.list(&[ScopeFilter::All]))
            .unwrap()
            .found;
        assert_eq!(listed.len(), 12);
        assert_eq!(
            listed[0].learning.id, "pat_Vb8kN2sPq5Wf",
            "most recent first"
        );
        assert_eq!(
            pollster::block_on(learnings.show("ins_Mt6")).unwrap().kind,
            LearningKind::Insight
        );
        let forgotten = pollster::block_on(learnings.forget("Mt6g")).unwrap();
        assert_eq!(forgotten.learning.id, "ins_Mt6gD4xCk2Za");
    }

    /// A seed whose `ins_Mt6gD4xCk2Za` has the scope `stored`; what an edit writes is kept.
    fn scoped(
        stored: Option<&'static str>,
        written: std::sync::Arc<std::sync::Mutex<Option<Seed>>>,
    ) -> MockSeedRepository {
        let seed = move || {
            let mut seed = example();
            let insights = seed.learned.of_mut(LearningKind::Insight);
            let learning = insights.iter_mut().find(|l| l.id == "ins_Mt6gD4xCk2Za");
            learning.unwrap().project = stored.map(str::to_owned);
            seed
        };
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().returning(move |edit| {
            let (edited, _) = edit(Some(seed()))?;
            *written.lock().unwrap() = Some(edited.clone());
            Ok(edited)
        });
        seeds
    }

    #[rstest::rstest]
    #[case::another_projects(Some("path:/home/u/there"), 11, &["path:/home/u/there"])]
    #[case::this_projects(Some("path:/home/u/here"), 12, &[])]
    #[case::global_on_purpose(Some("*"), 12, &[])]
    fn a_listing_names_the_projects_of_the_learnings_it_leaves_out(
        #[case] stored: Option<&'static str>,
        #[case] shown: usize,
        #[case] elsewhere: &[&str],
    ) {
        let mut seed = example();
        let insights = seed.learned.of_mut(LearningKind::Insight);
        let learning = insights.iter_mut().find(|l| l.id == "ins_Mt6gD4xCk2Za");
        learning.unwrap().project = stored.map(str::to_owned);
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(move || {
            Ok(Some(LoadedSeed {
                seed: seed.clone(),
                repaired: None,
            }))
        });
        let learnings = Learnings::new(seeds, flat_embedder(), empty_index(), fixed_clock());
        let here = ScopeFilter::Project(Project::at("/home/u/here"));
        let listed = pollster::block_on(learnings.list(&[ScopeFilter::Global, here])).unwrap();
        assert_eq!(listed.found.len(), shown);
        assert_eq!(listed.elsewhere, elsewhere);
    }

    #[test]
    fn the_namesakes_of_a_listing_are_counted_per_project() {
        let stored = |s: &[&str]| s.iter().map(|s| (*s).to_owned()).collect();
        let listed = Listed {
            found: Vec::new(),
            elsewhere: stored(&[
                "path:/old/notes",
                "path:/home/u/web",
                "path:/old/notes",
                "git:github.com/u/notes",
            ]),
        };
        assert_eq!(
            listed.namesakes(&Project::at("/home/u/notes")),
            vec![("git:github.com/u/notes", 1), ("path:/old/notes", 2)]
        );
    }

    #[rstest::rstest]
    #[case::global_to_here(None, "here", false, Ok(Some("path:/home/u/here")))]
    #[case::here_stays(
        Some("path:/home/u/here"),
        "here",
        false,
        Ok(Some("path:/home/u/here"))
    )]
    #[case::elsewhere_refused(Some("path:/home/u/there"), "here", false, Err(()))]
    #[case::elsewhere_forced(
        Some("path:/home/u/there"),
        "here",
        true,
        Ok(Some("path:/home/u/here"))
    )]
    #[case::anything_to_global(Some("path:/home/u/there"), "global", false, Ok(Some("*")))]
    fn a_learning_moves_to_another_project_only_when_forced(
        #[case] stored: Option<&'static str>,
        #[case] target: &str,
        #[case] force: bool,
        #[case] expected: Result<Option<&str>, ()>,
    ) {
        let written = std::sync::Arc::default();
        let learnings = Learnings::new(
            scoped(stored, std::sync::Arc::clone(&written)),
            flat_embedder(),
            empty_index(),
            fixed_clock(),
        );
        let target = match target {
            "global" => ScopeTarget::Global,
            name => ScopeTarget::Project(Project::at(format!("/home/u/{name}"))),
        };
        let edited = pollster::block_on(learnings.set_scope("Mt6g", target, force));
        match expected {
            Ok(scope) => {
                let edited = edited.unwrap();
                assert_eq!(edited.found.learning.project.as_deref(), scope);
                assert_eq!(edited.changed, stored != scope);
            }
            Err(()) => {
                assert!(
                    matches!(
                        edited,
                        Err(AppError::Rule(RuleError::OtherProjectsLearning { .. }))
                    ),
                    "{edited:?}"
                );
                assert!(written.lock().unwrap().is_none(), "nothing written");
            }
        }
    }

    #[test]
    fn search_ranks_by_the_query() {
        let learnings = Learnings::new(store(), flat_embedder(), empty_index(), fixed_clock());
        let found = pollster::block_on(learnings.search(
            "staging database fixtures",
            3,
            &[ScopeFilter::All],
            0.22,
        ))
        .unwrap()
        .found;
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].learning.id, "ins_Mt6gD4xCk2Za");
        assert!(found[0].score.is_some());
    }
}
