//! Instants as the seed stores them: ISO-8601 in UTC with milliseconds, the shape JavaScript's
//! `Date.toISOString()` writes, so seeds written by the TypeScript tool round-trip unchanged.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

/// A point in time, always normalised to UTC and to whole milliseconds: the precision the
/// seed stores, so that what is written reads back as the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(OffsetDateTime);

impl Timestamp {
    /// Wraps an instant, converting it to UTC and dropping what is finer than a millisecond.
    pub fn new(at: OffsetDateTime) -> Self {
        let utc = at.to_offset(UtcOffset::UTC);
        Self(
            utc.replace_nanosecond(utc.millisecond() as u32 * 1_000_000)
                .unwrap_or(utc),
        )
    }

    /// Parses RFC 3339 (`2026-10-02T09:12:00.000Z`, `2026-11-21T18:40:12+00:00`).
    pub fn parse(raw: &str) -> Result<Self, time::error::Parse> {
        if let Some(fast) = parse_javascript_iso(raw) {
            return Ok(fast);
        }
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

    /// `2026-11-21T18:40:12+00:00`: RFC 3339 to the second, as handoff files carry it.
    pub fn rfc3339_seconds(self) -> String {
        let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]+00:00");
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

/// The shape every seed writer uses, `YYYY-MM-DDTHH:MM:SS.mmmZ`, read without the general
/// RFC 3339 machinery: a seed holds two timestamps per learning. Anything else (or an
/// impossible date) returns `None` and goes the general way.
fn parse_javascript_iso(raw: &str) -> Option<Timestamp> {
    let b = raw.as_bytes();
    if b.len() != 24
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'.'
        || b[23] != b'Z'
    {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |acc, d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let year = i32::try_from(number(0..4)?).ok()?;
    let month = time::Month::try_from(u8::try_from(number(5..7)?).ok()?).ok()?;
    let date =
        time::Date::from_calendar_date(year, month, u8::try_from(number(8..10)?).ok()?).ok()?;
    let clock = time::Time::from_hms_milli(
        u8::try_from(number(11..13)?).ok()?,
        u8::try_from(number(14..16)?).ok()?,
        u8::try_from(number(17..19)?).ok()?,
        u16::try_from(number(20..23)?).ok()?,
    )
    .ok()?;
    Some(Timestamp(
        time::PrimitiveDateTime::new(date, clock).assume_utc(),
    ))
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
        struct TimestampVisitor;
        impl serde::de::Visitor<'_> for TimestampVisitor {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an ISO-8601 timestamp")
            }
            // Borrowed or not, the text is only looked at, never kept: no allocation.
            fn visit_str<E: serde::de::Error>(self, raw: &str) -> Result<Timestamp, E> {
                Timestamp::parse(raw).map_err(|error| {
                    E::custom(format!("not an ISO-8601 timestamp ({raw:?}): {error}"))
                })
            }
        }
        deserializer.deserialize_str(TimestampVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::finer_than_a_millisecond("2026-10-02T09:30:00.0001Z", "2026-10-02T09:30:00.000Z")]
    #[case::microseconds("2026-10-02T09:30:00.123456+02:00", "2026-10-02T07:30:00.123Z")]
    fn reads_back_what_it_writes(#[case] raw: &str, #[case] written: &str) {
        let parsed = Timestamp::parse(raw).unwrap();
        assert_eq!(parsed.to_string(), written);
        assert_eq!(Timestamp::parse(&parsed.to_string()).unwrap(), parsed);
    }
    use rstest::rstest;

    #[rstest]
    #[case::javascript_iso("2026-10-02T09:12:00.000Z", "2026-10-02T09:12:00.000Z")]
    #[case::offset_is_normalised("2026-11-21T19:40:12+01:00", "2026-11-21T18:40:12.000Z")]
    #[case::no_fraction("2026-11-21T18:40:12Z", "2026-11-21T18:40:12.000Z")]
    fn writes_javascript_iso_in_utc(#[case] raw: &str, #[case] written: &str) {
        assert_eq!(Timestamp::parse(raw).unwrap().to_string(), written);
    }

    #[rstest]
    #[case::leap_day("2028-02-29T23:59:59.999Z")]
    #[case::epoch("1970-01-01T00:00:00.000Z")]
    fn the_fast_path_agrees_with_rfc3339(#[case] raw: &str) {
        let general = OffsetDateTime::parse(raw, &Rfc3339)
            .map(Timestamp::new)
            .unwrap();
        assert_eq!(parse_javascript_iso(raw), Some(general));
    }

    #[rstest]
    #[case::impossible_date("2026-02-30T00:00:00.000Z")]
    #[case::bad_hour("2026-01-01T25:00:00.000Z")]
    #[case::letters("2026-0a-01T00:00:00.000Z")]
    fn the_fast_path_refuses_what_is_not_a_time(#[case] raw: &str) {
        assert!(Timestamp::parse(raw).is_err());
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
