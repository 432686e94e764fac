//! The seed's repository synced through a git remote (ADR 0020): `git fetch`, `git merge` with
//! carryover's merge driver for the seed, `git push`. Network steps run without the seed's
//! lock; every step that changes the seed file runs under it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::domain::SyncError;
use crate::domain::ports::{MergeOutcome, PushOutcome, SeedSync, SyncRecord};
use crate::domain::seed::{MergeConflict, Side, Timestamp, decode_seed};

use super::git::GitError;
use super::{FileLock, Git, JsonSeedRepository, write_atomic};

/// The remote's name in the data home's repository.
const REMOTE: &str = "origin";
/// The branch the seed lives on, here and on the remote.
const BRANCH: &str = "main";
/// The merge driver's name in `.git/config` and `.git/info/attributes`.
pub const DRIVER: &str = "carryover-seed";
/// Where the merge driver writes what it could not decide, when git runs it for a sync.
pub const REPORT_VARIABLE: &str = "CARRYOVER_MERGE_REPORT";
/// Which side changed last (`ours` or `theirs`), as `sync` tells the merge driver.
pub const NEWER_VARIABLE: &str = "CARRYOVER_MERGE_NEWER";
/// The last sync's result, beside the seed (ignored by the repository's `*`).
const RECORD_FILE: &str = ".carryover-sync.json";

/// [`SeedSync`] over the seed file's own repository.
pub struct GitSeedSync {
    file: JsonSeedRepository,
    git: Git,
    driver: PathBuf,
    /// Held from `prepare` to the end: one sync at a time per data home, so that git's lock
    /// files found under both locks were left by a process that died.
    running: std::sync::Mutex<Option<FileLock>>,
    handoffs: bool,
}

/// How long a sync waits for another one to finish (it may be waiting on the network).
const SYNC_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

impl GitSeedSync {
    /// Syncs the repository around `file`; git runs `driver` (this carryover) to merge seeds.
    pub fn new(file: JsonSeedRepository, driver: PathBuf) -> Self {
        let dir = file
            .path()
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Self {
            git: Git::new(dir),
            file,
            driver,
            running: std::sync::Mutex::new(None),
            handoffs: false,
        }
    }

    /// Also syncs the projects' handoffs (`projects/<name>-<identity hash>/sessions/<id>/
    /// handoff.md`): keyed by the project's identity (ADR 0010), so a repository cloned at
    /// different paths on two machines shares them. Each session writes its own file, so
    /// the machines' handoffs never touch.
    pub fn with_handoffs(mut self, handoffs: bool) -> Self {
        self.handoffs = handoffs;
        self
    }

    /// The handoff files under the work tree, as paths relative to it.
    fn handoff_paths(&self) -> Vec<String> {
        let mut found = Vec::new();
        let projects = self.git.work_tree().join("projects");
        let Ok(entries) = std::fs::read_dir(&projects) else {
            return found;
        };
        for project in entries.flatten() {
            let Ok(sessions) = std::fs::read_dir(project.path().join("sessions")) else {
                continue;
            };
            for session in sessions.flatten() {
                let file = session.path().join("handoff.md");
                if file.is_file()
                    && let (Some(p), Some(s)) = (
                        project.file_name().to_str().map(str::to_owned),
                        session.file_name().to_str().map(str::to_owned),
                    )
                {
                    found.push(format!("projects/{p}/sessions/{s}/handoff.md"));
                }
            }
        }
        found.sort();
        found
    }

