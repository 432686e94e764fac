//! Reading and writing the seed's JSON text: syntax, shape, version and rules, in that order.

use serde::Deserialize;

use super::version::{SUPPORTED_MAJOR, SUPPORTED_MINOR};
use super::{FormatVersion, Seed, ValidationIssue, validate};

/// Why a text is not a seed this carryover can use.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SeedDecodeError {
    /// Not JSON at all (truncated, edited by hand…).
    #[error("not valid JSON at line {line}, column {column}: {reason}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's words.
        reason: String,
    },
    /// JSON, but a field has the wrong type or is missing.
    #[error("{path}: {reason}")]
    Shape {
        /// `$`-rooted JSON path of the field.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well-shaped, but breaks the seed's rules.
    #[error("{}", join_issues(.0))]
    Invalid(Vec<ValidationIssue>),
    /// Written by another major version of the format; must be left alone.
    #[error("seed version {found} is not supported (this carryover reads 1.x)")]
    UnsupportedVersion {
        /// The version the file declares.
        found: String,
    },
    /// Written by a newer minor version, with something this version cannot read: it is not
    /// damage, so it is neither repaired nor written over.
    #[error(
        "seed version {found} is newer than this carryover (1.{SUPPORTED_MINOR}) and holds what it cannot read ({problem}); update carryover"
    )]
    NewerMinor {
        /// The version the file declares.
        found: String,
        /// What could not be read.
        problem: String,
    },
}

impl SeedDecodeError {
    /// True when the text is damaged (as opposed to simply newer than this carryover).
    pub fn is_corruption(&self) -> bool {
        !matches!(
            self,
            Self::UnsupportedVersion { .. } | Self::NewerMinor { .. }
        )
    }

    /// The same error, unless the text declares a newer minor version: then it is not damage.
    fn unless_newer(self, text: &str) -> Self {
        let declared = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_owned));
        match declared.as_deref().and_then(FormatVersion::parse) {
            Some(version)
                if version.major == SUPPORTED_MAJOR && version.minor > SUPPORTED_MINOR =>
            {
                Self::NewerMinor {
                    found: declared.unwrap_or_default(),
                    problem: self.to_string(),
                }
            }
            _ => self,
        }
    }
}

