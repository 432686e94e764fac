//! The agents carryover wires itself into, their settings files and the hooks each gets.

use std::fmt;
use std::path::{Path, PathBuf};

use super::SettingsDialect;
use crate::domain::session_id::SessionId;

/// An agent whose hook settings carryover knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    /// Claude Code: `settings.json`, timeouts in seconds.
    Claude,
    /// Codex CLI: `hooks.json` in Claude Code's format (0.169.0 runs SessionStart,
    /// UserPromptSubmit, PreCompact and SessionEnd; a hook runs once the user trusts it).
    Codex,
    /// Gemini CLI: `settings.json`, timeouts in milliseconds, `PreCompress`.
    Gemini,
    /// GitHub Copilot CLI: a hooks file of carryover's own in its `hooks/` folders, camelCase
    /// events, flat entries running `bash` (1.0.102 reads it, ADR 0022).
    Copilot,
    /// Cursor: `hooks.json`, camelCase events, flat entries (from its documentation, not
    /// tested against the real client; ADR 0023).
    Cursor,
}

/// How a settings file holds an agent's hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookLayout {
    /// `hooks.<Event>[]` are groups `{matcher?, hooks: [{type, command, timeout}]}` (Claude
    /// Code's format, which Codex CLI and Gemini CLI read too).
    Grouped,
    /// `version: 1` beside `hooks.<event>[]`, each entry one hook: its command under
    /// `command_key`, its timeout under `timeout_key` (Copilot CLI's and Cursor's format).
    Flat {
        /// `bash` (Copilot CLI) or `command` (Cursor).
        command_key: &'static str,
        /// `timeoutSec` (Copilot CLI) or `timeout` (Cursor).
        timeout_key: &'static str,
        /// Whether an entry carries `"type": "command"` (Copilot CLI's do).
        typed: bool,
    },
}

/// Where the hooks go: for the user everywhere, for the project (committed) or for the
/// project on this machine only (Claude Code's `settings.local.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallScope {
    /// Every project of the user.
    User,
    /// This project, in a file meant to be committed.
    Project,
    /// This project on this machine only.
    Local,
}

impl InstallScope {
    /// Every scope, the user's first.
    pub const ALL: [Self; 3] = [Self::User, Self::Project, Self::Local];
}

impl fmt::Display for InstallScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::User => "user",
            Self::Project => "project",
            Self::Local => "local",
        })
    }
}

/// The unit an agent reads a hook's `timeout` in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutUnit {
    /// Seconds (Claude Code, Codex CLI, Copilot CLI, Cursor).
    Seconds,
    /// Milliseconds (Gemini CLI).
    Milliseconds,
}

/// The agents' configuration directories for the user scope, resolved from the environment
/// by the caller (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, else under `HOME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentHomes {
    /// `~/.claude`.
    pub claude: PathBuf,
    /// `~/.codex`.
    pub codex: PathBuf,
    /// `~/.gemini`.
    pub gemini: PathBuf,
    /// `~/.copilot` (or `COPILOT_HOME`): hooks in `hooks/`, transcripts in `session-state/`.
    pub copilot: PathBuf,
    /// `~/.cursor`.
    pub cursor: PathBuf,
}

impl AgentHomes {
    /// The conventional directories under `home`.
    pub fn under(home: &Path) -> Self {
        Self {
            claude: home.join(".claude"),
            codex: home.join(".codex"),
            gemini: home.join(".gemini"),
            copilot: home.join(".copilot"),
            cursor: home.join(".cursor"),
        }
    }
}

impl AgentHomes {
    /// The agent's own configuration directory.
    pub fn of(&self, agent: AgentKind) -> &Path {
        match agent {
            AgentKind::Claude => &self.claude,
            AgentKind::Codex => &self.codex,
            AgentKind::Gemini => &self.gemini,
            AgentKind::Copilot => &self.copilot,
            AgentKind::Cursor => &self.cursor,
        }
    }

    /// Copilot CLI's transcript of a session, `<copilot home>/session-state/<id>/events.jsonl`:
    /// its sessionStart, userPromptSubmitted and sessionEnd payloads name none.
    pub fn copilot_transcript(&self, session: &SessionId) -> PathBuf {
        self.copilot
            .join("session-state")
            .join(session.as_str())
            .join("events.jsonl")
    }
}