    fn name(&self) -> String {
        self.file.path().file_name().map_or_else(
            || "seed.json".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    fn dot_git(&self) -> PathBuf {
        self.git.work_tree().join(".git")
    }

    fn run(&self, args: &[&str]) -> Result<String, SyncError> {
        self.git.run(args).map_err(git_error)
    }

    /// Creates the repository when there is none (a new machine) and registers the driver:
    /// in `.git/config` and `.git/info/attributes`, never in a tracked file, so the remote's
    /// history holds only the seed's files and every clone registers its own carryover.
    fn ensure_repository(&self) -> Result<(), SyncError> {
        if !self.git.is_repository() {
            self.git.init().map_err(git_error)?;
            // As the seed store makes it (ADR 0002): only the seed's files are tracked.
            for (name, text) in [
                (".gitignore", super::git_seed_repository::GITIGNORE),
                ("seed.schema.json", super::git_seed_repository::SCHEMA),
            ] {
                let path = self.git.work_tree().join(name);
                if !path.exists() {
                    write_atomic(&path, text.as_bytes()).map_err(|source| {
                        SyncError::Seed(crate::domain::SeedError::Io { path, source })
                    })?;
                }
            }
        } else if !self.git.is_healthy() {
            return Err(SyncError::Git {
                command: "rev-parse".into(),
                message: format!(
                    "{} does not work as a git repository; run any `carryover learn` to have it made anew",
                    self.dot_git().display()
                ),
            });
        }
        let program = shell_quoted(&self.driver.to_string_lossy());
        let command = format!("{program} merge-driver %O %A %B");
        let key = format!("merge.{DRIVER}.driver");
        let current = self.git.run(&["config", "--get", &key]).unwrap_or_default();
        if current.trim_end() != command {
            self.run(&[
                "config",
                &format!("merge.{DRIVER}.name"),
                "carryover: merge seeds by id",
            ])?;
            self.run(&["config", &key, &command])?;
        }
        let info = self.dot_git().join("info");
        let attributes = info.join("attributes");
        let line = format!("{} merge={DRIVER}\n", self.name());
        let current = std::fs::read_to_string(&attributes).unwrap_or_default();
        if !current.lines().any(|l| l == line.trim_end()) {
            let io = |source| {
                SyncError::Seed(crate::domain::SeedError::Io {
                    path: attributes.clone(),
                    source,
                })
            };
            std::fs::create_dir_all(&info).map_err(io)?;
            write_atomic(&attributes, format!("{current}{line}").as_bytes()).map_err(io)?;
        }
        Ok(())
    }

    /// What a sync killed half way left behind: git's lock files (`index.lock`,
    /// `config.lock`, a ref's) are removed, since no live carryover holds them (every one that
    /// runs git here holds the seed's lock or the sync's, and the caller holds both); a merge
    /// in progress is given up, keeping the seed file as it stands when it is a valid seed (it
    /// may hold the merge's result and a change made since, and being a union it loses
    /// nothing when committed and merged again); a seed cut short by a killed checkout is
    /// restored from the last commit.
    fn recover(&self) -> Result<(), SyncError> {
        remove_lock_files(&self.dot_git(), 0);
        let path = self.file.path();
        if !self.dot_git().join("MERGE_HEAD").exists() {
            // carryover writes the seed atomically; git rewrites it in place. A seed that does
            // not decode is a checkout killed half way (a fast-forward leaves no MERGE_HEAD),
            // and the last commit holds what it was: committed, it would replace every
            // machine's seed.
            let cut_short = std::fs::read_to_string(path)
                .ok()
                .and_then(|text| decode_seed(&text).err())
                .is_some_and(|error| error.is_corruption());
            if cut_short && self.head().is_some() {
                // Kept beside it all the same: it may be a hand edit gone wrong.
                let kept = aside(path, "corrupted-sync");
                std::fs::rename(path, &kept).map_err(|source| {
                    SyncError::Seed(crate::domain::SeedError::Io {
                        path: path.to_owned(),
                        source,
                    })
                })?;
                self.run(&["checkout", "--quiet", "HEAD", "--", &self.name()])?;
                self.privatise_tracked();
            }
            return Ok(());
        }
        let kept = std::fs::read_to_string(path)
            .ok()
            .filter(|text| decode_seed(text).is_ok());
        self.run(&["reset", "--hard", "--quiet", "HEAD"])?;
        if let Some(text) = kept {
            write_atomic(path, text.as_bytes()).map_err(|source| {
                SyncError::Seed(crate::domain::SeedError::Io {
                    path: path.to_owned(),
                    source,
                })
            })?;
        }
        Ok(())
    }

    /// Commits what changed in the seed's files since the last commit (session bookkeeping, a
    /// commit that failed), so that a merge takes it along instead of stopping at it.
    fn commit_local(&self) -> Result<(), SyncError> {
        let name = self.name();
        let handoffs = if self.handoffs {
            self.handoff_paths()
        } else {
            Vec::new()
        };
        let paths: Vec<&str> = [".gitignore", "seed.schema.json", name.as_str()]
            .into_iter()
            .filter(|p| self.git.work_tree().join(p).is_file())
            .chain(handoffs.iter().map(String::as_str))
            .collect();
        if !paths.is_empty() {
            self.git
                .commit(&paths, "Sync: local changes")
                .map_err(git_error)?;
        }
        Ok(())
    }

    /// git checks files out with the process's umask (0644 as a rule); the data home keeps
    /// its files 0600 and directories 0700, so what a merge wrote is made private again. A
    /// link is left alone (never followed).
    fn privatise_tracked(&self) {
        use std::os::unix::fs::PermissionsExt;
        let Ok(listed) = self.git.run(&["ls-files", "-z"]) else {
            return;
        };
        let root = self.git.work_tree();
        for file in listed.split('\0').filter(|f| !f.is_empty()) {
            let path = root.join(file);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file()) {
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
            }
            let mut dir = path.parent();
            while let Some(current) = dir.filter(|d| *d != root && d.starts_with(root)) {
                if std::fs::symlink_metadata(current).is_ok_and(|m| m.file_type().is_dir()) {
                    let _ =
                        std::fs::set_permissions(current, std::fs::Permissions::from_mode(0o700));
                }
                dir = current.parent();
            }
        }
    }

    fn head(&self) -> Option<String> {
        self.git
            .run(&["rev-parse", "--verify", "--quiet", "HEAD"])
            .ok()
            .map(|h| h.trim().to_owned())
    }

    fn remote_head(&self) -> Option<String> {
        self.git
            .run(&[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("refs/remotes/{REMOTE}/{BRANCH}"),
            ])
            .ok()
            .map(|h| h.trim().to_owned())
    }

    fn unreachable(&self, message: String) -> SyncError {
        SyncError::Unreachable {
            remote: self.remote_url(),
            message,
        }
    }

    fn remote_url(&self) -> String {
        self.git
            .run(&["remote", "get-url", REMOTE])
            .map(|url| url.trim().to_owned())
            .unwrap_or_else(|_| REMOTE.to_owned())
    }

    fn lock(&self) -> Result<FileLock, SyncError> {
        Ok(self.file.lock()?)
    }
}

#[async_trait::async_trait]
impl SeedSync for GitSeedSync {
    async fn remote(&self) -> Result<Option<String>, SyncError> {
        if !self.git.is_repository() {
            return Ok(None);
        }
        Ok(self
            .git
            .run(&["remote", "get-url", REMOTE])
            .ok()
            .map(|url| url.trim().to_owned()))
    }

