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

/// Requests longer than this are specifications or pasted text, not a choice.
const MAX_CHOICE_CHARS: usize = 280;

/// Whether a request records a choice of the user's.
pub fn is_user_choice(request: &str) -> bool {
    if request.chars().count() > MAX_CHOICE_CHARS || request.starts_with('/') {
        return false;
    }
    let lower = request.to_lowercase();
    CHOICE_MARKERS.iter().any(|marker| lower.contains(marker))
}

/// Documents: a decision is written in prose, not in code (`decision_verify.py` is code).
const DOCUMENT_EXTENSIONS: [&str; 7] = ["md", "markdown", "mdx", "rst", "txt", "adoc", "org"];

/// Whether a written file records a decision (an ADR, a decision log): a document in a
/// decisions folder or named for decisions.
pub fn is_decision_file(path: &str) -> bool {
    let lower = path.replace('\\', "/").to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let document = name
        .rsplit_once('.')
        .is_none_or(|(_, extension)| DOCUMENT_EXTENSIONS.contains(&extension));
    // A template is the form decisions are written on, not one of them.
    if !document || name.contains("template") {
        return false;
    }
    lower.contains("/adr/")
        || lower.contains("/adrs/")
        || lower.contains("/decisions/")
        || name.starts_with("adr-")
        || name.contains("decision")
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

    #[rstest]
    #[case("docs/adr/0004-cache.md", true)]
    #[case("/p/docs/decisions/use-postgres.md", true)]
    #[case("DECISIONS.md", true)]
    #[case("src/adrian.rs", false)]
    #[case("src/core/decision_verify.py", false)]
    #[case("tests/test_decision_verify.py", false)]
    #[case("docs/adr/0019-defer-py-typed-marker.md", true)]
    #[case("docs/reference/decisions/TEMPLATE.md", false)]
    #[case("docs/adr/0000-adr-template.md", false)]
    fn recognises_decision_files(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_decision_file(path), expected);
    }
}
