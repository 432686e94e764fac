//! Use cases, one service per job, composed only of ports.

mod error;
mod init_seed;
mod learn;
mod pre_compact;
mod seed_status;
mod session_context;
mod session_end;
mod start_notice;
#[cfg(test)]
mod testing;
mod window_settings;

pub use error::AppError;
pub use init_seed::{InitRequest, InitSeed};
pub use learn::Learn;
pub use pre_compact::{CHECKPOINT_TAIL_BYTES, PreCompact, PreCompactOutcome, PreCompactRequest};
pub use seed_status::{SeedStatus, StatusReport};
pub use session_context::{ContextRequest, SessionContextService, StartInfo};
pub use session_end::{HandoffSettings, SessionEnd, SessionEndOutcome, SessionEndRequest};
pub use window_settings::WindowSettings;
