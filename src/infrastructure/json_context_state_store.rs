//! Per-project context state as JSON files under `<data home>/projects/<slug>/`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::domain::StateError;
use crate::domain::compaction::ContextState;
use crate::domain::ports::{ContextStateStore, StateEdit};
use crate::domain::project::ProjectSlug;

use super::SMALL_FILE_BYTES;
use super::file_lock::LockError;
use super::{FileLock, write_atomic};

/// Checkpoints kept per project; older ones are removed when a new one is written.
const KEEP_CHECKPOINTS: usize = 20;

/// `projects/<slug>/context-state.json` and `projects/<slug>/checkpoints/*.md`.
#[derive(Debug, Clone)]
pub struct JsonContextStateStore {
    projects_dir: PathBuf,
    lock_wait: Duration,
}

impl JsonContextStateStore {
    /// Refuses a directory under the projects directory that is a symbolic link.
    fn real_dir(&self, dir: &std::path::Path) -> Result<(), StateError> {
        super::private_dir_within(&self.projects_dir, dir).map_err(|source| StateError::Io {
            path: dir.to_owned(),
            source,
        })
    }

    /// A store under `projects_dir`.
    pub fn new(projects_dir: impl Into<PathBuf>, lock_wait: Duration) -> Self {
        Self {
            projects_dir: projects_dir.into(),
            lock_wait,
        }
    }

    fn project_dir(&self, project: &ProjectSlug) -> PathBuf {
        super::project_dir(&self.projects_dir, project)
    }

    fn state_path(&self, project: &ProjectSlug) -> PathBuf {
        self.project_dir(project).join("context-state.json")
    }

    fn checkpoints_dir(&self, project: &ProjectSlug) -> PathBuf {
        self.project_dir(project).join("checkpoints")
    }

    fn read(&self, path: &Path) -> Result<Option<ContextState>, StateError> {
        let text = match super::read_regular_utf8(path, SMALL_FILE_BYTES) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                return Err(StateError::Corrupt {
                    path: path.to_owned(),
                    reason: "not UTF-8".into(),
                });
            }
            Err(source) => {
                return Err(StateError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|error| StateError::Corrupt {
                path: path.to_owned(),
                reason: error.to_string(),
            })
    }

    fn prune_checkpoints(dir: &Path) {
        let Ok(entries) = fs_err::read_dir(dir) else {
            return;
        };
        let mut names: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            .collect();
        names.sort();
        let excess = names.len().saturating_sub(KEEP_CHECKPOINTS);
        for old in &names[..excess] {
            let _ = fs_err::remove_file(old);
        }
    }
}

#[async_trait::async_trait]
impl ContextStateStore for JsonContextStateStore {
    async fn load(&self, project: &ProjectSlug) -> Result<Option<ContextState>, StateError> {
        self.read(&self.state_path(project))
    }

    async fn update(
        &self,
        project: &ProjectSlug,
        edit: StateEdit,
    ) -> Result<ContextState, StateError> {
        let path = self.state_path(project);
        self.real_dir(path.parent().unwrap_or(&self.projects_dir))?;
        let _lock = FileLock::acquire(
            &path.with_file_name(".context-state.json.lock"),
            self.lock_wait,
        )
        .map_err(|error| match error {
            LockError::Io { path, source } => StateError::Io { path, source },
            LockError::Timeout { path, waited_ms } => StateError::LockTimeout { path, waited_ms },
        })?;
        let current = match self.read(&path) {
            Ok(state) => state,
            Err(StateError::Corrupt { .. }) => None,
            Err(other) => return Err(other),
        };
        let state = edit(current);
        let mut text = serde_json::to_string_pretty(&state).unwrap_or_default();
        text.push('\n');
        write_atomic(&path, text.as_bytes()).map_err(|source| StateError::Io { path, source })?;
        Ok(state)
    }

