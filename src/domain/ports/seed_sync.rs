//! Where the seed is shared with the user's other machines: a git remote (ADR 0020).

use crate::domain::SyncError;
use crate::domain::seed::{MergeConflict, Timestamp};

/// What merging the remote's seed into this one did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MergeOutcome {
    /// True when the local seed changed (a fast-forward or a merge commit).
    pub changed: bool,
    /// What the seed merge could not decide (kept both, or kept one and reported the other).
    pub conflicts: Vec<MergeConflict>,
}

/// What a push did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushOutcome {
    /// The remote took new commits.
    Pushed,
    /// The remote already had everything.
    UpToDate,
    /// The remote moved on since the fetch (another machine pushed): fetch and merge again.
    Rejected,
}

/// The last sync's result, kept for `status` and `doctor`.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncRecord {
    /// When it ended.
    pub at: Timestamp,
    /// `None` when it succeeded, else what went wrong.
    pub error: Option<String>,
    /// How many conflicts it reported.
    pub conflicts: usize,
}

/// The seed's repository and its remote. Implementations MUST hold the seed's lock while they
/// change the seed file (`prepare`, `merge`), MUST NOT wait on the network while holding it,
/// and MUST leave the local seed as it was when a step fails.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SeedSync: Send + Sync {
    /// The remote's URL, if one is set.
    async fn remote(&self) -> Result<Option<String>, SyncError>;

    /// Sets (or replaces) the remote and registers the seed's merge driver.
    async fn set_remote(&self, url: &str) -> Result<(), SyncError>;

    /// Forgets the remote; returns its URL, or `None` when none was set.
    async fn remove_remote(&self) -> Result<Option<String>, SyncError>;

    /// Makes the repository ready for a merge: created if missing, the merge driver
    /// registered, a merge a killed sync left half done undone, local changes committed.
    async fn prepare(&self) -> Result<(), SyncError>;

    /// Fetches the remote; returns whether it holds a seed yet.
    async fn fetch(&self) -> Result<bool, SyncError>;

    /// Merges the fetched seed into the local one.
    async fn merge(&self) -> Result<MergeOutcome, SyncError>;

    /// The seed text a push would publish (the newest commit's); `None` before any commit.
    async fn outgoing(&self) -> Result<Option<String>, SyncError>;

    /// Pushes the local commits.
    async fn push(&self) -> Result<PushOutcome, SyncError>;

    /// Keeps the result of a sync for `status` and `doctor`.
    async fn record(&self, record: &SyncRecord) -> Result<(), SyncError>;

    /// The last sync's result, if a sync ever ran.
    async fn last(&self) -> Result<Option<SyncRecord>, SyncError>;
}
