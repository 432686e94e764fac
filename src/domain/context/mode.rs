//! Full or complement: whether the context carries the identity.

use std::fmt;

/// What the context includes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Identity, learnings, proposals and state.
    #[default]
    Full,
    /// Everything but the identity, for when another tool (PAI) already injects it.
    Complement,
}

impl Mode {
    /// The spelling used by `--mode` and `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Complement => "complement",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
