//! From a session's user messages to the candidates worth proposing: rules, redaction,
//! length limits, and one candidate per learning.

use std::collections::HashSet;

use super::{Candidate, classify_sentence, sentences, user_prose};
use crate::domain::redact::redact;

/// Candidates shorter than this say too little to stand alone.
pub const MIN_CHARS: usize = 20;
/// Candidates longer than this are paragraphs, not learnings.
pub const MAX_CHARS: usize = 200;

/// Every candidate in `messages` (the user's messages, oldest first), secrets redacted,
/// within [`MIN_CHARS`]..=[`MAX_CHARS`], each learning once (by [`normalised`] text), most
/// confident first and, among equals, newest first: a later message restates the user's
/// current view.
pub fn candidates_from(messages: &[String]) -> Vec<Candidate> {
    let mut found: Vec<(usize, Candidate)> = Vec::new();
    let mut seen = HashSet::new();
    for (order, message) in messages.iter().enumerate().rev() {
        for sentence in sentences(&user_prose(message)) {
            let Some(mut candidate) = classify_sentence(&sentence) else {
                continue;
            };
            candidate.text = redact(&candidate.text).into_owned();
            let length = candidate.text.chars().count();
            if !(MIN_CHARS..=MAX_CHARS).contains(&length) {
                continue;
            }
            if seen.insert(normalised(&candidate.text)) {
                found.push((order, candidate));
            }
        }
    }
    found.sort_by(|(a_order, a), (b_order, b)| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(b_order.cmp(a_order))
    });
    found.into_iter().map(|(_, candidate)| candidate).collect()
}

/// Lower-case words of letters and digits joined by single spaces: two texts that differ
/// only in case, punctuation or spacing are the same learning.
pub fn normalised(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_learnings_in_prose_but_not_in_code_or_logs() {
        let messages = vec![
            "Here is the log:\n```\nnever retry on 500\n```\nI prefer early returns over nested if blocks.".to_owned(),
            "2026-11-20 ERROR we always retry three times".to_owned(),
        ];
        let found = candidates_from(&messages);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].text,
            "Prefers early returns over nested if blocks."
        );
    }

    #[test]
    fn redacts_secrets_and_drops_what_is_too_short_or_too_long() {
        let messages = vec![
            "Always use the key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 for staging."
                .to_owned(),
            "Never do x y.".to_owned(),
            format!("Always {}.", "keep everything consistent ".repeat(10)),
        ];
        let found = candidates_from(&messages);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].text.contains("sk-ant-api03"), "{}", found[0].text);
    }

    #[test]
    fn the_same_learning_twice_is_one_candidate_and_confident_ones_come_first() {
        let messages = vec![
            "The integration tests need a running Postgres on port 5433.".to_owned(),
            "We always squash-merge feature branches.".to_owned(),
            "we ALWAYS squash-merge feature branches!".to_owned(),
        ];
        let found = candidates_from(&messages);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].text, "ALWAYS squash-merge feature branches!");
        assert!(found[0].confidence > found[1].confidence);
    }

    #[test]
    fn normalising_ignores_case_punctuation_and_spacing() {
        assert_eq!(normalised("  Use rstest,  ALWAYS! "), "use rstest always");
    }
}
