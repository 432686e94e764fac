//! `carryover install` / `uninstall`: carryover's hooks merged into an agent's settings file,
//! or taken out of it, with a plan that can be shown before anything is written.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::domain::SettingsError;
use crate::domain::agent_hooks::{
    AgentHomes, AgentKind, HookLayout, InstallScope, SettingsDialect, StatusLineChange,
    has_own_status_line, install_hooks, install_status_line, parse_settings, rewrite_settings,
    uninstall_hooks, uninstall_status_line,
};
#[cfg(test)]
use crate::domain::ports::SettingsFileState;
use crate::domain::ports::{Clock, IgnoreList, SettingsFiles};

use super::AppError;

/// What to do to the settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookAction {
    /// Wire the hooks to run `binary` (an absolute path).
    Install {
        /// The carryover executable the hooks run.
        binary: PathBuf,
        /// Whether to wire the status line (Claude Code only).
        status_line: StatusLinePolicy,
    },
    /// Remove every carryover hook, and carryover's status line.
    Uninstall,
}

/// Whether `install` wires carryover's status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusLinePolicy {
    /// Where the user has none (the default); a status line of theirs stays.
    IfAbsent,
    /// Asked for: a status line of the user's is an error, never replaced.
    Required,
    /// Not at all.
    Off,
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
    /// What became of the status line; `None` for agents without one.
    pub status_line: Option<StatusLineChange>,
    /// Where the file is copied before it is written: only while no backup of it exists, so
    /// the one backup kept is the user's original however often carryover is (un)installed.
    pub backup: Option<PathBuf>,
    /// Uninstall: the file is deleted rather than written as `{}`, because carryover made it
    /// (no backup of an original exists) and nothing of the user's is in it.
    pub delete: bool,
    /// Uninstall: carryover's backups that hold nothing but the file after uninstall (with
    /// carryover's hooks taken out, they equal it), so they are deleted.
    pub stale_backups: Vec<PathBuf>,
    /// What deleting a file leaves in place whatever it holds: the directory above the
    /// agent's own (the user's home), or the project. Directories below it that the deletion
    /// leaves empty go too.
    pub kept: PathBuf,
    /// Install at the local scope: the project whose git must leave the file untracked, as
    /// it names this machine's binary and is this machine's alone.
    pub untracked_in: Option<PathBuf>,
}

impl SettingsChange {
    /// Whether applying it would write or delete anything.
    pub fn changes_anything(&self) -> bool {
        self.after.is_some() || !self.stale_backups.is_empty()
    }

    fn unchanged(path: PathBuf, before: Option<String>, kept: PathBuf) -> Self {
        Self {
            path,
            before,
            after: None,
            status_line: None,
            backup: None,
            delete: false,
            stale_backups: Vec::new(),
            kept,
            untracked_in: None,
        }
    }
}

/// What `apply` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// The backup made of the previous file.
    pub backup: Option<PathBuf>,
    /// The settings file was deleted.
    pub deleted: bool,
    /// carryover's backups deleted.
    pub removed_backups: Vec<PathBuf>,
    /// The file git was told to leave untracked in (`.git/info/exclude`), when it had to be.
    pub excluded_in: Option<PathBuf>,
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
    /// For the user scope: write the target of a settings file that is a symbolic link
    /// (dotfile managers link them); never for a project's files.
    pub follow_links: bool,
}

impl HookTarget {
    /// The directory deleting a settings file never removes: the one holding the agent's own
    /// (user scope), so that a folder of carryover's making (`~/.copilot/hooks`, `~/.copilot`)
    /// goes when left empty; the project (project scopes).
    fn kept_dir(&self) -> PathBuf {
        match self.scope {
            InstallScope::User => {
                let home = self.homes.of(self.agent);
                home.parent().unwrap_or(home).to_path_buf()
            }
            InstallScope::Project | InstallScope::Local => self.project_root.clone(),
        }
    }
}

/// Plans and applies changes to agents' settings files.
pub struct HookInstaller<F> {
    files: F,
    clock: Arc<dyn Clock>,
    ignores: Option<Arc<dyn IgnoreList>>,
}

impl<F: SettingsFiles> HookInstaller<F> {
    /// A service over the given ports.
    pub fn new(files: F, clock: Arc<dyn Clock>) -> Self {
        Self {
            files,
            clock,
            ignores: None,
        }
    }

