//! A reply's opening interjection ("Perfect!", "You're absolutely right.", a bare "Summary"
//! heading): it tells the next session nothing and takes room that a capped handoff needs.
//! Openings that report a state ("Done.", "All green.", "Pushed.") are kept: they say what
//! happened.

/// Words that an interjection is made of, lowercased and without punctuation. An opening
/// sentence of these alone says nothing; one word outside the list makes it a statement.
/// "Yes" is not one: it may answer the user's question.
const FILLER_WORDS: [&str; 32] = [
    "perfect",
    "excellent",
    "great",
    "good",
    "nice",
    "awesome",
    "wonderful",
    "fantastic",
    "interesting",
    "ah",
    "oh",
    "hello",
    "hi",
    "sure",
    "okay",
    "ok",
    "alright",
    "right",
    "absolutely",
    "you're",
    "you’re",
    "you",
    "are",
    "got",
    "it",
    "question",
    "call",
    "idea",
    "news",
    "progress",
    "catch",
    "point",
];

/// Words an interjection sentence has at most.
const MAX_WORDS: usize = 4;

/// Headings whose whole text is a label for what follows, lowercased.
const LABEL_HEADINGS: [&str; 2] = ["summary", "zusammenfassung"];

/// `reply` without its opening interjections, or the reply as it is when nothing would be
/// left.
pub fn without_interjection(reply: &str) -> &str {
    let mut rest = reply.trim_start();
    loop {
        let next = strip_label_heading(rest).or_else(|| strip_interjection(rest));
        match next.map(str::trim_start) {
            Some(shorter) if !shorter.is_empty() => rest = shorter,
            _ => return rest,
        }
    }
}

/// `text` after a first line that is only a label heading ("**Summary**", "## Summary:").
fn strip_label_heading(text: &str) -> Option<&str> {
    let (line, rest) = text.split_once('\n')?;
    let label = line
        .trim()
        .trim_start_matches('#')
        .trim_matches(|c: char| c == '*' || c == '_' || c == ':' || c.is_whitespace())
        .to_lowercase();
    LABEL_HEADINGS.contains(&label.as_str()).then_some(rest)
}

/// `text` after an opening sentence made of filler words alone, ended by `!` or `.` and a
/// space or line break.
fn strip_interjection(text: &str) -> Option<&str> {
    let end = text.find(['!', '.', '\n'])?;
    let (sentence, after) = text.split_at(end);
    let after = after.trim_start_matches(['!', '.', '*', '_']);
    if !after.starts_with(char::is_whitespace) {
        return None;
    }
    let words: Vec<String> = sentence
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .map(|word| word.trim_matches('*').to_lowercase())
        .collect();
    let filler = !words.is_empty()
        && words.len() <= MAX_WORDS
        && words
            .iter()
            .all(|word| FILLER_WORDS.contains(&word.as_str()));
    filler.then_some(after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::exclamation("Perfect! The build passes now.", "The build passes now.")]
    #[case::agreement(
        "You're absolutely right! The cache was stale.",
        "The cache was stale."
    )]
    #[case::two_in_a_row("Great! Excellent. Tests pass.", "Tests pass.")]
    #[case::praise_of_the_question(
        "Good question. It reads the lock first.",
        "It reads the lock first."
    )]
    #[case::bold("**Perfect!** Merged into main.", "Merged into main.")]
    #[case::summary_heading("**Summary**\nI moved the parser.", "I moved the parser.")]
    #[case::markdown_summary_heading("## Summary:\n\nI moved the parser.", "I moved the parser.")]
    #[case::line_break("Perfect\nThe docs are updated.", "The docs are updated.")]
    fn leaves_out_an_opening_that_says_nothing(#[case] reply: &str, #[case] kept: &str) {
        assert_eq!(without_interjection(reply), kept);
    }

    #[rstest]
    #[case::a_state("Done. Pushed to origin.")]
    #[case::a_result("All green. 42 tests pass.")]
    #[case::a_statement_with_filler_words("Good news: the API is back. Retrying.")]
    #[case::a_word_outside_the_list("Perfect timing! The deploy finished.")]
    #[case::a_long_sentence("Great, so the parser, the lexer and the cache all agree now.")]
    #[case::a_version_number("Great.v2 is the tag.")]
    #[case::nothing_else("Perfect!")]
    #[case::an_answer("Yes. The lock is held while it writes.")]
    #[case::a_summary_sentence("Summary of the changes: the parser moved.")]
    fn keeps_an_opening_that_says_something(#[case] reply: &str) {
        assert_eq!(without_interjection(reply), reply);
    }
}
