//! What the rules saw and let go: the user's sentences that carry a rule's cue word ("always",
//! "from now on", "don't", "以后", "毎回"…) but yield no candidate, each with the reason, so
//! that a miss can be traced to the rule or the limit that caused it.

use std::sync::LazyLock;

use regex::Regex;

use super::cues::{ALWAYS_OR_NEVER, BUG_REPORT, PERSISTS, regex};
use super::selection::{LEAD_ONLY_CHARS, MAX_MESSAGE_CHARS, first_paragraph, fits};
use super::{MAX_CHARS, classify_sentence, sentences, user_prose};
use crate::domain::format::clip;
use crate::domain::redaction::redact;

/// How much of an ignored sentence the audit shows.
const SHOWN_CHARS: usize = 160;

/// Words that open or mark the families' statements: a sentence holding one of them is one the
/// rules looked at closely, so leaving it out deserves a reason.
static RULE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(don't|do not|dont|prefer|i'd rather|remember|keep in mind|make sure|avoid|",
        r"instead of|ask me|without|stop|we use|our convention|",
        r"bitte nicht|keine?n?|vermeide|merk dir|",
        r"no uses|evita|recuerda|prefiero|",
        r"n'utilise pas|évite|souviens-toi|je préfère)\b",
        r"|不要|别再|记住|必须|先.+再|しないで|ないでください|必ず|覚えて|하지 마|기억해",
    ))
});

/// Why a sentence with a cue word yields no candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoredReason {
    /// Its message is longer than pasted material may be: it is not read at all.
    PastedMessage,
    /// It stands after the lead paragraph of a long message, which alone is read.
    AfterLead,
    /// It asks rather than states.
    Question,
    /// It describes a problem ("every time I open it, it crashes").
    ProblemReport,
    /// No family accepted it: a one-off request, a hypothetical, other people's words.
    NoRule,
    /// A family accepted it, but what it would propose is too short to stand alone.
    TooShort,
    /// A family accepted it, but what it would propose is a paragraph, not a learning.
    TooLong,
    /// What it would propose holds a secret.
    HoldsSecret,
}

impl IgnoredReason {
    /// The reason in a few words, for `--json` and for people.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PastedMessage => "pasted message (not read)",
            Self::AfterLead => "after the lead paragraph of a long message",
            Self::Question => "a question",
            Self::ProblemReport => "describes a problem",
            Self::NoRule => "no family accepted it (one-off or not a rule)",
            Self::TooShort => "too short to stand alone",
            Self::TooLong => "too long for a learning",
            Self::HoldsSecret => "holds a secret (learn where it is kept instead)",
        }
    }
}

/// A user sentence with a cue word that yields no candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// Which user message (1 for the first) it was said in.
    pub message: usize,
    /// The sentence, secrets redacted, clipped for display.
    pub text: String,
    /// Why it yields nothing.
    pub reason: IgnoredReason,
}

/// Every sentence of `messages` (the user's messages, oldest first) that carries a cue word
/// yet yields no candidate in [`super::candidates_from`], in message order.
pub fn ignored_in(messages: &[String]) -> Vec<Ignored> {
    let mut ignored = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let mut note = |sentence: &str, reason| {
            ignored.push(Ignored {
                message: index + 1,
                text: clip(&redact(sentence), SHOWN_CHARS),
                reason,
            });
        };
        if message.len() > MAX_MESSAGE_CHARS {
            for sentence in cued_sentences(message) {
                note(&sentence, IgnoredReason::PastedMessage);
            }
            continue;
        }
        let read = if message.len() > LEAD_ONLY_CHARS {
            let lead = first_paragraph(message);
            for sentence in cued_sentences(&message[lead.len()..]) {
                note(&sentence, IgnoredReason::AfterLead);
            }
            lead
        } else {
            message
        };
        for sentence in cued_sentences(read) {
            match classify_sentence(&sentence) {
                Some(candidate) if redact(&candidate.text) != candidate.text => {
                    note(&sentence, IgnoredReason::HoldsSecret);
                }
                Some(candidate) if fits(&candidate.text) => {}
                Some(candidate) => note(&sentence, size_reason(&candidate.text)),
                None => note(&sentence, unaccepted_reason(&sentence)),
            }
        }
    }
    ignored
}

