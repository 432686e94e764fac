//! The `git` command, run against one directory's own repository only.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Variables a calling agent or an outer git hook may have set that would point git at another
/// repository; they are removed for every call.
const INHERITED_GIT_VARIABLES: [&str; 8] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
];

/// A repository whose work tree is one directory (`<dir>/.git`), never a parent's: the data
/// home may sit inside someone's checkout, and carryover must not commit there.
#[derive(Debug, Clone)]
pub struct Git {
    work_tree: PathBuf,
}

/// A failed git call.
#[derive(Debug, thiserror::Error)]
#[error("git {command}: {message}")]
pub struct GitError {
    /// The subcommand.
    pub command: String,
    /// What went wrong.
    pub message: String,
}

impl Git {
    /// The repository of `work_tree`.
    pub fn new(work_tree: impl Into<PathBuf>) -> Self {
        Self {
            work_tree: work_tree.into(),
        }
    }

    /// The work tree.
    pub fn work_tree(&self) -> &Path {
        &self.work_tree
    }

    /// Whether `<work tree>/.git` exists.
    pub fn is_repository(&self) -> bool {
        self.work_tree.join(".git").exists()
    }

    /// Whether the repository works: `.git` exists and git can read it. A `git init` cut off
    /// by a full disk leaves a `.git` that exists but does not work.
    pub fn is_healthy(&self) -> bool {
        self.is_repository()
            && self
                .output(&["rev-parse", "--git-dir"])
                .is_ok_and(|out| out.status.success())
            && self
                .output(&["symbolic-ref", "-q", "HEAD"])
                .is_ok_and(|out| out.status.success())
    }

    /// Creates the repository (branch `main`).
    pub fn init(&self) -> Result<(), GitError> {
        self.run(&["init", "--quiet", "--initial-branch=main"])
            .map(drop)
    }

    /// Stages `paths` and commits them with `message`; returns false when nothing changed.
    pub fn commit(&self, paths: &[&str], message: &str) -> Result<bool, GitError> {
        self.commit_with(paths, message, false)
    }

    /// Like [`Git::commit`], but records the commit even when nothing changed: a repair that
    /// restores the newest commit's content must still show in the history.
    pub fn commit_event(&self, paths: &[&str], message: &str) -> Result<bool, GitError> {
        self.commit_with(paths, message, true)
    }

    fn commit_with(&self, paths: &[&str], message: &str, always: bool) -> Result<bool, GitError> {
        let mut add = vec!["add", "--force", "--"];
        add.extend_from_slice(paths);
        self.run(&add)?;
        let mut diff = vec!["diff", "--cached", "--quiet", "--"];
        diff.extend_from_slice(paths);
        let staged = self.output(&diff)?;
        let changed = match staged.status.code() {
            Some(0) => false,
            Some(1) => true,
            _ => return Err(failure("diff", &staged)),
        };
        if !changed && !always {
            return Ok(false);
        }
        let mut commit = vec![
            "commit",
            "--quiet",
            "--no-verify",
            "--allow-empty",
            "-m",
            message,
        ];
        if changed {
            commit.push("--");
            commit.extend_from_slice(paths);
        }
        self.run(&commit).map(|_| true)
    }

    /// Full hashes of the commits that touched `path`, newest first.
    pub fn commits_of(&self, path: &str) -> Result<Vec<String>, GitError> {
        if !self.has_commits()? {
            return Ok(Vec::new());
        }
        let out = self.run(&["log", "--format=%H", "--", path])?;
        Ok(out.lines().map(str::to_owned).collect())
    }

    /// `path` as it was in `commit`.
    pub fn show(&self, commit: &str, path: &str) -> Result<String, GitError> {
        self.run(&["show", &format!("{commit}:{path}")])
    }

    /// Whether HEAD points at a commit.
    pub fn has_commits(&self) -> Result<bool, GitError> {
        Ok(self
            .output(&["rev-parse", "--verify", "--quiet", "HEAD"])?
            .status
            .success())
    }

    /// Runs `git <args>` for its exit status alone, as `check-ignore` answers.
    pub fn succeeds(&self, args: &[&str]) -> Result<bool, GitError> {
        Ok(self.output(args)?.status.success())
    }

    /// Runs `git <args>` and returns its standard output.
    pub fn run(&self, args: &[&str]) -> Result<String, GitError> {
        let output = self.output(args)?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(failure(args.first().copied().unwrap_or("git"), &output))
        }
    }

    /// Runs `git <args>` with `vars` added to its environment; returns whether it succeeded
    /// with what it printed (stdout, then stderr), for callers that read a failure's words.
    pub fn run_with_env(
        &self,
        args: &[&str],
        vars: &[(&str, &std::ffi::OsStr)],
    ) -> Result<(bool, String), GitError> {
        let mut command = self.command(args);
        command.stdin(Stdio::null());
        for (key, value) in vars {
            command.env(key, value);
        }
        let output = command.output().map_err(|error| GitError {
            command: args.first().copied().unwrap_or("git").to_owned(),
            message: error.to_string(),
        })?;
        let mut said = String::from_utf8_lossy(&output.stdout).into_owned();
        said.push_str(&String::from_utf8_lossy(&output.stderr));
        Ok((output.status.success(), said))
    }

    /// Runs `git <args>` with `input` on its standard input and returns its standard output.
    pub fn run_with_input(&self, args: &[&str], input: &[u8]) -> Result<String, GitError> {
        let named = |error: std::io::Error| GitError {
            command: args.first().copied().unwrap_or("git").to_owned(),
            message: error.to_string(),
        };
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(named)?;
        if let Some(mut stdin) = child.stdin.take() {
            std::io::Write::write_all(&mut stdin, input).map_err(named)?;
        }
        let output = child.wait_with_output().map_err(named)?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(failure(args.first().copied().unwrap_or("git"), &output))
        }
    }

    /// `git cat-file <kind> <object>` as bytes (a commit or blob read whole).
    pub fn object(&self, kind: &str, object: &str) -> Result<Vec<u8>, GitError> {
        let output = self.output(&["cat-file", kind, object])?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(failure("cat-file", &output))
        }
    }

    fn output(&self, args: &[&str]) -> Result<Output, GitError> {
        self.command(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|error| GitError {
                command: args.first().copied().unwrap_or("git").to_owned(),
                message: if error.kind() == std::io::ErrorKind::NotFound {
                    "git is not installed or not on PATH".to_owned()
                } else {
                    error.to_string()
                },
            })
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("git");
        command
            .arg("--git-dir")
            .arg(self.work_tree.join(".git"))
            .arg("--work-tree")
            .arg(&self.work_tree)
            .args([
                "-c",
                "user.name=carryover",
                "-c",
                "user.email=carryover@localhost",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "core.autocrlf=false",
            ])
            .args(args)
            .current_dir(&self.work_tree)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("LC_ALL", "C");
        for variable in INHERITED_GIT_VARIABLES {
            command.env_remove(variable);
        }
        command
    }
}

fn failure(command: &str, output: &Output) -> GitError {
    let stderr = String::from_utf8_lossy(&output.stderr);
    GitError {
        command: command.to_owned(),
        message: stderr.trim().lines().last().unwrap_or("failed").to_owned(),
    }
}