    async fn set_remote(&self, url: &str) -> Result<(), SyncError> {
        let _lock = self.lock()?;
        self.ensure_repository()?;
        if self.remote().await?.is_some() {
            self.run(&["remote", "set-url", REMOTE, url])?;
        } else {
            self.run(&["remote", "add", REMOTE, url])?;
        }
        Ok(())
    }

    async fn remove_remote(&self) -> Result<Option<String>, SyncError> {
        let _lock = self.lock()?;
        let removed = self.remote().await?;
        if removed.is_some() {
            // Its tracking refs go with it, so `status` shows no remote's state.
            self.run(&["remote", "remove", REMOTE])?;
        }
        Ok(removed)
    }

    async fn prepare(&self) -> Result<(), SyncError> {
        let running = FileLock::acquire(
            &self.git.work_tree().join(".carryover-sync.lock"),
            SYNC_LOCK_WAIT,
        )
        .map_err(|error| SyncError::Git {
            command: "sync".into(),
            message: format!("another sync is running ({error})"),
        })?;
        *self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(running);
        let _lock = self.lock()?;
        self.ensure_repository()?;
        self.recover()?;
        self.commit_local()
    }

    async fn fetch(&self) -> Result<bool, SyncError> {
        let (ok, said) = self
            .git
            .run_with_env(&["fetch", "--quiet", "--prune", REMOTE], &[])
            .map_err(git_error)?;
        if !ok {
            return Err(self.unreachable(git_reason(&said)));
        }
        Ok(self.remote_head().is_some())
    }

