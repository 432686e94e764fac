//! The real agent clients the end-to-end tests drive: the one a variable names, else installed
//! once from the npm registry into the target directory. A client that cannot be had skips its
//! test loudly, or fails it where `CARRYOVER_E2E_REQUIRED` is set (CI sets it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

/// One client, pinned to the version its fixtures were captured with.
pub struct NpmClient {
    /// Its name in messages ("Codex CLI").
    pub name: &'static str,
    /// The variable that names an installed client.
    pub variable: &'static str,
    /// The npm package.
    pub package: &'static str,
    /// The pinned version.
    pub version: &'static str,
    /// The install directory under the target directory, before `-<version>`, as `.ci/run`
    /// names it.
    pub directory: &'static str,
    /// Where under the install prefix the runnable client may be, best first.
    pub candidates: fn(&Path) -> Vec<PathBuf>,
    /// Whether it is a script that `node` runs rather than an executable.
    pub via_node: bool,
}

impl NpmClient {
    /// The client, or `None` after saying loudly why the test is skipped.
    pub fn or_skip(&self) -> Option<PathBuf> {
        match self.find() {
            Ok(client) => Some(client),
            Err(why) if std::env::var_os("CARRYOVER_E2E_REQUIRED").is_some() => {
                panic!(
                    "the real {} test is required here but cannot run: {why}",
                    self.name
                )
            }
            Err(why) => {
                // Written past the test harness's capture, so a skip is never silent.
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "\n*** SKIPPED the real {} end-to-end test: {why} ***\n",
                    self.name
                );
                None
            }
        }
    }

    fn find(&self) -> Result<PathBuf, String> {
        if let Some(path) = std::env::var_os(self.variable) {
            let path = PathBuf::from(path);
            return self
                .is_client(&path)
                .then_some(path.clone())
                .ok_or_else(|| {
                    format!("{} is not {} {}", path.display(), self.name, self.version)
                });
        }
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("the target directory");
        let prefix = target.join(format!("{}-{}", self.directory, self.version));
        if let Some(found) = self.installed(&prefix) {
            return Ok(found);
        }
        let installed = StdCommand::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(format!("{}@{}", self.package, self.version))
            .output()
            .map_err(|error| format!("npm is not available ({error})"))?;
        if !installed.status.success() {
            return Err(format!(
                "npm install failed: {}",
                String::from_utf8_lossy(&installed.stderr).trim()
            ));
        }
        self.installed(&prefix).ok_or_else(|| {
            format!(
                "no {} {} for this platform under {}",
                self.name,
                self.version,
                prefix.display()
            )
        })
    }

    fn installed(&self, prefix: &Path) -> Option<PathBuf> {
        (self.candidates)(prefix)
            .into_iter()
            .find(|path| self.is_client(path))
    }

    /// Whether `path` runs and says it is the pinned version.
    fn is_client(&self, path: &Path) -> bool {
        let mut command = if self.via_node {
            let mut node = StdCommand::new("node");
            node.arg(path);
            node
        } else {
            StdCommand::new(path)
        };
        command.arg("--version").output().is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(self.version)
        })
    }
}

/// The entries of `dir` whose names start with `prefix`.
pub fn entries_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    fs_err::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(prefix))
        .map(|entry| entry.path())
        .collect()
}
