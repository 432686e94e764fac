//! Agents' settings files on disk: replaced atomically, backed up first, permissions kept.

use std::path::{Path, PathBuf};

use crate::domain::SettingsError;
use crate::domain::ports::{SettingsFileState, SettingsFiles};

use super::SMALL_FILE_BYTES;
use super::write_atomic;

/// Settings files in the file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsSettingsFiles;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SettingsError + '_ {
    move |source| SettingsError::Io {
        path: path.to_owned(),
        source,
    }
}

#[async_trait::async_trait]
impl SettingsFiles for FsSettingsFiles {
    async fn inspect(
        &self,
        path: &Path,
        within: &Path,
    ) -> Result<SettingsFileState, SettingsError> {
        let mut state = SettingsFileState::default();
        let below = path.strip_prefix(within).unwrap_or(path);
        let mut current = within.to_path_buf();
        for component in below.components() {
            current.push(component);
            match std::fs::symlink_metadata(&current) {
                Ok(metadata) if metadata.file_type().is_symlink() => {
                    let target = std::fs::canonicalize(&current)
                        .or_else(|_| std::fs::read_link(&current))
                        .map_err(io(&current))?;
                    state.link = Some((current.clone(), target));
                    break;
                }
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => break,
                Err(error) => return Err(io(&current)(error)),
            }
        }
        state.read_only = std::fs::metadata(path).is_ok_and(|m| is_read_only(&m));
        Ok(state)
    }

    async fn read(&self, path: &Path) -> Result<Option<String>, SettingsError> {
        match super::read_regular_utf8(path, SMALL_FILE_BYTES) {
            Ok(text) => Ok(Some(text)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(io(path)(error)),
        }
    }

    async fn replace(
        &self,
        path: &Path,
        text: &str,
        backup: Option<PathBuf>,
    ) -> Result<Option<PathBuf>, SettingsError> {
        let previous = match std::fs::metadata(path) {
            Ok(metadata) => Some(metadata.permissions()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(io(path)(error)),
        };
        let backed_up = match (&previous, backup) {
            (Some(_), Some(backup)) => Some(copy_to_free_name(path, &backup)?),
            _ => None,
        };
        write_atomic(path, text.as_bytes()).map_err(io(path))?;
        if let Some(permissions) = previous {
            std::fs::set_permissions(path, permissions).map_err(io(path))?;
        }
        Ok(backed_up)
    }

    async fn backups(&self, path: &Path) -> Result<Vec<PathBuf>, SettingsError> {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(Vec::new());
        };
        let prefix = format!("{}.carryover-backup-", name.to_string_lossy());
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(io(dir)(error)),
        };
        let mut found: Vec<(String, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
            .filter_map(|entry| {
                let file = entry.file_name().to_string_lossy().into_owned();
                let rest = file.strip_prefix(&prefix)?.to_owned();
                Some((rest, entry.path()))
            })
            .collect();
        // `<time>` sorts as it reads; `<time>.N` (same second) after `<time>`, by N.
        found.sort_by_key(|(rest, _)| {
            let (stamp, n) = rest.split_once('.').unwrap_or((rest.as_str(), "0"));
            (stamp.to_owned(), n.parse::<u32>().unwrap_or(0))
        });
        Ok(found.into_iter().map(|(_, path)| path).collect())
    }

    async fn remove(&self, path: &Path, kept: &Path) -> Result<(), SettingsError> {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(io(path)(error)),
        }
        // `remove_dir` fails, as meant, on a directory that holds anything else.
        for dir in path.ancestors().skip(1) {
            if !dir.starts_with(kept) || dir == kept || std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// Whether the owner may not write the file (mode without `u+w`).
fn is_read_only(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.permissions().mode() & 0o200 == 0
    }
    #[cfg(not(unix))]
    {
        metadata.permissions().readonly()
    }
}

/// Copies `path` to `backup`, or to `backup.1`, `backup.2`… when that name is taken: two
/// changes within a second must not let the second backup overwrite the first.
fn copy_to_free_name(path: &Path, backup: &Path) -> Result<PathBuf, SettingsError> {
    let text = std::fs::read(path).map_err(io(path))?;
    for attempt in 0..1_000 {
        let candidate = if attempt == 0 {
            backup.to_owned()
        } else {
            let mut name = backup.as_os_str().to_owned();
            name.push(format!(".{attempt}"));
            PathBuf::from(name)
        };
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate);
        match created {
            Ok(mut file) => {
                // The original's mode, before any content: settings may hold keys (`env`).
                let mode = std::fs::metadata(path).map_err(io(path))?.permissions();
                file.set_permissions(mode).map_err(io(&candidate))?;
                std::io::Write::write_all(&mut file, &text).map_err(io(&candidate))?;
                file.sync_all().map_err(io(&candidate))?;
                return Ok(candidate);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(io(&candidate)(error)),
        }
    }
    Err(io(backup)(std::io::Error::other("no free backup name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backs_up_then_replaces_keeping_the_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let backup = dir.path().join("settings.json.bak");
        fs_err::write(&path, "{}\n").unwrap();
        #[cfg(unix)]
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o640))
            .unwrap();
        let files = FsSettingsFiles;
        let made =
            pollster::block_on(files.replace(&path, "{\"a\": 1}\n", Some(backup.clone()))).unwrap();
        assert_eq!(made.as_deref(), Some(backup.as_path()));
        assert_eq!(fs_err::read_to_string(&backup).unwrap(), "{}\n");
        assert_eq!(
            pollster::block_on(files.read(&path)).unwrap().as_deref(),
            Some("{\"a\": 1}\n")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o640);
            assert_eq!(mode(&backup), 0o640, "the backup keeps the original's mode");
        }
    }

    #[test]
    fn a_second_backup_in_the_same_second_does_not_overwrite_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let backup = dir.path().join("settings.json.bak");
        fs_err::write(&path, "first").unwrap();
        let files = FsSettingsFiles;
        pollster::block_on(files.replace(&path, "second", Some(backup.clone()))).unwrap();
        let made = pollster::block_on(files.replace(&path, "third", Some(backup.clone()))).unwrap();
        assert_eq!(made, Some(dir.path().join("settings.json.bak.1")));
        assert_eq!(fs_err::read_to_string(&backup).unwrap(), "first");
        assert_eq!(fs_err::read_to_string(made.unwrap()).unwrap(), "second");
    }

