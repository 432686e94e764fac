//! The seed file under git: every change of content is a commit, and a corrupt file is
//! restored from the newest commit that holds a valid seed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::domain::ports::{Clock, LoadedSeed, Repaired, SeedEdit, SeedHistory, SeedRepository};
use crate::domain::seed::{Seed, SeedChange, Timestamp, decode_seed, purge_version};
use crate::domain::{ChangeReason, SeedError};

use super::git::GitError;
use super::{Git, JsonSeedRepository, write_atomic};

/// Tracked by the repository that carryover creates: the seed, its schema and this file.
pub(super) const GITIGNORE: &str = "# carryover tracks only the seed; everything else here is local state.\n*\n!.gitignore\n!seed.json\n!seed.schema.json\n";

/// JSON Schema of the pai-seed v1 format, committed beside the seed for other tools.
pub(super) const SCHEMA: &str = include_str!("seed.schema.json");

/// A [`JsonSeedRepository`] whose directory is a git repository (created on first write).
pub struct GitSeedRepository {
    file: JsonSeedRepository,
    git: Git,
    clock: Arc<dyn Clock>,
    notices: Arc<std::sync::Mutex<Vec<String>>>,
}

impl GitSeedRepository {
    /// Versions `file` in a repository at the file's directory.
    pub fn new(file: JsonSeedRepository, clock: Arc<dyn Clock>) -> Self {
        let dir = file
            .path()
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        Self {
            git: Git::new(dir),
            file,
            clock,
            notices: Arc::default(),
        }
    }

    /// Sends what the store has to say that is not an error (a change saved but not yet
    /// committed, a history made anew) to `sink`, for the caller to show.
    pub fn with_notices(mut self, sink: Arc<std::sync::Mutex<Vec<String>>>) -> Self {
        self.notices = sink;
        self
    }

    fn notice(&self, message: String) {
        self.notices
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(message);
    }

