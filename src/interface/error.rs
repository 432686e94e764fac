//! The one place errors of every layer become a message, a hint and an exit code.

use std::process::ExitCode;

use crate::application::AppError;
use crate::domain::{
    AgentMemoryError, FlagError, RuleError, SeedError, SettingsError, SyncError, TemplateError,
};
use crate::infrastructure::ConfigError;

/// Exit code of a command that failed while working (I/O, git, a lock, a corrupt seed).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a request that was refused (bad input, a rule, no seed yet).
pub const EXIT_REFUSED: u8 = 2;

/// A failed management command, ready to print.
#[derive(Debug)]
pub struct CliError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
    /// The exit code.
    pub code: u8,
}

impl CliError {
    /// A refused request.
    pub fn refused(message: impl Into<String>, hint: Option<&str>) -> Self {
        Self {
            message: message.into(),
            hint: hint.map(str::to_owned),
            code: EXIT_REFUSED,
        }
    }

    /// A failure while working.
    pub fn failed(message: impl Into<String>, hint: Option<&str>) -> Self {
        Self {
            message: message.into(),
            hint: hint.map(str::to_owned),
            code: EXIT_FAILURE,
        }
    }

    /// The error as a script reads it when it asked for `--json`:
    /// `{"error":{"message":…,"hint":…,"exit_code":2}}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "error": {
                "message": self.message,
                "hint": self.hint,
                "exit_code": self.code,
            }
        })
    }

    /// Prints `carryover: message` (and the hint) to stderr and returns the exit code.
    pub fn report(&self) -> ExitCode {
        crate::tell!("carryover: {}", self.message);
        if let Some(hint) = &self.hint {
            crate::tell!("hint: {hint}");
        }
        ExitCode::from(self.code)
    }
}

/// Whether the command line asks for `--json` (before any `--`, after which words are
/// values): a script that asked for JSON gets its error as JSON too.
pub fn asks_for_json<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    args.into_iter()
        .take_while(|arg| arg.as_ref() != "--")
        .any(|arg| arg.as_ref() == "--json")
}

impl From<AppError> for CliError {
    fn from(error: AppError) -> Self {
        match error {
            AppError::Rule(rule) => rule.into(),
            AppError::Seed(seed) => seed.into(),
            AppError::Flag(flag @ FlagError::Invalid { .. }) => Self::refused(
                format!("{flag}; nothing was written"),
                Some("fix the file; every key is optional"),
            ),
            AppError::Flag(flag) => Self::failed(flag.to_string(), None),
            AppError::Template(template @ TemplateError::CorruptTrust { .. }) => Self::failed(
                template.to_string(),
                Some(
                    "`carryover trust` in a project with a template starts a new list and keeps \
                     this one aside",
                ),
            ),
            AppError::Template(template) => Self::failed(template.to_string(), None),
            AppError::Embed(embed) => Self::failed(embed.to_string(), None),
            AppError::Settings(
                settings @ (SettingsError::Syntax { .. } | SettingsError::Shape { .. }),
            ) => Self::refused(
                format!("{settings}; nothing was written"),
                Some(
                    "fix the file by hand (the agent would not read it either), then run this again",
                ),
            ),
            AppError::Settings(settings @ SettingsError::NoSuchScope { .. }) => Self::refused(
                settings.to_string(),
                Some("use --scope user or --scope project"),
            ),
            AppError::Settings(settings @ SettingsError::StatusLineTaken { .. }) => Self::refused(
                format!("{settings}; nothing was written"),
                Some(
                    "leave out --statusline to wire the hooks alone, or call `carryover statusline` from your own status line command (it reads the same stdin)",
                ),
            ),
            AppError::Settings(settings @ SettingsError::NoStatusLine { .. }) => Self::refused(
                settings.to_string(),
                Some("--statusline is for Claude Code"),
            ),
            AppError::Settings(settings @ SettingsError::Link { project: true, .. }) => {
                Self::refused(
                    format!("{settings}; nothing was written"),
                    Some(
                        "replace the link with a real file if this project's settings are yours, or install with --scope user",
                    ),
                )
            }
            AppError::Settings(settings @ SettingsError::Link { project: false, .. }) => {
                Self::refused(
                    format!("{settings}; nothing was written"),
                    Some("add --follow-links to write the file the link points to"),
                )
            }
            AppError::Settings(settings @ SettingsError::ReadOnly { .. }) => Self::refused(
                format!("{settings}; nothing was written"),
                Some("make it writable (chmod u+w) if carryover should change it"),
            ),
            AppError::Settings(settings) => Self::failed(settings.to_string(), None),
            AppError::Transcript(transcript) => Self::refused(transcript.to_string(), None),
            AppError::Memory(memory @ AgentMemoryError::NoFolder { .. }) => Self::refused(
                memory.to_string(),
                Some(
                    "Claude Code creates it when it first remembers something in this project; pass --cwd for another project or --dir for another folder",
                ),
            ),
            AppError::Memory(memory) => Self::failed(memory.to_string(), None),
            AppError::Sync(sync) => sync.into(),
            AppError::Index(index) => Self::failed(
                index.to_string(),
                Some("remove the file and run `carryover index`"),
            ),
        }
    }
}

