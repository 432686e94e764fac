//! The ports: what the application needs from the world, implemented in `infrastructure`.

mod agent_memory_folder;
mod clock;
mod context_state_store;
mod embedder;
mod embedding_index;
mod flag_store;
mod handoff_store;
mod id_generator;
mod ignore_list;
mod programs;
mod project_catalog;
mod project_context;
mod seed_repository;
mod seed_sync;
mod session_record_store;
mod settings_files;
mod template_source;
mod transcript_reader;
mod trust_store;

pub use agent_memory_folder::AgentMemoryFolder;
pub use clock::Clock;
pub use context_state_store::{ContextStateStore, StateEdit};
pub use embedder::Embedder;
pub use embedding_index::EmbeddingIndex;
pub use flag_store::{FlagStore, FlagTarget};
pub use handoff_store::{HandoffEntry, HandoffStore};
pub use id_generator::IdGenerator;
pub use ignore_list::IgnoreList;
pub use programs::{ProgramLocation, Programs};
pub use project_catalog::ProjectCatalog;
pub use project_context::ProjectContext;
pub use seed_repository::{LoadedSeed, Repaired, SeedEdit, SeedHistory, SeedRepository};
pub use seed_sync::{MergeOutcome, PushOutcome, SeedSync, SyncRecord};
pub use session_record_store::{RecordEdit, SessionRecordStore, amend_record};
pub use settings_files::{SettingsFileState, SettingsFiles};
pub use template_source::{TemplateFile, TemplateSource};
pub use transcript_reader::{DigestScope, TranscriptReader};
pub use trust_store::{TrustEntry, TrustStore};

#[cfg(test)]
pub use agent_memory_folder::MockAgentMemoryFolder;
#[cfg(test)]
pub use clock::MockClock;
#[cfg(test)]
pub use context_state_store::MockContextStateStore;
#[cfg(test)]
pub use embedder::MockEmbedder;
#[cfg(test)]
pub use embedding_index::MockEmbeddingIndex;
#[cfg(test)]
pub use flag_store::MockFlagStore;
#[cfg(test)]
pub use handoff_store::MockHandoffStore;
#[cfg(test)]
pub use id_generator::MockIdGenerator;
#[cfg(test)]
pub use ignore_list::MockIgnoreList;
#[cfg(test)]
pub use programs::MockPrograms;
#[cfg(test)]
pub use project_catalog::MockProjectCatalog;
#[cfg(test)]
pub use project_context::MockProjectContext;
#[cfg(test)]
pub use seed_repository::MockSeedRepository;
#[cfg(test)]
pub use seed_sync::MockSeedSync;
#[cfg(test)]
pub use session_record_store::MockSessionRecordStore;
#[cfg(test)]
pub use settings_files::MockSettingsFiles;
#[cfg(test)]
pub use template_source::MockTemplateSource;
#[cfg(test)]
pub use transcript_reader::MockTranscriptReader;
#[cfg(test)]
pub use trust_store::MockTrustStore;
