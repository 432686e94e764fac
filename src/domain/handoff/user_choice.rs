//! Requests in which the user made a choice ("let's go with X", "use X instead of Y"): the
//! decisions a next session must not reopen.

/// Phrases that mark a choice, in the languages of the real sessions measured.
const CHOICE_MARKERS: [&str; 41] = [
    "let's go with",
    "lets go with",
    "go with ",
    "let's use",
    "lets use",
    "instead of",
    "instead we",
    "instead do",
    "better not to",
    "better to ",
    "rather than",
    "i prefer",
    "i like ",
    "i love ",
    "we'll use",
    "we will use",
    "stick with",
    "switch to",
    "don't use",
    "do not use",
    "decided",
    "option ",
    "nehmen wir",
    "lass uns",
    "entscheid",
    "statt ",
    "にしよう",
    "でいこう",
    "で行こう",
    "ではなく",
    "じゃなくて",
    "にして",
    "就用",
    "改用",
    "决定",
    "不要用",
    "算了",
    "로 하자",
    "으로 하자",
    "대신",
    "방식으로",
];

/// Markers that state a liking, which a hedge just before them takes back.
const LIKINGS: [&str; 2] = ["i like ", "i love "];
/// What just before a liking makes it no choice ("if " covers "not sure if ", "wonder if ").
const HEDGES: [&str; 5] = ["not sure ", "if ", "whether ", "do ", "don't think "];

/// Requests longer than this are specifications or pasted text, not a choice.
const MAX_CHOICE_CHARS: usize = 280;

/// Whether a request records a choice of the user's.
pub fn is_user_choice(request: &str) -> bool {
    if request.chars().count() > MAX_CHOICE_CHARS || request.starts_with('/') {
        return false;
    }
    let lower = request.to_lowercase();
    CHOICE_MARKERS.iter().any(|marker| {
        lower.match_indices(marker).any(|(at, _)| {
            // "not sure I like this", "if you love it": a liking hedged is no choice.
            !LIKINGS.contains(marker) || !HEDGES.iter().any(|hedge| lower[..at].ends_with(hedge))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("ok let's go with the stash approach", true)]
    #[case("use Ark UI instead of Chakra's TreeView", true)]
    #[case("option 5, single line", true)]
    #[case("算了，不禁用他", true)]
    #[case("スカッシュマージにしよう", true)]
    #[case(
        "given the privacy focus, I think its better not to store any PII",
        true
    )]
    #[case(
        "we aren't to use cufft. Instead we have to roll the convolution ourselves",
        true
    )]
    #[case("wir hatten die Entscheidung: nur die MCP-Tools benutzen", true)]
    #[case("and i like the most all valid..occassional dead end", true)]
    #[case("I love the ticker, keep it", true)]
    #[case("not sure I like this approach", false)]
    #[case("I wonder if I like the darker theme", false)]
    #[case("do I like it? let me think", false)]
    #[case("I don't think I like the modal", false)]
    #[case("Instead stage the latest changes and commit", false)]
    #[case("fix the login bug", false)]
    #[case("/kitchen:order use the plan instead of the draft", false)]
    fn recognises_choices(#[case] request: &str, #[case] expected: bool) {
        assert_eq!(is_user_choice(request), expected);
    }

    #[test]
    fn a_long_specification_is_no_choice() {
        assert!(!is_user_choice(&format!(
            "{} instead of",
            "spec ".repeat(80)
        )));
    }
}
