//! The domain's errors: a rule a requested change breaks, and what the seed store can report.

use std::path::PathBuf;

use super::seed::SeedDecodeError;

/// A requested change that the seed's rules do not allow.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// The change needs an existing seed.
    #[error("no seed exists yet")]
    NotInitialised,
    /// `init` would overwrite a seed that is already set up.
    #[error("a seed already exists")]
    AlreadyInitialised,
    /// A learning or name was empty.
    #[error("{what} must not be empty")]
    Empty {
        /// What was empty.
        what: &'static str,
    },
    /// A feature flag name that config keys and templates cannot carry.
    #[error("{name:?} is not a flag name (letters, digits, `-`, `_`, `.`; at most 64)")]
    InvalidFlagName {
        /// The name given.
        name: String,
    },
    /// A flag value that cannot be stored as given (a list inside a list).
    #[error("{value:?} is not a flag value: {why}")]
    InvalidFlagValue {
        /// The value given.
        value: String,
        /// Why.
        why: &'static str,
    },
    /// `trust` was asked for a project without a start-up template.
    #[error("{path} does not exist: the project has no start-up template to trust")]
    NoProjectTemplate {
        /// Where the template would be.
        path: PathBuf,
    },
    /// `trust` was asked for a template that session start would not use.
    #[error("{path} is not a start-up template session start can use ({problem})")]
    UnusableTemplate {
        /// The template.
        path: PathBuf,
        /// Why it is not used.
        problem: String,
    },
    /// No proposal or learning has an id starting with the prefix.
    #[error("no {what} matches {prefix:?}")]
    UnknownPrefix {
        /// `proposal` or `learning`.
        what: &'static str,
        /// The prefix given.
        prefix: String,
    },
    /// Several ids start with the prefix.
    #[error("{prefix:?} matches several {what}s: {}", .candidates.join(", "))]
    AmbiguousPrefix {
        /// `proposal` or `learning`.
        what: &'static str,
        /// The prefix given.
        prefix: String,
        /// The ids it matches.
        candidates: Vec<String>,
    },
    /// The proposal was already accepted or rejected.
    #[error("proposal {id} was already {status}")]
    AlreadyDecided {
        /// Its id.
        id: String,
        /// `accepted` or `rejected`.
        status: String,
    },
    /// `learnings scope ID project` would take another project's learning away from it.
    #[error("{id} belongs to {project}; nothing was written")]
    OtherProjectsLearning {
        /// The learning's id.
        id: String,
        /// Its scope as people read it (`project shop-api`).
        project: String,
    },
    /// A learning with the same text already exists.
    #[error("the same learning already exists as {id}")]
    DuplicateLearning {
        /// Id of the existing learning.
        id: String,
    },
    /// A time zone the IANA database does not name.
    #[error("{value:?} is not an IANA time zone")]
    InvalidTimeZone {
        /// The value given.
        value: String,
        /// The zone the user most likely meant.
        suggestion: Option<String>,
    },
    /// A locale that is not a BCP 47 language tag.
    #[error("{value:?} is not a BCP 47 locale: {why}")]
    InvalidLocale {
        /// The value given.
        value: String,
        /// What is wrong with it.
        why: String,
        /// The tag the user most likely meant.
        suggestion: Option<String>,
    },
    /// A response style this version does not know.
    #[error("{value:?} is not a response style")]
    InvalidStyle {
        /// The value given.
        value: String,
    },
    /// A key that names no field of the identity.
    #[error("{key:?} is not an identity key")]
    UnknownIdentityKey {
        /// The key given.
        key: String,
        /// The valid keys, comma-separated.
        valid: String,
    },
    /// The text looks like it holds a secret (a key, a token, a password); learnings are
    /// committed and injected into every session, so it is not stored.
    #[error("the learning looks like it holds a secret ({rule}); nothing was written")]
    SecretInLearning {
        /// The detection rule that matched (never the secret itself).
        rule: String,
    },
    /// An identity field's value looks like it holds a secret; the identity is committed,
    /// synced and injected into every session, so it is not stored.
    #[error("{what} looks like it holds a secret ({rule}); nothing was written")]
    SecretInIdentity {
        /// Which field, in words.
        what: &'static str,
        /// The detection rule that matched (never the secret itself).
        rule: String,
    },
}

