//! `carryover sync`: fetch the remote's seed, merge it into this one, push the result
//! (ADR 0020). A push that lost a race with another machine is fetched and merged again.

use std::sync::Arc;

use crate::domain::SyncError;
use crate::domain::ports::{Clock, PushOutcome, SeedSync, SyncRecord};
use crate::domain::redaction::find_secrets;
use crate::domain::seed::{IdentityField, MergeConflict, Seed, decode_seed};

use super::AppError;

/// How many times a push rejected by a newer remote is retried after a new fetch and merge.
const ATTEMPTS: usize = 3;

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncReport {
    /// The remote's URL.
    pub remote: String,
    /// True when the remote held a seed to merge.
    pub fetched: bool,
    /// True when the local seed changed.
    pub merged: bool,
    /// True when the remote took new commits.
    pub pushed: bool,
    /// What the merge could not decide.
    pub conflicts: Vec<MergeConflict>,
    /// Learnings in the seed afterwards.
    pub learnings: usize,
    /// Proposals in the seed afterwards (pending and decided).
    pub proposals: usize,
    /// Forgotten learnings the seed keeps a tombstone of.
    pub forgotten: usize,
}

/// Syncs the seed with its remote.
pub struct SyncSeed<Y> {
    sync: Y,
    clock: Arc<dyn Clock>,
}

impl<Y: SeedSync> SyncSeed<Y> {
    /// A service over the given port.
    pub fn new(sync: Y, clock: Arc<dyn Clock>) -> Self {
        Self { sync, clock }
    }

    /// Sets the remote (replacing one already set) and registers the merge driver.
    pub async fn add_remote(&self, url: &str) -> Result<(), AppError> {
        if url.trim().is_empty() {
            return Err(SyncError::BlankRemote.into());
        }
        self.sync.set_remote(url).await?;
        Ok(())
    }

    /// Stops syncing: forgets the remote and returns its URL, or `None` when none was set.
    pub async fn remove_remote(&self) -> Result<Option<String>, AppError> {
        Ok(self.sync.remove_remote().await?)
    }

    /// The remote set, if any.
    pub async fn remote(&self) -> Result<Option<String>, AppError> {
        Ok(self.sync.remote().await?)
    }

    /// The last sync's result.
    pub async fn last(&self) -> Result<Option<SyncRecord>, AppError> {
        Ok(self.sync.last().await?)
    }

    /// Fetches, merges and pushes; the result, success or failure, is recorded for `status`
    /// and `doctor`.
    pub async fn run(&self) -> Result<SyncReport, AppError> {
        let result = self.attempt().await;
        let record = SyncRecord {
            at: self.clock.now(),
            error: result.as_ref().err().map(ToString::to_string),
            conflicts: result.as_ref().map_or(0, |report| report.conflicts.len()),
        };
        // A sync that worked is not failed by its bookkeeping.
        let _ = self.sync.record(&record).await;
        Ok(result?)
    }

    async fn attempt(&self) -> Result<SyncReport, SyncError> {
        let remote = self.sync.remote().await?.ok_or(SyncError::NoRemote)?;
        self.sync.prepare().await?;
        let mut report = SyncReport {
            remote,
            ..SyncReport::default()
        };
        for _ in 0..ATTEMPTS {
            if self.sync.fetch().await? {
                report.fetched = true;
                let outcome = self.sync.merge().await?;
                report.merged |= outcome.changed;
                report.conflicts.extend(outcome.conflicts);
            }
            let Some(text) = self.sync.outgoing().await? else {
                return Ok(report);
            };
            let seed = decode_seed(&text).map_err(|error| SyncError::Unmergeable {
                reason: format!("the merged seed is not valid: {error}"),
            })?;
            refuse_secrets(&seed)?;
            report.learnings = seed.learned.len();
            report.proposals = seed.state.proposals.len();
            report.forgotten = seed.tombstones().len();
            match self.sync.push().await? {
                PushOutcome::Pushed => {
                    report.pushed = true;
                    return Ok(report);
                }
                PushOutcome::UpToDate => return Ok(report),
                PushOutcome::Rejected => continue,
            }
        }
        Err(SyncError::Git {
            command: "push".into(),
            message: format!("the remote kept moving; gave up after {ATTEMPTS} attempts"),
        })
    }
}

