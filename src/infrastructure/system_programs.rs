//! Programs looked up on `PATH` as a shell would, and asked their version with a deadline.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::domain::ports::{ProgramLocation, Programs};

/// How long an agent's `--version` may take: a Node CLI starts in well under a second; one
/// that waits for a login or a network is reported absent rather than holding `doctor` up.
pub const VERSION_TIMEOUT: Duration = Duration::from_secs(3);

/// The machine's programs, searched on the given `PATH`.
#[derive(Debug, Clone)]
pub struct SystemPrograms {
    path: Option<OsString>,
    timeout: Duration,
}

impl SystemPrograms {
    /// Programs on `path` (the `PATH` variable's value), versions within `timeout`.
    pub fn new(path: Option<OsString>, timeout: Duration) -> Self {
        Self { path, timeout }
    }

    fn find(&self, program: &str) -> ProgramLocation {
        if program.contains('/') {
            return check(Path::new(program));
        }
        let Some(path) = &self.path else {
            return ProgramLocation::Missing;
        };
        let mut not_executable = None;
        for dir in std::env::split_paths(path).filter(|d| d.is_absolute()) {
            match check(&dir.join(program)) {
                found @ ProgramLocation::Found(_) => return found,
                ProgramLocation::NotExecutable(at) => {
                    not_executable.get_or_insert(at);
                }
                ProgramLocation::Missing => {}
            }
        }
        not_executable.map_or(ProgramLocation::Missing, ProgramLocation::NotExecutable)
    }
}

fn check(path: &Path) -> ProgramLocation {
    match fs_err::metadata(path) {
        Ok(metadata) if metadata.is_file() && is_executable(&metadata) => {
            ProgramLocation::Found(path.to_path_buf())
        }
        Ok(_) => ProgramLocation::NotExecutable(path.to_path_buf()),
        Err(_) => ProgramLocation::Missing,
    }
}

#[cfg(unix)]
fn is_executable(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    true
}

/// The first non-empty line `program --version` prints within `timeout`; the program is killed
/// when it takes longer.
fn version(program: &Path, timeout: Duration) -> Option<String> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let mut out = String::new();
    child
        .stdout
        .take()?
        .take(4096)
        .read_to_string(&mut out)
        .ok()?;
    status.success().then_some(())?;
    out.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(|line| line.chars().take(120).collect())
}

#[async_trait::async_trait]
impl Programs for SystemPrograms {
    async fn locate(&self, program: &str) -> ProgramLocation {
        self.find(program)
    }

    async fn versions(&self, names: &[String]) -> Vec<Option<String>> {
        let found: Vec<Option<PathBuf>> = names
            .iter()
            .map(|name| match self.find(name) {
                ProgramLocation::Found(path) if !name.contains('/') => Some(path),
                _ => None,
            })
            .collect();
        // In parallel: each may take up to the timeout.
        std::thread::scope(|scope| {
            let running: Vec<_> = found
                .iter()
                .map(|path| {
                    let timeout = self.timeout;
                    scope.spawn(move || path.as_deref().and_then(|p| version(p, timeout)))
                })
                .collect();
            running
                .into_iter()
                .map(|handle| handle.join().ok().flatten())
                .collect()
        })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, body: &str, mode: u32) -> PathBuf {
        let path = dir.join(name);
        fs_err::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    #[test]
    fn finds_programs_as_a_shell_would() {
        let dir = tempfile::tempdir().unwrap();
        let tool = script(dir.path(), "tool", "echo 1.2.3", 0o755);
        let plain = script(dir.path(), "plain", "", 0o644);
        let programs = SystemPrograms::new(Some(dir.path().into()), VERSION_TIMEOUT);
        assert_eq!(programs.find("tool"), ProgramLocation::Found(tool.clone()));
        assert_eq!(
            programs.find(&tool.to_string_lossy()),
            ProgramLocation::Found(tool)
        );
        assert_eq!(
            programs.find(&plain.to_string_lossy()),
            ProgramLocation::NotExecutable(plain)
        );
        assert_eq!(programs.find("absent"), ProgramLocation::Missing);
        assert_eq!(
            programs.find(&dir.path().join("gone").to_string_lossy()),
            ProgramLocation::Missing
        );
    }

    #[test]
    fn versions_are_first_lines_and_a_hung_program_is_absent() {
        let dir = tempfile::tempdir().unwrap();
        script(
            dir.path(),
            "tool",
            "echo\necho 'tool 1.2.3'\necho more",
            0o755,
        );
        script(dir.path(), "hangs", "sleep 5", 0o755);
        script(dir.path(), "fails", "echo 'no'; exit 3", 0o755);
        let programs = SystemPrograms::new(Some(dir.path().into()), Duration::from_millis(300));
        let names = ["tool", "hangs", "fails", "absent"].map(str::to_owned);
        let started = Instant::now();
        let versions = pollster::block_on(programs.versions(&names));
        assert_eq!(versions, [Some("tool 1.2.3".to_owned()), None, None, None]);
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}
