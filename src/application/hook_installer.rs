//! `carryover install` / `uninstall`: carryover's hooks merged into an agent's settings file,
//! or taken out of it, with a plan that can be shown before anything is written.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::domain::SettingsError;
use crate::domain::agent_hooks::{
    AgentHomes, AgentKind, InstallScope, encode_settings, install_hooks, parse_settings,
    uninstall_hooks,
};
use crate::domain::ports::{Clock, SettingsFiles};

use super::AppError;

/// What to do to the settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookAction {
    /// Wire the hooks to run `binary` (an absolute path).
    Install {
        /// The carryover executable the hooks run.
        binary: PathBuf,
    },
    /// Remove every carryover hook.
    Uninstall,
}

/// A settings file before and after the action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsChange {
    /// The settings file.
    pub path: PathBuf,
    /// Its text now; `None` when it does not exist.
    pub before: Option<String>,
    /// Its text after the action; `None` when the action changes nothing.
    pub after: Option<String>,
}

impl SettingsChange {
    /// Whether applying it would write anything.
    pub fn changes_anything(&self) -> bool {
        self.after.is_some()
    }
}

/// Where an agent's settings are, and what to wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookTarget {
    /// The agent.
    pub agent: AgentKind,
    /// Which of its settings files.
    pub scope: InstallScope,
    /// The agents' user directories.
    pub homes: AgentHomes,
    /// The project, for the project and local scopes.
    pub project_root: PathBuf,
}

/// Plans and applies changes to agents' settings files.
pub struct HookInstaller<F> {
    files: F,
    clock: Arc<dyn Clock>,
}

impl<F: SettingsFiles> HookInstaller<F> {
    /// A service over the given ports.
    pub fn new(files: F, clock: Arc<dyn Clock>) -> Self {
        Self { files, clock }
    }

    /// The change `action` would make to `target`'s settings file; writes nothing. A file that
    /// is not strict JSON, or whose hooks are not shaped as the agent reads them, is an error.
    pub async fn plan(
        &self,
        target: &HookTarget,
        action: &HookAction,
    ) -> Result<SettingsChange, AppError> {
        let path = target
            .agent
            .settings_path(target.scope, &target.homes, &target.project_root)
            .ok_or_else(|| SettingsError::NoSuchScope {
                agent: target.agent.display_name(),
                scope: target.scope.to_string(),
            })?;
        let before = self.files.read(&path).await?;
        let settings = match &before {
            Some(text) => parse_settings(text).map_err(|source| SettingsError::Syntax {
                path: path.clone(),
                source,
            })?,
            None if *action == HookAction::Uninstall => {
                return Ok(SettingsChange {
                    path,
                    before,
                    after: None,
                });
            }
            None => serde_json::Value::Object(Default::default()),
        };
        let shape = |source| SettingsError::Shape {
            path: path.clone(),
            source,
        };
        let next = match action {
            HookAction::Install { binary } => {
                install_hooks(settings.clone(), target.agent, binary).map_err(shape)?
            }
            HookAction::Uninstall => uninstall_hooks(settings.clone()).map_err(shape)?,
        };
        let after = (before.is_none() || next != settings)
            .then(|| encode_settings(&next, before.as_deref()));
        Ok(SettingsChange {
            path,
            before,
            after,
        })
    }

    /// Writes a planned change (nothing when it changes nothing), backing up the previous file
    /// next to it as `<name>.carryover-backup-<UTC time>`; returns the backup's path.
    pub async fn apply(&self, change: &SettingsChange) -> Result<Option<PathBuf>, AppError> {
        let Some(after) = &change.after else {
            return Ok(None);
        };
        let backup = backup_path(&change.path, &self.clock.now().compact());
        Ok(self.files.replace(&change.path, after, &backup).await?)
    }
}

fn backup_path(path: &Path, stamp: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".carryover-backup-{stamp}"));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::fixed_clock;
    use crate::domain::ports::MockSettingsFiles;
    use mockall::predicate::eq;

    fn target(agent: AgentKind, scope: InstallScope) -> HookTarget {
        HookTarget {
            agent,
            scope,
            homes: AgentHomes::under(Path::new("/home/u")),
            project_root: PathBuf::from("/work/shop"),
        }
    }

    fn install() -> HookAction {
        HookAction::Install {
            binary: PathBuf::from("/opt/carryover"),
        }
    }

    fn files_holding(text: Option<&'static str>) -> MockSettingsFiles {
        let mut files = MockSettingsFiles::new();
        files
            .expect_read()
            .returning(move |_| Ok(text.map(str::to_owned)));
        files
    }

    #[test]
    fn installing_into_a_missing_file_creates_it() {
        let mut files = files_holding(None);
        files
            .expect_replace()
            .with(
                eq(PathBuf::from("/home/u/.claude/settings.json")),
                mockall::predicate::function(|text: &str| {
                    text.contains("/opt/carryover hook session-start")
                }),
                eq(PathBuf::from(
                    "/home/u/.claude/settings.json.carryover-backup-20261122T184000Z",
                )),
            )
            .times(1)
            .returning(|_, _, _| Ok(None));
        let installer = HookInstaller::new(files, fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::User), &install()),
        )
        .unwrap();
        assert!(change.changes_anything() && change.before.is_none());
        assert_eq!(pollster::block_on(installer.apply(&change)).unwrap(), None);
    }

    #[test]
    fn an_installed_file_is_left_alone() {
        let installed = crate::domain::agent_hooks::encode_settings(
            &install_hooks(
                serde_json::json!({"model": "x"}),
                AgentKind::Claude,
                Path::new("/opt/carryover"),
            )
            .unwrap(),
            None,
        );
        let text: &'static str = Box::leak(installed.into_boxed_str());
        let mut files = files_holding(Some(text));
        files.expect_replace().never();
        let installer = HookInstaller::new(files, fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::User), &install()),
        )
        .unwrap();
        assert!(!change.changes_anything());
        assert_eq!(pollster::block_on(installer.apply(&change)).unwrap(), None);
    }

    #[test]
    fn invalid_json_is_refused_with_its_place() {
        let installer = HookInstaller::new(files_holding(Some("{\n  \"a\": 1,\n}")), fixed_clock());
        let error = pollster::block_on(installer.plan(
            &target(AgentKind::Claude, InstallScope::Project),
            &install(),
        ))
        .unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("/work/shop/.claude/settings.json: not valid JSON at line 3"),
            "{message}"
        );
    }

    #[test]
    fn uninstalling_from_a_missing_file_changes_nothing() {
        let installer = HookInstaller::new(files_holding(None), fixed_clock());
        let change = pollster::block_on(installer.plan(
            &target(AgentKind::Gemini, InstallScope::User),
            &HookAction::Uninstall,
        ))
        .unwrap();
        assert!(!change.changes_anything());
        assert_eq!(change.path, PathBuf::from("/home/u/.gemini/settings.json"));
    }

    #[test]
    fn a_scope_the_agent_lacks_is_refused() {
        let mut files = MockSettingsFiles::new();
        files.expect_read().never();
        let installer = HookInstaller::new(files, fixed_clock());
        let error = pollster::block_on(
            installer.plan(&target(AgentKind::Codex, InstallScope::Local), &install()),
        )
        .unwrap_err();
        assert_eq!(error.to_string(), "Codex CLI has no local settings file");
    }
}
