//! Where feature flags are kept.

use crate::domain::FlagError;
use crate::domain::flags::{FlagValue, ResolvedFlags};
use crate::domain::project::ProjectSlug;

/// Which table a flag is written to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagTarget {
    /// `[feature_flags]`.
    Global,
    /// `[projects."<slug>".feature_flags]`.
    Project(ProjectSlug),
}

/// Feature flags. Reads see the stored flags as they are now; writes MUST keep the rest of
/// the file as it was and MUST write nothing when the stored configuration is malformed.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait FlagStore: Send + Sync {
    /// The flags in force for `project`: its own over the global ones.
    async fn resolved(&self, project: &ProjectSlug) -> Result<ResolvedFlags, FlagError>;

    /// Sets a flag.
    async fn set(
        &self,
        target: &FlagTarget,
        name: &str,
        value: &FlagValue,
    ) -> Result<(), FlagError>;

    /// Removes a flag; returns whether it was set.
    async fn unset(&self, target: &FlagTarget, name: &str) -> Result<bool, FlagError>;
}