/// One hook carryover installs: the agent's event, its matcher, carryover's arguments and
/// the timeout in the agent's unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    /// The agent's event name (`SessionStart`, `UserPromptSubmit`, `BeforeAgent`, `PreCompact`,
    /// `PreCompress`, `SessionEnd`).
    pub event: &'static str,
    /// Which occurrences of the event run the hook; `None` runs it on all.
    pub matcher: Option<&'static str>,
    /// carryover's arguments (`hook session-start --agent codex`).
    pub args: &'static [&'static str],
    /// Timeout in [`AgentKind::timeout_unit`].
    pub timeout: u64,
    /// A name for agents that show one (Gemini CLI).
    pub name: Option<&'static str>,
}

/// The longest a hook may run before the agent gives up on it: far above the milliseconds
/// the hooks take, so only a hung disk or lock would reach it, and a session then starts
/// without carryover's context rather than waiting.
const TIMEOUT_SECONDS: u64 = 10;

/// Codex CLI clamps a SessionEnd hook's timeout to 3 s (with a warning at every start when
/// it is longer); the hook takes milliseconds.
const CODEX_SESSION_END_TIMEOUT_SECONDS: u64 = 3;

/// carryover's hooks file in Copilot CLI's hooks folders.
const COPILOT_HOOKS_FILE: &str = "carryover.json";

impl AgentKind {
    /// Every agent carryover wires.
    pub const ALL: [Self; 5] = [
        Self::Claude,
        Self::Codex,
        Self::Gemini,
        Self::Copilot,
        Self::Cursor,
    ];

