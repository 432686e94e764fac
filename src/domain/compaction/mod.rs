//! Compaction versus reset: how full the context was, which tier that is, and what the next
//! session start should be told.

mod checkpoint;
mod context_state;
mod detection;
mod model_window;
mod notice;
mod resumption;
mod session_compaction;
mod tier;

pub use checkpoint::{Checkpoint, checkpoint_summary};
pub use context_state::{ContextState, MAX_SESSIONS};
pub use detection::{StartKind, StartSource, detect};
pub use model_window::{DEFAULT_WINDOW, Window, WindowBasis, context_window, model_window};
pub use notice::{bare_compaction_notice, boundary_notice, compaction_notice, reset_notice};
pub use resumption::resumption_summary;
pub use session_compaction::{PendingCompaction, SessionCompaction};
pub use tier::{Fill, Thresholds, Tier};