impl From<RuleError> for CliError {
    fn from(error: RuleError) -> Self {
        if let Some(hint) = identity_hint(&error) {
            return Self::refused(format!("{error}; nothing was written"), Some(&hint));
        }
        let hint = match &error {
            RuleError::NotInitialised => Some("run `carryover init` first"),
            RuleError::AlreadyInitialised => {
                Some("add --force to replace the identity (learnings are kept)")
            }
            RuleError::NoProjectTemplate { .. } => {
                Some("write .carryover/_startup.md first (see README)")
            }
            RuleError::UnusableTemplate { .. } => Some(
                "a start-up template opens with front matter holding `type: agent/instruction` \
                 (see README); fix it, then trust it",
            ),
            RuleError::UnknownPrefix { .. } => {
                Some("`carryover proposals list` and `carryover learnings list` show the ids")
            }
            RuleError::AmbiguousPrefix { .. } => Some("type more of the id"),
            RuleError::OtherProjectsLearning { .. } => Some(
                "run it in the directory of the project it should belong to, or add --force \
                 to move it to this one (that project's sessions stop seeing it)",
            ),
            RuleError::SecretInLearning { .. } => Some(
                "learnings are committed to the data home's git and injected into every session; \
                 say where the secret lives instead (\"the deploy token is in 1Password, vault Ops\")",
            ),
            RuleError::SecretInIdentity { .. } => Some(
                "the identity is committed to the data home's git, synced and injected into \
                 every session; leave the secret out",
            ),
            RuleError::Empty { .. }
            | RuleError::DuplicateLearning { .. }
            | RuleError::InvalidFlagName { .. }
            | RuleError::InvalidFlagValue { .. }
            | RuleError::AlreadyDecided { .. } => None,
            RuleError::InvalidTimeZone { .. }
            | RuleError::InvalidLocale { .. }
            | RuleError::InvalidStyle { .. }
            | RuleError::UnknownIdentityKey { .. } => None,
        };
        Self::refused(error.to_string(), hint)
    }
}

/// The hint for a refused identity value: the likely value, else what a valid one looks like.
fn identity_hint(error: &RuleError) -> Option<String> {
    let did_you_mean = |suggestion: &Option<String>, otherwise: &str| match suggestion {
        Some(suggestion) => format!("did you mean {suggestion}?"),
        None => otherwise.to_owned(),
    };
    match error {
        RuleError::InvalidTimeZone { suggestion, .. } => Some(did_you_mean(
            suggestion,
            "use an IANA name such as Europe/Lisbon, America/New_York or UTC",
        )),
        RuleError::InvalidLocale { suggestion, .. } => Some(did_you_mean(
            suggestion,
            "use a BCP 47 tag such as en, en-GB or pt-BR",
        )),
        RuleError::InvalidStyle { .. } => Some("choose concise, detailed or adaptive".to_owned()),
        RuleError::UnknownIdentityKey { valid, .. } => Some(format!("the keys are: {valid}")),
        _ => None,
    }
}

