//! Handoffs: what a session leaves for the next one in the same project.

mod build;
mod context_section;
mod document;
mod read;

pub use build::build_handoff;
pub use context_section::handoff_section;
pub use document::{
    Handoff, SECTION_ACCOMPLISHED, SECTION_DECISIONS, SECTION_IN_PROGRESS, SECTION_NEXT_STEPS,
};
pub use read::{ParsedHandoff, read_handoff};
