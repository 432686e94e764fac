//! An exclusive advisory lock on a lock file, waited for with a bound.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Holds an exclusive lock until dropped (closing the file releases it, also when the process
/// dies, so a crashed writer never leaves the seed locked).
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Why a lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The lock file could not be opened.
    #[error("{path}: {source}")]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Someone else held it for longer than the bound.
    #[error("{path}: still locked after {waited_ms} ms")]
    Timeout {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited_ms: u64,
    },
}

impl FileLock {
    /// Takes the lock on `path` (created if missing), retrying until `timeout` has passed.
    pub fn acquire(path: &Path, timeout: Duration) -> Result<Self, LockError> {
        let io = |source| LockError::Io {
            path: path.to_owned(),
            source,
        };
        if let Some(dir) = path.parent() {
            super::create_private_dir(dir).map_err(io)?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).truncate(false).write(true);
        // A link planted in place of the lock file is refused, not followed (and never
        // created through, which would make an empty file wherever it points).
        #[cfg(unix)]
        {
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        }
        let file = options.open(path).map_err(io)?;
        let started = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Self { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(source)) => return Err(io(source)),
            }
            if started.elapsed() >= timeout {
                return Err(LockError::Timeout {
                    path: path.to_owned(),
                    waited_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        let path = dir.path().join(".lock");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert!(FileLock::acquire(&path, Duration::from_millis(10)).is_err());
        assert!(!target.exists(), "nothing created through the link");
    }

    #[test]
    fn a_second_holder_times_out_until_the_first_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let first = FileLock::acquire(&path, Duration::from_millis(10)).unwrap();
        let second = FileLock::acquire(&path, Duration::from_millis(30));
        assert!(matches!(second, Err(LockError::Timeout { .. })));
        drop(first);
        assert!(FileLock::acquire(&path, Duration::from_millis(10)).is_ok());
    }
}