    async fn merge(&self) -> Result<MergeOutcome, SyncError> {
        let _lock = self.lock()?;
        // A session may have ended while the fetch ran.
        self.recover()?;
        self.commit_local()?;
        let before = self.head();
        let theirs = format!("refs/remotes/{REMOTE}/{BRANCH}");
        if before.is_none() {
            // A new machine: the remote's history becomes this one's.
            let (ok, said) = self
                .git
                .run_with_env(&["reset", "--hard", "--quiet", &theirs], &[])
                .map_err(git_error)?;
            if !ok {
                return Err(SyncError::Unmergeable {
                    reason: git_reason(&said),
                });
            }
            self.privatise_tracked();
            return Ok(MergeOutcome {
                changed: true,
                conflicts: Vec::new(),
            });
        }
        let report = self.dot_git().join("carryover-merge-report.jsonl");
        let _ = std::fs::remove_file(&report);
        let time = |rev: &str| {
            self.git
                .run(&["log", "-1", "--format=%ct", rev])
                .ok()
                .and_then(|t| t.trim().parse::<i64>().ok())
        };
        // Two seeds that share no history were set up apart, the later one usually by an
        // `init` whose defaults nobody chose: the one set up first wins, whichever changed
        // last (ADR 0021).
        let root_time = |rev: &str| {
            self.git
                .run(&["log", "--max-parents=0", "--format=%ct", rev])
                .ok()
                .and_then(|t| t.lines().filter_map(|l| l.trim().parse::<i64>().ok()).min())
        };
        let newer = match self.git.run(&["merge-base", "HEAD", &theirs]) {
            Err(_) if root_time(&theirs) <= root_time("HEAD") => "theirs",
            Err(_) => "ours",
            Ok(_) if time(&theirs) > time("HEAD") => "theirs",
            Ok(_) => "ours",
        };
        let (ok, said) = self
            .git
            .run_with_env(
                &[
                    "merge",
                    "--quiet",
                    "--no-edit",
                    "--allow-unrelated-histories",
                    // Files other than the seed (the schema, handoffs) keep this machine's
                    // side of a conflicting hunk; the seed has its own driver.
                    "-X",
                    "ours",
                    "-m",
                    "Sync: merge the seed from the remote",
                    &theirs,
                ],
                &[
                    (REPORT_VARIABLE, report.as_os_str()),
                    (NEWER_VARIABLE, std::ffi::OsStr::new(newer)),
                ],
            )
            .map_err(git_error)?;
        let conflicts = read_report(&report);
        let _ = std::fs::remove_file(&report);
        if !ok {
            let _ = self.git.run(&["merge", "--abort"]);
            return Err(SyncError::Unmergeable {
                reason: said
                    .lines()
                    .find(|l| l.contains("carryover"))
                    .map_or_else(|| git_reason(&said), driver_reason),
            });
        }
        self.privatise_tracked();
        Ok(MergeOutcome {
            changed: self.head() != before,
            conflicts,
        })
    }

    async fn outgoing(&self) -> Result<Option<String>, SyncError> {
        if self.head().is_none() {
            return Ok(None);
        }
        match self.git.show("HEAD", &self.name()) {
            Ok(text) => Ok(Some(text)),
            Err(_) => Ok(None),
        }
    }

    async fn push(&self) -> Result<PushOutcome, SyncError> {
        if self.head().is_some() && self.head() == self.remote_head() {
            return Ok(PushOutcome::UpToDate);
        }
        let refspec = format!("HEAD:refs/heads/{BRANCH}");
        let (ok, said) = self
            .git
            .run_with_env(&["push", "--porcelain", REMOTE, &refspec], &[])
            .map_err(git_error)?;
        if ok {
            let up_to_date = said
                .lines()
                .any(|l| l.starts_with('=') && l.contains(BRANCH));
            return Ok(if up_to_date {
                PushOutcome::UpToDate
            } else {
                PushOutcome::Pushed
            });
        }
        if said.contains("[rejected]")
            || said.contains("non-fast-forward")
            || said.contains("fetch first")
        {
            return Ok(PushOutcome::Rejected);
        }
        if said.contains("[remote rejected]") {
            return Err(SyncError::Refused {
                remote: self.remote_url(),
                message: git_reason(&said),
            });
        }
        Err(self.unreachable(git_reason(&said)))
    }

