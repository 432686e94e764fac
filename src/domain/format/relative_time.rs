//! `3 hours ago`: how long since an instant, for people.

use crate::domain::seed::Timestamp;

/// How long before `now` the instant `then` was, in the largest whole unit.
pub fn relative_time(then: Timestamp, now: Timestamp) -> String {
    let seconds = now.unix_seconds() - then.unix_seconds();
    if seconds < 0 {
        return "in the future".to_owned();
    }
    let (count, unit) = match seconds {
        0..60 => return "just now".to_owned(),
        60..3_600 => (seconds / 60, "minute"),
        3_600..86_400 => (seconds / 3_600, "hour"),
        86_400..2_592_000 => (seconds / 86_400, "day"),
        2_592_000..31_536_000 => (seconds / 2_592_000, "month"),
        _ => (seconds / 31_536_000, "year"),
    };
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {unit}{plural} ago")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::same_instant(0, "just now")]
    #[case::under_a_minute(59, "just now")]
    #[case::one_minute(60, "1 minute ago")]
    #[case::hours(3 * 3_600 + 5, "3 hours ago")]
    #[case::one_day(86_400, "1 day ago")]
    #[case::months(70 * 86_400, "2 months ago")]
    #[case::years(800 * 86_400, "2 years ago")]
    #[case::clock_skew(-5, "in the future")]
    fn picks_the_largest_whole_unit(#[case] seconds_before: i64, #[case] text: &str) {
        let now = Timestamp::parse("2026-11-22T12:00:00Z").unwrap();
        let then = Timestamp::new(now.instant() - time::Duration::seconds(seconds_before));
        assert_eq!(relative_time(then, now), text);
    }
}
