//! The domain: the seed and its rules, the session context and how it is formatted, and the
//! ports the outer layers implement. No I/O, no clock, no environment.

pub mod agent_hooks;
pub mod agent_memory;
pub mod change_reason;
pub mod compaction;
pub mod config_problem;
pub mod context;
pub mod doctor;
pub mod error;
pub mod extraction;
pub mod flags;
pub mod format;
pub mod front_matter;
pub mod handoff;
pub mod ports;
pub mod prefix;
pub mod project;
pub mod recall;
pub mod redaction;
pub mod retrieval;
pub mod scope;
pub mod seed;
pub mod session;
pub mod session_id;
pub mod session_record;
pub mod startup;
pub mod transcript;

pub use change_reason::ChangeReason;
pub use error::{
    AgentMemoryError, EmbedError, FlagError, HandoffError, IndexError, RuleError, SeedError,
    SettingsError, StateError, SyncError, TemplateError, TranscriptError,
};