impl From<SeedError> for CliError {
    fn from(error: SeedError) -> Self {
        match &error {
            SeedError::Rule(rule) => rule.clone().into(),
            SeedError::Decode { source, .. } if !source.is_corruption() => Self::refused(
                format!("{error}; it was left untouched"),
                Some("use the carryover release that matches this seed's version"),
            ),
            SeedError::Unrepairable { path, .. } => Self::failed(
                error.to_string(),
                Some(&format!(
                    "fix {} by hand, or move it away and run `carryover init`",
                    path.display()
                )),
            ),
            SeedError::LockTimeout { .. } => Self::failed(
                error.to_string(),
                Some("another carryover is writing; try again"),
            ),
            _ => Self::failed(error.to_string(), None),
        }
    }
}

impl From<ConfigError> for CliError {
    fn from(error: ConfigError) -> Self {
        Self::refused(
            error.to_string(),
            Some("fix the file; every key is optional"),
        )
    }
}

impl From<SyncError> for CliError {
    fn from(error: SyncError) -> Self {
        match error {
            SyncError::NoRemote => Self::refused(
                error.to_string(),
                Some(
                    "run `carryover sync remote add URL` first (a private git repository, an SSH path or a local bare repository)",
                ),
            ),
            SyncError::BlankRemote => Self::refused(
                error.to_string(),
                Some(
                    "give the remote's URL or path: carryover sync remote add git@github.com:you/seed.git",
                ),
            ),
            SyncError::Secret { .. } => Self::refused(
                error.to_string(),
                Some(
                    "`carryover learnings forget --purge ID` takes it out of the seed and its history; then sync again",
                ),
            ),
            SyncError::Unreachable { .. } => Self::failed(
                nothing_lost(&error),
                Some(
                    "check the URL (`git ls-remote URL`) and the network; `carryover sync remote add URL` replaces it",
                ),
            ),
            SyncError::Refused { .. } => Self::failed(
                nothing_lost(&error),
                Some(
                    "if it names a lock file and no git is running on the remote, a push stopped half way left it: remove that file, then sync again",
                ),
            ),
            SyncError::Seed(seed) => seed.into(),
            SyncError::Unmergeable { .. } | SyncError::Git { .. } => {
                Self::failed(error.to_string(), None)
            }
        }
    }
}

/// A failed sync's message with the reassurance that nothing changed, as one sentence: git's
/// own message often ends with a full stop.
fn nothing_lost(error: &SyncError) -> String {
    let said = error.to_string();
    format!(
        "{}; nothing was lost, the local seed is as it was",
        said.trim_end_matches(['.', ' '])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::git_ends_with_a_full_stop("Could not read from remote repository.")]
    #[case::git_does_not("Could not read from remote repository")]
    fn a_failed_sync_says_nothing_was_lost_in_one_sentence(#[case] message: &str) {
        let error = CliError::from(SyncError::Unreachable {
            remote: "/srv/seed.git".into(),
            message: message.into(),
        });
        assert_eq!(
            error.message,
            "/srv/seed.git could not be reached: Could not read from remote repository; nothing was lost, the local seed is as it was"
        );
    }

    #[rstest]
    #[case::asked(&["carryover", "learnings", "show", "x", "--json"], true)]
    #[case::asked_first(&["carryover", "status", "--json"], true)]
    #[case::not_asked(&["carryover", "learnings", "show", "x"], false)]
    #[case::a_value_after_the_separator(&["carryover", "learn", "insight", "--", "--json"], false)]
    #[case::a_word_that_holds_it(&["carryover", "learn", "insight", "use --json-lines"], false)]
    fn a_script_asks_for_json(#[case] args: &[&str], #[case] asked: bool) {
        assert_eq!(asks_for_json(args), asked);
    }

    #[test]
    fn an_error_as_json_carries_its_message_hint_and_code() {
        let error = CliError::refused("no learning matches \"x\"", Some("list them"));
        assert_eq!(
            error.to_json(),
            serde_json::json!({"error": {"message": "no learning matches \"x\"", "hint": "list them", "exit_code": 2}})
        );
        assert_eq!(
            CliError::failed("git failed", None).to_json()["error"]["hint"],
            serde_json::Value::Null
        );
    }
}
