//! A session as carryover sees it: the agent's id, how it started, and its project.

use crate::domain::compaction::StartSource;
use crate::domain::project::Project;

/// The session a hook or command acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The agent's session id, when it sent one.
    pub id: Option<String>,
    /// How it started, when the agent said.
    pub source: Option<StartSource>,
    /// The project it works in.
    pub project: Project,
}

impl Session {
    /// True for a new conversation (`startup`, `clear`) as opposed to a continued one.
    pub fn is_new_conversation(&self) -> bool {
        matches!(self.source, Some(StartSource::Startup | StartSource::Clear))
    }
}