    fn file_name(&self) -> String {
        self.file.path().file_name().map_or_else(
            || "seed.json".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// Reads the seed; a corrupt file is repaired under the lock (another process may have
    /// repaired it meanwhile, so it is read again once locked).
    fn read_or_repair(&self, locked: bool) -> Result<Option<LoadedSeed>, SeedError> {
        match self.file.read() {
            Ok(None) if self.has_history() => {
                // The file is gone but its history is here: a checkout killed between git's
                // removal of the file and its rewrite (a sync), or a slip of the hand.
                let _lock = if locked {
                    None
                } else {
                    Some(self.file.lock()?)
                };
                match self.file.read() {
                    Ok(Some(seed)) => Ok(Some(LoadedSeed {
                        seed,
                        repaired: None,
                    })),
                    Ok(None) => self.repair("the seed file was missing").map(Some),
                    Err(SeedError::Decode { source, .. }) if source.is_corruption() => {
                        self.repair(&source.to_string()).map(Some)
                    }
                    Err(other) => Err(other),
                }
            }
            Ok(seed) => Ok(seed.map(|seed| LoadedSeed {
                seed,
                repaired: None,
            })),
            Err(SeedError::Decode { source, .. }) if source.is_corruption() => {
                let _lock = if locked {
                    None
                } else {
                    Some(self.file.lock()?)
                };
                match self.file.read() {
                    Ok(seed) => Ok(seed.map(|seed| LoadedSeed {
                        seed,
                        repaired: None,
                    })),
                    Err(SeedError::Decode { source, .. }) if source.is_corruption() => {
                        self.repair(&source.to_string()).map(Some)
                    }
                    Err(other) => Err(other),
                }
            }
            Err(other) => Err(other),
        }
    }

    /// Whether the seed has been committed here before.
    fn has_history(&self) -> bool {
        self.git.is_repository()
            && self
                .git
                .commits_of(&self.file_name())
                .is_ok_and(|commits| !commits.is_empty())
    }

    fn repair(&self, problem: &str) -> Result<LoadedSeed, SeedError> {
        let name = self.file_name();
        let unrepairable = || SeedError::Unrepairable {
            path: self.file.path().to_owned(),
            problem: problem.to_owned(),
        };
        if !self.git.is_repository() {
            return Err(unrepairable());
        }
        let commits = self.git.commits_of(&name).map_err(|e| self.git_error(e))?;
        let restorable = commits.iter().find_map(|commit| {
            let text = self.git.show(commit, &name).ok()?;
            decode_seed(&text).ok().map(|seed| (commit, seed))
        });
        let Some((commit, seed)) = restorable else {
            return Err(unrepairable());
        };
        let kept = match self.file.path().exists() {
            true => Some(self.keep_corrupt_file(self.clock.now())?),
            false => None,
        };
        self.file.write(&seed)?;
        let short: String = commit.chars().take(7).collect();
        let reason = ChangeReason::Repair {
            from_commit: short.clone(),
            problem: crate::domain::format::clip(problem, 120),
        };
        self.git
            .commit_event(&[&name], &reason.to_string())
            .map_err(|e| self.git_error(e))?;
        let repaired = Repaired {
            problem: problem.to_owned(),
            kept,
            from_commit: short,
        };
        // Every command that loads the seed tells of it, not only those that report on it.
        self.notice(repaired.message(self.file.path()));
        Ok(LoadedSeed {
            seed,
            repaired: Some(repaired),
        })
    }

    fn keep_corrupt_file(&self, now: Timestamp) -> Result<PathBuf, SeedError> {
        let base = format!("{}.corrupted-{}", self.file.path().display(), now.compact());
        let mut kept = PathBuf::from(&base);
        let mut attempt = 1;
        while kept.exists() {
            kept = PathBuf::from(format!("{base}-{attempt}"));
            attempt += 1;
        }
        fs_err::rename(self.file.path(), &kept).map_err(|source| SeedError::Io {
            path: self.file.path().to_owned(),
            source,
        })?;
        Ok(kept)
    }

    /// Creates the repository with its ignore file and schema; returns the paths to commit. A
    /// `.git` that exists but does not work (an `init` cut off by a full disk) is moved aside
    /// as `.git.broken-<time>` and made anew: its history is lost to carryover, not deleted.
    fn ensure_repository(&self) -> Result<Vec<String>, SeedError> {
        if self.git.is_healthy() {
            return Ok(Vec::new());
        }
        if self.git.is_repository() {
            let dot_git = self.git.work_tree().join(".git");
            let aside = self
                .git
                .work_tree()
                .join(format!(".git.broken-{}", self.clock.now().compact()));
            fs_err::rename(&dot_git, &aside).map_err(|source| SeedError::Io {
                path: dot_git.clone(),
                source,
            })?;
            self.notice(format!(
                "{} did not work as a git repository; it is kept as {} and a new one was made",
                dot_git.display(),
                aside.display()
            ));
        }
        self.git.init().map_err(|e| self.git_error(e))?;
        let dir = self.git.work_tree();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            write_atomic(&path, text.as_bytes()).map_err(|source| SeedError::Io { path, source })
        };
        write(".gitignore", GITIGNORE)?;
        write("seed.schema.json", SCHEMA)?;
        Ok(vec![".gitignore".to_owned(), "seed.schema.json".to_owned()])
    }

    /// Whether the seed on disk differs from its newest commit in more than the last-session
    /// bookkeeping, which by design waits for the next commit; anything that cannot be read
    /// and compared counts as a difference.
    fn differs_in_content(&self, name: &str) -> bool {
        let committed = self
            .git
            .show("HEAD", name)
            .ok()
            .and_then(|text| decode_seed(&text).ok());
        match (committed, self.file.read()) {
            (Some(committed), Ok(Some(working))) => {
                SeedChange::between(Some(&committed), &working) == SeedChange::Content
            }
            _ => true,
        }
    }

    fn git_error(&self, error: GitError) -> SeedError {
        SeedError::Git {
            command: error.command,
            dir: self.git.work_tree().to_owned(),
            message: error.message,
        }
    }
}

#[async_trait::async_trait]
impl SeedRepository for GitSeedRepository {
    async fn load(&self) -> Result<Option<LoadedSeed>, SeedError> {
        self.read_or_repair(false)
    }

    async fn update(&self, edit: SeedEdit) -> Result<Seed, SeedError> {
        let _lock = self.file.lock()?;
        let current = self.read_or_repair(true)?.map(|loaded| loaded.seed);
        let (seed, reason) = edit(current.clone())?;
        let change = SeedChange::between(current.as_ref(), &seed);
        if change == SeedChange::Unchanged {
            return Ok(seed);
        }
        // The change is saved first; the commit records it. When git cannot (a stale
        // `index.lock`, git missing, a full disk), the change stays saved, the caller is told,
        // and the next write's commit takes it along: a retry must not find it "missing".
        self.file.write(&seed)?;
        // Bookkeeping alone (the last session) is saved the same way, on purpose: a commit per
        // session end would fill the history with timestamp bumps.
        if change == SeedChange::Bookkeeping {
            return Ok(seed);
        }
        let committed = self.ensure_repository().and_then(|mut paths| {
            paths.push(self.file_name());
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            self.git
                .commit(&paths, &reason.to_string())
                .map_err(|e| self.git_error(e))
        });
        if let Err(error) = committed {
            self.notice(format!(
                "the change is saved in {}, but not committed ({error}); the next change commits it",
                self.file.path().display()
            ));
        }
        Ok(seed)
    }