fn join_issues(issues: &[ValidationIssue]) -> String {
    issues
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Parses and checks a seed. The plain typed parse runs first because it is the common case
/// and the cheapest; only when it fails is the text parsed again with path tracking, to name
/// the field, and the declared version consulted, so that a seed of another major version is
/// reported as such rather than as corrupt.
pub fn decode_seed(text: &str) -> Result<Seed, SeedDecodeError> {
    let seed = match serde_json::from_str::<Seed>(text) {
        Ok(seed) => seed,
        Err(_) => return Err(explain_failure(text).unless_newer(text)),
    };
    if FormatVersion::major_of(&seed.version).is_some_and(|major| major != 1) {
        return Err(SeedDecodeError::UnsupportedVersion {
            found: seed.version,
        });
    }
    let mut issues = validate(&seed);
    if FormatVersion::parse(&seed.version).is_some_and(|v| v.minor > SUPPORTED_MINOR) {
        // A newer minor's values this version does not know are kept as they are.
        issues.retain(|issue| !issue.is_unknown_value());
    }
    if issues.is_empty() {
        Ok(seed)
    } else {
        Err(SeedDecodeError::Invalid(issues).unless_newer(text))
    }
}

/// Pretty JSON with two-space indents and a final newline: diffs well under git.
pub fn encode_seed(seed: &Seed) -> String {
    let mut text = serde_json::to_string_pretty(seed).unwrap_or_else(|_| unreachable_encoding());
    text.push('\n');
    text
}

// The model holds only strings, numbers, bools and maps with string keys, so serde_json cannot
// fail on it; a panic here would be a bug in the model, not a runtime condition.
fn unreachable_encoding() -> String {
    unreachable!("a Seed always serialises to JSON")
}

fn explain_failure(text: &str) -> SeedDecodeError {
    if let Some(found) = declared_unsupported_version(text) {
        return SeedDecodeError::UnsupportedVersion { found };
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let error = match serde_path_to_error::deserialize::<_, Seed>(&mut deserializer) {
        Err(error) => error,
        Ok(_) => match deserializer.end() {
            Err(error) => {
                return SeedDecodeError::Syntax {
                    line: error.line(),
                    column: error.column(),
                    reason: strip_position(&error),
                };
            }
            Ok(()) => unreachable!("the plain parse of the same text failed"),
        },
    };
    shape_or_syntax(error)
}

fn declared_unsupported_version(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct VersionOnly {
        version: serde_json::Value,
    }
    let declared = serde_json::from_str::<VersionOnly>(text).ok()?.version;
    let found = match declared {
        serde_json::Value::String(found) => found,
        other => other.to_string(),
    };
    match FormatVersion::major_of(&found) {
        Some(1) => None,
        Some(_) => Some(found),
        None => None,
    }
}

fn shape_or_syntax(error: serde_path_to_error::Error<serde_json::Error>) -> SeedDecodeError {
    let path = json_path(error.path());
    let inner = error.into_inner();
    if inner.is_data() {
        SeedDecodeError::Shape {
            path,
            reason: strip_position(&inner),
        }
    } else {
        SeedDecodeError::Syntax {
            line: inner.line(),
            column: inner.column(),
            reason: strip_position(&inner),
        }
    }
}

fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::from("$");
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                out.push('.');
                out.push_str(key);
            }
            Segment::Enum { variant } => {
                out.push('.');
                out.push_str(variant);
            }
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const EXAMPLE: &str = include_str!("../../../tests/fixtures/seed/seed.json");

    #[test]
    fn reads_the_example_seed() {
        let seed = decode_seed(EXAMPLE).unwrap();
        assert_eq!(seed.identity.ai_name, "Juno");
        assert_eq!(seed.learned.len(), 12);
        assert_eq!(seed.pending_proposals().count(), 3);
    }

    #[test]
    fn write_then_read_is_the_identity() {
        let seed = decode_seed(EXAMPLE).unwrap();
        assert_eq!(decode_seed(&encode_seed(&seed)).unwrap(), seed);
    }

    #[test]
    fn keeps_unknown_keys_at_every_level() {
        let text = EXAMPLE
            .replacen(
                "\"version\": \"1.0.0\",",
                "\"version\": \"1.0.0\", \"plugin\": {\"a\": 1},",
                1,
            )
            .replacen(
                "\"voiceId\": \"default\",",
                "\"voiceId\": \"default\", \"mood\": \"calm\",",
                1,
            )
            .replacen(
                "\"tags\": [\"rust\", \"errors\"]",
                "\"tags\": [\"rust\", \"errors\"], \"weight\": 3",
                1,
            );
        let written = encode_seed(&decode_seed(&text).unwrap());
        for kept in ["\"plugin\"", "\"mood\": \"calm\"", "\"weight\": 3"] {
            assert!(written.contains(kept), "{kept} lost in:\n{written}");
        }
    }

    #[test]
    fn a_truncated_seed_is_a_syntax_error_with_its_line() {
        let text = include_str!("../../../tests/fixtures/seed/seed-truncated.json");
        let error = decode_seed(text).unwrap_err();
        assert!(
            matches!(error, SeedDecodeError::Syntax { line: 1, .. }),
            "{error:?}"
        );
        assert!(error.is_corruption());
    }

    #[test]
    fn a_newer_minor_keeps_values_it_does_not_know_and_is_never_called_corrupt() {
        let text = include_str!("../../../tests/fixtures/seed/seed.json")
            .replacen("\"version\": \"1.0.0\"", "\"version\": \"1.1.0\"", 1)
            .replace(
                "\"responseStyle\": \"concise\"",
                "\"responseStyle\": \"terse\"",
            );
        let seed = decode_seed(&text).unwrap();
        assert_eq!(seed.identity.preferences.response_style.as_str(), "terse");
        assert!(encode_seed(&seed).contains("\"responseStyle\": \"terse\""));
        let unreadable = text.replacen("\"patterns\": [", "\"patterns\": 7, \"older\": [", 1);
        let error = decode_seed(&unreadable).unwrap_err();
        assert!(
            matches!(error, SeedDecodeError::NewerMinor { .. }),
            "{error}"
        );
        assert!(
            !error.is_corruption(),
            "a newer seed is never repaired over"
        );
    }

    #[rstest]
    #[case::declared_by_a_full_seed(include_str!("../../../tests/fixtures/seed/seed-wrong-major.json"), "2.0.0")]
    #[case::declared_by_a_seed_of_another_shape(r#"{"version": "3.1.0", "who": {}}"#, "3.1.0")]
    fn refuses_other_major_versions(#[case] text: &str, #[case] found: &str) {
        let error = decode_seed(text).unwrap_err();
        assert_eq!(
            error,
            SeedDecodeError::UnsupportedVersion {
                found: found.into()
            }
        );
        assert!(!error.is_corruption());
    }

    #[rstest]
    #[case::wrong_type(r#""aiName": 7"#, "$.identity.aiName", "invalid type")]
    #[case::unknown_style(
        r#""aiName": "J", "preferences": {"responseStyle": "loud"}"#,
        "$.identity.preferences.responseStyle",
        "unknown variant"
    )]
    fn names_the_path_of_a_badly_shaped_field(
        #[case] identity_fields: &str,
        #[case] path: &str,
        #[case] reason: &str,
    ) {
        let text = format!(
            r#"{{"version": "1.0.0", "identity": {{"principalName": "M", {identity_fields}}}}}"#
        );
        match decode_seed(&text).unwrap_err() {
            SeedDecodeError::Shape {
                path: found,
                reason: why,
            } => {
                assert_eq!(found, path);
                assert!(why.contains(reason), "{why}");
            }
            // An unknown value is read, then refused by the rules of the version it claims.
            SeedDecodeError::Invalid(issues) => {
                assert_eq!(issues[0].path, path);
                assert!(issues[0].message.contains(reason), "{issues:?}");
            }
            other => panic!("expected a shape error, got {other:?}"),
        }
    }

    #[test]
    fn a_rule_violation_reports_every_path() {
        let text = r#"{"version": "1.0.0", "identity": {"principalName": "", "aiName": ""}}"#;
        assert_eq!(
            decode_seed(text).unwrap_err().to_string(),
            "$.identity.principalName: must not be empty; $.identity.aiName: must not be empty"
        );
    }

    #[test]
    fn missing_sections_take_their_defaults() {
        let seed = decode_seed(
            r#"{"version": "1.0.0", "identity": {"principalName": "M", "aiName": "J"}}"#,
        )
        .unwrap();
        assert!(seed.learned.is_empty());
        assert_eq!(seed.identity.preferences.timezone, "UTC");
    }

    mod round_trip {
        use super::super::*;
        use crate::domain::seed::{Learning, LearningKind, Proposal, ProposalStatus, Timestamp};
        use proptest::prelude::*;

        fn text() -> impl Strategy<Value = String> {
            "[^\\x00-\\x1f]{1,60}".prop_filter("not blank", |t| !t.trim().is_empty())
        }

        prop_compose! {
            fn valid_seed()(
                ai in text(),
                principal in text(),
                learnings in proptest::collection::vec((0usize..3, text(), proptest::option::of(0i64..10_000_000)), 0..12),
                proposals in proptest::collection::vec((text(), proptest::option::of(0.0f64..=1.0)), 0..6),
            ) -> Seed {
                let mut seed = Seed::default();
                seed.identity.ai_name = ai;
                seed.identity.principal_name = principal;
                let at = |seconds: i64| Timestamp::new(
                    time::OffsetDateTime::from_unix_timestamp(1_700_000_000 + seconds).unwrap(),
                );
                for (n, (kind, content, confirmed)) in learnings.into_iter().enumerate() {
                    let kind = LearningKind::ALL[kind];
                    let learning = Learning {
                        id: format!("{}{n}", kind.id_prefix()),
                        content,
                        source: "test".into(),
                        extracted_at: at(0),
                        confirmed_at: confirmed.map(at),
                        confirmed: confirmed.is_some(),
                        tags: vec!["t".into()],
                        project: None,
                        pinned: false,
                        extra: Default::default(),
                    };
                    match kind {
                        LearningKind::Pattern => seed.learned.patterns.push(learning),
                        LearningKind::Insight => seed.learned.insights.push(learning),
                        LearningKind::SelfKnowledge => seed.learned.self_knowledge.push(learning),
                    }
                }
                for (n, (content, confidence)) in proposals.into_iter().enumerate() {
                    seed.state.proposals.push(Proposal {
                        id: format!("prp_{n}"),
                        kind: LearningKind::Insight,
                        content,
                        source: "s1".into(),
                        extracted_at: at(5),
                        status: ProposalStatus::Pending,
                        method: Some("rules".into()),
                        confidence,
                        decided_at: None,
                        project: None,
                        extra: Default::default(),
                    });
                }
                seed
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Writing a valid seed and reading it back gives the same seed.
            #[test]
            fn write_then_read_is_the_identity(seed in valid_seed()) {
                prop_assert_eq!(decode_seed(&encode_seed(&seed)).unwrap(), seed);
            }
        }
    }
}
