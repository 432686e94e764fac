//! Which rules a text calls for: the rules one of whose keywords occurs in it, ignoring ASCII
//! case. Keywords are looked up by their first two bytes, through a bitmap of the openings
//! that exist. Building it costs microseconds; an Aho-Corasick automaton over the ~300
//! keywords took 0.4 ms to build, more than a hook's whole redaction (ADR 0012).

use std::collections::HashMap;

/// A keyword, lowercased, and the rule it selects.
type Keyword = (Box<[u8]>, usize);

/// Every rule's keywords, indexed by their lowercased first two bytes.
#[derive(Debug, Default)]
pub struct KeywordIndex {
    /// One bit per two-byte opening that some keyword has.
    openings: Vec<u64>,
    /// The keywords (lowercased) with each opening, and the rule each belongs to.
    by_opening: HashMap<[u8; 2], Vec<Keyword>>,
    /// Rules with a keyword shorter than two bytes: a single byte is in nearly every text.
    always: Vec<usize>,
}

impl KeywordIndex {
    /// An index of `keywords`, each given with the rule it selects.
    pub fn new<'a>(keywords: impl IntoIterator<Item = (&'a str, usize)>) -> Self {
        let mut index = Self {
            openings: vec![0; (1 << 16) / 64],
            ..Self::default()
        };
        for (keyword, rule) in keywords {
            let keyword = keyword.to_ascii_lowercase().into_bytes();
            match keyword[..] {
                [first, second, ..] => {
                    let opening = [first, second];
                    let bit = bit(opening);
                    index.openings[bit / 64] |= 1 << (bit % 64);
                    index
                        .by_opening
                        .entry(opening)
                        .or_default()
                        .push((keyword.into_boxed_slice(), rule));
                }
                _ => index.always.push(rule),
            }
        }
        index
    }

    /// Marks in `selected` (one flag per rule) the rules whose keywords occur in `text`.
    pub fn select(&self, text: &[u8], selected: &mut [bool]) {
        for &rule in &self.always {
            selected[rule] = true;
        }
        for (at, pair) in text.windows(2).enumerate() {
            let opening = [pair[0].to_ascii_lowercase(), pair[1].to_ascii_lowercase()];
            let bit = bit(opening);
            if self.openings[bit / 64] & (1 << (bit % 64)) == 0 {
                continue;
            }
            for (keyword, rule) in &self.by_opening[&opening] {
                if text[at..]
                    .get(..keyword.len())
                    .is_some_and(|here| here.eq_ignore_ascii_case(keyword))
                {
                    selected[*rule] = true;
                }
            }
        }
    }
}

fn bit(opening: [u8; 2]) -> usize {
    usize::from(opening[0]) << 8 | usize::from(opening[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn selected(text: &str) -> Vec<usize> {
        let index = KeywordIndex::new([("ghp_", 0), ("Key", 1), ("sk", 2), ("x", 3), ("é", 4)]);
        let mut flags = vec![false; 5];
        index.select(text.as_bytes(), &mut flags);
        (0..5).filter(|&rule| flags[rule]).collect()
    }

    #[rstest]
    #[case::none("hello world", &[3])]
    #[case::one("token ghp_abc", &[0, 3])]
    #[case::any_case("API_KEY=1 GHP_x", &[0, 1, 3])]
    #[case::two_bytes_at_the_end("ask", &[2, 3])]
    #[case::overlapping("skey", &[1, 2, 3])]
    #[case::cut_short("gh", &[3])]
    #[case::multibyte("café", &[3, 4])]
    fn selects_the_rules_whose_keywords_occur(#[case] text: &str, #[case] rules: &[usize]) {
        assert_eq!(selected(text), rules);
    }
}