/// Refuses a seed in which the redactor finds a secret, naming the learning, proposal or
/// identity field (never the secret): whatever is pushed reaches every machine and the
/// remote's host. (A seed written by hand, or by a version that did not check, may hold one.)
fn refuse_secrets(seed: &Seed) -> Result<(), SyncError> {
    let identity = IdentityField::ALL.into_iter().map(|field| {
        (
            format!("identity {}", field.key()),
            field.get(&seed.identity),
        )
    });
    let texts = seed
        .learned
        .iter()
        .map(|(_, l)| (l.id.clone(), l.content.as_str()))
        .chain(
            seed.state
                .proposals
                .iter()
                .map(|p| (p.id.clone(), p.content.as_str())),
        )
        .chain(identity);
    for (id, text) in texts {
        if let Some(finding) = find_secrets(text).into_iter().next() {
            return Err(SyncError::Secret {
                id,
                rule: finding.rule,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::fixed_clock;
    use crate::domain::ports::{MergeOutcome, MockSeedSync};
    use crate::domain::seed::{Learning, Timestamp, encode_seed};
    use rstest::rstest;

    fn seed_with(text: &str) -> String {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        seed.learned.insights.push(Learning::new(
            "ins_1".into(),
            text.into(),
            "test".into(),
            Timestamp::parse("2026-11-01T10:00:00Z").unwrap(),
            true,
        ));
        encode_seed(&seed)
    }

    fn sync(text: String, pushes: Vec<PushOutcome>) -> MockSeedSync {
        let mut sync = MockSeedSync::new();
        sync.expect_remote()
            .returning(|| Ok(Some("/srv/seed.git".into())));
        sync.expect_prepare().returning(|| Ok(()));
        sync.expect_fetch().returning(|| Ok(true));
        sync.expect_merge().returning(|| {
            Ok(MergeOutcome {
                changed: true,
                conflicts: Vec::new(),
            })
        });
        sync.expect_outgoing()
            .returning(move || Ok(Some(text.clone())));
        let mut pushes = pushes.into_iter();
        sync.expect_push()
            .returning(move || Ok(pushes.next().unwrap_or(PushOutcome::UpToDate)));
        sync.expect_record().returning(|_| Ok(()));
        sync
    }

    #[rstest]
    #[case::pushed_at_once(vec![PushOutcome::Pushed], true)]
    #[case::nothing_new(vec![PushOutcome::UpToDate], false)]
    #[case::a_lost_race_is_merged_again(vec![PushOutcome::Rejected, PushOutcome::Pushed], true)]
    fn fetches_merges_and_pushes(#[case] pushes: Vec<PushOutcome>, #[case] pushed: bool) {
        let service = SyncSeed::new(
            sync(seed_with("Deploys go out on Tuesdays"), pushes),
            fixed_clock(),
        );
        let report = pollster::block_on(service.run()).unwrap();
        assert!(report.fetched && report.merged);
        assert_eq!(report.pushed, pushed);
        assert_eq!(report.learnings, 1);
    }

    #[test]
    fn refuses_to_push_a_secret_and_names_the_learning_not_the_secret() {
        let mut sync = sync(
            seed_with("The CI deploy key is AKIAZ3MTQ7LP4XN2WBQD"),
            Vec::new(),
        );
        sync.checkpoint();
        let text = seed_with("The CI deploy key is AKIAZ3MTQ7LP4XN2WBQD");
        sync.expect_remote()
            .returning(|| Ok(Some("/srv/seed.git".into())));
        sync.expect_prepare().returning(|| Ok(()));
        sync.expect_fetch().returning(|| Ok(false));
        sync.expect_outgoing()
            .returning(move || Ok(Some(text.clone())));
        sync.expect_push().never();
        sync.expect_record()
            .withf(|record| record.error.as_deref().is_some_and(|e| e.contains("ins_1")))
            .returning(|_| Ok(()));
        let error = pollster::block_on(SyncSeed::new(sync, fixed_clock()).run()).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("ins_1"), "{message}");
        assert!(!message.contains("AKIA"), "{message}");
    }

    #[rstest]
    #[case::clean("Juno here, ready to go.", None)]
    #[case::a_token(
        "token ghp_4Zq8Lm2Vx7Rt9Kp3Wn6Yb1Hc5Jd0Fs8Ge2Ta",
        Some("identity catchphrase")
    )]
    fn an_identity_field_holding_a_secret_is_not_pushed(
        #[case] catchphrase: &str,
        #[case] named: Option<&str>,
    ) {
        let mut seed = decode_seed(&seed_with("Deploys go out on Tuesdays")).unwrap();
        seed.identity.catchphrase = catchphrase.into();
        match (refuse_secrets(&seed), named) {
            (Ok(()), None) => {}
            (Err(SyncError::Secret { id, .. }), Some(named)) => assert_eq!(id, named),
            (outcome, _) => panic!("{outcome:?}"),
        }
    }

    #[test]
    fn without_a_remote_nothing_is_touched() {
        let mut sync = MockSeedSync::new();
        sync.expect_remote().returning(|| Ok(None));
        sync.expect_prepare().never();
        sync.expect_record().returning(|_| Ok(()));
        let error = pollster::block_on(SyncSeed::new(sync, fixed_clock()).run()).unwrap_err();
        assert!(matches!(error, AppError::Sync(SyncError::NoRemote)));
    }

    #[rstest]
    #[case::empty("")]
    #[case::blank("  ")]
    fn a_blank_remote_is_refused_and_the_remote_kept(#[case] url: &str) {
        let mut sync = MockSeedSync::new();
        sync.expect_set_remote().never();
        let service = SyncSeed::new(sync, fixed_clock());
        assert!(matches!(
            pollster::block_on(service.add_remote(url)),
            Err(AppError::Sync(SyncError::BlankRemote))
        ));
    }
}
