//! Management commands: each parses its arguments, calls one service and prints the result.

mod context;
mod handoff;
mod init;
mod learn;
mod prompt;
mod status;

pub use context::context;
pub use handoff::handoff;
pub use init::init;
pub use learn::learn;
pub use status::status;
