//! The projects carryover has seen.

/// Lists the projects carryover keeps data for, so that a learning naming one of them can be
/// kept out of the others (ADR 0010).
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait ProjectCatalog: Send + Sync {
    /// The names the known projects go by (a directory that cannot be read knows none).
    async fn names(&self) -> Vec<String>;
}
