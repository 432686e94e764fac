//! Reading files that something other than carryover may have put there (a repository's
//! `.git`, a transcript path from a payload, a template): only regular files, opened without
//! blocking, read within a bound. A FIFO would block `open` forever, `/dev/zero` never ends,
//! and a 500 MB `HEAD` is not a branch name.

use std::fs::File;

/// The bound for carryover's own small files (configuration, state, records, trust list,
/// agent settings): far above any real one, far below what would hurt.
pub const SMALL_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The bound for a handoff file.
pub const MAX_HANDOFF_BYTES: u64 = 16 * 1024 * 1024;
use std::io::Read;
use std::path::Path;

/// Opens `path` for reading if it is a regular file (links followed), never blocking: the
/// open is non-blocking (a FIFO without a writer opens at once) and the opened file is then
/// checked, so no swap between a check and the open can slip a device in.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    open_checked(path, true)
}

/// [`open_regular`] without following a link at the last component (a link is refused), for
/// files whose path came from untrusted input.
pub fn open_regular_no_follow(path: &Path) -> std::io::Result<File> {
    open_checked(path, false)
}

fn open_checked(path: &Path, follow: bool) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOCTTY | if follow { 0 } else { libc::O_NOFOLLOW },
    );
    #[cfg(not(unix))]
    if !follow && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a symbolic link",
        ));
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// The bytes of the regular file at `path`, refused when it holds more than `max`.
pub fn read_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    read_bounded(open_regular(path)?, max)
}

/// [`read_regular`] as UTF-8 text, refusing a link at the last component
/// ([`open_regular_no_follow`]).
pub fn read_regular_utf8_no_follow(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read_bounded(open_regular_no_follow(path)?, max)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not valid UTF-8"))
}

fn read_bounded(file: File, max: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {max} bytes"),
        ));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text; invalid UTF-8 is an `InvalidData` error.
pub fn read_regular_utf8(path: &Path, max: u64) -> std::io::Result<String> {
    String::from_utf8(read_regular(path, max)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not valid UTF-8"))
}

/// [`read_regular`] as text (invalid UTF-8 replaced).
pub fn read_regular_text(path: &Path, max: u64) -> std::io::Result<String> {
    read_regular(path, max).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn refuses_fifos_and_devices_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let started = Instant::now();
        assert!(read_regular(&fifo, 100).is_err());
        assert!(read_regular(Path::new("/dev/zero"), 100).is_err());
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read_regular(&link, 100).is_err());
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn reads_within_the_bound_and_refuses_beyond_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs_err::write(&path, "ref: refs/heads/main\n").unwrap();
        assert_eq!(
            read_regular_text(&path, 100).unwrap(),
            "ref: refs/heads/main\n"
        );
        assert!(read_regular(&path, 5).is_err());
    }

    #[test]
    fn no_follow_refuses_a_link_to_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.md");
        fs_err::write(&path, "text").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(read_regular_utf8_no_follow(&path, 100).unwrap(), "text");
        assert!(read_regular_utf8_no_follow(&link, 100).is_err());
        assert!(
            read_regular(&link, 100).is_ok(),
            "the default follows links"
        );
    }
}
