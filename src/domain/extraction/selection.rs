//! From a session's user messages to the candidates worth proposing: rules, redaction,
//! length limits, one candidate per learning, and more confidence for a learning the user
//! restated in several messages.

use super::cues::{is_cjk, mostly_cjk};
use super::{Candidate, classify_sentence, sentences, user_prose};
use crate::domain::redaction::redact;

/// Candidates shorter than this say too little to stand alone ("Use bun not npm." does).
pub const MIN_CHARS: usize = 14;
/// The same floor for CJK text, where one character carries about a word: "以后都用英文写"
/// is a whole rule in seven characters.
pub const MIN_CJK_CHARS: usize = 8;
/// Candidates longer than this are paragraphs, not learnings.
pub const MAX_CHARS: usize = 200;
/// A message longer than this is pasted material (a brief, a log, a document), not the
/// user's standing word to the assistant; it is not read for rules at all.
pub const MAX_MESSAGE_CHARS: usize = 8_000;
/// A message longer than this is the user's lead line followed by pasted material (a review,
/// the assistant's own output, a spec): only its first paragraph is read. In the dev set every
/// such message that holds a rule states it in that first paragraph.
pub const LEAD_ONLY_CHARS: usize = 1_000;
/// What a learning restated in another message gains, and the most it can reach that way.
const RESTATED_BONUS: f64 = 0.1;
const RESTATED_CAP: f64 = 0.95;
/// Share of words two texts must have in common to be the same learning restated.
const RESTATED_OVERLAP: f64 = 0.8;

/// Every candidate in `messages` (the user's messages, oldest first), secrets redacted,
/// within [`MIN_CHARS`] (or [`MIN_CJK_CHARS`])..=[`MAX_CHARS`], each learning once (by
/// [`normalised`] text, or nearly the same words), most confident first and, among equals,
/// newest first: a later message restates the user's current view. A learning said in more
/// than one message gains confidence: the user repeating a rule is the surest sign it lasts.
pub fn candidates_from(messages: &[String]) -> Vec<Candidate> {
    let mut found: Vec<Restated> = Vec::new();
    for (order, message) in messages.iter().enumerate().rev() {
        if message.len() > MAX_MESSAGE_CHARS {
            continue;
        }
        let message = if message.len() > LEAD_ONLY_CHARS {
            first_paragraph(message)
        } else {
            message
        };
        for sentence in sentences(&user_prose(message)) {
            let Some(mut candidate) = classify_sentence(&sentence) else {
                continue;
            };
            // A learning that holds a secret would teach nothing once redacted, and the
            // secret belongs where secrets are kept: such a sentence proposes nothing.
            if redact(&candidate.text) != candidate.text {
                continue;
            }
            candidate.said = redact(&sentence).into_owned();
            if !fits(&candidate.text) {
                continue;
            }
            let words = word_set(&candidate.text);
            match found.iter_mut().find(|seen| seen.is_restated_by(&words)) {
                Some(seen) => {
                    seen.messages.push(order);
                    seen.candidate.confidence = seen.candidate.confidence.max(candidate.confidence);
                }
                None => found.push(Restated {
                    order,
                    messages: vec![order],
                    words,
                    candidate,
                }),
            }
        }
    }
    for seen in &mut found {
        seen.messages.dedup();
        if seen.messages.len() > 1 {
            let raised = seen.candidate.confidence + RESTATED_BONUS;
            seen.candidate.confidence = raised.min(RESTATED_CAP.max(seen.candidate.confidence));
        }
    }
    found.sort_by(|a, b| {
        b.candidate
            .confidence
            .total_cmp(&a.candidate.confidence)
            .then(b.order.cmp(&a.order))
    });
    found.into_iter().map(|seen| seen.candidate).collect()
}

/// A candidate with the messages it was said in (newest first).
struct Restated {
    order: usize,
    messages: Vec<usize>,
    words: Vec<String>,
    candidate: Candidate,
}

impl Restated {
    fn is_restated_by(&self, words: &[String]) -> bool {
        self.words == words || overlap(&self.words, words) >= RESTATED_OVERLAP
    }
}

pub(super) fn fits(text: &str) -> bool {
    let length = text.chars().count();
    let min = if mostly_cjk(text) {
        MIN_CJK_CHARS
    } else {
        MIN_CHARS
    };
    (min..=MAX_CHARS).contains(&length)
}

