//! The log hooks write what went wrong to, since their stdout belongs to the agent.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::domain::seed::Timestamp;

const MAX_BYTES: u64 = 1 << 20;

/// An append-only log with one rotation: past 1 MiB the file becomes `carryover.log.1`.
#[derive(Debug, Clone)]
pub struct DiagnosticsLog {
    root: PathBuf,
    path: PathBuf,
}

impl DiagnosticsLog {
    /// A log at `path`, somewhere under the data home `root`: no directory between them may
    /// be a link, and the file itself is never opened through one.
    pub fn new(root: impl Into<PathBuf>, path: PathBuf) -> Self {
        Self {
            root: root.into(),
            path,
        }
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
            super::private_dir_within(&self.root, dir)?;
        }
        if fs_err::symlink_metadata(&self.path).is_ok_and(|m| m.len() > MAX_BYTES) {
            fs_err::rename(&self.path, self.path.with_extension("log.1"))?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        }
        let mut file = options.open(&self.path)?;
        writeln!(file, "{at} {event} {}", one_line(message))
    }
}

/// The message as one printable line: newlines become ` | `, other control characters (a
/// terminal escape in a session id) their escaped form.
fn one_line(message: &str) -> String {
    let mut line = String::with_capacity(message.len());
    for c in message.chars() {
        match c {
            '\n' => line.push_str(" | "),
            c if c.is_control() => line.extend(c.escape_default()),
            c => line.push(c),
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_one_line_per_message() {
        let dir = tempfile::tempdir().unwrap();
        let log = DiagnosticsLog::new(dir.path(), dir.path().join("logs").join("carryover.log"));
        let at = Timestamp::parse("2026-11-22T10:00:00Z").unwrap();
        log.append(at, "session-start", "first\nsecond");
        log.append(at, "pre-compact", "third \u{1b}]0;title\u{7}");
        let text = fs_err::read_to_string(log.path()).unwrap();
        assert_eq!(
            text,
            "2026-11-22T10:00:00.000Z session-start first | second\n2026-11-22T10:00:00.000Z pre-compact third \\u{1b}]0;title\\u{7}\n"
        );
    }

    #[cfg(unix)]
    #[test]
    fn planted_links_are_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let at = Timestamp::parse("2026-11-22T10:00:00Z").unwrap();
        let rc = dir.path().join("bashrc");
        fs_err::write(&rc, "safe\n").unwrap();
        let logs = dir.path().join("logs");
        fs_err::create_dir(&logs).unwrap();
        std::os::unix::fs::symlink(&rc, logs.join("carryover.log")).unwrap();
        DiagnosticsLog::new(dir.path(), logs.join("carryover.log")).append(at, "e", "a/$(touch x)");
        assert_eq!(fs_err::read_to_string(&rc).unwrap(), "safe\n");

        let elsewhere = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        fs_err::create_dir(&home).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), home.join("logs")).unwrap();
        DiagnosticsLog::new(&home, home.join("logs/carryover.log")).append(at, "e", "x");
        assert_eq!(fs_err::read_dir(elsewhere.path()).unwrap().count(), 0);
    }
}