    async fn history(&self) -> Result<Option<SeedHistory>, SeedError> {
        if !self.git.is_repository() {
            return Ok(None);
        }
        let name = self.file_name();
        let log = self
            .git
            .run(&["log", "--format=%ct%x1f%s", "--", &name])
            .or_else(|e| {
                if self.git.has_commits().unwrap_or(false) {
                    Err(e)
                } else {
                    Ok(String::new())
                }
            })
            .map_err(|e| self.git_error(e))?;
        let newest = log
            .lines()
            .next()
            .and_then(|line| line.split_once('\u{1f}'));
        let status = self
            .git
            .run(&["status", "--porcelain", "--", &name])
            .map_err(|e| self.git_error(e))?;
        let uncommitted_changes = !status.trim().is_empty() && self.differs_in_content(&name);
        Ok(Some(SeedHistory {
            commits: log.lines().count(),
            last_subject: newest.map(|(_, subject)| subject.to_owned()),
            last_at: newest
                .and_then(|(seconds, _)| seconds.parse::<i64>().ok())
                .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
                .map(Timestamp::new),
            uncommitted_changes,
        }))
    }

    fn location(&self) -> PathBuf {
        self.file.path().to_owned()
    }

    async fn purge(&self, id: &str, content: &str) -> Result<usize, SeedError> {
        let _lock = self.file.lock()?;
        if !self.git.is_healthy() || !self.git.has_commits().map_err(|e| self.git_error(e))? {
            return Ok(0);
        }
        self.purge_working_file(id, content)?;
        let rewritten = self.rewrite_history(id, content)?;
        Ok(rewritten)
    }
}

/// Files a repository carryover made ever tracks; another file in its history means the
/// repository is someone else's, and its history is not carryover's to rewrite.
const OWN_FILES: [&str; 3] = [".gitignore", "seed.json", "seed.schema.json"];

/// `projects/<project>/sessions/<session>/handoff.md`: a handoff `[sync] handoffs` tracks.
fn is_synced_handoff(file: &str) -> bool {
    let parts: Vec<&str> = file.split('/').collect();
    matches!(
        parts.as_slice(),
        ["projects", _, "sessions", _, "handoff.md"]
    )
}

impl GitSeedRepository {
    /// The seed file without the text, committed, so the rewrite's newest commit is the file.
    fn purge_working_file(&self, id: &str, content: &str) -> Result<(), SeedError> {
        let path = self.file.path();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(SeedError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        if let Some(purged) = purge_version(&text, id, content) {
            write_atomic(path, purged.as_bytes()).map_err(|source| SeedError::Io {
                path: path.to_owned(),
                source,
            })?;
            let reason = ChangeReason::Forget { id: id.to_owned() };
            self.git
                .commit(&[&self.file_name()], &reason.to_string())
                .map_err(|e| self.git_error(e))?;
        }
        Ok(())
    }

    /// Rewrites every commit whose seed holds the text (and every descendant, for its new
    /// parent), moves the branches, and drops the old objects: reflogs expired, then
    /// `gc --prune=now`. Commit objects are copied header for header with only `tree` and
    /// `parent` changed, so authors, dates and messages stay as they were.
    fn rewrite_history(&self, id: &str, content: &str) -> Result<usize, SeedError> {
        let git = |args: &[&str]| self.git.run(args).map_err(|e| self.git_error(e));
        let name = self.file_name();
        let tracked = git(&["log", "--all", "--format=", "--name-only"])?;
        if let Some(foreign) = tracked.lines().map(str::trim).find(|file| {
            !file.is_empty()
                && !OWN_FILES.contains(file)
                && *file != name
                && !is_synced_handoff(file)
        }) {
            return Err(SeedError::Git {
                command: "log".into(),
                dir: self.git.work_tree().to_owned(),
                message: format!(
                    "the repository also tracks {foreign}, so it is not carryover's own and its history is left alone"
                ),
            });
        }
        let mut mapped: std::collections::HashMap<String, String> = Default::default();
        let mut rewritten = 0;
        for line in git(&[
            "rev-list",
            "--reverse",
            "--topo-order",
            "--parents",
            "--all",
        ])?
        .lines()
        {
            let mut hashes = line.split_whitespace().map(str::to_owned);
            let Some(commit) = hashes.next() else {
                continue;
            };
            let parents: Vec<String> = hashes.collect();
            let tree = git(&["rev-parse", &format!("{commit}^{{tree}}")])?
                .trim()
                .to_owned();
            let new_tree = self.purged_tree(&tree, &name, id, content)?;
            let new_parents: Vec<String> = parents
                .iter()
                .map(|p| mapped.get(p).cloned().unwrap_or_else(|| p.clone()))
                .collect();
            if new_tree.is_none() && new_parents == parents {
                mapped.insert(commit.clone(), commit);
                continue;
            }
            if new_tree.is_some() {
                rewritten += 1;
            }
            let raw = self
                .git
                .object("commit", &commit)
                .map_err(|e| self.git_error(e))?;
            let copy = copy_commit(&raw, new_tree.as_deref().unwrap_or(&tree), &new_parents);
            let new = self
                .git
                .run_with_input(&["hash-object", "-t", "commit", "-w", "--stdin"], &copy)
                .map_err(|e| self.git_error(e))?;
            mapped.insert(commit, new.trim().to_owned());
        }
        for line in git(&["for-each-ref", "--format=%(objectname) %(refname)"])?.lines() {
            let Some((old, reference)) = line.split_once(' ') else {
                continue;
            };
            if let Some(new) = mapped.get(old).filter(|new| *new != old) {
                git(&[
                    "update-ref",
                    "-m",
                    "carryover: forget --purge",
                    reference,
                    new,
                    old,
                ])?;
            }
        }
        // The index still names the old newest tree's blobs; the work tree is the new one.
        git(&["read-tree", "HEAD"])?;
        git(&[
            "reflog",
            "expire",
            "--expire=now",
            "--expire-unreachable=now",
            "--all",
        ])?;
        git(&["gc", "--quiet", "--prune=now"])?;
        Ok(rewritten)
    }

    /// The tree `tree` with its seed purged; `None` when the seed there holds nothing to purge.
    fn purged_tree(
        &self,
        tree: &str,
        name: &str,
        id: &str,
        content: &str,
    ) -> Result<Option<String>, SeedError> {
        let listing = self
            .git
            .run(&["ls-tree", "-z", tree])
            .map_err(|e| self.git_error(e))?;
        let mut changed = false;
        let mut entries = Vec::new();
        for entry in listing.split('\0').filter(|e| !e.is_empty()) {
            let Some((meta, file)) = entry.split_once('\t') else {
                continue;
            };
            let fields: Vec<&str> = meta.split_whitespace().collect();
            if let ([mode, "blob", blob], true) = (fields.as_slice(), file == name) {
                let text = self
                    .git
                    .object("blob", blob)
                    .map_err(|e| self.git_error(e))?;
                if let Some(purged) = purge_version(&String::from_utf8_lossy(&text), id, content) {
                    let new = self
                        .git
                        .run_with_input(&["hash-object", "-w", "--stdin"], purged.as_bytes())
                        .map_err(|e| self.git_error(e))?;
                    entries.push(format!("{mode} blob {}\t{file}", new.trim()));
                    changed = true;
                    continue;
                }
            }
            entries.push(entry.to_owned());
        }
        if !changed {
            return Ok(None);
        }
        let mut input = entries.join("\0");
        input.push('\0');
        let new = self
            .git
            .run_with_input(&["mktree", "-z"], input.as_bytes())
            .map_err(|e| self.git_error(e))?;
        Ok(Some(new.trim().to_owned()))
    }
}

/// A raw commit object with its `tree` and `parent` headers replaced; every other byte kept.
fn copy_commit(raw: &[u8], tree: &str, parents: &[String]) -> Vec<u8> {
    let split = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or(raw.len(), |at| at + 1);
    let (headers, rest) = raw.split_at(split);
    let mut out = format!("tree {tree}\n").into_bytes();
    for parent in parents {
        out.extend_from_slice(format!("parent {parent}\n").as_bytes());
    }
    for line in headers.split_inclusive(|b| *b == b'\n') {
        if !(line.starts_with(b"tree ") || line.starts_with(b"parent ")) {
            out.extend_from_slice(line);
        }
    }
    out.extend_from_slice(rest);
    out
}