pub(super) fn first_paragraph(message: &str) -> &str {
    let mut end = 0;
    for line in message.split_inclusive('\n') {
        if line.trim().is_empty() && end > 0 {
            break;
        }
        end += line.len();
    }
    &message[..end]
}

/// The words of [`normalised`] text, sorted and deduplicated, each CJK character a word of
/// its own (CJK text has no spaces to cut at).
fn word_set(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in normalised(text).split(' ').filter(|word| !word.is_empty()) {
        let mut latin = String::new();
        for c in word.chars() {
            if is_cjk(c) {
                if !latin.is_empty() {
                    words.push(std::mem::take(&mut latin));
                }
                words.push(c.to_string());
            } else {
                latin.push(c);
            }
        }
        if !latin.is_empty() {
            words.push(latin);
        }
    }
    words.sort_unstable();
    words.dedup();
    words
}

/// Shared words over all words (Jaccard), 0 for two empty sets.
fn overlap(a: &[String], b: &[String]) -> f64 {
    let shared = a
        .iter()
        .filter(|word| b.binary_search(word).is_ok())
        .count();
    let all = a.len() + b.len() - shared;
    if all == 0 {
        0.0
    } else {
        shared as f64 / all as f64
    }
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
    use rstest::rstest;

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
    fn drops_what_holds_a_secret_or_is_too_short_or_too_long() {
        let messages = vec![
            "Always use the key sk-ant-api03-Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ for staging."
                .to_owned(),
            "Never do x y.".to_owned(),
            format!("Always {}.", "keep everything consistent ".repeat(10)),
            "Always run the linter before you push. My password is hunter2.".to_owned(),
        ];
        let found = candidates_from(&messages);
        let texts: Vec<&str> = found.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["Always run the linter before you push."]);
        assert!(!found[0].said.contains("hunter2"), "{}", found[0].said);
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

    #[rstest]
    #[case::same_words(
        &["Never push to main without a review.", "never push to main without a review!"]
    )]
    #[case::nearly_the_same(&[
        "Always run clippy with warnings as errors before a commit.",
        "Always run clippy with warnings as errors before every commit.",
    ])]
    #[case::chinese(&["以后提交信息都用英文写", "以后提交信息都用英文写。"])]
    fn a_learning_restated_in_another_message_gains_confidence(#[case] messages: &[&str]) {
        let once = candidates_from(&[messages[0].to_owned()]);
        let twice = candidates_from(&messages.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>());
        assert_eq!(twice.len(), 1, "{twice:?}");
        assert!(
            (twice[0].confidence - (once[0].confidence + 0.1).min(0.95)).abs() < 1e-9,
            "{} then {}",
            once[0].confidence,
            twice[0].confidence
        );
    }

    #[test]
    fn a_restated_learning_never_passes_the_cap() {
        let messages = vec!["Ask me before you delete any branch.".to_owned(); 3];
        let found = candidates_from(&messages);
        assert_eq!(found.len(), 1);
        assert!(found[0].confidence <= 0.95, "{}", found[0].confidence);
    }

    #[test]
    fn the_same_rule_twice_in_one_message_gains_nothing() {
        let message = "Never push to main without a review. Never push to main without a review!";
        let found = candidates_from(&[message.to_owned()]);
        let once = candidates_from(&["Never push to main without a review.".to_owned()]);
        assert_eq!(found[0].confidence, once[0].confidence);
    }

    #[test]
    fn a_long_message_is_read_for_its_lead_paragraph_only() {
        let pasted = "The review says we always retry three times on a 500.\n".repeat(30);
        let message = format!("we are using Postgres 16 for everything\n\n{pasted}");
        let found = candidates_from(&[message]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].text, "We are using Postgres 16 for everything.");
    }

    #[rstest::rstest]
    #[case::whole_rule("use bun not npm", Some("Use bun not npm."))]
    #[case::too_little("use bun", None)]
    fn a_short_rule_is_long_enough(#[case] message: &str, #[case] expected: Option<&str>) {
        let found = candidates_from(&[message.to_owned()]);
        assert_eq!(
            found.first().map(|c| c.text.as_str()),
            expected,
            "{found:?}"
        );
    }

    #[test]
    fn short_cjk_rules_are_long_enough() {
        let found = candidates_from(&["以后都用英文写提交信息".to_owned()]);
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn normalising_ignores_case_punctuation_and_spacing() {
        assert_eq!(normalised("  Use rstest,  ALWAYS! "), "use rstest always");
    }
}
