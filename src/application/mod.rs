//! Use cases, one service per job, composed only of ports.

mod error;
mod init_seed;
mod learn;
mod seed_status;
mod session_context;

pub use error::AppError;
pub use init_seed::{InitRequest, InitSeed};
pub use learn::Learn;
pub use seed_status::{SeedStatus, StatusReport};
pub use session_context::{ContextRequest, SessionContextService};
