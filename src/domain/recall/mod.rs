//! Recall at the prompt (ADR 0011): whether a prompt is worth recalling for, the signals each
//! visible learning gives, and the calibrated choice of at most three, or none.

mod calibration;
mod gate;
mod selection;
mod signals;

pub use calibration::Calibration;
pub use gate::{PromptQuery, Silence, prompt_query};
pub use selection::{MAX_RECALLED, Recalled, select};
pub use signals::{FEATURES, Signals, features};
