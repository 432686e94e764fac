//! Reading a handoff file leniently: missing sections are fine, broken front matter is
//! reported and the body still used.

use crate::domain::front_matter::{FrontMatterError, FrontValue, parse_front_matter};
use crate::domain::seed::Timestamp;

/// A handoff as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedHandoff {
    /// `session_id` from the front matter.
    pub session_id: Option<String>,
    /// `timestamp` from the front matter.
    pub timestamp: Option<Timestamp>,
    /// `duration_turns` from the front matter.
    pub duration_turns: Option<u64>,
    /// `branch` from the front matter (absent in older handoffs).
    pub branch: Option<String>,
    /// `substantive` from the front matter (absent in older handoffs).
    pub substantive: Option<bool>,
    /// `files_changed` from the front matter.
    pub files_changed: Vec<String>,
    /// `## heading` sections with their non-empty lines, in file order.
    pub sections: Vec<(String, Vec<String>)>,
    /// A problem worth a warning (malformed front matter), when there was one.
    pub warning: Option<String>,
}

/// Why a handoff file is not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnusableHandoff {
    /// Nothing but whitespace (or front matter only).
    #[error("the handoff is empty")]
    Empty,
}

/// Reads `text`.
pub fn read_handoff(text: &str) -> Result<ParsedHandoff, UnusableHandoff> {
    let (front, body, warning) = match parse_front_matter(text) {
        Ok(front) => (Some(front.fields), front.body, None),
        Err(FrontMatterError::Missing) => (None, text, None),
        Err(error) => (
            None,
            strip_broken_front_matter(text),
            Some(format!("malformed front matter ({error}); using the body")),
        ),
    };
    let scalar = |key: &str| {
        front
            .as_ref()
            .and_then(|fields| fields.iter().find(|(k, _)| k == key))
            .and_then(|(_, v)| v.as_scalar())
            .map(str::to_owned)
    };
    let files_changed = front
        .as_ref()
        .and_then(|fields| fields.iter().find(|(k, _)| k == "files_changed"))
        .map(|(_, value)| match value {
            FrontValue::List(items) => items.clone(),
            FrontValue::Scalar(item) if !item.is_empty() => vec![item.clone()],
            FrontValue::Scalar(_) => Vec::new(),
        })
        .unwrap_or_default();
    let sections = sections(body);
    if sections.iter().all(|(_, lines)| lines.is_empty()) {
        return Err(UnusableHandoff::Empty);
    }
    Ok(ParsedHandoff {
        session_id: scalar("session_id").filter(|s| !s.is_empty()),
        timestamp: scalar("timestamp").and_then(|t| Timestamp::parse(&t).ok()),
        duration_turns: scalar("duration_turns").and_then(|t| t.parse().ok()),
        branch: scalar("branch").filter(|b| !b.is_empty()),
        substantive: scalar("substantive").and_then(|t| t.parse().ok()),
        files_changed,
        sections,
        warning,
    })
}

/// When front matter is broken, the body starts after the last `---` line near the top, or is
/// the whole text.
fn strip_broken_front_matter(text: &str) -> &str {
    let mut offset = 0;
    let mut body_start = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        if index > 0 && line.trim_end() == "---" {
            body_start = offset;
            break;
        }
        if index > 60 {
            break;
        }
    }
    &text[body_start..]
}

fn sections(body: &str) -> Vec<(String, Vec<String>)> {
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim_end();
        if let Some(heading) = trimmed.strip_prefix("## ") {
            sections.push((heading.trim().to_owned(), Vec::new()));
            continue;
        }
        if trimmed.trim().is_empty() || trimmed.starts_with("# ") {
            continue;
        }
        match sections.last_mut() {
            Some((_, lines)) => lines.push(trimmed.to_owned()),
            None => sections.push((String::new(), vec![trimmed.to_owned()])),
        }
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fixture() {
        let parsed =
            read_handoff(include_str!("../../../tests/fixtures/handoff/handoff.md")).unwrap();
        assert_eq!(
            parsed.session_id.as_deref(),
            Some("81b8f225-6c82-470b-98cc-ec96494e08b9")
        );
        assert_eq!(
            parsed.timestamp.unwrap().to_string(),
            "2026-11-21T18:40:12.000Z"
        );
        assert_eq!(parsed.duration_turns, Some(14));
        assert_eq!(parsed.files_changed.len(), 2);
        let headings: Vec<&str> = parsed.sections.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(
            headings,
            vec![
                "What Was Accomplished",
                "What's In Progress",
                "Key Decisions Made",
                "Suggested Next Steps"
            ]
        );
        assert_eq!(
            parsed.sections[3].1,
            vec![
                "- Stub the payment sandbox in the timeout test.",
                "- Document the retry policy in README."
            ]
        );
        assert_eq!(parsed.warning, None);
    }

    #[test]
    fn malformed_front_matter_keeps_the_body_and_warns() {
        let parsed = read_handoff(
            "---\nsession_id: [unclosed\n  nested: x\n---\n## What's In Progress\n- tests\n",
        )
        .unwrap();
        assert!(parsed.warning.is_some());
        assert_eq!(
            parsed.sections,
            vec![("What's In Progress".to_owned(), vec!["- tests".to_owned()])]
        );
    }

    #[test]
    fn missing_sections_and_no_front_matter_are_fine() {
        let parsed = read_handoff("Just some notes\n- item").unwrap();
        assert_eq!(
            parsed.sections,
            vec![(
                String::new(),
                vec!["Just some notes".to_owned(), "- item".to_owned()]
            )]
        );
        assert_eq!(parsed.session_id, None);
    }

    #[test]
    fn an_empty_handoff_is_unusable() {
        assert_eq!(read_handoff("  \n"), Err(UnusableHandoff::Empty));
        assert_eq!(
            read_handoff("---\nsession_id: x\n---\n\n## What Was Accomplished\n\n"),
            Err(UnusableHandoff::Empty)
        );
    }
}
