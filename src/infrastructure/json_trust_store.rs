//! Trusted templates in `<data home>/trust.json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::domain::TemplateError;
use crate::domain::ports::{TrustEntry, TrustStore};
use crate::domain::seed::Timestamp;

use super::SMALL_FILE_BYTES;
use super::{FileLock, write_atomic};

/// The trust list as JSON: template path → digest and time.
#[derive(Debug, Clone)]
pub struct JsonTrustStore {
    path: PathBuf,
    lock_wait: Duration,
    notices: Arc<Mutex<Vec<String>>>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    #[serde(default)]
    templates: BTreeMap<PathBuf, Trusted>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Trusted {
    sha256: String,
    trusted_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

impl JsonTrustStore {
    /// A trust list at `path`.
    pub fn new(path: impl Into<PathBuf>, lock_wait: Duration) -> Self {
        Self {
            path: path.into(),
            lock_wait,
            notices: Arc::default(),
        }
    }

    /// Says what the store did on its own (setting an unreadable list aside) into `sink`, for
    /// the command to tell once.
    pub fn with_notices(mut self, sink: Arc<Mutex<Vec<String>>>) -> Self {
        self.notices = sink;
        self
    }

    /// Where an unreadable list is kept when a new one replaces it.
    fn aside(&self) -> PathBuf {
        self.path.with_file_name("trust.json.unreadable")
    }

    /// The list to change: the stored one, or an empty one when it cannot be read. Trust
    /// fails closed, so starting over trusts nothing; the bad file is kept aside, and the
    /// command says so, instead of every `trust` failing until the file is fixed by hand.
    fn load_for_change(&self) -> Result<TrustFile, TemplateError> {
        match self.load() {
            Err(TemplateError::CorruptTrust { reason, .. }) => {
                let aside = self.aside();
                std::fs::rename(&self.path, &aside).map_err(|source| TemplateError::Io {
                    path: self.path.clone(),
                    source,
                })?;
                self.notices
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(format!(
                        "carryover: the trust list could not be read ({reason}); it is kept as {} \
                         and a new one was started, so templates trusted before must be trusted \
                         again (`carryover trust` in each project)",
                        aside.display()
                    ));
                Ok(TrustFile::default())
            }
            other => other,
        }
    }

    fn load(&self) -> Result<TrustFile, TemplateError> {
        match super::read_regular_utf8(&self.path, SMALL_FILE_BYTES) {
            Ok(text) => serde_json::from_str(&text).map_err(|error| TemplateError::CorruptTrust {
                path: self.path.clone(),
                reason: error.to_string(),
            }),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(TrustFile::default()),
            Err(source) => Err(TemplateError::Io {
                path: self.path.clone(),
                source,
            }),
        }
    }

    fn modify<R>(&self, change: impl FnOnce(&mut TrustFile) -> R) -> Result<R, TemplateError> {
        let lock_path = self.path.with_file_name(".trust.json.lock");
        let _lock =
            FileLock::acquire(&lock_path, self.lock_wait).map_err(|error| TemplateError::Io {
                path: lock_path.clone(),
                source: std::io::Error::other(error.to_string()),
            })?;
        let mut file = self.load_for_change()?;
        let result = change(&mut file);
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        write_atomic(&self.path, text.as_bytes()).map_err(|source| TemplateError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(result)
    }
}

#[async_trait::async_trait]
impl TrustStore for JsonTrustStore {
    async fn is_trusted(&self, path: &Path, sha256: &str) -> Result<bool, TemplateError> {
        Ok(self
            .load()?
            .templates
            .get(path)
            .is_some_and(|trusted| trusted.sha256 == sha256))
    }

    async fn trust(
        &self,
        path: &Path,
        sha256: &str,
        text: &str,
        at: Timestamp,
    ) -> Result<(), TemplateError> {
        self.modify(|file| {
            file.templates.insert(
                path.to_owned(),
                Trusted {
                    sha256: sha256.to_owned(),
                    trusted_at: at,
                    text: Some(text.to_owned()),
                },
            );
        })
    }

    async fn revoke(&self, path: &Path) -> Result<bool, TemplateError> {
        self.modify(|file| file.templates.remove(path).is_some())
    }

    async fn list(&self) -> Result<Vec<TrustEntry>, TemplateError> {
        Ok(self
            .load()?
            .templates
            .into_iter()
            .map(|(path, trusted)| TrustEntry {
                path,
                sha256: trusted.sha256,
                trusted_at: trusted.trusted_at,
                text: trusted.text,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::empty("")]
    #[case::truncated("{\"templates\": {")]
    fn an_unreadable_list_is_set_aside_when_trust_changes(#[case] stored: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        fs_err::write(&path, stored).unwrap();
        let notices = Arc::default();
        let store =
            JsonTrustStore::new(&path, Duration::from_secs(1)).with_notices(Arc::clone(&notices));
        let template = Path::new("/code/p/.carryover/_startup.md");
        assert!(matches!(
            pollster::block_on(store.list()),
            Err(TemplateError::CorruptTrust { .. })
        ));
        let at = Timestamp::parse("2026-11-22T18:40:00Z").unwrap();
        pollster::block_on(store.trust(template, "aa", "text", at)).unwrap();
        assert!(pollster::block_on(store.is_trusted(template, "aa")).unwrap());
        assert_eq!(
            fs_err::read_to_string(dir.path().join("trust.json.unreadable")).unwrap(),
            stored,
            "the bad file is kept"
        );
        let said = notices.lock().unwrap().clone();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("trust.json.unreadable"), "{said:?}");
    }

    #[test]
    fn trust_is_per_path_and_digest_and_can_be_revoked() {
        let dir = tempfile::tempdir().unwrap();
        let store = JsonTrustStore::new(dir.path().join("trust.json"), Duration::from_secs(1));
        let template = Path::new("/code/p/.carryover/_startup.md");
        let at = Timestamp::parse("2026-11-22T18:40:00Z").unwrap();
        assert!(!pollster::block_on(store.is_trusted(template, "aa")).unwrap());
        pollster::block_on(store.trust(template, "aa", "text", at)).unwrap();
        assert!(pollster::block_on(store.is_trusted(template, "aa")).unwrap());
        let listed = pollster::block_on(store.list()).unwrap();
        assert_eq!(
            listed[0].text.as_deref(),
            Some("text"),
            "the text is kept to diff"
        );
        assert!(
            !pollster::block_on(store.is_trusted(template, "bb")).unwrap(),
            "a changed template is not trusted"
        );
        assert_eq!(pollster::block_on(store.list()).unwrap().len(), 1);
        assert!(pollster::block_on(store.revoke(template)).unwrap());
        assert!(!pollster::block_on(store.revoke(template)).unwrap());
        assert!(!pollster::block_on(store.is_trusted(template, "aa")).unwrap());
    }
}
