//! A session id as the agent sent it, checked to be safe as one path component.

use std::fmt;

/// At most this many bytes: real ids are 36-character UUIDs.
const MAX_LEN: usize = 128;

/// A session id that can name a directory: no separators, no `..`, no NUL, no control
/// characters, not empty, at most 128 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(String);

/// Why a raw session id was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("session id {shown:?} is not usable as a file name: {why}")]
pub struct InvalidSessionId {
    shown: String,
    why: &'static str,
}

impl SessionId {
    /// Checks `raw`.
    pub fn parse(raw: &str) -> Result<Self, InvalidSessionId> {
        let refuse = |why| {
            Err(InvalidSessionId {
                shown: raw.chars().take(40).collect(),
                why,
            })
        };
        if raw.is_empty() {
            return refuse("empty");
        }
        if raw.len() > MAX_LEN {
            return refuse("longer than 128 bytes");
        }
        if raw == "." || raw == ".." || raw.starts_with('.') {
            return refuse("starts with a dot");
        }
        if raw
            .chars()
            .any(|c| matches!(c, '/' | '\\' | ':') || c.is_control())
        {
            return refuse("contains a path separator or a control character");
        }
        Ok(Self(raw.to_owned()))
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::uuid("2c764cf4-ae92-42d8-88b5-e0f2690d8874")]
    #[case::word("session_1")]
    fn accepts_plain_ids(#[case] raw: &str) {
        assert_eq!(SessionId::parse(raw).unwrap().as_str(), raw);
    }

    #[rstest]
    #[case::empty("")]
    #[case::parent("..")]
    #[case::traversal("../../x")]
    #[case::absolute("/etc/passwd")]
    #[case::backslash("a\\b")]
    #[case::nul("a\0b")]
    #[case::newline("a\nb")]
    #[case::hidden(".git")]
    #[case::drive("C:x")]
    fn refuses_what_could_leave_its_directory(#[case] raw: &str) {
        assert!(SessionId::parse(raw).is_err());
    }

    #[test]
    fn refuses_very_long_ids() {
        assert!(SessionId::parse(&"a".repeat(129)).is_err());
        assert!(SessionId::parse(&"a".repeat(128)).is_ok());
    }

    proptest::proptest! {
        /// Whatever the agent sends, an accepted session id is one path component that stays
        /// inside the directory it is joined to.
        #[test]
        fn an_accepted_id_never_leaves_its_directory(raw in "(\\.\\./|/|\\x00|[a-zA-Z0-9._-]){0,200}") {
            if let Ok(id) = SessionId::parse(&raw) {
                let joined = std::path::Path::new("/data/sessions").join(id.as_str());
                proptest::prop_assert_eq!(joined.parent(), Some(std::path::Path::new("/data/sessions")));
                proptest::prop_assert!(!id.as_str().starts_with('.'));
                proptest::prop_assert!(!id.as_str().contains(['/', '\\', '\0']));
            }
        }
    }
}
