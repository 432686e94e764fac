//! Writing a file so that readers see the old or the new content, never a mix.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory: write, fsync,
/// rename over the target, fsync the directory. A crash at any moment leaves either the old
/// file or the new one. New files are readable by the owner only (the temp file is 0600).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_through_temp(path, bytes, true)
}

/// Writes `bytes` to a temp file beside `path` and renames it over `path`; `durable` flushes
/// the file before the rename and the directory after it.
fn write_through_temp(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".carryover-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    if durable {
        temp.as_file().sync_all()?;
    }
    temp.persist(path).map_err(|error| error.error)?;
    if durable {
        sync_dir(dir)?;
    }
    remove_stale_temp_files(dir);
    Ok(())
}

/// A temp file older than this was left by a writer that was killed: no live writer keeps one
/// for more than the few milliseconds a write takes.
const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(600);

/// Removes temp files that killed writers left in `dir` (best effort).
fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(".carryover-") && name.ends_with(".tmp")) {
            continue;
        }
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMP);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Replaces `path` whole through a temporary file and a rename, without flushing to disk: for
/// caches (session records) where a crash may lose the newest version but must never leave a
/// torn one, and where an fsync would cost a hook more than the file is worth.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_through_temp(path, bytes, false)
}

/// Creates `dir` and its missing parents readable by the owner only (0700 on Unix): the data
/// home holds what the user told the assistant.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Makes sure `dir`, somewhere under `root`, is a real directory: each level below `root` is
/// created (0700) when missing, and a level that is a symbolic link (or not a directory) is
/// refused, so that a link planted in the data home cannot redirect a write elsewhere.
pub fn private_dir_within(root: &Path, dir: &Path) -> std::io::Result<()> {
    let relative = dir.strip_prefix(root).map_err(|_| {
        std::io::Error::other(format!("{} is outside {}", dir.display(), root.display()))
    })?;
    create_private_dir(root)?;
    let mut current = root.to_path_buf();
    for component in relative.components() {
        current.push(component);
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!(
                        "{} is a symbolic link; carryover does not write through links",
                        current.display()
                    ),
                ));
            }
            Ok(metadata) if !metadata.is_dir() => {
                return Err(std::io::Error::other(format!(
                    "{} is not a directory",
                    current.display()
                )));
            }
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let mut builder = std::fs::DirBuilder::new();
                #[cfg(unix)]
                std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
                match builder.create(&current) {
                    Ok(()) => {}
                    Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                    Err(error) => return Err(error),
                }
            }
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_symlinked_level_under_the_root_is_refused_and_nothing_created_through_it() {
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
        fs_err::create_dir_all(&root).unwrap();
        fs_err::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("projects")).unwrap();
        let error = private_dir_within(&root, &root.join("projects/p/sessions")).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::PermissionDenied);
        assert_eq!(fs_err::read_dir(&outside).unwrap().count(), 0);
        private_dir_within(&root, &root.join("real/p/sessions")).unwrap();
        assert!(root.join("real/p/sessions").is_dir());
        assert!(
            private_dir_within(&root, &outside).is_err(),
            "outside the root"
        );
    }

    #[test]
    fn replaces_the_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("seed.json");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs_err::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = fs_err::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("seed.json")]);
    }

    #[test]
    fn temp_files_left_by_killed_writers_are_cleaned_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".carryover-killed.tmp");
        let fresh = dir.path().join(".carryover-writing.tmp");
        for path in [&stale, &fresh] {
            fs_err::write(path, "partial").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE_TEMP * 2;
        std::fs::File::options()
            .write(true)
            .open(&stale)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write_atomic(&dir.path().join("state.json"), b"{}").unwrap();
        assert!(!stale.exists());
        assert!(fresh.exists(), "a writer may still be using it");
    }

    #[cfg(unix)]
    #[test]
    fn new_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write_atomic(&path, b"x").unwrap();
        let mode = fs_err::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
