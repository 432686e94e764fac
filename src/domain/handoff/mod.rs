//! Handoffs: what a session leaves for the next one in the same project.

mod build;
mod carry_forward;
mod compact_summary;
mod context_section;
mod document;
mod file_groups;
mod interjection;
mod last_reply;
mod links;
mod open_threads;
mod read;
mod scratch;
mod user_choice;

pub use build::{HandoffScope, build_handoff};
pub use carry_forward::{MAX_CARRIED, carried_threads, thread_text};
pub use compact_summary::{CompactSummary, read_compact_summary};
pub use context_section::{HANDOFF_MAX_CHARS, HandoffOrigin, handoff_section};
pub use document::{
    Handoff, SECTION_ACCOMPLISHED, SECTION_DECISIONS, SECTION_FILES, SECTION_GOAL,
    SECTION_IN_PROGRESS, SECTION_LAST_MESSAGE, SECTION_NEXT_STEPS, SECTION_OPEN, SECTION_REQUESTS,
};
pub use file_groups::{file_groups, relative_path};
pub use last_reply::cut_reply;
pub use links::link_lines;
pub use open_threads::open_threads;
pub use read::{ParsedHandoff, read_handoff};
pub use scratch::is_scratch_file;
pub use user_choice::is_user_choice;