    #[cfg(unix)]
    #[test]
    fn finds_the_first_link_on_the_way_and_a_read_only_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (project, home) = (dir.path().join("repo"), dir.path().join("home"));
        fs_err::create_dir_all(home.join(".claude")).unwrap();
        fs_err::write(home.join(".claude/settings.json"), "{}").unwrap();
        fs_err::create_dir_all(&project).unwrap();
        std::os::unix::fs::symlink(home.join(".claude"), project.join(".claude")).unwrap();
        let files = FsSettingsFiles;
        let inspect =
            |path: &Path, within: &Path| pollster::block_on(files.inspect(path, within)).unwrap();
        let state = inspect(&project.join(".claude/settings.json"), &project);
        assert_eq!(state.link.unwrap().0, project.join(".claude"));
        let real = home.join(".claude/settings.json");
        assert_eq!(inspect(&real, &home), SettingsFileState::default());
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o444)).unwrap();
        assert!(inspect(&real, &home).read_only);
    }

    #[test]
    fn a_new_file_needs_no_backup_and_its_directory_is_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude").join("settings.json");
        let backup = dir.path().join("unused");
        let files = FsSettingsFiles;
        assert_eq!(pollster::block_on(files.read(&path)).unwrap(), None);
        let made = pollster::block_on(files.replace(&path, "{}\n", Some(backup.clone()))).unwrap();
        assert_eq!(made, None);
        assert!(!backup.exists());
        assert!(path.exists());
    }

    #[test]
    fn lists_backups_oldest_first_and_removes_a_file_with_its_empty_directory() {
        let dir = tempfile::tempdir().unwrap();
        let claude = dir.path().join(".claude");
        fs_err::create_dir_all(&claude).unwrap();
        let path = claude.join("settings.json");
        for name in [
            "settings.json.carryover-backup-20261122T184000Z.1",
            "settings.json.carryover-backup-20261123T090000Z",
            "settings.json.carryover-backup-20261122T184000Z",
            "settings.local.json.carryover-backup-20261101T000000Z",
        ] {
            fs_err::write(claude.join(name), "{}").unwrap();
        }
        let files = FsSettingsFiles;
        let names: Vec<String> = pollster::block_on(files.backups(&path))
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "settings.json.carryover-backup-20261122T184000Z",
                "settings.json.carryover-backup-20261122T184000Z.1",
                "settings.json.carryover-backup-20261123T090000Z",
            ]
        );
        fs_err::write(&path, "{}").unwrap();
        pollster::block_on(files.remove(&path, dir.path())).unwrap();
        assert!(
            !path.exists() && claude.exists(),
            "a directory in use stays"
        );
        for entry in fs_err::read_dir(&claude).unwrap() {
            fs_err::remove_file(entry.unwrap().path()).unwrap();
        }
        fs_err::write(&path, "{}").unwrap();
        pollster::block_on(files.remove(&path, dir.path())).unwrap();
        assert!(!claude.exists(), "an emptied directory goes too");
    }

    #[test]
    fn removing_a_nested_file_empties_the_directories_below_the_kept_one_only() {
        let home = tempfile::tempdir().unwrap();
        let hooks = home.path().join(".copilot").join("hooks");
        fs_err::create_dir_all(&hooks).unwrap();
        let path = hooks.join("carryover.json");
        fs_err::write(&path, "{}").unwrap();
        pollster::block_on(FsSettingsFiles.remove(&path, home.path())).unwrap();
        assert!(!home.path().join(".copilot").exists());
        assert!(
            home.path().exists(),
            "the kept directory stays, empty or not"
        );

        let kept = home.path().join(".copilot");
        fs_err::create_dir_all(kept.join("hooks")).unwrap();
        fs_err::write(kept.join("config.json"), "{}").unwrap();
        fs_err::write(kept.join("hooks").join("carryover.json"), "{}").unwrap();
        pollster::block_on(
            FsSettingsFiles.remove(&kept.join("hooks").join("carryover.json"), home.path()),
        )
        .unwrap();
        assert!(!kept.join("hooks").exists() && kept.join("config.json").exists());

        // An agent home of the user's choosing, with no leading dot: nothing above it goes.
        let chosen = home.path().join("agents").join("codex");
        fs_err::create_dir_all(&chosen).unwrap();
        fs_err::write(chosen.join("hooks.json"), "{}").unwrap();
        pollster::block_on(
            FsSettingsFiles.remove(&chosen.join("hooks.json"), &home.path().join("agents")),
        )
        .unwrap();
        assert!(!chosen.exists() && home.path().join("agents").exists());
    }
}
