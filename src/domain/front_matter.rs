//! YAML front matter (`---` … `---`) in the small subset handoffs and templates use: scalars,
//! inline lists `[a, b]` and block lists (`- item`). Anything else is an error, never a panic.

/// A front-matter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontValue {
    /// A scalar, unquoted.
    Scalar(String),
    /// A list of scalars.
    List(Vec<String>),
}

impl FrontValue {
    /// The scalar, if it is one.
    pub fn as_scalar(&self) -> Option<&str> {
        match self {
            Self::Scalar(value) => Some(value),
            Self::List(_) => None,
        }
    }
}

/// The parsed fields in file order, and the body after the closing `---`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatter<'a> {
    /// `key: value` pairs.
    pub fields: Vec<(String, FrontValue)>,
    /// Everything after the front matter.
    pub body: &'a str,
}

impl FrontMatter<'_> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&FrontValue> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Why front matter could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrontMatterError {
    /// The text does not start with `---`.
    #[error("no front matter")]
    Missing,
    /// The opening `---` has no closing one.
    #[error("front matter is not closed by a `---` line")]
    Unclosed,
    /// A line is not `key: value` or a list item.
    #[error("front matter line {line}: {reason}")]
    Malformed {
        /// 1-based line within the front matter.
        line: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

/// Splits and parses the front matter of `text`.
pub fn parse_front_matter(text: &str) -> Result<FrontMatter<'_>, FrontMatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or(FrontMatterError::Missing)?;
    let (block, body) = split_closing(rest).ok_or(FrontMatterError::Unclosed)?;
    let mut fields: Vec<(String, FrontValue)> = Vec::new();
    for (index, raw) in block.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let malformed = |reason| FrontMatterError::Malformed {
            line: index + 1,
            reason,
        };
        if let Some(item) = line
            .trim_start()
            .strip_prefix("- ")
            .or_else(|| (line.trim() == "-").then_some(""))
        {
            match fields.last_mut() {
                Some((_, FrontValue::List(items))) => items.push(unquote(item.trim())),
                Some((_, value @ FrontValue::Scalar(_))) if value.as_scalar() == Some("") => {
                    *value = FrontValue::List(vec![unquote(item.trim())]);
                }
                _ => return Err(malformed("a list item without a key")),
            }
            continue;
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            return Err(malformed("nested values are not supported"));
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| malformed("expected `key: value`"))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(malformed("empty key"));
        }
        let value = value.trim();
        let value = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            Some(inner) => FrontValue::List(
                inner
                    .split(',')
                    .map(|item| unquote(item.trim()))
                    .filter(|item| !item.is_empty())
                    .collect(),
            ),
            None => FrontValue::Scalar(unquote(value)),
        };
        fields.push((key.to_owned(), value));
    }
    Ok(FrontMatter { fields, body })
}

fn split_closing(rest: &str) -> Option<(&str, &str)> {
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

fn unquote(value: &str) -> String {
    let stripped = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')));
    stripped.unwrap_or(value).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn reads_the_handoff_fixture() {
        let text = include_str!("../../tests/fixtures/handoff/handoff.md");
        let parsed = parse_front_matter(text).unwrap();
        assert_eq!(
            parsed.get("session_id").and_then(FrontValue::as_scalar),
            Some("81b8f225-6c82-470b-98cc-ec96494e08b9")
        );
        assert_eq!(
            parsed.get("duration_turns").and_then(FrontValue::as_scalar),
            Some("14")
        );
        assert_eq!(
            parsed.get("files_changed"),
            Some(&FrontValue::List(vec![
                "src/fetcher/retry.rs".into(),
                "tests/fetcher_timeouts.rs".into()
            ]))
        );
        assert!(
            parsed
                .body
                .trim_start()
                .starts_with("## What Was Accomplished")
        );
    }

    #[test]
    fn reads_the_startup_template_fixture() {
        let parsed =
            parse_front_matter(include_str!("../../tests/fixtures/startup/_startup.md")).unwrap();
        assert_eq!(
            parsed.get("type").and_then(FrontValue::as_scalar),
            Some("agent/instruction")
        );
        assert_eq!(
            parsed
                .get("requires-startup-instruction")
                .and_then(FrontValue::as_scalar),
            Some("true")
        );
    }

    #[rstest]
    #[case::inline_list("tags: [a, 'b', \"c\"]", FrontValue::List(vec!["a".into(), "b".into(), "c".into()]))]
    #[case::quoted_scalar("name: \"x: y\"", FrontValue::Scalar("x: y".into()))]
    #[case::empty_scalar("name:", FrontValue::Scalar(String::new()))]
    fn reads_values(#[case] line: &str, #[case] value: FrontValue) {
        let text = format!("---\n{line}\n---\nbody");
        let parsed = parse_front_matter(&text).unwrap();
        assert_eq!(parsed.fields[0].1, value);
        assert_eq!(parsed.body, "body");
    }

    #[rstest]
    #[case::no_front_matter("# title", FrontMatterError::Missing)]
    #[case::unclosed("---\na: b\n", FrontMatterError::Unclosed)]
    #[case::orphan_item("---\n- x\n---\n", FrontMatterError::Malformed { line: 1, reason: "a list item without a key" })]
    #[case::nested("---\na:\n  b: c\n---\n", FrontMatterError::Malformed { line: 2, reason: "nested values are not supported" })]
    #[case::no_colon("---\njust words\n---\n", FrontMatterError::Malformed { line: 1, reason: "expected `key: value`" })]
    fn reports_what_it_cannot_read(#[case] text: &str, #[case] error: FrontMatterError) {
        assert_eq!(parse_front_matter(text).unwrap_err(), error);
    }
}
