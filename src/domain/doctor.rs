//! What `carryover doctor` reports: one check per thing that can be wrong, each ok, worth a
//! warning, or failed, with what fixes it.

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CheckStatus {
    /// Nothing to do.
    Ok,
    /// carryover works, but not as well as it could, or not as configured.
    Warn,
    /// carryover does not work here until it is fixed.
    Fail,
}

impl CheckStatus {
    /// `ok`, `warn` or `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Warn => "warn",
            Self::Fail => "fail",
        }
    }
}

/// What a check is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckArea {
    /// An agent's settings file and the binary its hooks run.
    Hooks,
    /// The seed and its git history.
    Seed,
    /// The embedding index.
    Index,
    /// `config.toml`.
    Config,
    /// The start-up templates and their trust.
    Trust,
    /// The agents' own programs.
    Clients,
}

impl CheckArea {
    /// `hooks`, `seed`, `index`, `config`, `trust` or `clients`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hooks => "hooks",
            Self::Seed => "seed",
            Self::Index => "index",
            Self::Config => "config",
            Self::Trust => "trust",
            Self::Clients => "clients",
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What it is about.
    pub area: CheckArea,
    /// Which one (`Claude Code (user)`, `seed`, a config key…).
    pub subject: String,
    /// How it came out.
    pub status: CheckStatus,
    /// What was found.
    pub detail: String,
    /// What fixes it: a command where one does, else what to do; `None` when it is ok.
    pub fix: Option<String>,
}

impl Check {
    /// A check that passed.
    pub fn ok(area: CheckArea, subject: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            area,
            subject: subject.into(),
            status: CheckStatus::Ok,
            detail: detail.into(),
            fix: None,
        }
    }

    /// A check worth a warning, with its fix.
    pub fn warn(
        area: CheckArea,
        subject: impl Into<String>,
        detail: impl Into<String>,
        fix: Option<String>,
    ) -> Self {
        Self {
            status: CheckStatus::Warn,
            fix,
            ..Self::ok(area, subject, detail)
        }
    }

    /// A failed check, with its fix.
    pub fn fail(
        area: CheckArea,
        subject: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            status: CheckStatus::Fail,
            fix: Some(fix.into()),
            ..Self::ok(area, subject, detail)
        }
    }
}

/// The worst outcome among `checks` (ok when there are none).
pub fn worst(checks: &[Check]) -> CheckStatus {
    checks
        .iter()
        .map(|check| check.status)
        .max()
        .unwrap_or(CheckStatus::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::none(&[], CheckStatus::Ok)]
    #[case::warned(&[CheckStatus::Ok, CheckStatus::Warn], CheckStatus::Warn)]
    #[case::failed(&[CheckStatus::Fail, CheckStatus::Warn], CheckStatus::Fail)]
    fn the_worst_check_decides(#[case] statuses: &[CheckStatus], #[case] expected: CheckStatus) {
        let checks: Vec<Check> = statuses
            .iter()
            .map(|status| Check {
                status: *status,
                ..Check::ok(CheckArea::Seed, "seed", "")
            })
            .collect();
        assert_eq!(worst(&checks), expected);
    }
}
