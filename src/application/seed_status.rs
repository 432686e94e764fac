//! `carryover status`: where the seed is and what state it is in.

use std::path::PathBuf;

use crate::domain::ports::{Repaired, SeedHistory, SeedRepository};
use crate::domain::seed::{LearningKind, Timestamp};

/// Everything `status` reports.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusReport {
    /// The seed file.
    pub seed_path: PathBuf,
    /// Whether it exists.
    pub exists: bool,
    /// Its format version, when readable.
    pub version: Option<String>,
    /// Why it cannot be used, when it cannot.
    pub problem: Option<String>,
    /// First run: no seed or a placeholder principal.
    pub needs_setup: bool,
    /// Assistant and principal names.
    pub identity: Option<(String, String)>,
    /// Confirmed learnings per kind.
    pub learnings: Vec<(LearningKind, usize)>,
    /// Proposals awaiting review.
    pub pending_proposals: usize,
    /// When the last session ran.
    pub last_session_at: Option<Timestamp>,
    /// Set when this very call repaired the seed.
    pub repaired: Option<Repaired>,
    /// The store's history, when it keeps one; `Err` says why it cannot be read.
    pub history: Result<Option<SeedHistory>, String>,
}

impl StatusReport {
    /// True when the seed can be used as it is.
    pub fn is_valid(&self) -> bool {
        self.exists && self.problem.is_none()
    }
}

/// Reports on the seed store.
pub struct SeedStatus<S> {
    seeds: S,
}

impl<S: SeedRepository> SeedStatus<S> {
    /// A service over the given seed store.
    pub fn new(seeds: S) -> Self {
        Self { seeds }
    }

    /// The report. Loading may repair a corrupt seed, which the report then says.
    pub async fn report(&self) -> StatusReport {
        let loaded = self.seeds.load().await;
        let history = self.seeds.history().await.map_err(|e| e.to_string());
        let mut report = StatusReport {
            seed_path: self.seeds.location(),
            exists: false,
            version: None,
            problem: None,
            needs_setup: true,
            identity: None,
            learnings: LearningKind::ALL.iter().map(|kind| (*kind, 0)).collect(),
            pending_proposals: 0,
            last_session_at: None,
            repaired: None,
            history,
        };
        match loaded {
            Ok(None) => {}
            Ok(Some(loaded)) => {
                let seed = loaded.seed;
                report.exists = true;
                report.version = Some(seed.version.clone());
                report.needs_setup = seed.needs_setup();
                report.identity = Some((
                    seed.identity.ai_name.clone(),
                    seed.identity.principal_name.clone(),
                ));
                report.learnings = LearningKind::ALL
                    .iter()
                    .map(|kind| {
                        (
                            *kind,
                            seed.learned
                                .of(*kind)
                                .iter()
                                .filter(|l| l.confirmed)
                                .count(),
                        )
                    })
                    .collect();
                report.pending_proposals = seed.pending_proposals().count();
                report.last_session_at = seed.state.last_session_at;
                report.repaired = loaded.repaired;
            }
            Err(error) => {
                report.exists = true;
                report.needs_setup = false;
                report.problem = Some(error.to_string());
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::SeedError;
    use crate::domain::ports::{LoadedSeed, MockSeedRepository};

    fn store(load: fn() -> Result<Option<LoadedSeed>, SeedError>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(load);
        seeds.expect_history().returning(|| Ok(None));
        seeds
            .expect_location()
            .returning(|| "/data/seed.json".into());
        seeds
    }

    #[test]
    fn counts_what_the_seed_holds() {
        let report = pollster::block_on(
            SeedStatus::new(store(|| {
                Ok(Some(LoadedSeed {
                    seed: crate::application::testing::example_seed(),
                    repaired: None,
                }))
            }))
            .report(),
        );
        assert!(report.is_valid());
        assert!(!report.needs_setup);
        assert_eq!(
            report.learnings,
            vec![
                (LearningKind::Pattern, 6),
                (LearningKind::Insight, 4),
                (LearningKind::SelfKnowledge, 2)
            ]
        );
        assert_eq!(report.pending_proposals, 3);
    }

    #[test]
    fn no_seed_needs_setup() {
        let report = pollster::block_on(SeedStatus::new(store(|| Ok(None))).report());
        assert!(!report.exists && report.needs_setup && !report.is_valid());
    }

    #[test]
    fn an_unusable_seed_is_reported_not_raised() {
        let report = pollster::block_on(
            SeedStatus::new(store(|| {
                Err(SeedError::Unrepairable {
                    path: "/data/seed.json".into(),
                    problem: "bad".into(),
                })
            }))
            .report(),
        );
        assert!(!report.is_valid());
        assert!(report.problem.unwrap().contains("no valid version"));
    }
}
