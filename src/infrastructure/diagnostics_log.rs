//! The log hooks write what went wrong to, since their stdout belongs to the agent.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::domain::seed::Timestamp;

const MAX_BYTES: u64 = 1 << 20;

/// An append-only log with one rotation: past 1 MiB the file becomes `carryover.log.1`.
#[derive(Debug, Clone)]
pub struct DiagnosticsLog {
    path: PathBuf,
}

impl DiagnosticsLog {
    /// A log at `path`.
    pub fn new(path: PathBuf) -> Self {
        Self { path }
    }

    /// The log file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line per message; failures are ignored because logging must never be the
    /// reason a hook fails.
    pub fn append(&self, at: Timestamp, event: &str, message: &str) {
        let _ = self.try_append(at, event, message);
    }

    fn try_append(&self, at: Timestamp, event: &str, message: &str) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            super::create_private_dir(dir)?;
        }
        if fs_err::metadata(&self.path).is_ok_and(|m| m.len() > MAX_BYTES) {
            fs_err::rename(&self.path, self.path.with_extension("log.1"))?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&self.path)?;
        let flat = message.replace('\n', " | ");
        writeln!(file, "{at} {event} {flat}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_one_line_per_message() {
        let dir = tempfile::tempdir().unwrap();
        let log = DiagnosticsLog::new(dir.path().join("logs").join("carryover.log"));
        let at = Timestamp::parse("2026-11-22T10:00:00Z").unwrap();
        log.append(at, "session-start", "first\nsecond");
        log.append(at, "pre-compact", "third");
        let text = fs_err::read_to_string(log.path()).unwrap();
        assert_eq!(
            text,
            "2026-11-22T10:00:00.000Z session-start first | second\n2026-11-22T10:00:00.000Z pre-compact third\n"
        );
    }
}