fn cued_sentences(text: &str) -> impl Iterator<Item = String> {
    sentences(&user_prose(text)).into_iter().filter(|sentence| {
        RULE_CUE.is_match(sentence)
            || PERSISTS.is_match(sentence)
            || ALWAYS_OR_NEVER.is_match(sentence)
    })
}

fn size_reason(text: &str) -> IgnoredReason {
    if text.chars().count() > MAX_CHARS {
        IgnoredReason::TooLong
    } else {
        IgnoredReason::TooShort
    }
}

fn unaccepted_reason(sentence: &str) -> IgnoredReason {
    if sentence.ends_with(['?', '？']) {
        IgnoredReason::Question
    } else if BUG_REPORT.is_match(sentence) {
        IgnoredReason::ProblemReport
    } else {
        IgnoredReason::NoRule
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn audit(messages: &[&str]) -> Vec<(usize, IgnoredReason)> {
        let messages: Vec<String> = messages.iter().map(|m| (*m).to_owned()).collect();
        ignored_in(&messages)
            .into_iter()
            .map(|ignored| (ignored.message, ignored.reason))
            .collect()
    }

    #[rstest]
    #[case::question("Should we always squash the commits?", IgnoredReason::Question)]
    #[case::problem(
        "It always fails when I open the settings page.",
        IgnoredReason::ProblemReport
    )]
    #[case::one_off("Don't forget the tests in that last file.", IgnoredReason::NoRule)]
    #[case::too_short("Never do it.", IgnoredReason::TooShort)]
    #[case::cjk_question("以后都用英文写吗？", IgnoredReason::Question)]
    fn says_why_a_cued_sentence_yields_nothing(
        #[case] message: &str,
        #[case] reason: IgnoredReason,
    ) {
        assert_eq!(audit(&[message]), [(1, reason)], "{message}");
    }

    #[test]
    fn a_sentence_that_becomes_a_candidate_is_not_ignored() {
        let rule = "From now on, always run cargo fmt before you commit.";
        assert!(!super::super::candidates_from(&[rule.to_owned()]).is_empty());
        assert_eq!(audit(&[rule]), []);
    }

    #[test]
    fn sentences_without_a_cue_are_not_listed() {
        assert_eq!(audit(&["Please fix the login form.", "thanks"]), []);
    }

    #[test]
    fn a_pasted_document_and_the_tail_of_a_long_message_are_named_as_such() {
        let pasted = format!(
            "Brief:\n{}\nAlways cite the sources.",
            "word ".repeat(2_000)
        );
        let long = format!(
            "Review this please.\n\n{}\nNever use unwrap in this crate.",
            "line of the review\n".repeat(60)
        );
        assert_eq!(
            audit(&["ok", &pasted, &long]),
            [
                (2, IgnoredReason::PastedMessage),
                (3, IgnoredReason::AfterLead)
            ]
        );
    }

    #[test]
    fn a_rule_that_holds_a_secret_is_ignored_and_says_why() {
        let message =
            "Always use the key sk-ant-api03-Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ for staging.";
        let ignored = ignored_in(&[message.to_owned()]);
        let reasons: Vec<IgnoredReason> = ignored.iter().map(|i| i.reason).collect();
        assert_eq!(reasons, [IgnoredReason::HoldsSecret]);
        assert!(!ignored[0].text.contains("sk-ant"), "{}", ignored[0].text);
    }

    #[test]
    fn secrets_in_an_ignored_sentence_are_redacted() {
        let message = "Don't worry, my token is ghp_R4nd0mT0k3nV4lu3xQ9zL2mK8pW5sJ7hF3dG1a?";
        let ignored = ignored_in(&[message.to_owned()]);
        assert_eq!(ignored.len(), 1);
        assert!(
            !ignored[0].text.contains("ghp_R4nd0m"),
            "{}",
            ignored[0].text
        );
    }
}
