//! What carryover reads from an agent's transcript, independent of the transcript's format.

mod digest;
mod usage;

pub use digest::{MAX_FILES_CHANGED, SessionDigest, TodoItem, TodoStatus};
pub use usage::{CompactBoundary, ContextUsage};