    /// The name `install --agent` takes.
    pub fn cli_name(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::Copilot => "copilot",
            Self::Cursor => "cursor",
        }
    }

    /// The name people know the agent by.
    pub fn display_name(self) -> &'static str {
        match self {
            Self::Claude => "Claude Code",
            Self::Codex => "Codex CLI",
            Self::Gemini => "Gemini CLI",
            Self::Copilot => "Copilot CLI",
            Self::Cursor => "Cursor",
        }
    }

    /// How its settings hold hooks.
    pub fn layout(self) -> HookLayout {
        match self {
            Self::Claude | Self::Codex | Self::Gemini => HookLayout::Grouped,
            Self::Copilot => HookLayout::Flat {
                command_key: "bash",
                timeout_key: "timeoutSec",
                typed: true,
            },
            Self::Cursor => HookLayout::Flat {
                command_key: "command",
                timeout_key: "timeout",
                typed: false,
            },
        }
    }

    /// How it reads its settings file: only Gemini CLI strips comments first.
    pub fn settings_dialect(self) -> SettingsDialect {
        match self {
            Self::Gemini => SettingsDialect::JsonWithComments,
            Self::Claude | Self::Codex | Self::Copilot | Self::Cursor => SettingsDialect::Json,
        }
    }

    /// The unit of the `timeout` field.
    pub fn timeout_unit(self) -> TimeoutUnit {
        match self {
            Self::Gemini => TimeoutUnit::Milliseconds,
            Self::Claude | Self::Codex | Self::Copilot | Self::Cursor => TimeoutUnit::Seconds,
        }
    }

    /// The hooks carryover installs for this agent.
    pub fn hooks(self) -> Vec<HookSpec> {
        let timeout = match self.timeout_unit() {
            TimeoutUnit::Seconds => TIMEOUT_SECONDS,
            TimeoutUnit::Milliseconds => TIMEOUT_SECONDS * 1_000,
        };
        let spec = |event, matcher, args, name| HookSpec {
            event,
            matcher,
            args,
            timeout,
            name,
        };
        match self {
            Self::Claude => vec![
                spec(
                    "SessionStart",
                    Some("startup|resume|clear|compact"),
                    &["hook", "session-start"],
                    None,
                ),
                spec("UserPromptSubmit", None, &["hook", "prompt"], None),
                spec("PreCompact", None, &["hook", "pre-compact"], None),
                spec("SessionEnd", None, &["hook", "session-end"], None),
            ],
            Self::Codex => vec![
                spec(
                    "SessionStart",
                    Some("startup|resume|clear|compact"),
                    &["hook", "session-start", "--agent", "codex"],
                    None,
                ),
                spec(
                    "UserPromptSubmit",
                    None,
                    &["hook", "prompt", "--agent", "codex"],
                    None,
                ),
                spec("PreCompact", None, &["hook", "pre-compact"], None),
                HookSpec {
                    timeout: CODEX_SESSION_END_TIMEOUT_SECONDS,
                    ..spec("SessionEnd", None, &["hook", "session-end"], None)
                },
            ],
            Self::Gemini => vec![
                spec(
                    "SessionStart",
                    None,
                    &["hook", "session-start", "--agent", "gemini"],
                    Some("carryover-session-start"),
                ),
                spec(
                    "BeforeAgent",
                    None,
                    &["hook", "prompt", "--agent", "gemini"],
                    Some("carryover-prompt"),
                ),
                spec(
                    "PreCompress",
                    None,
                    &["hook", "pre-compact"],
                    Some("carryover-pre-compact"),
                ),
                spec(
                    "SessionEnd",
                    None,
                    &["hook", "session-end"],
                    Some("carryover-session-end"),
                ),
            ],
            // Copilot CLI 1.0.102 reads `additionalContext` from sessionStart and
            // userPromptSubmitted; its sessionEnd names no transcript, so the hook is told
            // whose session it ends and finds the transcript itself.
            Self::Copilot => vec![
                spec(
                    "sessionStart",
                    None,
                    &["hook", "session-start", "--agent", "copilot"],
                    None,
                ),
                spec(
                    "userPromptSubmitted",
                    None,
                    &["hook", "prompt", "--agent", "copilot"],
                    None,
                ),
                spec("preCompact", None, &["hook", "pre-compact"], None),
                spec(
                    "sessionEnd",
                    None,
                    &["hook", "session-end", "--agent", "copilot"],
                    None,
                ),
            ],
            // Cursor's beforeSubmitPrompt can only block a prompt, not add to it, so there is
            // no recall at the prompt.
            Self::Cursor => vec![
                spec(
                    "sessionStart",
                    None,
                    &["hook", "session-start", "--agent", "cursor"],
                    None,
                ),
                spec("preCompact", None, &["hook", "pre-compact"], None),
                spec("sessionEnd", None, &["hook", "session-end"], None),
            ],
        }
    }

    /// The settings file of `scope`, or `None` when the agent has no such scope.
    pub fn settings_path(
        self,
        scope: InstallScope,
        homes: &AgentHomes,
        project_root: &Path,
    ) -> Option<PathBuf> {
        match (self, scope) {
            (Self::Claude, InstallScope::User) => Some(homes.claude.join("settings.json")),
            (Self::Claude, InstallScope::Project) => {
                Some(project_root.join(".claude").join("settings.json"))
            }
            (Self::Claude, InstallScope::Local) => {
                Some(project_root.join(".claude").join("settings.local.json"))
            }
            (Self::Codex, InstallScope::User) => Some(homes.codex.join("hooks.json")),
            (Self::Codex, InstallScope::Project) => {
                Some(project_root.join(".codex").join("hooks.json"))
            }
            (Self::Gemini, InstallScope::User) => Some(homes.gemini.join("settings.json")),
            (Self::Gemini, InstallScope::Project) => {
                Some(project_root.join(".gemini").join("settings.json"))
            }
            // A file of carryover's own: the folder holds every `*.json` the client merges.
            (Self::Copilot, InstallScope::User) => {
                Some(homes.copilot.join("hooks").join(COPILOT_HOOKS_FILE))
            }
            (Self::Copilot, InstallScope::Project) => Some(
                project_root
                    .join(".github")
                    .join("hooks")
                    .join(COPILOT_HOOKS_FILE),
            ),
            (Self::Cursor, InstallScope::User) => Some(homes.cursor.join("hooks.json")),
            (Self::Cursor, InstallScope::Project) => {
                Some(project_root.join(".cursor").join("hooks.json"))
            }
            (Self::Codex | Self::Gemini | Self::Copilot | Self::Cursor, InstallScope::Local) => {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(
        AgentKind::Claude,
        InstallScope::User,
        Some("/h/.claude/settings.json")
    )]
    #[case(
        AgentKind::Claude,
        InstallScope::Project,
        Some("/p/.claude/settings.json")
    )]
    #[case(
        AgentKind::Claude,
        InstallScope::Local,
        Some("/p/.claude/settings.local.json")
    )]
    #[case(AgentKind::Codex, InstallScope::User, Some("/h/.codex/hooks.json"))]
    #[case(AgentKind::Codex, InstallScope::Project, Some("/p/.codex/hooks.json"))]
    #[case(AgentKind::Codex, InstallScope::Local, None)]
    #[case(
        AgentKind::Gemini,
        InstallScope::User,
        Some("/h/.gemini/settings.json")
    )]
    #[case(
        AgentKind::Gemini,
        InstallScope::Project,
        Some("/p/.gemini/settings.json")
    )]
    #[case(AgentKind::Gemini, InstallScope::Local, None)]
    #[case(
        AgentKind::Copilot,
        InstallScope::User,
        Some("/h/.copilot/hooks/carryover.json")
    )]
    #[case(
        AgentKind::Copilot,
        InstallScope::Project,
        Some("/p/.github/hooks/carryover.json")
    )]
    #[case(AgentKind::Copilot, InstallScope::Local, None)]
    #[case(AgentKind::Cursor, InstallScope::User, Some("/h/.cursor/hooks.json"))]
    #[case(
        AgentKind::Cursor,
        InstallScope::Project,
        Some("/p/.cursor/hooks.json")
    )]
    #[case(AgentKind::Cursor, InstallScope::Local, None)]
    fn each_agent_and_scope_has_its_file(
        #[case] agent: AgentKind,
        #[case] scope: InstallScope,
        #[case] expected: Option<&str>,
    ) {
        let homes = AgentHomes::under(Path::new("/h"));
        assert_eq!(
            agent.settings_path(scope, &homes, Path::new("/p")),
            expected.map(PathBuf::from)
        );
    }

    #[rstest]
    #[case(AgentKind::Claude, &["SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"], 10)]
    #[case(AgentKind::Codex, &["SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"], 10)]
    #[case(
        AgentKind::Gemini,
        &["SessionStart", "BeforeAgent", "PreCompress", "SessionEnd"],
        10_000
    )]
    #[case(
        AgentKind::Copilot,
        &["sessionStart", "userPromptSubmitted", "preCompact", "sessionEnd"],
        10
    )]
    #[case(AgentKind::Cursor, &["sessionStart", "preCompact", "sessionEnd"], 10)]
    fn each_agent_gets_its_events_with_timeouts_in_its_unit(
        #[case] agent: AgentKind,
        #[case] events: &[&str],
        #[case] timeout: u64,
    ) {
        let hooks = agent.hooks();
        assert_eq!(hooks.iter().map(|h| h.event).collect::<Vec<_>>(), events);
        // Codex CLI clamps SessionEnd's to 3 s.
        assert!(
            hooks
                .iter()
                .all(|h| h.timeout == timeout
                    || (agent, h.event) == (AgentKind::Codex, "SessionEnd"))
        );
        assert!(hooks.iter().all(|h| h.args[0] == "hook"));
    }

    /// What Codex CLI 0.169.0 sends: SessionStart's `source` is one of these (the matcher is
    /// matched against it), and every other event carryover uses has a hook.
    #[test]
    fn codex_starts_sessions_on_every_source_and_ends_them() {
        let hooks = AgentKind::Codex.hooks();
        assert_eq!(hooks[0].matcher, Some("startup|resume|clear|compact"));
        assert_eq!(hooks[3].args, ["hook", "session-end"]);
        assert_eq!(hooks[3].timeout, 3);
    }

    #[test]
    fn copilots_transcript_is_in_its_session_state() {
        let homes = AgentHomes::under(Path::new("/h"));
        let id = SessionId::parse("cc7e8854-d410-41a0-816a-c51e02b9b183").unwrap();
        assert_eq!(
            homes.copilot_transcript(&id),
            PathBuf::from(
                "/h/.copilot/session-state/cc7e8854-d410-41a0-816a-c51e02b9b183/events.jsonl"
            )
        );
    }

    #[test]
    fn claude_code_starts_sessions_on_every_source() {
        let start = &AgentKind::Claude.hooks()[0];
        assert_eq!(start.matcher, Some("startup|resume|clear|compact"));
        assert_eq!(start.args, ["hook", "session-start"]);
    }
}
