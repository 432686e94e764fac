//! An agent's memory folder (Claude Code's `~/.claude/projects/<project>/memory/`), read-only.

use std::path::Path;

use crate::domain::AgentMemoryError;

/// Lists and reads the Markdown files of a memory folder. Implementations MUST NOT follow
/// symbolic links, MUST read only regular files and MUST refuse files larger than
/// [`crate::domain::agent_memory::MAX_MEMORY_FILE_BYTES`]: the folder is written by another
/// program and may hold anything.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait AgentMemoryFolder: Send + Sync {
    /// The names of the `*.md` entries directly in `dir` (the index included), sorted;
    /// [`AgentMemoryError::NoFolder`] when `dir` is not a directory.
    async fn list(&self, dir: &Path) -> Result<Vec<String>, AgentMemoryError>;

    /// The text of the file `name` in `dir`.
    async fn read(&self, dir: &Path, name: &str) -> Result<String, AgentMemoryError>;
}
