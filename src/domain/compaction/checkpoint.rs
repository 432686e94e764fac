//! The checkpoint file pre-compact writes: the figures, then the resumption summary.

use crate::domain::seed::Timestamp;

use super::{Fill, Tier};

const SUMMARY_HEADING: &str = "## Resumption summary";

/// What a checkpoint records.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint<'a> {
    /// The compacted session.
    pub session_id: Option<&'a str>,
    /// When it was written.
    pub recorded_at: Timestamp,
    /// `manual` or `auto`.
    pub trigger: Option<&'a str>,
    /// Instructions given to `/compact`.
    pub instructions: Option<&'a str>,
    /// Tokens, window, fill and tier, when the transcript told.
    pub figures: Option<(u64, u64, Fill, Tier)>,
    /// The model, when known.
    pub model: Option<&'a str>,
    /// The resumption summary's lines.
    pub summary: &'a [String],
}

impl Checkpoint<'_> {
    /// The Markdown document.
    pub fn render(&self) -> String {
        let mut out = String::from("# carryover checkpoint\n\n");
        out.push_str(&format!(
            "- session: {}\n",
            self.session_id.unwrap_or("unknown")
        ));
        out.push_str(&format!("- recorded: {}\n", self.recorded_at));
        if let Some(trigger) = self.trigger {
            out.push_str(&format!("- trigger: {trigger}\n"));
        }
        match self.figures {
            Some((tokens, window, fill, tier)) => out.push_str(&format!(
                "- context: {tokens} of {window} tokens ({} fill, {tier} tier)\n",
                fill.percent()
            )),
            None => out.push_str("- context: unknown (no usage in the transcript)\n"),
        }
        if let Some(model) = self.model {
            out.push_str(&format!("- model: {model}\n"));
        }
        if let Some(instructions) = self.instructions.filter(|i| !i.trim().is_empty()) {
            let instructions = crate::domain::redaction::redact(instructions.trim());
            out.push_str(&format!(
                "- compact instructions: {}\n",
                instructions.replace('\n', " ")
            ));
        }
        out.push_str(&format!("\n{SUMMARY_HEADING}\n\n"));
        if self.summary.is_empty() {
            out.push_str("Nothing to summarise was found in the transcript.\n");
        }
        for line in self.summary {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// The resumption summary's lines of a checkpoint document (empty when it has none).
pub fn checkpoint_summary(document: &str) -> Vec<String> {
    let Some((_, summary)) = document.split_once(SUMMARY_HEADING) else {
        return Vec::new();
    };
    summary
        .lines()
        .filter(|line| !line.trim().is_empty())
        .filter(|line| !line.starts_with("Nothing to summarise"))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_instructions_are_redacted() {
        let text = Checkpoint {
            session_id: None,
            recorded_at: Timestamp::parse("2026-11-22T10:00:00Z").unwrap(),
            trigger: Some("manual"),
            instructions: Some("keep DB_PASSWORD=Zq8!vX2k in mind"),
            figures: None,
            model: None,
            summary: &[],
        }
        .render();
        assert!(
            text.contains("DB_PASSWORD=[REDACTED]") && !text.contains("Zq8!"),
            "{text}"
        );
    }

    #[test]
    fn the_summary_survives_a_round_trip() {
        let summary = vec!["Last requests:".to_owned(), "  - add retries".to_owned()];
        let document = Checkpoint {
            session_id: Some("s1"),
            recorded_at: Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
            trigger: Some("manual"),
            instructions: Some("keep the plan"),
            figures: Some((171_203, 200_000, Fill::of(171_203, 200_000), Tier::Critical)),
            model: Some("m"),
            summary: &summary,
        }
        .render();
        assert!(document.contains("- context: 171203 of 200000 tokens (86% fill, CRITICAL tier)"));
        assert!(document.contains("- compact instructions: keep the plan"));
        assert_eq!(checkpoint_summary(&document), summary);
    }

    #[test]
    fn a_document_without_a_summary_gives_none() {
        assert!(checkpoint_summary("# something else").is_empty());
    }
}
