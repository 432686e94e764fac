//! What is wrong in the user's configuration file, key by key: found by the configuration
//! adapter, shown by commands on stderr, by hooks once per session, and by `doctor`.

use std::fmt;
use std::path::PathBuf;

/// What kind of mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigProblemKind {
    /// A key carryover does not know (a typo, or one of a newer version): ignored.
    UnknownKey,
    /// A value of the wrong type or out of range: the key takes its default.
    BadValue,
    /// The file is not valid TOML: every key takes its default.
    Syntax,
}

/// One mistake in the configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The file.
    pub path: PathBuf,
    /// Its 1-based line, when the parser could place it.
    pub line: Option<usize>,
    /// The dotted key (`retrieval.floor`); `None` for a syntax error.
    pub key: Option<String>,
    /// What kind of mistake.
    pub kind: ConfigProblemKind,
    /// The parser's or the check's words (`expected one of …`; for a bad value, what is used
    /// instead: `1.5 is not in 0 to 1; its default is used`).
    pub detail: String,
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, " line {line}")?;
        }
        let key = self.key.as_deref().unwrap_or("?");
        match self.kind {
            ConfigProblemKind::UnknownKey => {
                write!(f, ": unknown key `{key}`, ignored")?;
                match self.detail.split_once("expected ") {
                    Some((_, expected)) => write!(f, " (expected {expected})"),
                    None => Ok(()),
                }
            }
            ConfigProblemKind::BadValue => {
                write!(f, ": `{key}`: {}", self.detail)
            }
            ConfigProblemKind::Syntax => write!(
                f,
                ": not valid TOML ({}); every key takes its default",
                self.detail
            ),
        }
    }
}

/// A short digest of a list of problems, so that a session is told again only when the list
/// changes (FNV-1a over their messages; stable across runs and versions of the standard
/// library, unlike `DefaultHasher`).
pub fn problems_fingerprint(problems: &[ConfigProblem]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for problem in problems {
        for byte in problem.to_string().bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn problem(kind: ConfigProblemKind, key: Option<&str>, detail: &str) -> ConfigProblem {
        ConfigProblem {
            path: PathBuf::from("/d/config.toml"),
            line: Some(3),
            key: key.map(str::to_owned),
            kind,
            detail: detail.to_owned(),
        }
    }

    #[rstest]
    #[case::unknown_with_suggestions(
        ConfigProblemKind::UnknownKey,
        Some("retrieval.flor"),
        "unknown field `flor`, expected one of `top_n`, `floor`",
        "/d/config.toml line 3: unknown key `retrieval.flor`, ignored (expected one of `top_n`, `floor`)"
    )]
    #[case::bad_value(
        ConfigProblemKind::BadValue,
        Some("context.budget_chars"),
        "invalid type: string \"big\", expected usize; its default is used",
        "/d/config.toml line 3: `context.budget_chars`: invalid type: string \"big\", expected usize; its default is used"
    )]
    #[case::syntax(
        ConfigProblemKind::Syntax,
        None,
        "unclosed table",
        "/d/config.toml line 3: not valid TOML (unclosed table); every key takes its default"
    )]
    fn names_the_file_line_and_key(
        #[case] kind: ConfigProblemKind,
        #[case] key: Option<&str>,
        #[case] detail: &str,
        #[case] shown: &str,
    ) {
        assert_eq!(problem(kind, key, detail).to_string(), shown);
    }

    #[test]
    fn the_fingerprint_follows_the_list() {
        let a = problem(ConfigProblemKind::UnknownKey, Some("flor"), "");
        let b = problem(ConfigProblemKind::UnknownKey, Some("top"), "");
        let once = problems_fingerprint(std::slice::from_ref(&a));
        assert_eq!(once, problems_fingerprint(std::slice::from_ref(&a)));
        assert_ne!(once, problems_fingerprint(&[b]));
        assert_eq!(problems_fingerprint(&[a]).len(), 16);
    }
}
