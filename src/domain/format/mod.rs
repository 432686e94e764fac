//! Pure formatters: seed data in, text out. Each returns a [`Section`] so the context budget can
//! shrink it item by item. The session context uses `relevant_learnings` / `recent_learnings`
//! and `proposal_index`; `learning_summary` and `pending_proposals` are the full, per-kind
//! listings (counts, every pending proposal) kept for callers that want everything.
//!
//! [`Section`]: crate::domain::context::Section

mod context_gauge;
mod identity_summary;
mod learning_list;
mod learning_summary;
mod pending_proposals;
mod plural;
mod proposal_index;
mod recalled_learnings;
mod relative_time;
mod session_state;
mod short_ids;
mod text;
mod xml;

pub use context_gauge::{GaugeReading, context_gauge};
pub use identity_summary::identity_summary;
pub use learning_list::{ListedLearning, recent_learnings, relevant_learnings};
pub use learning_summary::{RECENT_PER_KIND, learning_summary};
pub use pending_proposals::pending_proposals;
pub use plural::counted;
pub use proposal_index::{PROPOSALS_SHOWN, new_proposals_line, proposal_index};
pub use recalled_learnings::{RECALL_HEADING, recalled_learnings};
pub use relative_time::relative_time;
pub use session_state::session_state;
pub use short_ids::short_ids;
pub use text::{
    clip, data_line, injected_line, is_invisible_format, without_terminal_escapes,
    without_terminated_escapes,
};
pub use xml::{xml_attr, xml_text, xml_unescape};
