//! Use cases, one service per job, composed only of ports.

mod error;
mod flags;
mod hook_installer;
mod index_learnings;
mod init_seed;
mod instruction_queue;
mod learn;
mod learning_proposals;
mod learning_retrieval;
mod learnings;
mod pre_compact;
mod propose_from_transcript;
mod review;
mod seed_status;
mod session_context;
mod session_end;
mod session_listener;
mod start_notice;
mod startup_instruction;
#[cfg(test)]
mod testing;
mod trust;
mod window_settings;

pub use error::AppError;
pub use flags::Flags;
pub use hook_installer::{HookAction, HookInstaller, HookTarget, SettingsChange};
pub use index_learnings::{IndexLearnings, IndexReport};
pub use init_seed::{InitRequest, InitSeed};
pub use instruction_queue::{InstructionQueue, Priority};
pub use learn::Learn;
pub use learning_proposals::{
    Dropped, Extraction, LearningProposals, METHOD, ProposalSettings, add_proposals,
};
pub use learning_retrieval::RetrievalSettings;
pub use learnings::{FoundLearning, Learnings};
pub use pre_compact::{CHECKPOINT_TAIL_BYTES, PreCompact, PreCompactOutcome, PreCompactRequest};
pub use propose_from_transcript::ProposeFromTranscript;
pub use review::{Decision, Review, ReviewOutcome};
pub use seed_status::{SeedStatus, StatusReport};
pub use session_context::{ContextRequest, SessionContextService, StartInfo};
pub use session_end::{HandoffSettings, SessionEnd, SessionEndOutcome, SessionEndRequest};
pub use session_listener::{ActiveSession, ListenerRegistry, SessionListener};
pub use startup_instruction::{StartupInstructionListener, StartupReport};
pub use trust::Trust;
pub use window_settings::WindowSettings;
