//! Session records as JSON files: `<data home>/projects/<slug>/records/<session>.json`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::domain::StateError;
use crate::domain::ports::{RecordEdit, SessionRecordStore};
use crate::domain::project::ProjectSlug;
use crate::domain::session_id::SessionId;
use crate::domain::session_record::SessionRecord;

use super::SMALL_FILE_BYTES;
use super::file_lock::LockError;
use super::{FileLock, replace_file};

/// Records kept per project; the oldest go when a new session's record is created.
const KEEP_RECORDS: usize = 200;

/// Records of a project's sessions, one small file each.
#[derive(Debug, Clone)]
pub struct JsonSessionRecordStore {
    projects_dir: PathBuf,
    lock_wait: Duration,
}

impl JsonSessionRecordStore {
    /// A store under `projects_dir`.
    pub fn new(projects_dir: impl Into<PathBuf>, lock_wait: Duration) -> Self {
        Self {
            projects_dir: projects_dir.into(),
            lock_wait,
        }
    }

    fn dir(&self, project: &ProjectSlug) -> PathBuf {
        super::project_dir(&self.projects_dir, project).join("records")
    }

    fn path(&self, project: &ProjectSlug, session: &SessionId) -> PathBuf {
        self.dir(project).join(format!("{}.json", session.as_str()))
    }

    fn read(path: &Path) -> Result<Option<SessionRecord>, StateError> {
        // symlink_metadata: a planted link is neither followed nor read through.
        match fs_err::symlink_metadata(path) {
            Ok(metadata) if !metadata.is_file() => {
                return Err(StateError::Corrupt {
                    path: path.to_owned(),
                    reason: "not a regular file".into(),
                });
            }
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(StateError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        }
        let bytes =
            super::read_regular(path, SMALL_FILE_BYTES).map_err(|source| StateError::Io {
                path: path.to_owned(),
                source,
            })?;
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|error| StateError::Corrupt {
                path: path.to_owned(),
                reason: error.to_string(),
            })
    }

    /// Removes the oldest records beyond [`KEEP_RECORDS`].
    fn prune(dir: &Path) {
        let Ok(entries) = fs_err::read_dir(dir) else {
            return;
        };
        let mut records: Vec<(std::time::SystemTime, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "json"))
            .filter_map(|entry| Some((entry.metadata().ok()?.modified().ok()?, entry.path())))
            .collect();
        if records.len() <= KEEP_RECORDS {
            return;
        }
        records.sort();
        for (_, old) in &records[..records.len() - KEEP_RECORDS] {
            let _ = fs_err::remove_file(old);
        }
    }
}

#[async_trait::async_trait]
impl SessionRecordStore for JsonSessionRecordStore {
    async fn load(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
    ) -> Result<Option<SessionRecord>, StateError> {
        Self::read(&self.path(project, session))
    }

    async fn update(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
        edit: RecordEdit,
    ) -> Result<SessionRecord, StateError> {
        let dir = self.dir(project);
        super::private_dir_within(&self.projects_dir, &dir).map_err(|source| StateError::Io {
            path: dir.clone(),
            source,
        })?;
        let _lock =
            FileLock::acquire(&dir.join(".records.lock"), self.lock_wait).map_err(|error| {
                match error {
                    LockError::Io { path, source } => StateError::Io { path, source },
                    LockError::Timeout { path, waited_ms } => {
                        StateError::LockTimeout { path, waited_ms }
                    }
                }
            })?;
        let path = self.path(project, session);
        let current = match Self::read(&path) {
            Ok(record) => record,
            Err(StateError::Corrupt { .. }) => None,
            Err(other) => return Err(other),
        };
        let is_new = current.is_none();
        let record = edit(current);
        let mut text = serde_json::to_string(&record).unwrap_or_default();
        text.push('\n');
        replace_file(&path, text.as_bytes()).map_err(|source| StateError::Io {
            path: path.clone(),
            source,
        })?;
        if is_new {
            Self::prune(&dir);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path) -> JsonSessionRecordStore {
        JsonSessionRecordStore::new(dir.join("projects"), Duration::from_secs(1))
    }

    fn slug() -> ProjectSlug {
        ProjectSlug::from_text("-p")
    }

    fn id(raw: &str) -> SessionId {
        SessionId::parse(raw).unwrap()
    }

    #[test]
    fn updates_read_back_and_a_corrupt_record_counts_as_none() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        assert_eq!(
            pollster::block_on(store.load(&slug(), &id("s1"))).unwrap(),
            None
        );
        pollster::block_on(store.update(
            &slug(),
            &id("s1"),
            Box::new(|current| {
                assert_eq!(current, None);
                SessionRecord {
                    startup_instruction: true,
                    ..SessionRecord::default()
                }
            }),
        ))
        .unwrap();
        let loaded = pollster::block_on(store.load(&slug(), &id("s1")))
            .unwrap()
            .unwrap();
        assert!(loaded.startup_instruction);
        let path = dir.path().join("projects/-p/records/s1.json");
        fs_err::write(&path, "{not json").unwrap();
        assert!(matches!(
            pollster::block_on(store.load(&slug(), &id("s1"))),
            Err(StateError::Corrupt { .. })
        ));
        pollster::block_on(store.update(
            &slug(),
            &id("s1"),
            Box::new(|current| {
                assert_eq!(current, None, "a corrupt record is replaced");
                SessionRecord::default()
            }),
        ))
        .unwrap();
    }

    #[test]
    fn keeps_the_newest_records_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let records = dir.path().join("projects/-p/records");
        fs_err::create_dir_all(&records).unwrap();
        let old = std::time::SystemTime::now() - Duration::from_secs(3_600);
        for n in 0..KEEP_RECORDS {
            let path = records.join(format!("old{n}.json"));
            fs_err::write(&path, "{}").unwrap();
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(old + Duration::from_secs(n as u64))
                .unwrap();
        }
        pollster::block_on(store.update(
            &slug(),
            &id("new"),
            Box::new(|_| SessionRecord::default()),
        ))
        .unwrap();
        assert!(records.join("new.json").is_file());
        assert!(!records.join("old0.json").exists(), "the oldest went");
        assert!(records.join("old1.json").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let records = dir.path().join("projects/-p/records");
        fs_err::create_dir_all(&records).unwrap();
        let target = dir.path().join("elsewhere.json");
        fs_err::write(&target, r#"{"startup_instruction":true}"#).unwrap();
        std::os::unix::fs::symlink(&target, records.join("s1.json")).unwrap();
        assert!(pollster::block_on(store.load(&slug(), &id("s1"))).is_err());
    }
}