    /// Tells the project's git to leave a local install's file untracked (without it, a
    /// local install leaves git as it is).
    pub fn with_ignores(mut self, ignores: Arc<dyn IgnoreList>) -> Self {
        self.ignores = Some(ignores);
        self
    }

    /// The change `action` would make to `target`'s settings file, edited into its own text;
    /// writes nothing. A file the agent could not read (strict JSON, or JSON with comments
    /// for Gemini CLI), or whose hooks are not shaped as the agent reads them, is an error.
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
        let path = self.checked_path(target, path).await?;
        let before = self.files.read(&path).await?;
        let dialect = target.agent.settings_dialect();
        let settings = match &before {
            Some(text) => {
                parse_settings(text, dialect).map_err(|source| SettingsError::Syntax {
                    path: path.clone(),
                    source,
                })?
            }
            None if *action == HookAction::Uninstall => {
                return Ok(SettingsChange::unchanged(path, before, target.kept_dir()));
            }
            None => serde_json::Value::Object(Default::default()),
        };
        let shape = |source| SettingsError::Shape {
            path: path.clone(),
            source,
        };
        let has_status_line = target.agent == AgentKind::Claude;
        let (next, status_line) = match action {
            HookAction::Install {
                binary,
                status_line,
            } => {
                let hooked =
                    install_hooks(settings.clone(), target.agent, binary).map_err(shape)?;
                match (status_line, has_status_line) {
                    // Not wanted: one carryover wired earlier is taken out with it.
                    (StatusLinePolicy::Off, true) => {
                        let (unwired, change) = uninstall_status_line(hooked);
                        let change = (change == StatusLineChange::Removed).then_some(change);
                        (unwired, change)
                    }
                    (StatusLinePolicy::Off, false) => (hooked, None),
                    (StatusLinePolicy::Required, false) => {
                        return Err(SettingsError::NoStatusLine {
                            agent: target.agent.display_name(),
                        }
                        .into());
                    }
                    (_, false) => (hooked, None),
                    (policy, true) => match self.own_status_line_elsewhere(target, &path).await {
                        Some(theirs) if *policy == StatusLinePolicy::Required => {
                            return Err(SettingsError::StatusLineTaken { path: theirs }.into());
                        }
                        // The user's own shows in this project: one of carryover's here would
                        // hide it, or be hidden by it.
                        Some(_) => (
                            uninstall_status_line(hooked).0,
                            Some(StatusLineChange::KeptTheirs),
                        ),
                        None => {
                            let (wired, change) =
                                install_status_line(hooked, binary).map_err(shape)?;
                            if *policy == StatusLinePolicy::Required
                                && change == StatusLineChange::KeptTheirs
                            {
                                return Err(SettingsError::StatusLineTaken { path }.into());
                            }
                            (wired, Some(change))
                        }
                    },
                }
            }
            HookAction::Uninstall => {
                let unhooked = uninstall_hooks(settings.clone()).map_err(shape)?;
                match has_status_line {
                    true => {
                        let (next, change) = uninstall_status_line(unhooked);
                        (next, Some(change))
                    }
                    false => (unhooked, None),
                }
            }
        };
        let mut after = (before.is_none() || next != settings)
            .then(|| rewrite_settings(before.as_deref(), &settings, &next, dialect));
        let backups = self.files.backups(&path).await?;
        // A flat layout's `version` is carryover's too when it made the file.
        let flat = matches!(target.agent.layout(), HookLayout::Flat { .. });
        let mut change = SettingsChange {
            backup: None,
            delete: false,
            stale_backups: Vec::new(),
            ..SettingsChange::unchanged(path, before, target.kept_dir())
        };
        change.status_line = status_line;
        match action {
            HookAction::Install { .. } => {
                // A file that holds only what carryover put there (it made it, and the binary
                // moved since) is no original of the user's to keep.
                let theirs = without_carryover(&settings)
                    .is_some_and(|unhooked| !holds_nothing(&unhooked, flat));
                if after.is_some() && change.before.is_some() && backups.is_empty() && theirs {
                    change.backup = Some(backup_path(&change.path, &self.clock.now().compact()));
                }
            }
            HookAction::Uninstall => {
                // carryover made the file when no backup holds an original of the user's
                // (one made of carryover's own file, before a fix, holds none): it goes when
                // nothing else is left in it.
                let mut made_by_carryover = true;
                for backup in backups {
                    // A backup that cannot be read or parsed is the user's, and kept.
                    let Some((original, value)) = self.read_backup(&backup, dialect).await? else {
                        made_by_carryover = false;
                        continue;
                    };
                    let Some(unhooked) = without_carryover(&value) else {
                        made_by_carryover = false;
                        continue;
                    };
                    // One that holds carryover's hooks and nothing else is a copy of its file.
                    made_by_carryover &= unhooked != value && holds_nothing(&unhooked, flat);
                    if unhooked == next {
                        // The user's own file, byte for byte, when the file is still exactly
                        // what carryover made of it: edits made since are kept.
                        if value == next
                            && change.before.as_deref()
                                == Some(
                                    rewrite_settings(Some(&original), &next, &settings, dialect)
                                        .as_str(),
                                )
                        {
                            after = after.map(|_| original);
                        }
                        change.stale_backups.push(backup);
                    }
                }
                change.delete = made_by_carryover && holds_nothing(&next, flat);
            }
        }
        if matches!(action, HookAction::Install { .. }) && target.scope == InstallScope::Local {
            change.untracked_in = Some(target.project_root.clone());
        }
        change.after = after;
        Ok(change)
    }

    /// Another of the agent's settings files for this project (its other scopes) that holds a
    /// status line of the user's own. One that cannot be read or parsed counts as none.
    async fn own_status_line_elsewhere(&self, target: &HookTarget, here: &Path) -> Option<PathBuf> {
        for scope in InstallScope::ALL {
            let Some(path) = target
                .agent
                .settings_path(scope, &target.homes, &target.project_root)
            else {
                continue;
            };
            if scope == target.scope || path == here {
                continue;
            }
            let Ok(Some(text)) = self.files.read(&path).await else {
                continue;
            };
            if parse_settings(&text, target.agent.settings_dialect())
                .is_ok_and(|settings| has_own_status_line(&settings))
            {
                return Some(path);
            }
        }
        None
    }

    /// The text of the backup at `path` and what it reads as; `None` when it cannot be read
    /// or parsed.
    async fn read_backup(
        &self,
        path: &Path,
        dialect: SettingsDialect,
    ) -> Result<Option<(String, serde_json::Value)>, AppError> {
        let Some(text) = self.files.read(path).await? else {
            return Ok(None);
        };
        Ok(parse_settings(&text, dialect)
            .ok()
            .map(|value| (text, value)))
    }

    /// The path to write: a settings file behind a symbolic link is refused in a project (a
    /// cloned repository can ship `.claude` as a link into the user's home, and the user's
    /// settings, keys included, would be copied into a file the repository tracks), and in the
    /// user's home unless `follow_links` says to write the link's target. A read-only file is
    /// never replaced.
    async fn checked_path(&self, target: &HookTarget, path: PathBuf) -> Result<PathBuf, AppError> {
        let within = match target.scope {
            InstallScope::User => path
                .parent()
                .and_then(Path::parent)
                .unwrap_or(Path::new("/"))
                .to_path_buf(),
            InstallScope::Project | InstallScope::Local => target.project_root.clone(),
        };
        let state = self.files.inspect(&path, &within).await?;
        if state.read_only {
            return Err(SettingsError::ReadOnly { path }.into());
        }
        match state.link {
            None => Ok(path),
            Some((link, resolved)) if target.scope == InstallScope::User && target.follow_links => {
                let rest = path.strip_prefix(&link).unwrap_or(Path::new(""));
                let resolved = match rest.as_os_str().is_empty() {
                    true => resolved,
                    false => resolved.join(rest),
                };
                Ok(resolved)
            }
            Some((link, resolved)) => Err(SettingsError::Link {
                path,
                link,
                target: resolved,
                project: target.scope != InstallScope::User,
            }
            .into()),
        }
    }

    /// Writes a planned change (nothing when it changes nothing): backs up the previous file
    /// next to it as `<name>.carryover-backup-<UTC time>` when planned, writes or deletes the
    /// file, then deletes the stale backups.
    pub async fn apply(&self, change: &SettingsChange) -> Result<Applied, AppError> {
        let mut applied = Applied::default();
        if let Some(after) = &change.after {
            if change.delete {
                self.files.remove(&change.path, &change.kept).await?;
                applied.deleted = true;
            } else {
                applied.backup = self
                    .files
                    .replace(&change.path, after, change.backup.clone())
                    .await?;
            }
        }
        for backup in &change.stale_backups {
            self.files.remove(backup, &change.kept).await?;
            applied.removed_backups.push(backup.clone());
        }
        if let (Some(root), Some(ignores)) = (&change.untracked_in, &self.ignores) {
            applied.excluded_in = ignores.keep_untracked(&change.path, root).await?;
        }
        Ok(applied)
    }
}