    async fn write_checkpoint(
        &self,
        project: &ProjectSlug,
        name: &str,
        text: &str,
    ) -> Result<PathBuf, StateError> {
        let dir = self.checkpoints_dir(project);
        let safe_name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let path = dir.join(format!("{safe_name}.md"));
        self.real_dir(&dir)?;
        write_atomic(&path, text.as_bytes()).map_err(|source| StateError::Io {
            path: path.clone(),
            source,
        })?;
        Self::prune_checkpoints(&dir);
        Ok(path)
    }

    async fn read_checkpoint(
        &self,
        project: &ProjectSlug,
        path: &Path,
    ) -> Result<String, StateError> {
        let dir = self.checkpoints_dir(project);
        let inside = match (fs_err::canonicalize(&dir), fs_err::canonicalize(path)) {
            (Ok(dir), Ok(file)) => file.starts_with(&dir),
            _ => false,
        };
        if !inside {
            return Err(StateError::ForeignCheckpoint {
                path: path.to_owned(),
            });
        }
        super::read_regular_utf8(path, SMALL_FILE_BYTES).map_err(|source| StateError::Io {
            path: path.to_owned(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, JsonContextStateStore, ProjectSlug) {
        let dir = tempfile::tempdir().unwrap();
        let store = JsonContextStateStore::new(dir.path().join("projects"), Duration::from_secs(1));
        (dir, store, ProjectSlug::from_text("/home/u/p"))
    }

    #[test]
    fn nothing_recorded_reads_as_none() {
        let (_dir, store, slug) = store();
        assert!(pollster::block_on(store.load(&slug)).unwrap().is_none());
    }

    #[test]
    fn update_then_load() {
        let (_dir, store, slug) = store();
        pollster::block_on(store.update(
            &slug,
            Box::new(|_| ContextState {
                pre_compaction_fill: Some(0.5),
                ..ContextState::default()
            }),
        ))
        .unwrap();
        let state = pollster::block_on(store.load(&slug)).unwrap().unwrap();
        assert_eq!(state.pre_compaction_fill, Some(0.5));
    }

    #[test]
    fn a_corrupt_file_is_reported_on_load_and_replaced_on_update() {
        let (_dir, store, slug) = store();
        let path = store.state_path(&slug);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(&path, "{ not json").unwrap();
        assert!(matches!(
            pollster::block_on(store.load(&slug)),
            Err(StateError::Corrupt { .. })
        ));
        let state = pollster::block_on(store.update(
            &slug,
            Box::new(|current| {
                assert!(current.is_none());
                ContextState::default()
            }),
        ))
        .unwrap();
        assert_eq!(state, ContextState::default());
        assert!(pollster::block_on(store.load(&slug)).unwrap().is_some());
    }

    #[test]
    fn checkpoints_are_kept_to_the_newest_twenty_and_read_back() {
        let (_dir, store, slug) = store();
        let mut last = PathBuf::new();
        for n in 0..25 {
            last =
                pollster::block_on(store.write_checkpoint(&slug, &format!("2026{n:04}"), "text"))
                    .unwrap();
        }
        let count = fs_err::read_dir(store.checkpoints_dir(&slug))
            .unwrap()
            .count();
        assert_eq!(count, KEEP_CHECKPOINTS);
        assert_eq!(
            pollster::block_on(store.read_checkpoint(&slug, &last)).unwrap(),
            "text"
        );
    }

    #[test]
    fn a_checkpoint_outside_the_project_is_not_read() {
        let (dir, store, slug) = store();
        pollster::block_on(store.write_checkpoint(&slug, "a", "mine")).unwrap();
        let elsewhere = dir.path().join("secret.md");
        fs_err::write(&elsewhere, "secret").unwrap();
        let traversal = store.checkpoints_dir(&slug).join("../../../secret.md");
        for path in [elsewhere, traversal] {
            let result = pollster::block_on(store.read_checkpoint(&slug, &path));
            assert!(
                matches!(result, Err(StateError::ForeignCheckpoint { .. })),
                "{path:?}"
            );
        }
    }
}
