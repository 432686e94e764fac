//! Use cases, one service per job, composed only of ports.

mod config_notice;
mod doctor;
mod error;
mod flags;
mod handoffs;
mod hook_installer;
mod identity_settings;
mod import_agent_memory;
mod index_learnings;
mod init_seed;
mod instruction_queue;
mod known_projects;
mod learn;
mod learning_proposals;
mod learning_retrieval;
mod learnings;
mod merge_seed_texts;
mod pre_compact;
mod prompt_recall;
mod propose_from_transcript;
mod review;
mod seed_status;
mod session_end;
mod session_listener;
mod start_notice;
mod start_session;
mod startup_instruction;
mod status_line;
mod sync_seed;
#[cfg(test)]
mod testing;
mod trust;
mod window_settings;

pub use config_notice::{CONFIG_FIX, ConfigAnnouncement, ConfigNotice};
pub use doctor::{
    AgentSettings, CLIENTS, ClientVersion, Doctor, DoctorReport, DoctorRequest, sync_check,
};
pub use error::AppError;
pub use flags::Flags;
pub use handoffs::{FoundHandoff, HandoffFilter, HandoffSearch, Handoffs};
pub use hook_installer::{
    Applied, HookAction, HookInstaller, HookTarget, SettingsChange, StatusLinePolicy,
};
pub use identity_settings::{FieldChange, IdentitySettings};
pub use import_agent_memory::{ImportAgentMemory, MemoryImport, Skipped};
pub use index_learnings::{IndexLearnings, IndexReport};
pub use init_seed::{InitRequest, InitSeed};
pub use instruction_queue::{InstructionQueue, Priority};
pub use learn::{Learn, LearnOptions, NearLearning};
pub use learning_proposals::{
    Dropped, Extraction, LearningProposals, MEMORY_CONFIDENCE, MEMORY_METHOD, METHOD,
    ProposalOrigin, ProposalSettings, add_proposals,
};
pub use learning_retrieval::RetrievalSettings;
pub use learnings::{Edited, FoundLearning, Learnings, Listed, ScopeFilter, ScopeTarget, Searched};
pub use merge_seed_texts::merge_seed_texts;
pub use pre_compact::{CHECKPOINT_TAIL_BYTES, PreCompact, PreCompactOutcome, PreCompactRequest};
pub use prompt_recall::{
    PromptRecall, PromptSignals, RecallOutcome, RecallRequest, RecallSettings, RecalledLearning,
    recall_signals,
};
pub use propose_from_transcript::{ProposeFromTranscript, TranscriptProposals};
pub use review::{AcceptScope, Decision, ProposalListing, Review, ReviewOutcome};
pub use seed_status::{SeedStatus, StatusReport};
pub use session_end::{HandoffSettings, SessionEnd, SessionEndOutcome, SessionEndRequest};
#[cfg(test)]
pub use session_listener::MockSessionListener;
pub use session_listener::{ActiveSession, ListenerNotes, ListenerRegistry, SessionListener};
pub use start_session::{StartOutcome, StartRequest, StartSession, StartSettings};
pub use startup_instruction::{StartupInstructionListener, StartupReport};
pub use status_line::{StatusLine, StatusOutcome, StatusRequest};
pub use sync_seed::{SyncReport, SyncSeed};
pub use trust::{Trust, TrustPreview, TrustView};
pub use window_settings::{WindowSettings, unknown_window_diagnostic};
