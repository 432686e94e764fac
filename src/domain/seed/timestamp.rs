//! Instants as the seed stores them: ISO-8601 in UTC with milliseconds, the shape JavaScript's
//! `Date.toISOString()` writes, so seeds written by the TypeScript tool round-trip unchanged.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

/// A point in time, always normalised to UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(OffsetDateTime);

impl Timestamp {
    /// Wraps an instant, converting it to UTC.
    pub fn new(at: OffsetDateTime) -> Self {
        Self(at.to_offset(UtcOffset::UTC))
    }

    /// Parses RFC 3339 (`2026-10-02T09:12:00.000Z`, `2026-11-21T18:40:12+00:00`).
    pub fn parse(raw: &str) -> Result<Self, time::error::Parse> {
        OffsetDateTime::parse(raw, &Rfc3339).map(Self::new)
    }

    /// The instant itself.
    pub fn instant(self) -> OffsetDateTime {
        self.0
    }

    /// Whole seconds since the Unix epoch.
    pub fn unix_seconds(self) -> i64 {
        self.0.unix_timestamp()
    }

    /// `2026-11-21 18:40 UTC`: for people, not for files.
    pub fn human(self) -> String {
        let format = format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
        self.0.format(format).unwrap_or_else(|_| self.to_string())
    }

    /// `20261121T184012Z`: safe in file names and sorts by time.
    pub fn compact(self) -> String {
        let format = format_description!("[year][month][day]T[hour][minute][second]Z");
        self.0
            .format(format)
            .unwrap_or_else(|_| self.unix_seconds().to_string())
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        );
        match self.0.format(format) {
            Ok(text) => f.write_str(&text),
            Err(_) => Err(fmt::Error),
        }
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Timestamp::parse(&raw).map_err(|error| {
            serde::de::Error::custom(format!("not an ISO-8601 timestamp ({raw:?}): {error}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::javascript_iso("2026-10-02T09:12:00.000Z", "2026-10-02T09:12:00.000Z")]
    #[case::offset_is_normalised("2026-11-21T19:40:12+01:00", "2026-11-21T18:40:12.000Z")]
    #[case::no_fraction("2026-11-21T18:40:12Z", "2026-11-21T18:40:12.000Z")]
    fn writes_javascript_iso_in_utc(#[case] raw: &str, #[case] written: &str) {
        assert_eq!(Timestamp::parse(raw).unwrap().to_string(), written);
    }

    #[rstest]
    #[case::date_only("2026-10-02")]
    #[case::garbage("yesterday")]
    fn refuses_what_is_not_rfc3339(#[case] raw: &str) {
        assert!(Timestamp::parse(raw).is_err());
    }

    #[test]
    fn human_and_compact_forms() {
        let at = Timestamp::parse("2026-11-21T18:40:12Z").unwrap();
        assert_eq!(at.human(), "2026-11-21 18:40 UTC");
        assert_eq!(at.compact(), "20261121T184012Z");
    }
}
