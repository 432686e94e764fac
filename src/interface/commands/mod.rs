//! Management commands: each parses its arguments, calls one service and prints the result.

mod completions;
mod context;
mod doctor;
mod flags;
mod handoff;
mod identity;
mod import;
mod index;
mod init;
mod install;
mod learn;
mod learnings;
mod prompt;
mod proposals;
mod recall;
mod status;
mod trust;

pub use completions::completions;
pub use context::context;
pub use doctor::doctor;
pub use flags::flags;
pub use handoff::handoff;
pub use identity::identity;
pub use import::import;
pub use index::index;
pub use init::init;
pub use install::{install, uninstall};
pub use learn::learn;
pub use learnings::learnings;
pub use proposals::proposals;
pub use recall::recall;
pub use status::status;
pub use trust::trust;
