//! Feature flags in `config.toml`, edited in place so the user's comments and layout stay.

use std::path::PathBuf;
use std::time::Duration;

use toml_edit::{Array, DocumentMut, Item, Table, value};

use crate::domain::FlagError;
use crate::domain::flags::{FlagValue, ResolvedFlags};
use crate::domain::ports::{FlagStore, FlagTarget};
use crate::domain::project::ProjectSlug;

use super::SMALL_FILE_BYTES;
use super::{Config, ConfigError, FileLock, write_atomic};

/// `[feature_flags]` and `[projects."<slug>".feature_flags]` of one configuration file.
#[derive(Debug, Clone)]
pub struct TomlFlagStore {
    path: PathBuf,
    lock_wait: Duration,
}

impl TomlFlagStore {
    /// Flags in the configuration at `path`.
    pub fn new(path: impl Into<PathBuf>, lock_wait: Duration) -> Self {
        Self {
            path: path.into(),
            lock_wait,
        }
    }

    fn read_text(&self) -> Result<String, FlagError> {
        match super::read_regular_utf8(&self.path, SMALL_FILE_BYTES) {
            Ok(text) => Ok(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
            Err(source) => Err(FlagError::Io {
                path: self.path.clone(),
                source,
            }),
        }
    }

    fn invalid(&self, message: String) -> FlagError {
        FlagError::Invalid {
            path: self.path.clone(),
            message,
        }
    }

    fn config(&self, text: &str) -> Result<Config, FlagError> {
        Config::parse(text, &self.path).map_err(|error| match error {
            ConfigError::Invalid { message, .. } => self.invalid(message),
            ConfigError::Syntax(problem) => self.invalid(problem.to_string()),
            ConfigError::Io { source, .. } => FlagError::Io {
                path: self.path.clone(),
                source,
            },
        })
    }

    /// Applies `change` to the document under the configuration's lock, checks that the result
    /// is still a valid configuration, and writes it atomically.
    fn edit<R>(&self, change: impl FnOnce(&mut DocumentMut) -> R) -> Result<R, FlagError> {
        let lock_path = self.path.with_file_name(".config.toml.lock");
        let _lock =
            FileLock::acquire(&lock_path, self.lock_wait).map_err(|error| FlagError::Io {
                path: lock_path.clone(),
                source: std::io::Error::other(error.to_string()),
            })?;
        let text = self.read_text()?;
        self.config(&text)?;
        let mut document: DocumentMut = text
            .parse()
            .map_err(|error: toml_edit::TomlError| self.invalid(error.to_string()))?;
        let result = change(&mut document);
        let edited = document.to_string();
        self.config(&edited)?;
        write_atomic(&self.path, edited.as_bytes()).map_err(|source| FlagError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(result)
    }
}

/// The `feature_flags` table of the target, created (without a header of its own for the
/// intermediate tables) when `create` is set.
fn flags_table<'a>(
    document: &'a mut DocumentMut,
    target: &FlagTarget,
    create: bool,
) -> Option<&'a mut Table> {
    let root = document.as_table_mut();
    let parent: &mut Table = match target {
        FlagTarget::Global => root,
        FlagTarget::Project(slug) => {
            if create && !root.contains_key("projects") {
                let mut projects = Table::new();
                projects.set_implicit(true);
                root.insert("projects", Item::Table(projects));
            }
            let projects = table_at(root, "projects")?;
            // The project's flags from before its name changed move to its name now, so that
            // a first change under the new name does not hide the rest of them.
            if !projects.contains_key(slug.as_str())
                && let Some(old) = slug.carried_over().find(|old| projects.contains_key(old))
                && let Some(table) = projects.remove(old)
            {
                projects.insert(slug.as_str(), table);
            }
            if create && !projects.contains_key(slug.as_str()) {
                let mut project = Table::new();
                project.set_implicit(true);
                projects.insert(slug.as_str(), Item::Table(project));
            }
            table_at(projects, slug.as_str())?
        }
    };
    if create && !parent.contains_key("feature_flags") {
        parent.insert("feature_flags", Item::Table(Table::new()));
    }
    table_at(parent, "feature_flags")
}

/// The table under `key`, one written inline (`feature_flags = { a = true }`) made a table of
/// its own first, so that a flag can be added to it.
fn table_at<'a>(parent: &'a mut Table, key: &str) -> Option<&'a mut Table> {
    let item = parent.get_mut(key)?;
    if item.is_inline_table() {
        let inline = std::mem::take(item);
        *item = Item::Table(inline.into_table().ok()?);
    }
    item.as_table_mut()
}

fn to_item(flag: &FlagValue) -> Item {
    match flag {
        FlagValue::Bool(on) => value(*on),
        FlagValue::Text(text) => value(text.as_str()),
        FlagValue::List(items) => value(items.iter().map(String::as_str).collect::<Array>()),
    }
}

#[async_trait::async_trait]
impl FlagStore for TomlFlagStore {
    async fn resolved(&self, project: &ProjectSlug) -> Result<ResolvedFlags, FlagError> {
        let config = self.config(&self.read_text()?)?;
        // A project's flags set by carryover 0.1, or before it had a remote, are under the
        // slug it had then.
        let own = config
            .projects
            .get(project.as_str())
            .or_else(|| {
                project
                    .carried_over()
                    .find_map(|old| config.projects.get(old))
            })
            .map(|p| &p.feature_flags);
        Ok(ResolvedFlags::resolve(&config.feature_flags, own))
    }

    async fn set(
        &self,
        target: &FlagTarget,
        name: &str,
        flag: &FlagValue,
    ) -> Result<(), FlagError> {
        self.edit(|document| {
            if let Some(table) = flags_table(document, target, true) {
                table.insert(name, to_item(flag));
            }
        })
    }

