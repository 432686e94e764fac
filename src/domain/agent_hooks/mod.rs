//! Wiring carryover's hooks into an agent's settings: which hooks each agent gets, where its
//! settings live, and merging them into (or out of) a settings document that holds the
//! user's own keys and hooks too.

mod agent;
mod command;
mod merge;
mod settings_edit;
mod settings_text;
mod status_line;
mod wiring;

pub use agent::{AgentHomes, AgentKind, HookLayout, HookSpec, InstallScope, TimeoutUnit};
pub use command::{command_program, hook_command, is_carryover_command, is_carryover_program};
pub use merge::{ShapeError, install_hooks, uninstall_hooks};
pub use settings_edit::rewrite_settings;
pub use settings_text::{SettingsDialect, SettingsSyntaxError, encode_settings, parse_settings};
pub use status_line::{
    StatusLineChange, has_own_status_line, install_status_line, is_carryover_status_line,
    uninstall_status_line,
};
pub use wiring::{WiredEvent, Wiring, wired_events, wiring};
