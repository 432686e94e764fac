//! Where a learning belongs: to every project, or to one (ADR 0010). Which learnings a
//! session may see, whether a text names a project, and the scope a proposal is given.

mod label;
mod project_mention;
mod proposal_scope;
mod visibility;

pub use label::{EVERY_PROJECT, is_global, scope_label, scope_project, scopes_overlap};
pub use project_mention::names_project;
pub use proposal_scope::{ProposedScope, candidate_scope, proposed_scope};
pub use visibility::Visibility;
