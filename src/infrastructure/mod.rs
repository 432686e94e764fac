//! Adapters: the filesystem, git, the clock and id source behind the domain's ports.

mod agent_transcript;
mod atomic_write;
mod background_sync;
mod binary_embedding_index;
mod builtin_embedder;
mod claude_digest;
mod claude_transcript;
mod codex_code_mode;
mod codex_transcript;
mod config;
mod configured_embedder;
mod copilot_transcript;
mod data_home;
mod diagnostics_log;
mod file_lock;
mod first_row;
mod fs_agent_memory_folder;
mod fs_handoff_store;
mod fs_project_catalog;
mod fs_project_context;
mod fs_settings_files;
mod fs_template_source;
mod gemini_transcript;
mod git;
mod git_ignore_list;
mod git_seed_repository;
mod git_seed_sync;
mod http_embedder;
mod json_context_state_store;
mod json_seed_repository;
mod json_session_record_store;
mod json_trust_store;
mod project_dir;
mod random_ids;
mod regular_file;
mod reverse_lines;
mod system_clock;
mod system_programs;
mod toml_flag_store;

pub use agent_transcript::AgentTranscriptReader;
pub use atomic_write::{create_private_dir, private_dir_within, replace_file, write_atomic};
pub use background_sync::spawn_background_sync;
pub use binary_embedding_index::BinaryEmbeddingIndex;
pub use builtin_embedder::{BuiltinEmbedder, StaticModel};
pub use claude_transcript::ClaudeTranscriptReader;
pub use codex_transcript::CodexTranscriptReader;
pub use config::{
    Config, ConfigError, ContextConfig, EmbedderConfig, EmbedderKind, HandoffConfig, LoadedConfig,
    ProjectConfig, RetrievalConfig, SlugStyleConfig, SyncConfig,
};
pub use configured_embedder::ConfiguredEmbedder;
pub use copilot_transcript::{CopilotTranscriptReader, await_hook_row};
pub use data_home::{DataHome, DataHomeError};
pub use diagnostics_log::DiagnosticsLog;
pub use file_lock::FileLock;
pub use fs_agent_memory_folder::FsAgentMemoryFolder;
pub use fs_handoff_store::FsHandoffStore;
pub use fs_project_catalog::FsProjectCatalog;
pub use fs_project_context::FsProjectContext;
pub use fs_settings_files::FsSettingsFiles;
pub use fs_template_source::FsTemplateSource;
pub use gemini_transcript::GeminiTranscriptReader;
pub use git::Git;
pub use git_ignore_list::GitIgnoreList;
pub use git_seed_repository::GitSeedRepository;
pub use git_seed_sync::{GitSeedSync, REPORT_VARIABLE, append_report, newer_side};
pub use http_embedder::HttpEmbedder;
pub use json_context_state_store::JsonContextStateStore;
pub use json_seed_repository::JsonSeedRepository;
pub use json_session_record_store::JsonSessionRecordStore;
pub use json_trust_store::JsonTrustStore;
pub use project_dir::project_dir;
pub use random_ids::RandomIds;
pub use regular_file::{
    MAX_HANDOFF_BYTES, SMALL_FILE_BYTES, open_regular, open_regular_no_follow, read_regular,
    read_regular_text, read_regular_utf8, read_regular_utf8_no_follow,
};
pub use system_clock::{FixedClock, SystemClock};
pub use system_programs::{SystemPrograms, VERSION_TIMEOUT};
pub use toml_flag_store::TomlFlagStore;
