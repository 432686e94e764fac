//! The user's answers to the client's question tool (Claude Code's `AskUserQuestion`): the
//! assistant offers options, the user picks, and the tool's result reads `User has answered
//! your questions: "Which backend?"="CPU and CUDA", "Public?"="Private". You can now
//! continue…`. Each pick is a choice the next session must know, as an answer typed in the
//! conversation is.

use super::answer::Answer;
use crate::domain::format::clip;
use crate::domain::redaction::redact;

/// How the result opens, in the wordings of the client's versions.
const OPENINGS: [&str; 2] = [
    "User has answered your questions: ",
    "Your questions have been answered: ",
];
/// What follows a pick when the user also typed something.
const NOTES: &str = "\" user notes: ";
/// Where the list of answers ends.
const CLOSING: &str = ". You can now continue";
/// A question or answer is cut to this.
const MAX_CHARS: usize = 200;

/// The question-and-answer pairs of the tool's result, in the order asked; none when the result
/// is anything else (the user dismissed the questions).
pub fn tool_answers(output: &str) -> Vec<Answer> {
    let Some(list) = OPENINGS
        .iter()
        .find_map(|opening| output.trim_start().strip_prefix(opening))
    else {
        return Vec::new();
    };
    let list = list.rfind(CLOSING).map_or(list, |end| &list[..end]);
    let mut answers = Vec::new();
    let mut rest = list.trim();
    // `"question"="answer"` pairs joined by `, `, an answer sometimes followed by ` user notes:
    // …` (what the user typed beside the pick); nothing is escaped, so a part ends where the
    // next separator opens.
    while let Some(pair) = rest.strip_prefix('"') {
        let Some((question, after)) = pair.split_once("\"=\"") else {
            break;
        };
        let next_pair = after.find("\", \"");
        let notes_at = after
            .find(NOTES)
            .filter(|at| next_pair.is_none_or(|next| *at < next));
        let (answer, notes, next) = match (notes_at, next_pair) {
            (Some(at), _) => {
                let notes = &after[at + NOTES.len()..];
                let (notes, next) = match notes.find(", \"") {
                    Some(end) => (&notes[..end], &notes[end + 2..]),
                    None => (notes, ""),
                };
                (&after[..at], notes.trim(), next)
            }
            (None, Some(end)) => (&after[..end], "", &after[end + 3..]),
            (None, None) => (after.strip_suffix('"').unwrap_or(after), "", ""),
        };
        let (question, answer) = (question.trim(), answer.trim());
        let answer = match notes.is_empty() || notes == answer {
            true => answer.to_owned(),
            false => format!("{answer} ({notes})"),
        };
        if !question.is_empty() && !answer.is_empty() {
            answers.push(Answer {
                question: clip(&redact(question), MAX_CHARS),
                answer: clip(&redact(&answer), MAX_CHARS),
            });
        }
        rest = next;
    }
    answers
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::two_answers(
        r#"User has answered your questions: "Should this repository be public or private?"="Private", "How would you like to create the repository?"="Authenticate GitHub CLI (Recommended)". You can now continue with the user's answers in mind."#,
        &[("Should this repository be public or private?", "Private"), ("How would you like to create the repository?", "Authenticate GitHub CLI (Recommended)")]
    )]
    #[case::older_wording(
        r#"Your questions have been answered: "How should the hero get its rprompt?"="Lower breathing room to 20 for renders". You can now continue with these answers in mind."#,
        &[("How should the hero get its rprompt?", "Lower breathing room to 20 for renders")]
    )]
    #[case::a_comma_inside_an_answer(
        r#"User has answered your questions: "Which hosts?"="zima, slate". You can now continue with the user's answers in mind."#,
        &[("Which hosts?", "zima, slate")]
    )]
    #[case::user_notes(
        r#"User has answered your questions: "Which API?"="Best practice" user notes: Best practice, "Which CLI framework?"="Standard library only". You can now continue with the user's answers in mind."#,
        &[("Which API?", "Best practice"), ("Which CLI framework?", "Standard library only")]
    )]
    #[case::notes_beside_a_pick(
        r#"User has answered your questions: "Which API?"="GraphQL" user notes: only for the stars count. You can now continue."#,
        &[("Which API?", "GraphQL (only for the stars count)")]
    )]
    #[case::dismissed(
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        &[]
    )]
    #[case::empty_answer(r#"User has answered your questions: "Which?"="". You can now continue."#, &[])]
    #[case::unicode(
        r#"User has answered your questions: "どちらにしますか？"="軽量版". You can now continue with the user's answers in mind."#,
        &[("どちらにしますか？", "軽量版")]
    )]
    fn reads_the_picks(#[case] output: &str, #[case] expected: &[(&str, &str)]) {
        let found: Vec<(String, String)> = tool_answers(output)
            .into_iter()
            .map(|answer| (answer.question, answer.answer))
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(q, a)| ((*q).to_owned(), (*a).to_owned()))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_secret_picked_is_not_passed_on() {
        let output = r#"User has answered your questions: "Which key?"="ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq". You can now continue."#;
        let found = tool_answers(output);
        assert!(!found[0].answer.contains("ghp_Xk9"), "{found:?}");
    }
}
