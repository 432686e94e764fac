//! BERT uncased tokenisation: basic splitting (clean, lowercase, strip accents, split on
//! whitespace, punctuation and CJK characters), then WordPiece over the model's vocabulary.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Words longer than this become unknown, as in BERT.
const MAX_WORD_CHARS: usize = 100;

/// The words of `text` after BERT's basic tokenisation.
pub fn basic_tokens(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' {
            continue;
        }
        if c.is_whitespace() {
            spaced.push(' ');
        } else if c.is_control() {
            continue;
        } else if is_cjk(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut out = Vec::new();
    for word in spaced.split(' ').filter(|w| !w.is_empty()) {
        let folded: String = word
            .to_lowercase()
            .nfd()
            .filter(|c| !is_combining_mark(*c))
            .collect();
        let mut current = String::new();
        for c in folded.chars() {
            if is_punctuation(c) {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                out.push(c.to_string());
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Greedy longest-match-first WordPiece: `contains` answers whether a piece is in the
/// vocabulary; `None` when the word cannot be covered (BERT's `[UNK]`).
pub fn wordpiece(word: &str, contains: impl Fn(&str) -> bool) -> Option<Vec<String>> {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() > MAX_WORD_CHARS {
        return None;
    }
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut candidate = String::with_capacity(word.len() + 2);
    while start < chars.len() {
        let mut end = chars.len();
        let mut found = None;
        while start < end {
            candidate.clear();
            if start > 0 {
                candidate.push_str("##");
            }
            candidate.extend(&chars[start..end]);
            if contains(&candidate) {
                found = Some(candidate.clone());
                break;
            }
            end -= 1;
        }
        pieces.push(found?);
        start = end;
    }
    Some(pieces)
}

/// BERT's punctuation: the ASCII symbol ranges plus Unicode punctuation. Non-ASCII is judged
/// by the common punctuation blocks, since std has no general-category lookup.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    matches!(c as u32,
        0x00A1..=0x00BF | 0x2010..=0x2027 | 0x2030..=0x205E | 0x3000..=0x303F | 0xFE30..=0xFE4F
        | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65 | 0x00D7 | 0x00F7)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::accents_and_punctuation("Héllo, WORLD!", &["hello", ",", "world", "!"])]
    #[case::cjk("東京 tower", &["東", "京", "tower"])]
    #[case::controls_and_tabs("a\tb\u{0}c\u{7}", &["a", "bc"])]
    #[case::paths("src/main.rs", &["src", "/", "main", ".", "rs"])]
    #[case::unicode_quotes("“quoted”", &["“", "quoted", "”"])]
    fn splits_like_bert(#[case] text: &str, #[case] words: &[&str]) {
        assert_eq!(basic_tokens(text), words);
    }

    #[test]
    fn wordpiece_takes_the_longest_pieces_first() {
        let vocab = ["una", "##ffa", "##ble", "un", "##aff"];
        let contains = |piece: &str| vocab.contains(&piece);
        assert_eq!(
            wordpiece("unaffable", contains),
            Some(vec!["una".into(), "##ffa".into(), "##ble".into()])
        );
        assert_eq!(wordpiece("xyz", contains), None);
        assert_eq!(wordpiece(&"a".repeat(101), |_| true), None);
    }
}
