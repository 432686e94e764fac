//! The session context: what a session start injects, composed from sections within a
//! character budget.

mod assembly;
mod budget;
mod mode;
mod moment;
mod section;
mod session_context;
mod setup;
mod token_estimate;

pub use assembly::{Assembled, CONTEXT_MARKER, Part, assemble};
pub use budget::{Composed, DEFAULT_BUDGET_CHARS, HARD_CAP_CHARS, compose};
pub use mode::Mode;
pub use moment::{HandoffRule, Moment, Plan, ProposalRule};
pub use section::Section;
pub use session_context::{SessionContext, ShownLearning};
pub use setup::{setup_notice, unusable_seed_notice};
pub use token_estimate::estimate_tokens;