    async fn unset(&self, target: &FlagTarget, name: &str) -> Result<bool, FlagError> {
        self.edit(|document| {
            flags_table(document, target, false)
                .and_then(|table| table.remove(name))
                .is_some()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::flags::FlagScope;

    fn store(text: Option<&str>) -> (tempfile::TempDir, TomlFlagStore) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        if let Some(text) = text {
            fs_err::write(&path, text).unwrap();
        }
        (dir, TomlFlagStore::new(path, Duration::from_secs(1)))
    }

    #[test]
    fn set_keeps_comments_and_other_keys_and_project_wins() {
        let (dir, store) = store(Some("# mine\n[context]\nbudget_chars = 4000 # tight\n"));
        let slug = ProjectSlug::from_text("/code/shop-api");
        pollster::block_on(store.set(
            &FlagTarget::Global,
            "startup-instruction",
            &FlagValue::Text("make status".into()),
        ))
        .unwrap();
        pollster::block_on(store.set(
            &FlagTarget::Project(slug.clone()),
            "startup-instruction",
            &FlagValue::Bool(false),
        ))
        .unwrap();
        pollster::block_on(store.set(
            &FlagTarget::Global,
            "envs",
            &FlagValue::List(vec!["dev".into()]),
        ))
        .unwrap();
        let text = fs_err::read_to_string(dir.path().join("config.toml")).unwrap();
        assert!(
            text.starts_with("# mine\n[context]\nbudget_chars = 4000 # tight\n"),
            "{text}"
        );
        assert!(
            text.contains("[projects.-code-shop-api.feature_flags]"),
            "{text}"
        );
        let resolved = pollster::block_on(store.resolved(&slug)).unwrap();
        assert_eq!(
            resolved.get_with_scope("startup-instruction"),
            Some((&FlagValue::Bool(false), FlagScope::Project))
        );
        let elsewhere =
            pollster::block_on(store.resolved(&ProjectSlug::from_text("/other"))).unwrap();
        assert_eq!(
            elsewhere.get("startup-instruction"),
            Some(&FlagValue::Text("make status".into()))
        );
        assert_eq!(
            elsewhere.get("envs"),
            Some(&FlagValue::List(vec!["dev".into()]))
        );
    }

    #[test]
    fn a_change_under_a_projects_new_name_keeps_its_flags_from_before() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("shop");
        fs_err::create_dir_all(&root).unwrap();
        let project = crate::domain::project::Project {
            id: crate::domain::project::ProjectId::from_remote("git@github.com:acme/shop.git")
                .unwrap(),
            main_root: root.clone(),
            root,
            name: "shop".into(),
            in_git: true,
        };
        let slug = ProjectSlug::for_project(&project);
        let old = slug.carried_over().next().unwrap().to_owned();
        let (dir, store) = store(Some(&format!(
            "[projects.{old}.feature_flags]\nstartup-instruction = \"make status\"\n"
        )));
        pollster::block_on(store.set(
            &FlagTarget::Project(slug.clone()),
            "envs",
            &FlagValue::List(vec!["dev".into()]),
        ))
        .unwrap();
        let resolved = pollster::block_on(store.resolved(&slug)).unwrap();
        assert_eq!(
            resolved.get("startup-instruction"),
            Some(&FlagValue::Text("make status".into()))
        );
        assert_eq!(
            resolved.get("envs"),
            Some(&FlagValue::List(vec!["dev".into()]))
        );
        let text = fs_err::read_to_string(dir.path().join("config.toml")).unwrap();
        assert!(!text.contains(&old), "moved, not copied: {text}");
    }

    #[rstest::rstest]
    #[case::inline_flags("[projects.x]\nfeature_flags = { old = true }\n")]
    #[case::inline_project("[projects]\nx = { feature_flags = { old = true } }\n")]
    fn a_flag_is_added_to_tables_written_inline(#[case] text: &str) {
        let (_dir, store) = store(Some(text));
        let slug = ProjectSlug::from_text("x");
        pollster::block_on(store.set(
            &FlagTarget::Project(slug.clone()),
            "new",
            &FlagValue::Bool(true),
        ))
        .unwrap();
        let resolved = pollster::block_on(store.resolved(&slug)).unwrap();
        assert_eq!(resolved.get("old"), Some(&FlagValue::Bool(true)));
        assert_eq!(resolved.get("new"), Some(&FlagValue::Bool(true)));
    }

    #[test]
    fn unset_removes_only_that_flag() {
        let (_dir, store) = store(None);
        pollster::block_on(store.set(&FlagTarget::Global, "a", &FlagValue::Bool(true))).unwrap();
        assert!(pollster::block_on(store.unset(&FlagTarget::Global, "a")).unwrap());
        assert!(!pollster::block_on(store.unset(&FlagTarget::Global, "a")).unwrap());
        assert!(
            !pollster::block_on(
                store.unset(&FlagTarget::Project(ProjectSlug::from_text("/x")), "a")
            )
            .unwrap()
        );
    }

    #[test]
    fn a_malformed_configuration_is_reported_and_left_alone() {
        let broken = "[context\nbudget_chars = 1\n";
        let (dir, store) = store(Some(broken));
        let error = pollster::block_on(store.set(&FlagTarget::Global, "a", &FlagValue::Bool(true)))
            .unwrap_err();
        assert!(error.to_string().contains("config.toml"), "{error}");
        assert_eq!(
            fs_err::read_to_string(dir.path().join("config.toml")).unwrap(),
            broken
        );
    }
}
