//! Reading and writing a settings file's text: JSON (with comments where the agent allows
//! them) in, the file's own indentation out.

use serde::Serialize;
use serde_json::Value;

/// Why a settings file's text is not JSON carryover may rewrite.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not valid JSON at line {line}, column {column}: {reason}")]
pub struct SettingsSyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The parser's words.
    pub reason: String,
}

/// How an agent reads its settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsDialect {
    /// Strict JSON.
    Json,
    /// JSON with `//` and `/* */` comments, which the agent strips before parsing (Gemini CLI
    /// reads its settings through `strip-json-comments`); trailing commas are still errors.
    JsonWithComments,
}

/// Parses a settings file as `dialect`; an empty (or blank) file is an empty object, as the
/// agents treat it.
pub fn parse_settings(text: &str, dialect: SettingsDialect) -> Result<Value, SettingsSyntaxError> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    if dialect == SettingsDialect::JsonWithComments {
        return parse_with_comments(text);
    }
    serde_json::from_str(text).map_err(|error| {
        let place = format!(" at line {} column {}", error.line(), error.column());
        let reason = error.to_string();
        SettingsSyntaxError {
            line: error.line(),
            column: error.column(),
            reason: reason.strip_suffix(&place).unwrap_or(&reason).to_owned(),
        }
    })
}

/// JSON with comments, and nothing else that strict JSON refuses.
fn parse_with_comments(text: &str) -> Result<Value, SettingsSyntaxError> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_serde_value(text, &options).map_err(|error| SettingsSyntaxError {
        line: error.line_display(),
        column: error.column_display(),
        reason: error.kind().to_string(),
    })
}

/// Pretty JSON with a final newline, indented as `previous` was (two spaces when it has no
/// indented line), with the user's numbers spelled as they wrote them, so that a diff shows
/// only what changed.
pub fn encode_settings(settings: &Value, previous: Option<&str>) -> String {
    let indent = previous
        .and_then(indentation)
        .unwrap_or_else(|| "  ".to_owned());
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    settings
        .serialize(&mut serializer)
        .expect("a JSON value always serialises");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    text.push('\n');
    match previous {
        Some(previous) => restore_numbers(&text, previous),
        None => text,
    }
}

/// `encoded` with each number that `previous` spelled differently (`1e2`, which the parser
/// keeps as `1e+2`) spelled as `previous` did. Numbers keep their digits (the parser keeps
/// them exactly); only the spelling of an exponent changes.
fn restore_numbers(encoded: &str, previous: &str) -> String {
    let mut spelled: std::collections::HashMap<String, &str> = Default::default();
    for (start, end) in number_tokens(previous) {
        let original = &previous[start..end];
        if let Ok(number) = serde_json::from_str::<serde_json::Number>(original) {
            let canonical = number.to_string();
            if canonical != original {
                spelled.entry(canonical).or_insert(original);
            }
        }
    }
    if spelled.is_empty() {
        return encoded.to_owned();
    }
    let mut out = String::with_capacity(encoded.len());
    let mut last = 0;
    for (start, end) in number_tokens(encoded) {
        if let Some(original) = spelled.get(&encoded[start..end]) {
            out.push_str(&encoded[last..start]);
            out.push_str(original);
            last = end;
        }
    }
    out.push_str(&encoded[last..]);
    out
}

/// Byte ranges of the number tokens of JSON text (outside strings).
fn number_tokens(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while at < bytes.len()
                    && matches!(bytes[at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    at += 1;
                }
                tokens.push((start, at));
            }
            _ => at += 1,
        }
    }
    tokens
}

/// The leading whitespace of the first indented line.
fn indentation(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let indent: String = line
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        (!indent.is_empty() && indent.len() < line.len()).then_some(indent)
    })
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn the_users_numbers_keep_their_spelling() {
        let previous = "{\n  \"big\": 123456789012345678901234567890,\n  \"exp\": 1e2,\n  \"neg\": -2.5E-3,\n  \"s\": \"1e2\"\n}\n";
        let value = parse_settings(previous, SettingsDialect::Json).unwrap();
        assert_eq!(encode_settings(&value, Some(previous)), previous);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use serde_json::json;

    #[rstest]
    #[case::empty("")]
    #[case::blank("  \n")]
    fn an_empty_file_is_an_empty_object(#[case] text: &str) {
        for dialect in [SettingsDialect::Json, SettingsDialect::JsonWithComments] {
            assert_eq!(parse_settings(text, dialect).unwrap(), json!({}));
        }
    }

    #[rstest]
    #[case::truncated("{\"hooks\": {", 1)]
    #[case::comment("{\n  // mine\n  \"a\": 1\n}", 2)]
    #[case::trailing_comma("{\"a\": 1,}", 1)]
    fn refuses_what_is_not_strict_json_with_its_place(#[case] text: &str, #[case] line: usize) {
        let error = parse_settings(text, SettingsDialect::Json).unwrap_err();
        assert_eq!(error.line, line);
        assert!(!error.reason.contains(" at line "), "said once: {error}");
    }

    #[rstest]
    #[case::line("{\n  // mine\n  \"a\": 1\n}")]
    #[case::block("{ /* mine */ \"a\": 1 }")]
    #[case::after_a_value("{\"a\": 1 // mine\n}")]
    fn reads_comments_where_the_agent_strips_them(#[case] text: &str) {
        let read = parse_settings(text, SettingsDialect::JsonWithComments).unwrap();
        assert_eq!(read, json!({"a": 1}));
    }

    #[rstest]
    #[case::trailing_comma("{\"a\": 1,}", 1, 8)]
    #[case::single_quotes("{\n  'a': 1\n}", 2, 3)]
    #[case::unterminated_comment("{\"a\": 1 /* mine", 1, 9)]
    fn with_comments_refuses_the_rest_of_what_strict_json_refuses(
        #[case] text: &str,
        #[case] line: usize,
        #[case] column: usize,
    ) {
        let error = parse_settings(text, SettingsDialect::JsonWithComments).unwrap_err();
        assert_eq!((error.line, error.column), (line, column), "{error}");
    }

    #[rstest]
    #[case::two_spaces(None, "{\n  \"a\": [\n    1\n  ]\n}\n")]
    #[case::four_spaces(Some("{\n    \"b\": 2\n}"), "{\n    \"a\": [\n        1\n    ]\n}\n")]
    #[case::tabs(Some("{\n\t\"b\": 2\n}"), "{\n\t\"a\": [\n\t\t1\n\t]\n}\n")]
    #[case::one_line(Some("{\"b\": 2}"), "{\n  \"a\": [\n    1\n  ]\n}\n")]
    fn keeps_the_files_indentation(#[case] previous: Option<&str>, #[case] expected: &str) {
        assert_eq!(encode_settings(&json!({"a": [1]}), previous), expected);
    }
}
