//! The seed as one JSON file: atomic writes, a lock around read-modify-write, no history.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::domain::SeedError;
use crate::domain::ports::{LoadedSeed, SeedEdit, SeedHistory, SeedRepository};
use crate::domain::seed::{Seed, SeedChange, SeedDecodeError, decode_seed, encode_seed};

use super::file_lock::LockError;
use super::{FileLock, write_atomic};

/// A seed file. `load` only reads; `update` holds `.<name>.lock` beside the file from its read
/// to its write, so concurrent updates are applied one after another.
#[derive(Debug, Clone)]
pub struct JsonSeedRepository {
    path: PathBuf,
    lock_timeout: Duration,
}

impl JsonSeedRepository {
    /// A repository over `path`, waiting at most `lock_timeout` for the lock.
    pub fn new(path: impl Into<PathBuf>, lock_timeout: Duration) -> Self {
        Self {
            path: path.into(),
            lock_timeout,
        }
    }

    /// The seed file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the seed's lock.
    pub fn lock(&self) -> Result<FileLock, SeedError> {
        let name = self
            .path
            .file_name()
            .map_or_else(|| "seed.json".into(), |n| n.to_string_lossy().into_owned());
        let lock_path = self.path.with_file_name(format!(".{name}.lock"));
        FileLock::acquire(&lock_path, self.lock_timeout).map_err(|error| match error {
            LockError::Io { path, source } => SeedError::Io { path, source },
            LockError::Timeout { path, waited_ms } => SeedError::LockTimeout { path, waited_ms },
        })
    }

    /// The seed on disk; `Ok(None)` when there is no file.
    pub fn read(&self) -> Result<Option<Seed>, SeedError> {
        let bytes = match super::read_regular(&self.path, u64::MAX) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(SeedError::Io {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        let decoded = match std::str::from_utf8(&bytes) {
            Ok(text) => decode_seed(text),
            Err(error) => Err(SeedDecodeError::Syntax {
                line: 1,
                column: error.valid_up_to() + 1,
                reason: "not UTF-8 text".to_owned(),
            }),
        };
        decoded.map(Some).map_err(|source| SeedError::Decode {
            path: self.path.clone(),
            source,
        })
    }

    /// Writes the seed atomically.
    pub fn write(&self, seed: &Seed) -> Result<(), SeedError> {
        write_atomic(&self.path, encode_seed(seed).as_bytes()).map_err(|source| SeedError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

#[async_trait::async_trait]
impl SeedRepository for JsonSeedRepository {
    async fn load(&self) -> Result<Option<LoadedSeed>, SeedError> {
        Ok(self.read()?.map(|seed| LoadedSeed {
            seed,
            repaired: None,
        }))
    }

    async fn update(&self, edit: SeedEdit) -> Result<Seed, SeedError> {
        let _lock = self.lock()?;
        let current = self.read()?;
        let (seed, _reason) = edit(current.clone())?;
        if SeedChange::between(current.as_ref(), &seed) != SeedChange::Unchanged {
            self.write(&seed)?;
        }
        Ok(seed)
    }

    async fn history(&self) -> Result<Option<SeedHistory>, SeedError> {
        Ok(None)
    }

    fn location(&self) -> PathBuf {
        self.path.clone()
    }
}