/// What loading or saving the seed can fail with.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    /// The file exists but is not a usable seed.
    #[error("{path}: {source}")]
    Decode {
        /// The seed file.
        path: PathBuf,
        /// Why it is unusable.
        #[source]
        source: SeedDecodeError,
    },
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Another process held the seed's lock for too long.
    #[error("{path}: still locked by another carryover after {waited_ms} ms")]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited_ms: u64,
    },
    /// A git command failed.
    #[error("git {command} in {dir}: {message}")]
    Git {
        /// The git subcommand.
        command: String,
        /// Where it ran.
        dir: PathBuf,
        /// What git said.
        message: String,
    },
    /// The seed is corrupt and its history holds no valid version to restore. The file is
    /// left where it is so nothing is lost.
    #[error("{path} is unusable ({problem}) and its git history holds no valid version to restore")]
    Unrepairable {
        /// The seed file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The change itself broke a rule.
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// What syncing the seed through a git remote can fail with (ADR 0020).
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// `sync` ran before `sync remote add`.
    #[error("no sync remote is set")]
    NoRemote,
    /// `sync remote add` was given a blank URL, which would replace a working remote with
    /// nothing git can reach.
    #[error("the remote's URL is empty; the remote is as it was")]
    BlankRemote,
    /// The remote could not be reached or read (network, path, permissions).
    #[error("{remote} could not be reached: {message}")]
    Unreachable {
        /// The remote's URL.
        remote: String,
        /// What git said.
        message: String,
    },
    /// The remote received the push but refused to update its branch (a lock left by a push
    /// stopped half way, a hook, permissions).
    #[error("{remote} refused the push: {message}")]
    Refused {
        /// The remote's URL.
        remote: String,
        /// What the remote said.
        message: String,
    },
    /// A local git command failed.
    #[error("git {command}: {message}")]
    Git {
        /// The git subcommand.
        command: String,
        /// What git said.
        message: String,
    },
    /// One side's seed could not be read, so nothing was merged.
    #[error("the seeds could not be merged: {reason}; the local seed is as it was")]
    Unmergeable {
        /// Why.
        reason: String,
    },
    /// The seed to push holds what the redactor takes for a secret.
    #[error("{id} looks like it holds a secret ({rule}); nothing was pushed")]
    Secret {
        /// The learning or proposal that holds it (never the secret itself).
        id: String,
        /// The detection rule that matched.
        rule: String,
    },
    /// The seed store failed (its lock, its file).
    #[error(transparent)]
    Seed(#[from] SeedError),
}

/// What the per-project context state store can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The state file is not valid JSON of the expected shape.
    #[error("{path}: unreadable state ({reason}); treated as no state")]
    Corrupt {
        /// The state file.
        path: PathBuf,
        /// The parser's words.
        reason: String,
    },
    /// Another process held the state's lock for too long.
    #[error("{path}: still locked after {waited_ms} ms")]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited_ms: u64,
    },
    /// A checkpoint path that does not lie in the project's checkpoint directory.
    #[error("{path}: not a checkpoint of this project; not read")]
    ForeignCheckpoint {
        /// The path that was refused.
        path: PathBuf,
    },
}

/// What reading a transcript can fail with.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    /// The transcript could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The transcript.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// What reading an agent's memory folder can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AgentMemoryError {
    /// The folder does not exist (the agent has remembered nothing for this project).
    #[error("{path}: no such memory folder")]
    NoFolder {
        /// The folder.
        path: PathBuf,
    },
    /// A file is a link, a device or larger than memories are.
    #[error("{path}: {reason}")]
    Refused {
        /// The file.
        path: PathBuf,
        /// Why it was not read.
        reason: String,
    },
    /// Reading failed.
    #[error("{path}: {source}")]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// What the handoff store can fail with.
#[derive(Debug, thiserror::Error)]
pub enum HandoffError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// What reading templates or the trust list can fail with.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The template is a symbolic link, too large, or not text: it is not read.
    #[error("{path}: {reason}; not used")]
    Refused {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: &'static str,
    },
    /// The trust list is not valid JSON.
    #[error("{path}: unreadable trust list ({reason})")]
    CorruptTrust {
        /// The trust list.
        path: PathBuf,
        /// The parser's words.
        reason: String,
    },
}

/// What reading or changing feature flags can fail with.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    /// Reading or writing the configuration failed.
    #[error("{path}: {source}")]
    Io {
        /// The configuration file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The configuration is malformed; nothing was written.
    #[error("{path}: {message}")]
    Invalid {
        /// The configuration file.
        path: PathBuf,
        /// What is wrong, naming the key.
        message: String,
    },
}

/// What computing embeddings can fail with.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The embedding service could not be reached or answered badly.
    #[error("embedder {endpoint}: {message}")]
    Unavailable {
        /// Where it was asked.
        endpoint: String,
        /// What went wrong.
        message: String,
    },
    /// The built-in model's bytes are not what this carryover expects.
    #[error("built-in model: {0}")]
    Model(String),
}

/// What the embedding index can fail with.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The index file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not an index this carryover wrote.
    #[error(
        "{path}: not a carryover embedding index ({reason}); rebuild it with `carryover index`"
    )]
    Corrupt {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// What reading or rewriting an agent's settings file can fail with.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The settings file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not strict JSON; it was not touched.
    #[error("{path}: {source}")]
    Syntax {
        /// The settings file.
        path: PathBuf,
        /// Where and why.
        #[source]
        source: crate::domain::agent_hooks::SettingsSyntaxError,
    },
    /// The file is JSON, but its hooks are not shaped as the agent reads them.
    #[error("{path}: {source}")]
    Shape {
        /// The settings file.
        path: PathBuf,
        /// Which part.
        #[source]
        source: crate::domain::agent_hooks::ShapeError,
    },
    /// The agent has no settings file of that scope.
    #[error("{agent} has no {scope} settings file")]
    NoSuchScope {
        /// The agent's name.
        agent: &'static str,
        /// The scope asked for.
        scope: String,
    },
    /// The settings file is behind a symbolic link: refused in a project always, in the
    /// user's home unless asked.
    #[error("{} is a symbolic link (to {}); {}", link.display(), target.display(), if *project { "carryover does not write through it, since a repository can ship links into your home" } else { "carryover writes through it only with --follow-links" })]
    Link {
        /// The settings file.
        path: PathBuf,
        /// The link on the way to it.
        link: PathBuf,
        /// Where the link points.
        target: PathBuf,
        /// Whether it is a project's settings file.
        project: bool,
    },
    /// The settings file is read-only: it is not replaced behind the user's back.
    #[error("{path} is read-only; carryover does not replace it")]
    ReadOnly {
        /// The settings file.
        path: PathBuf,
    },
    /// `--statusline` was asked for, but the user has a status line of their own.
    #[error("{path} has a status line of your own; carryover does not replace it")]
    StatusLineTaken {
        /// The settings file.
        path: PathBuf,
    },
    /// `--statusline` was asked for an agent without one.
    #[error("{agent} has no status line")]
    NoStatusLine {
        /// The agent's name.
        agent: &'static str,
    },
}
