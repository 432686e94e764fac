//! New ids for learnings and proposals, behind a port so tests can predict them.

/// Hands out ids that never repeat. Synchronous: no I/O involved.
#[cfg_attr(test, mockall::automock)]
pub trait IdGenerator: Send + Sync {
    /// A new id made of `prefix` (such as `pat_`) and 12 random alphanumerics.
    fn next_id(&self, prefix: &str) -> String;
}
