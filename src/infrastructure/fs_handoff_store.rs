//! Handoffs as files: `<projects_dir>/<slug>/sessions/<session_id>/handoff.md`.

use std::path::{Path, PathBuf};

use crate::domain::HandoffError;
use crate::domain::ports::{HandoffEntry, HandoffStore};
use crate::domain::project::ProjectSlug;
use crate::domain::seed::Timestamp;
use crate::domain::session_id::SessionId;

use super::MAX_HANDOFF_BYTES;
use super::write_atomic;

const FILE_NAME: &str = "handoff.md";

/// Handoffs under `projects_dir`, compatible with existing `~/.amplifier/projects` trees.
#[derive(Debug, Clone)]
pub struct FsHandoffStore {
    projects_dir: PathBuf,
}

impl FsHandoffStore {
    /// A store under `projects_dir`.
    pub fn new(projects_dir: impl Into<PathBuf>) -> Self {
        Self {
            projects_dir: projects_dir.into(),
        }
    }

    fn sessions_dir(&self, project: &ProjectSlug) -> PathBuf {
        super::project_dir(&self.projects_dir, project).join("sessions")
    }

    fn io(path: &Path) -> impl Fn(std::io::Error) -> HandoffError + '_ {
        move |source| HandoffError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

#[async_trait::async_trait]
impl HandoffStore for FsHandoffStore {
    async fn list(&self, project: &ProjectSlug) -> Result<Vec<HandoffEntry>, HandoffError> {
        let dir = self.sessions_dir(project);
        let sessions = match fs_err::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(Self::io(&dir)(error)),
        };
        let mut entries: Vec<HandoffEntry> = sessions
            .filter_map(Result::ok)
            .filter_map(|session| {
                let path = session.path().join(FILE_NAME);
                // symlink_metadata: a planted link is not followed out of the data home.
                let metadata = fs_err::symlink_metadata(&path)
                    .ok()
                    .filter(|m| m.is_file())?;
                let modified = metadata.modified().ok()?;
                Some(HandoffEntry {
                    session: session.file_name().to_string_lossy().into_owned(),
                    path,
                    modified: Timestamp::new(modified.into()),
                })
            })
            .collect();
        entries.sort_by(|a, b| {
            b.modified
                .cmp(&a.modified)
                .then_with(|| b.session.cmp(&a.session))
        });
        Ok(entries)
    }

    async fn read(&self, entry: &HandoffEntry) -> Result<String, HandoffError> {
        let bytes =
            super::read_regular(&entry.path, MAX_HANDOFF_BYTES).map_err(Self::io(&entry.path))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn read_session(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
    ) -> Result<Option<String>, HandoffError> {
        let path = self
            .sessions_dir(project)
            .join(session.as_str())
            .join(FILE_NAME);
        match super::read_regular(&path, MAX_HANDOFF_BYTES) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(Self::io(&path)(error)),
        }
    }

    async fn write(
        &self,
        project: &ProjectSlug,
        session: &SessionId,
        text: &str,
    ) -> Result<PathBuf, HandoffError> {
        let path = self
            .sessions_dir(project)
            .join(session.as_str())
            .join(FILE_NAME);
        let dir = path.parent().unwrap_or(&self.projects_dir);
        super::private_dir_within(&self.projects_dir, dir).map_err(Self::io(dir))?;
        write_atomic(&path, text.as_bytes()).map_err(Self::io(&path))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    fn set_mtime(path: &Path, seconds_ago: u64) {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago))
            .unwrap();
    }

    #[test]
    fn lists_newest_modification_first_and_only_this_project() {
        let dir = tempfile::tempdir().unwrap();
        let store = FsHandoffStore::new(dir.path());
        let mine = ProjectSlug::from_text("/p/mine");
        let other = ProjectSlug::from_text("/p/other");
        for (session, age) in [("old", 300), ("new", 10), ("middle", 100)] {
            let path =
                pollster::block_on(store.write(&mine, &SessionId::parse(session).unwrap(), "x"))
                    .unwrap();
            set_mtime(&path, age);
        }
        pollster::block_on(store.write(
            &other,
            &SessionId::parse("newest-elsewhere").unwrap(),
            "y",
        ))
        .unwrap();
        let sessions: Vec<String> = pollster::block_on(store.list(&mine))
            .unwrap()
            .into_iter()
            .map(|e| e.session)
            .collect();
        assert_eq!(sessions, vec!["new", "middle", "old"]);
    }

    #[test]
    fn a_project_without_handoffs_lists_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            pollster::block_on(FsHandoffStore::new(dir.path()).list(&ProjectSlug::from_text("x")))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn write_then_read_the_session() {
        let dir = tempfile::tempdir().unwrap();
        let store = FsHandoffStore::new(dir.path());
        let slug = ProjectSlug::from_text("/p");
        let session = SessionId::parse("s1").unwrap();
        assert_eq!(
            pollster::block_on(store.read_session(&slug, &session)).unwrap(),
            None
        );
        let path = pollster::block_on(store.write(&slug, &session, "text")).unwrap();
        assert_eq!(path, dir.path().join("-p/sessions/s1/handoff.md"));
        assert_eq!(
            pollster::block_on(store.read_session(&slug, &session))
                .unwrap()
                .as_deref(),
            Some("text")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_handoff_is_not_listed() {
        let dir = tempfile::tempdir().unwrap();
        let store = FsHandoffStore::new(dir.path());
        let slug = ProjectSlug::from_text("/p");
        let secret = dir.path().join("secret.txt");
        fs_err::write(&secret, "secret").unwrap();
        let session = dir.path().join("-p/sessions/planted");
        fs_err::create_dir_all(&session).unwrap();
        std::os::unix::fs::symlink(&secret, session.join("handoff.md")).unwrap();
        assert!(pollster::block_on(store.list(&slug)).unwrap().is_empty());
    }
}