    async fn record(&self, record: &SyncRecord) -> Result<(), SyncError> {
        let path = self.git.work_tree().join(RECORD_FILE);
        let stored = StoredRecord {
            at: record.at,
            error: record.error.clone(),
            conflicts: record.conflicts,
        };
        let text = serde_json::to_string_pretty(&stored).unwrap_or_default();
        write_atomic(&path, text.as_bytes())
            .map_err(|source| SyncError::Seed(crate::domain::SeedError::Io { path, source }))
    }

    async fn last(&self) -> Result<Option<SyncRecord>, SyncError> {
        let path = self.git.work_tree().join(RECORD_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        Ok(serde_json::from_str::<StoredRecord>(&text)
            .ok()
            .map(|stored| SyncRecord {
                at: stored.at,
                error: stored.error,
                conflicts: stored.conflicts,
            }))
    }
}

/// Which side of the merge git is running changed last: what `sync` said
/// (`told`, from `NEWER_VARIABLE`), else the newer of the two head commits (`HEAD` and
/// `MERGE_HEAD`, when git wrote it), else ours. The seed keeps no time per field, so commit
/// time stands in (ADR 0021).
pub fn newer_side(work_tree: &Path, told: Option<&str>) -> Side {
    match told {
        Some("theirs") => return Side::Theirs,
        Some("ours") => return Side::Ours,
        _ => {}
    }
    let git = Git::new(work_tree);
    let time = |rev: &str| {
        git.run(&["log", "-1", "--format=%ct", rev])
            .ok()
            .and_then(|t| t.trim().parse::<i64>().ok())
    };
    match (time("HEAD"), time("MERGE_HEAD")) {
        (Some(ours), Some(theirs)) if theirs > ours => Side::Theirs,
        _ => Side::Ours,
    }
}

/// Appends what a merge could not decide to the report a sync reads (`$CARRYOVER_MERGE_REPORT`).
pub fn append_report(path: &Path, conflicts: &[MergeConflict]) {
    let mut text = std::fs::read_to_string(path).unwrap_or_default();
    for conflict in conflicts {
        let line = serde_json::json!({
            "path": conflict.path,
            "kept": conflict.kept,
            "other": conflict.other,
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    let _ = write_atomic(path, text.as_bytes());
}

fn read_report(path: &Path) -> Vec<MergeConflict> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .map(|v| MergeConflict {
            path: v["path"].as_str().unwrap_or_default().to_owned(),
            kept: v["kept"].as_str().unwrap_or_default().to_owned(),
            other: v["other"].as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

#[derive(Serialize, Deserialize)]
struct StoredRecord {
    at: Timestamp,
    error: Option<String>,
    conflicts: usize,
}

/// Removes git's `*.lock` files under `dir` (its refs included, a few levels down).
fn remove_lock_files(dir: &Path, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && depth < 6 && (depth > 0 || entry.file_name() == "refs") {
            remove_lock_files(&path, depth + 1);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "lock") {
            let _ = std::fs::remove_file(&path);
        }
    }
}

fn git_error(error: GitError) -> SyncError {
    SyncError::Git {
        command: error.command,
        message: error.message,
    }
}

/// Why git failed, in one line: its first `fatal:` or `error:` line (the cause; the lines
/// after it are advice such as "make sure … and the repository exists."), else its last line.
fn git_reason(said: &str) -> String {
    let lines = || said.lines().map(str::trim).filter(|l| !l.is_empty());
    // The remote's own error says why a push was refused; the local one only that it was.
    let remote_error = lines().find_map(|l| {
        let l = l.strip_prefix("remote:")?.trim();
        l.strip_prefix("fatal:")
            .or_else(|| l.strip_prefix("error:"))
    });
    if let Some(reason) = remote_error {
        return reason.trim().to_owned();
    }
    // A hook on the remote says why in its own words, unmarked ("push denied by policy").
    let remote_words: Vec<&str> = lines()
        .filter_map(|l| l.strip_prefix("remote:").map(str::trim))
        .filter(|l| !l.is_empty() && !is_progress(l))
        .take(3)
        .collect();
    if !remote_words.is_empty() {
        return remote_words.join("; ");
    }
    lines()
        .find_map(|l| {
            l.strip_prefix("fatal:")
                .or_else(|| l.strip_prefix("error:"))
        })
        .or_else(|| lines().next_back())
        .unwrap_or("failed")
        .trim()
        .to_owned()
}

/// git's progress lines, which a remote sends with every push.
fn is_progress(line: &str) -> bool {
    [
        "Resolving deltas",
        "Counting objects",
        "Compressing objects",
        "Enumerating objects",
        "Writing objects",
        "Total ",
    ]
    .iter()
    .any(|progress| line.starts_with(progress))
}

/// A free name beside `path` for a copy set aside: `seed.json.<label>`, then `-1`, `-2` …
fn aside(path: &Path, label: &str) -> PathBuf {
    let base = format!("{}.{label}", path.display());
    let mut kept = PathBuf::from(&base);
    let mut attempt = 1;
    while kept.exists() {
        kept = PathBuf::from(format!("{base}-{attempt}"));
        attempt += 1;
    }
    kept
}

/// The merge driver's own reason in the line it printed: its error message wraps the reason
/// as the sync's does ("the seeds could not be merged: …; the local seed is as it was"), and
/// the sync wraps it once.
fn driver_reason(line: &str) -> String {
    let mut reason = line.trim();
    while let Some(rest) = reason.strip_prefix("carryover: ") {
        reason = rest
            .strip_prefix("the seeds could not be merged: ")
            .unwrap_or(rest);
    }
    reason
        .trim_end_matches("; the local seed is as it was")
        .to_owned()
}

/// `text` quoted for `sh`, which git runs the driver with.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::the_cause_not_the_advice(
        "fatal: '/nowhere/x.git' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n",
        "'/nowhere/x.git' does not appear to be a git repository"
    )]
    #[case::the_remotes_reason(
        "remote: error: cannot lock ref 'refs/heads/main': Unable to create 'r.git/refs/heads/main.lock': File exists.\nremote: \nTo r.git\n ! [remote rejected] HEAD -> main (failed to update ref)\nerror: failed to push some refs to 'r.git'\n",
        "cannot lock ref 'refs/heads/main': Unable to create 'r.git/refs/heads/main.lock': File exists."
    )]
    #[case::an_error_line(
        "hint: see below\nerror: failed to push some refs to 'x'\n",
        "failed to push some refs to 'x'"
    )]
    #[case::a_hooks_own_words(
        "remote: push denied by policy: seed repos are read-only on Fridays\nremote: Resolving deltas: 100% (1/1)\nTo r.git\n ! [remote rejected] HEAD -> main (pre-receive hook declined)\nerror: failed to push some refs to 'r.git'\n",
        "push denied by policy: seed repos are read-only on Fridays"
    )]
    #[case::no_marked_line("something odd\nhappened\n", "happened")]
    #[case::nothing_said("", "failed")]
    fn git_reason_is_the_cause(#[case] said: &str, #[case] reason: &str) {
        assert_eq!(git_reason(said), reason);
    }

    #[rstest]
    #[case::wrapped_by_the_driver(
        "carryover: the seeds could not be merged: carryover: this machine's seed is not valid: EOF; the local seed is as it was",
        "this machine's seed is not valid: EOF"
    )]
    #[case::plain(
        "carryover: the remote's seed is not valid",
        "the remote's seed is not valid"
    )]
    #[case::the_shell_could_not_run_it(
        "sh: 1: /home/u/.cargo/bin/carryover: not found",
        "sh: 1: /home/u/.cargo/bin/carryover: not found"
    )]
    fn the_drivers_reason_is_said_once(#[case] line: &str, #[case] reason: &str) {
        assert_eq!(driver_reason(line), reason);
    }
}