fn backup_path(path: &Path, stamp: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".carryover-backup-{stamp}"));
    path.with_file_name(name)
}

/// `settings` with carryover's hooks and status line taken out; `None` when its hooks are
/// not shaped as an agent reads them.
fn without_carryover(settings: &serde_json::Value) -> Option<serde_json::Value> {
    uninstall_hooks(settings.clone())
        .ok()
        .map(|unhooked| uninstall_status_line(unhooked).0)
}

/// Whether `settings` holds nothing of the user's: an empty object, or only the `version`
/// that a flat layout's file carries when carryover made it.
fn holds_nothing(settings: &serde_json::Value, flat: bool) -> bool {
    settings
        .as_object()
        .is_some_and(|o| o.keys().all(|key| flat && key == "version"))
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
            follow_links: false,
        }
    }

    fn install() -> HookAction {
        install_with(StatusLinePolicy::IfAbsent)
    }

    fn install_with(status_line: StatusLinePolicy) -> HookAction {
        HookAction::Install {
            binary: PathBuf::from("/opt/carryover"),
            status_line,
        }
    }

    fn files_holding(text: Option<&'static str>) -> MockSettingsFiles {
        let mut files = MockSettingsFiles::new();
        files
            .expect_read()
            .returning(move |_| Ok(text.map(str::to_owned)));
        files
            .expect_inspect()
            .returning(|_, _| Ok(SettingsFileState::default()));
        files.expect_backups().returning(|_| Ok(Vec::new()));
        files
    }

    fn files_behind(state: SettingsFileState) -> MockSettingsFiles {
        let mut files = MockSettingsFiles::new();
        files
            .expect_inspect()
            .returning(move |_, _| Ok(state.clone()));
        files.expect_read().returning(|_| Ok(Some("{}".into())));
        files.expect_backups().returning(|_| Ok(Vec::new()));
        files
    }

    #[rstest::rstest]
    #[case::a_project_link_is_refused(InstallScope::Project, false, Err("a repository can ship"))]
    #[case::even_when_asked_to_follow(InstallScope::Project, true, Err("a repository can ship"))]
    #[case::a_user_link_needs_asking(InstallScope::User, false, Err("only with --follow-links"))]
    #[case::a_user_link_followed_when_asked(
        InstallScope::User,
        true,
        Ok("/dotfiles/claude/settings.json")
    )]
    fn links_to_settings(
        #[case] scope: InstallScope,
        #[case] follow: bool,
        #[case] expected: Result<&str, &str>,
    ) {
        let link = match scope {
            InstallScope::User => "/home/u/.claude",
            _ => "/work/shop/.claude",
        };
        let installer = HookInstaller::new(
            files_behind(SettingsFileState {
                link: Some((link.into(), "/dotfiles/claude".into())),
                read_only: false,
            }),
            fixed_clock(),
        );
        let mut target = target(AgentKind::Claude, scope);
        target.follow_links = follow;
        let planned = pollster::block_on(installer.plan(&target, &install()));
        match expected {
            Ok(path) => assert_eq!(planned.unwrap().path, PathBuf::from(path)),
            Err(words) => {
                let message = planned.unwrap_err().to_string();
                assert!(message.contains(words), "{message}");
            }
        }
    }

    #[test]
    fn a_read_only_file_is_never_replaced() {
        let installer = HookInstaller::new(
            files_behind(SettingsFileState {
                link: None,
                read_only: true,
            }),
            fixed_clock(),
        );
        let error = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::User), &install()),
        )
        .unwrap_err();
        assert!(error.to_string().contains("read-only"), "{error}");
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
                eq(None),
            )
            .times(1)
            .returning(|_, _, _| Ok(None));
        let installer = HookInstaller::new(files, fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::User), &install()),
        )
        .unwrap();
        assert!(change.changes_anything() && change.before.is_none());
        assert_eq!(
            pollster::block_on(installer.apply(&change)).unwrap(),
            Applied::default()
        );
    }

    #[test]
    fn an_installed_file_is_left_alone() {
        let installed = crate::domain::agent_hooks::encode_settings(
            &crate::domain::agent_hooks::install_status_line(
                install_hooks(
                    serde_json::json!({"model": "x"}),
                    AgentKind::Claude,
                    Path::new("/opt/carryover"),
                )
                .unwrap(),
                Path::new("/opt/carryover"),
            )
            .unwrap()
            .0,
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
        assert_eq!(
            pollster::block_on(installer.apply(&change)).unwrap(),
            Applied::default()
        );
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

    const THEIRS: &str = r#"{"statusLine": {"type": "command", "command": "~/my-line.sh"}}"#;

    #[rstest::rstest]
    #[case::wired_where_there_is_none(
        None,
        StatusLinePolicy::IfAbsent,
        Some(StatusLineChange::Added)
    )]
    #[case::theirs_is_kept(
        Some(THEIRS),
        StatusLinePolicy::IfAbsent,
        Some(StatusLineChange::KeptTheirs)
    )]
    #[case::left_out_when_asked(None, StatusLinePolicy::Off, None)]
    #[case::carryovers_taken_out_when_not_wanted(
        Some(OURS),
        StatusLinePolicy::Off,
        Some(StatusLineChange::Removed)
    )]
    fn the_status_line_is_wired_only_where_the_user_has_none(
        #[case] text: Option<&'static str>,
        #[case] policy: StatusLinePolicy,
        #[case] expected: Option<StatusLineChange>,
    ) {
        let installer = HookInstaller::new(files_holding(text), fixed_clock());
        let change = pollster::block_on(installer.plan(
            &target(AgentKind::Claude, InstallScope::User),
            &install_with(policy),
        ))
        .unwrap();
        assert_eq!(change.status_line, expected);
        let after = change.after.unwrap();
        match expected {
            Some(StatusLineChange::Added) => assert!(after.contains("/opt/carryover statusline")),
            Some(StatusLineChange::KeptTheirs) => assert!(after.contains("~/my-line.sh")),
            _ => assert!(!after.contains("statusLine"), "{after}"),
        }
    }

    /// Settings files by path: the user's holds `user`, this project's local one `local`.
    fn files_with_user_and_local(
        user: Option<&'static str>,
        local: Option<&'static str>,
    ) -> MockSettingsFiles {
        let mut files = MockSettingsFiles::new();
        files.expect_read().returning(move |path| {
            Ok(match path.to_string_lossy().as_ref() {
                "/home/u/.claude/settings.json" => user,
                "/work/shop/.claude/settings.local.json" => local,
                _ => None,
            }
            .map(str::to_owned))
        });
        files
            .expect_inspect()
            .returning(|_, _| Ok(SettingsFileState::default()));
        files.expect_backups().returning(|_| Ok(Vec::new()));
        files
    }

    const OURS: &str =
        r#"{"statusLine": {"type": "command", "command": "/opt/carryover statusline"}}"#;

    #[rstest::rstest]
    #[case::not_added_over_the_users_own(None)]
    #[case::carryovers_taken_out_where_it_hid_theirs(Some(OURS))]
    fn a_project_scope_never_hides_the_users_own_status_line(#[case] local: Option<&'static str>) {
        let installer = HookInstaller::new(
            files_with_user_and_local(Some(THEIRS), local),
            fixed_clock(),
        );
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::Local), &install()),
        )
        .unwrap();
        assert_eq!(
            change.path,
            PathBuf::from("/work/shop/.claude/settings.local.json")
        );
        assert_eq!(change.status_line, Some(StatusLineChange::KeptTheirs));
        let after = change.after.unwrap();
        assert!(!after.contains("statusLine"), "{after}");
        assert!(
            after.contains("carryover hook"),
            "the hooks are wired: {after}"
        );
    }

    #[test]
    fn a_project_scope_wires_the_status_line_when_the_user_has_none() {
        let installer =
            HookInstaller::new(files_with_user_and_local(Some("{}"), None), fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::Local), &install()),
        )
        .unwrap();
        assert_eq!(change.status_line, Some(StatusLineChange::Added));
    }

    #[test]
    fn asking_for_the_status_line_over_the_users_is_refused() {
        let installer = HookInstaller::new(files_holding(Some(THEIRS)), fixed_clock());
        let error = pollster::block_on(installer.plan(
            &target(AgentKind::Claude, InstallScope::User),
            &install_with(StatusLinePolicy::Required),
        ))
        .unwrap_err();
        assert!(
            error.to_string().contains("has a status line of your own"),
            "{error}"
        );
    }

    #[test]
    fn other_agents_get_no_status_line() {
        let installer = HookInstaller::new(files_holding(None), fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Gemini, InstallScope::User), &install()),
        )
        .unwrap();
        assert_eq!(change.status_line, None);
        assert!(!change.after.unwrap().contains("statusLine"));
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

    const ORIGINAL: &str = "/home/u/.claude/settings.json.carryover-backup-20261101T000000Z";
    const LATER: &str = "/home/u/.claude/settings.json.carryover-backup-20261102T000000Z";

    /// A settings file holding `text`, with carryover's backups `backups` (path, text).
    fn files_with_backups(
        text: &'static str,
        backups: &'static [(&'static str, &'static str)],
    ) -> MockSettingsFiles {
        let mut files = MockSettingsFiles::new();
        files
            .expect_inspect()
            .returning(|_, _| Ok(SettingsFileState::default()));
        files.expect_read().returning(move |path| {
            let held = backups
                .iter()
                .find(|(at, _)| Path::new(at) == path)
                .map(|(_, text)| *text)
                .unwrap_or(text);
            Ok(Some(held.to_owned()))
        });
        files
            .expect_backups()
            .returning(move |_| Ok(backups.iter().map(|(at, _)| PathBuf::from(at)).collect()));
        files
    }

    fn installed(settings: serde_json::Value) -> &'static str {
        let hooked = install_hooks(settings, AgentKind::Claude, Path::new("carryover")).unwrap();
        let text = crate::domain::agent_hooks::encode_settings(&hooked, None);
        Box::leak(text.into_boxed_str())
    }

    /// A settings file carryover made, hooked to a binary that has moved since.
    const OLD_BINARY_HOOKS: &str = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "/old/carryover hook session-start"}]}]}}"#;

    #[rstest::rstest]
    #[case::the_first_install_backs_up_the_original(r#"{"model": "x"}"#, &[], true)]
    #[case::a_later_install_adds_no_backup(
        r#"{"model": "x"}"#,
        &[(ORIGINAL, r#"{"model": "x"}"#)],
        false
    )]
    #[case::a_file_carryover_made_is_no_original(OLD_BINARY_HOOKS, &[], false)]
    fn install_keeps_at_most_one_backup(
        #[case] text: &'static str,
        #[case] backups: &'static [(&'static str, &'static str)],
        #[case] backed_up: bool,
    ) {
        let installer = HookInstaller::new(files_with_backups(text, backups), fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(AgentKind::Claude, InstallScope::User), &install()),
        )
        .unwrap();
        assert_eq!(change.backup.is_some(), backed_up, "{:?}", change.backup);
    }

    #[rstest::rstest]
    #[case::a_file_carryover_made_is_deleted(installed(serde_json::json!({})), &[], true, &[])]
    #[case::the_users_original_is_restored_and_its_backup_dropped(
        installed(serde_json::json!({"model": "x"})),
        &[(ORIGINAL, r#"{"model": "x"}"#), (LATER, "{}")],
        false,
        &[ORIGINAL]
    )]
    #[case::an_empty_original_stays(
        installed(serde_json::json!({})),
        &[(ORIGINAL, "{}")],
        false,
        &[ORIGINAL]
    )]
    #[case::a_file_carryover_made_and_backed_up_when_reinstalled_is_deleted(
        installed(serde_json::json!({})),
        &[(ORIGINAL, OLD_BINARY_HOOKS)],
        true,
        &[ORIGINAL]
    )]
    #[case::a_backup_with_other_content_is_kept(
        installed(serde_json::json!({"model": "y"})),
        &[(ORIGINAL, r#"{"model": "x"}"#)],
        false,
        &[]
    )]
    fn uninstall_takes_away_what_install_made(
        #[case] text: &'static str,
        #[case] backups: &'static [(&'static str, &'static str)],
        #[case] delete: bool,
        #[case] stale: &[&str],
    ) {
        let installer = HookInstaller::new(files_with_backups(text, backups), fixed_clock());
        let change = pollster::block_on(installer.plan(
            &target(AgentKind::Claude, InstallScope::User),
            &HookAction::Uninstall,
        ))
        .unwrap();
        assert_eq!(change.delete, delete);
        let stale: Vec<PathBuf> = stale.iter().map(PathBuf::from).collect();
        assert_eq!(change.stale_backups, stale);
    }

    /// Copilot CLI's hooks file is carryover's own: what install made, uninstall deletes,
    /// `version` and all; a Cursor `hooks.json` of the user's keeps its `version`.
    #[rstest::rstest]
    #[case::copilot_file_made_by_install(AgentKind::Copilot, serde_json::json!({}), &[], true)]
    #[case::cursor_file_of_the_users(
        AgentKind::Cursor,
        serde_json::json!({"version": 1}),
        &[(ORIGINAL, r#"{"version": 1}"#)],
        false
    )]
    fn uninstall_deletes_a_flat_file_it_made(
        #[case] agent: AgentKind,
        #[case] before: serde_json::Value,
        #[case] backups: &'static [(&'static str, &'static str)],
        #[case] delete: bool,
    ) {
        let text = install_hooks(before, agent, Path::new("/opt/carryover")).unwrap();
        let text: &'static str = Box::leak(text.to_string().into_boxed_str());
        let installer = HookInstaller::new(files_with_backups(text, backups), fixed_clock());
        let change = pollster::block_on(
            installer.plan(&target(agent, InstallScope::User), &HookAction::Uninstall),
        )
        .unwrap();
        assert_eq!(change.delete, delete);
        assert!(change.after.is_some());
    }

    #[rstest::rstest]
    #[case::user_copilot(AgentKind::Copilot, InstallScope::User, "/home/u")]
    #[case::user_claude(AgentKind::Claude, InstallScope::User, "/home/u")]
    #[case::project(AgentKind::Copilot, InstallScope::Project, "/work/shop")]
    #[case::local(AgentKind::Claude, InstallScope::Local, "/work/shop")]
    fn a_deletion_keeps_the_home_or_the_project(
        #[case] agent: AgentKind,
        #[case] scope: InstallScope,
        #[case] kept: &str,
    ) {
        assert_eq!(target(agent, scope).kept_dir(), PathBuf::from(kept));
    }

    #[rstest::rstest]
    #[case::local_install(InstallScope::Local, true, Some("/work/shop"))]
    #[case::project_install(InstallScope::Project, true, None)]
    #[case::user_install(InstallScope::User, true, None)]
    #[case::local_uninstall(InstallScope::Local, false, None)]
    fn only_a_local_install_asks_git_to_leave_the_file_untracked(
        #[case] scope: InstallScope,
        #[case] installing: bool,
        #[case] untracked_in: Option<&str>,
    ) {
        let mut files = files_holding(Some("{\"model\": \"x\"}"));
        files.expect_replace().returning(|_, _, _| Ok(None));
        let mut ignores = crate::domain::ports::MockIgnoreList::new();
        ignores
            .expect_keep_untracked()
            .with(
                eq(PathBuf::from("/work/shop/.claude/settings.local.json")),
                eq(PathBuf::from("/work/shop")),
            )
            .times(usize::from(untracked_in.is_some()))
            .returning(|_, _| Ok(Some(PathBuf::from("/work/shop/.git/info/exclude"))));
        let installer = HookInstaller::new(files, fixed_clock()).with_ignores(Arc::new(ignores));
        let action = if installing {
            install()
        } else {
            HookAction::Uninstall
        };
        let change =
            pollster::block_on(installer.plan(&target(AgentKind::Claude, scope), &action)).unwrap();
        assert_eq!(change.untracked_in, untracked_in.map(PathBuf::from));
        let applied = pollster::block_on(installer.apply(&change)).unwrap();
        assert_eq!(applied.excluded_in.is_some(), untracked_in.is_some());
    }

    #[test]
    fn applying_a_deletion_removes_the_file_and_writes_nothing() {
        let mut files = files_with_backups(installed(serde_json::json!({})), &[]);
        files.expect_replace().never();
        files
            .expect_remove()
            .with(
                eq(PathBuf::from("/work/shop/.claude/settings.json")),
                eq(PathBuf::from("/work/shop")),
            )
            .times(1)
            .returning(|_, _| Ok(()));
        let installer = HookInstaller::new(files, fixed_clock());
        let change = pollster::block_on(installer.plan(
            &target(AgentKind::Claude, InstallScope::Project),
            &HookAction::Uninstall,
        ))
        .unwrap();
        let applied = pollster::block_on(installer.apply(&change)).unwrap();
        assert!(applied.deleted && applied.backup.is_none());
    }
}
