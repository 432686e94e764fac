//! The seed's format version: `major.minor.patch`, and this carryover reads major 1 only.

/// The major version this carryover reads and writes.
pub const SUPPORTED_MAJOR: u64 = 1;
/// The newest minor version this carryover knows every value of; newer minors are read
/// leniently (ADR 0002).
pub const SUPPORTED_MINOR: u64 = 0;

/// A parsed `major.minor.patch` version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatVersion {
    /// Breaking changes bump this.
    pub major: u64,
    /// Compatible additions bump this.
    pub minor: u64,
    /// Fixes bump this.
    pub patch: u64,
}

impl FormatVersion {
    /// Parses `1.0.0`; pre-release and build suffixes (`1.2.0-beta`) are allowed and ignored.
    pub fn parse(raw: &str) -> Option<Self> {
        let core = raw.split(['-', '+']).next().unwrap_or_default();
        let mut parts = core.split('.').map(|part| {
            (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse::<u64>().ok())
                .flatten()
        });
        let version = Self {
            major: parts.next()??,
            minor: parts.next()??,
            patch: parts.next()??,
        };
        parts.next().is_none().then_some(version)
    }

    /// The major number of a version string, even when the rest is malformed (`2`, `2.x`).
    pub fn major_of(raw: &str) -> Option<u64> {
        raw.split(['.', '-', '+']).next()?.trim().parse().ok()
    }

    /// Whether this carryover may read and write it.
    pub fn is_supported(self) -> bool {
        self.major == SUPPORTED_MAJOR
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::plain("1.0.0", Some((1, 0, 0)))]
    #[case::prerelease("1.2.3-beta.1", Some((1, 2, 3)))]
    #[case::two_parts("1.0", None)]
    #[case::four_parts("1.0.0.0", None)]
    #[case::letters("one.two.three", None)]
    #[case::empty("", None)]
    fn parses_major_minor_patch(#[case] raw: &str, #[case] expected: Option<(u64, u64, u64)>) {
        let parsed = FormatVersion::parse(raw).map(|v| (v.major, v.minor, v.patch));
        assert_eq!(parsed, expected);
    }

    #[rstest]
    #[case("2.0.0", Some(2))]
    #[case("2", Some(2))]
    #[case("1.x", Some(1))]
    #[case("v1", None)]
    fn finds_the_major_of_malformed_versions(#[case] raw: &str, #[case] major: Option<u64>) {
        assert_eq!(FormatVersion::major_of(raw), major);
    }
}
