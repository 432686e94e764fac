//! The agents carryover wires itself into, their settings files and the hooks each gets.

use std::fmt;
use std::path::{Path, PathBuf};

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
    /// Seconds (Claude Code, Codex CLI).
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
}

impl AgentHomes {
    /// The conventional directories under `home`.
    pub fn under(home: &Path) -> Self {
        Self {
            claude: home.join(".claude"),
            codex: home.join(".codex"),
            gemini: home.join(".gemini"),
        }
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

impl AgentKind {
    /// Every agent carryover wires.
    pub const ALL: [Self; 3] = [Self::Claude, Self::Codex, Self::Gemini];

    /// The name `install --agent` takes.
    pub fn cli_name(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// The name people know the agent by.
    pub fn display_name(self) -> &'static str {
        match self {
            Self::Claude => "Claude Code",
            Self::Codex => "Codex CLI",
            Self::Gemini => "Gemini CLI",
        }
    }

    /// The unit of the `timeout` field.
    pub fn timeout_unit(self) -> TimeoutUnit {
        match self {
            Self::Gemini => TimeoutUnit::Milliseconds,
            Self::Claude | Self::Codex => TimeoutUnit::Seconds,
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
            (Self::Codex | Self::Gemini, InstallScope::Local) => None,
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
    fn claude_code_starts_sessions_on_every_source() {
        let start = &AgentKind::Claude.hooks()[0];
        assert_eq!(start.matcher, Some("startup|resume|clear|compact"));
        assert_eq!(start.args, ["hook", "session-start"]);
    }
}
