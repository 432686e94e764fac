//! Where the seed lives.

use std::path::{Path, PathBuf};

use crate::domain::seed::Seed;
use crate::domain::{ChangeReason, SeedError};

/// A change to apply to the stored seed: it receives the current seed (`None` on first run)
/// and returns the new one with the reason to record, or refuses with an error.
pub type SeedEdit = Box<dyn FnOnce(Option<Seed>) -> Result<(Seed, ChangeReason), SeedError> + Send>;

/// A seed as loaded, with the repair that loading had to make, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSeed {
    /// The seed.
    pub seed: Seed,
    /// Set when the file on disk was corrupt and was restored from history.
    pub repaired: Option<Repaired>,
}

/// What a repair did, for telling the user.
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    /// What was wrong with the file.
    pub problem: String,
    /// Where the bad file was kept (`None` when the file was missing).
    pub kept: Option<PathBuf>,
    /// The commit the good version came from.
    pub from_commit: String,
}

impl Repaired {
    /// What every command that loaded the seed tells the user of the repair of the seed at
    /// `location`.
    pub fn message(&self, location: &Path) -> String {
        format!(
            "repaired {}: {}; restored the version of commit {}{}",
            location.display(),
            self.problem,
            self.from_commit,
            self.kept_clause()
        )
    }

    /// How the bad file was dealt with, as a message's closing clause: `, kept the bad file
    /// as …`, or nothing when there was no file to keep.
    pub fn kept_clause(&self) -> String {
        self.kept
            .as_ref()
            .map(|kept| format!(", kept the bad file as {}", kept.display()))
            .unwrap_or_default()
    }
}

/// Where the seed lives. Implementations MUST write atomically (a reader sees the old or the
/// new seed, never a mix), MUST apply `update` under an exclusive lock spanning its read and its
/// write (concurrent updates lose nothing), and MUST NOT modify a valid stored seed on `load`.
/// A store with history MAY repair a corrupt seed on `load` and report it in [`LoadedSeed`].
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SeedRepository: Send + Sync {
    /// The seed, or `Ok(None)` when none exists yet (first run).
    async fn load(&self) -> Result<Option<LoadedSeed>, SeedError>;

    /// Reads the current seed, applies `edit` and stores the result, all under the lock; a
    /// result equal to the current seed need not be written.
    async fn update(&self, edit: SeedEdit) -> Result<Seed, SeedError>;

    /// What the store's history says, when it keeps one.
    async fn history(&self) -> Result<Option<SeedHistory>, SeedError>;

    /// Where the seed is stored, for messages.
    fn location(&self) -> PathBuf;
    /// Rewrites the store's history so that no recorded version holds the learning `id` or
    /// the text `content` (the current seed included), keeping every version a valid seed and
    /// the rest of the history as it was; returns how many recorded versions were rewritten.
    /// A store without history has nothing to rewrite.
    async fn purge(&self, id: &str, content: &str) -> Result<usize, SeedError> {
        let _ = (id, content);
        Ok(0)
    }
}

/// A summary of the seed's recorded history, for `carryover status`.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedHistory {
    /// Commits that touched the seed.
    pub commits: usize,
    /// Subject of the newest of them.
    pub last_subject: Option<String>,
    /// When the newest was made.
    pub last_at: Option<crate::domain::seed::Timestamp>,
    /// True when the file differs from its newest commit (edited by hand or by another tool, or
    /// a commit failed) in more than the last-session bookkeeping, which waits for the next
    /// commit.
    pub uncommitted_changes: bool,
}
