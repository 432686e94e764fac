//! The process environment, read once, so that nothing below the interface reads it.

use std::path::PathBuf;

use crate::domain::agent_hooks::AgentHomes;
use crate::domain::seed::Timestamp;

/// The variables carryover looks at.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// `CARRYOVER_HOME`: the data home.
    pub carryover_home: Option<PathBuf>,
    /// `XDG_DATA_HOME`.
    pub xdg_data_home: Option<PathBuf>,
    /// `CARRYOVER_SEED`: another seed file.
    pub carryover_seed: Option<PathBuf>,
    /// `PAI_DIR`: PAI injects the identity itself, so carryover complements it.
    pub pai_dir: Option<PathBuf>,
    /// `CARRYOVER_NOW`: a fixed time, for reproducible output.
    pub now: Option<String>,
    /// `TZ`.
    pub tz: Option<String>,
    /// `LANG`.
    pub lang: Option<String>,
    /// `ANTHROPIC_MODEL`: the model when neither payload nor transcript names one.
    pub anthropic_model: Option<String>,
    /// `CLAUDE_CONFIG_DIR`: Claude Code's user directory, when not `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: Codex CLI's user directory, when not `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// `COPILOT_HOME`: Copilot CLI's user directory, when not `~/.copilot`.
    pub copilot_home: Option<PathBuf>,
    /// The process's working directory.
    pub current_dir: Option<PathBuf>,
    /// `PATH`, where `doctor` looks for the hooks' binary and the agents.
    pub path_var: Option<std::ffi::OsString>,
    /// The coding agent this process runs under, when its shell says so (`CLAUDECODE`,
    /// `GEMINI_CLI`, `CODEX_SANDBOX`, `COPILOT_CLI`, `CURSOR_AGENT`).
    pub agent_running: Option<String>,
    /// `CARRYOVER_MERGE_REPORT`: where the merge driver reports what it could not decide,
    /// set by `sync` for the `git merge` it runs.
    pub merge_report: Option<PathBuf>,
    /// `CARRYOVER_MERGE_NEWER`: which side of that merge changed last (`ours`, `theirs`).
    pub merge_newer: Option<String>,
}

impl Environment {
    /// Reads the process environment; empty values count as unset.
    pub fn from_process() -> Self {
        let path = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let text = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        Self {
            home: path("HOME"),
            carryover_home: path("CARRYOVER_HOME"),
            xdg_data_home: path("XDG_DATA_HOME"),
            carryover_seed: path("CARRYOVER_SEED"),
            pai_dir: path("PAI_DIR"),
            now: text("CARRYOVER_NOW"),
            tz: text("TZ"),
            lang: text("LANG"),
            anthropic_model: text("ANTHROPIC_MODEL"),
            claude_config_dir: path("CLAUDE_CONFIG_DIR"),
            codex_home: path("CODEX_HOME"),
            copilot_home: path("COPILOT_HOME"),
            current_dir: std::env::current_dir().ok(),
            path_var: std::env::var_os("PATH").filter(|v| !v.is_empty()),
            agent_running: [
                ("CLAUDECODE", "Claude Code"),
                ("GEMINI_CLI", "Gemini CLI"),
                ("CODEX_SANDBOX", "Codex CLI"),
                ("CODEX_THREAD_ID", "Codex CLI"),
                ("COPILOT_CLI", "Copilot CLI"),
                ("CURSOR_AGENT", "Cursor"),
            ]
            .into_iter()
            .find(|(name, _)| text(name).is_some())
            .map(|(_, agent)| format!("the assistant ({agent})")),
            merge_report: path("CARRYOVER_MERGE_REPORT"),
            merge_newer: text("CARRYOVER_MERGE_NEWER"),
        }
    }

    /// `CARRYOVER_NOW` parsed; `Err` carries the bad value.
    pub fn fixed_now(&self) -> Option<Result<Timestamp, String>> {
        self.now
            .as_deref()
            .map(|raw| Timestamp::parse(raw).map_err(|_| raw.to_owned()))
    }

    /// The agents' user directories: under `HOME`, unless `CLAUDE_CONFIG_DIR`, `CODEX_HOME`
    /// or `COPILOT_HOME` move them; `None` without a home.
    pub fn agent_homes(&self) -> Option<AgentHomes> {
        let mut homes = AgentHomes::under(self.home.as_deref()?);
        if let Some(dir) = &self.claude_config_dir {
            homes.claude = dir.clone();
        }
        if let Some(dir) = &self.codex_home {
            homes.codex = dir.clone();
        }
        if let Some(dir) = &self.copilot_home {
            homes.copilot = dir.clone();
        }
        Some(homes)
    }

    /// A locale tag from `LANG` (`en_GB.UTF-8` → `en-GB`).
    pub fn locale(&self) -> Option<String> {
        let lang = self.lang.as_deref()?;
        let tag = lang.split(['.', '@']).next()?.replace('_', "-");
        (tag.len() >= 2 && tag != "C" && tag != "POSIX").then_some(tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn agent_homes_follow_home_unless_the_agents_own_variables_move_them() {
        let mut env = Environment {
            home: Some("/h".into()),
            ..Environment::default()
        };
        assert_eq!(
            env.agent_homes().unwrap(),
            AgentHomes::under(std::path::Path::new("/h"))
        );
        env.claude_config_dir = Some("/c".into());
        env.codex_home = Some("/x".into());
        env.copilot_home = Some("/g".into());
        let homes = env.agent_homes().unwrap();
        assert_eq!((homes.claude, homes.codex), ("/c".into(), "/x".into()));
        assert_eq!(homes.copilot, PathBuf::from("/g"));
        assert_eq!(homes.gemini, PathBuf::from("/h/.gemini"));
        env.home = None;
        assert_eq!(env.agent_homes(), None);
    }

    #[rstest]
    #[case(Some("en_GB.UTF-8"), Some("en-GB"))]
    #[case(Some("pt_PT@euro"), Some("pt-PT"))]
    #[case(Some("C.UTF-8"), None)]
    #[case(Some("POSIX"), None)]
    #[case(None, None)]
    fn derives_a_locale_from_lang(#[case] lang: Option<&str>, #[case] locale: Option<&str>) {
        let env = Environment {
            lang: lang.map(str::to_owned),
            ..Environment::default()
        };
        assert_eq!(env.locale().as_deref(), locale);
    }
}
