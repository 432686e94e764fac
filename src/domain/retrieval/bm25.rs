//! Okapi BM25 over the learnings: exact words matter (table names, tools, services), which a
//! static embedding blurs.

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words that carry no topic: function words, and the verbs that open commit subjects, todo
/// items and learnings ("Add …", "Write …", "Uses …"), which would otherwise match any two
/// texts that share an imperative. None is longer than eight bytes, so each packs into one
/// `u64` ([`STOPWORD_TABLE`]).
const STOPWORDS: &[&str] = &[
    "a", "add", "added", "adds", "an", "and", "are", "as", "at", "be", "before", "by", "change",
    "document", "every", "fix", "fixes", "for", "from", "has", "have", "in", "instead", "into",
    "is", "it", "its", "keep", "keeps", "make", "makes", "new", "not", "of", "on", "only", "or",
    "over", "rather", "run", "runs", "so", "than", "that", "the", "their", "them", "then", "there",
    "these", "this", "to", "too", "update", "use", "uses", "was", "when", "with", "without",
    "write", "writes",
];

/// [`STOPWORDS`] packed by [`pack`] into an open-addressing table built at compile time: a
/// lookup is a multiply and one or two integer comparisons, with no string compared.
const STOPWORD_TABLE: [u64; 256] = stopword_table();

const fn stopword_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < STOPWORDS.len() {
        let key = pack(STOPWORDS[i].as_bytes());
        let mut slot = table_slot(key, 255);
        while table[slot] != 0 {
            slot = (slot + 1) & 255;
        }
        table[slot] = key;
        i += 1;
    }
    table
}

/// The home slot of a packed word in a table of `mask + 1` slots.
const fn table_slot(key: u64, mask: usize) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize & mask
}

/// Up to eight bytes as one little-endian integer; words of different lengths never collide
/// because a word holds no zero byte.
const fn pack(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() && i < 8 {
        key |= (word[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

/// Whether a lower-cased word, packed as `key`, is a stop word.
fn is_stopword(word: &[u8], key: u64) -> bool {
    if word.len() > 8 {
        return false;
    }
    let mut slot = table_slot(key, 255);
    loop {
        match STOPWORD_TABLE[slot] {
            0 => return false,
            found if found == key => return true,
            _ => slot = (slot + 1) & 255,
        }
    }
}

/// The first `length` bytes of `buffer` (at least eight long) as [`pack`] packs them, read as
/// one integer and masked instead of assembled byte by byte.
fn pack_prefix(buffer: &[u8; LONGEST_WORD], length: usize) -> u64 {
    let raw = u64::from_le_bytes([
        buffer[0], buffer[1], buffer[2], buffer[3], buffer[4], buffer[5], buffer[6], buffer[7],
    ]);
    if length >= 8 {
        raw
    } else {
        raw & ((1u64 << (8 * length)) - 1)
    }
}

/// Each ASCII byte lower-cased when it belongs to a word (a letter or digit), else 0.
const WORD_BYTE: [u8; 256] = word_bytes();

const fn word_bytes() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 128 {
        let b = byte as u8;
        if b.is_ascii_alphanumeric() {
            table[byte] = b.to_ascii_lowercase();
        }
        byte += 1;
    }
    table
}

/// Words longer than this are not topic words (hashes, base64, minified code) and are skipped
/// rather than copied.
const LONGEST_WORD: usize = 48;

/// Calls `term` with each topic word of `text` and its [`pack`]ed key: lower-cased, two or
/// more characters, stop words dropped, a plural `s` trimmed. ASCII text (nearly every
/// learning) is split byte by byte into a stack buffer, so nothing is allocated and a word
/// costs a few dozen instructions: a session start runs this over every learning.
fn for_each_term(text: &str, mut term: impl FnMut(&[u8], u64)) {
    if text.is_ascii() {
        let bytes = text.as_bytes();
        let mut buffer = [0u8; LONGEST_WORD];
        let mut at = 0;
        while at < bytes.len() {
            let mut length = 0;
            // Scanning and lower-casing in one pass over the class table.
            while at < bytes.len() {
                let lower = WORD_BYTE[usize::from(bytes[at])];
                if lower == 0 {
                    break;
                }
                if length < LONGEST_WORD {
                    buffer[length] = lower;
                }
                length += 1;
                at += 1;
            }
            at += 1;
            if !(2..=LONGEST_WORD).contains(&length) {
                continue;
            }
            let key = pack_prefix(&buffer, length);
            if is_stopword(&buffer[..length], key) {
                continue;
            }
            if length >= 4 && buffer[length - 1] == b's' && buffer[length - 2] != b's' {
                term(&buffer[..length - 1], pack_prefix(&buffer, length - 1));
            } else {
                term(&buffer[..length], key);
            }
        }
        return;
    }
    let mut buffer = String::with_capacity(32);
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.chars().nth(1).is_none() || word.len() > LONGEST_WORD {
            continue;
        }
        buffer.clear();
        buffer.extend(word.chars().flat_map(char::to_lowercase));
        let word = buffer.as_bytes();
        if is_stopword(word, pack(word)) {
            continue;
        }
        let stem = match word.strip_suffix(b"s") {
            Some(stem) if stem.len() >= 3 && !stem.ends_with(b"s") => stem,
            _ => word,
        };
        term(stem, pack(stem));
    }
}

/// The distinct terms of a query in an open-addressing table keyed by their packed prefix, so
/// a learning's word is looked up with one multiply and usually one comparison.
struct QueryTerms {
    terms: Vec<(Vec<u8>, u64)>,
    slots: Vec<u32>,
}

impl QueryTerms {
    fn new(query: &str) -> Self {
        let mut terms: Vec<(Vec<u8>, u64)> = Vec::new();
        for_each_term(query, |term, key| terms.push((term.to_vec(), key)));
        terms.sort();
        terms.dedup();
        let size = (terms.len() * 4).next_power_of_two().max(64);
        let mut slots = vec![0u32; size];
        for (index, (_, key)) in terms.iter().enumerate() {
            let mut slot = table_slot(*key, size - 1);
            while slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = index as u32 + 1;
        }
        Self { terms, slots }
    }

    /// The index of `term` among the query's terms.
    fn position(&self, term: &[u8], key: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut slot = table_slot(key, mask);
        loop {
            let entry = self.slots[slot] as usize;
            if entry == 0 {
                return None;
            }
            let (candidate, candidate_key) = &self.terms[entry - 1];
            if *candidate_key == key && candidate.as_slice() == term {
                return Some(entry - 1);
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// The topic words of `text` (see `for_each_term`), for tests and tools.
pub fn lexical_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for_each_term(text, |term, _| {
        terms.push(String::from_utf8_lossy(term).into_owned());
    });
    terms
}

/// The documents, ready to be scored; only their text is kept, because a query touches few
/// words and counting just those is cheaper than indexing every word.
#[derive(Debug, Clone)]
pub struct Bm25<'a> {
    documents: Vec<&'a str>,
}

impl<'a> Bm25<'a> {
    /// The documents in order.
    pub fn new(documents: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            documents: documents.into_iter().collect(),
        }
    }

    /// The score of every document for `query`, in document order, in one pass.
    pub fn scores(&self, query: &str) -> Vec<f32> {
        self.lexical(query).scores
    }

    /// The score of every document for `query`, and how many of the query's distinct terms
    /// each contains, in one pass.
    pub fn lexical(&self, query: &str) -> LexicalScores {
        let query = QueryTerms::new(query);
        let width = query.terms.len();
        let n = self.documents.len();
        let mut counts = vec![0u32; n * width];
        let mut lengths = vec![0f32; n];
        for (doc, text) in self.documents.iter().enumerate() {
            let row = &mut counts[doc * width..(doc + 1) * width];
            let mut length = 0u32;
            for_each_term(text, |term, key| {
                length += 1;
                if let Some(q) = query.position(term, key) {
                    row[q] += 1;
                }
            });
            lengths[doc] = length as f32;
        }
        let average = if n == 0 {
            0.0
        } else {
            lengths.iter().sum::<f32>() / n as f32
        };
        let idf: Vec<f32> = (0..width)
            .map(|q| {
                let df = (0..n).filter(|doc| counts[doc * width + q] > 0).count() as f32;
                ((n as f32 - df + 0.5) / (df + 0.5) + 1.0).ln()
            })
            .collect();
        let scores = (0..n)
            .map(|doc| {
                let norm = K1 * (1.0 - B + B * lengths[doc] / average.max(1.0));
                idf.iter()
                    .enumerate()
                    .map(|(q, idf)| {
                        let tf = counts[doc * width + q] as f32;
                        if tf == 0.0 {
                            0.0
                        } else {
                            idf * tf * (K1 + 1.0) / (tf + norm)
                        }
                    })
                    .sum()
            })
            .collect();
        let matched = (0..n)
            .map(|doc| {
                counts[doc * width..(doc + 1) * width]
                    .iter()
                    .filter(|&&count| count > 0)
                    .count()
            })
            .collect();
        LexicalScores {
            scores,
            matched,
            query_terms: width,
        }
    }
}

/// What [`Bm25::lexical`] finds.
#[derive(Debug, Clone, PartialEq)]
pub struct LexicalScores {
    /// Each document's BM25 score.
    pub scores: Vec<f32>,
    /// How many distinct query terms each document contains.
    pub matched: Vec<usize>,
    /// The query's distinct terms.
    pub query_terms: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_stopword_keys_match_the_list() {
        assert!(
            STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]),
            "kept sorted for review"
        );
        assert!(STOPWORDS.iter().all(|word| word.len() <= 8));
        assert!(
            STOPWORDS
                .iter()
                .all(|word| is_stopword(word.as_bytes(), pack(word.as_bytes())))
        );
    }

    #[rstest]
    #[case::longer_than_a_key("documents")]
    #[case::prefix_of_one("th")]
    #[case::extension_of_one("theirs")]
    #[case::topic("migration")]
    #[case::two_words("adds retries")]
    fn other_words_are_not_stopwords(#[case] word: &str) {
        assert!(!is_stopword(word.as_bytes(), pack(word.as_bytes())));
    }

    #[rstest]
    #[case("Writes SQL migrations as forward-only files", &["sql", "migration", "forward", "file"])]
    #[case("The CI runners' caches", &["ci", "runner", "cache"])]
    #[case("address process", &["address", "process"])]
    #[case("Ünïcode WORDS", &["ünïcode", "word"])]
    #[case("commit 3f1c9a0e5b7d2c4f6a8e0b1d3c5f7a9e1b3d5c7f9a1b2c3d4e5f6a7b8c9d0e1f2a3b reverted", &["commit", "reverted"])]
    fn extracts_topic_words(#[case] text: &str, #[case] terms: &[&str]) {
        assert_eq!(lexical_terms(text), terms);
    }

    #[test]
    fn ranks_the_document_that_shares_rare_words_first() {
        let index = Bm25::new([
            "SQL migrations are forward only",
            "React components use hooks",
            "Tables of contents",
        ]);
        let scores = index.scores("add a migration for the orders table in SQL");
        assert!(scores[0] > scores[2] && scores[2] > scores[1], "{scores:?}");
        assert_eq!(scores[1], 0.0);
    }

    #[test]
    fn long_words_that_share_their_first_eight_bytes_do_not_match() {
        let scores =
            Bm25::new(["configurable builds", "configuration files"]).scores("configuration");
        assert_eq!(scores[0], 0.0);
        assert!(scores[1] > 0.0);
    }

    #[test]
    fn a_query_of_many_terms_still_finds_each_one() {
        let words: Vec<String> = (0..300).map(|n| format!("term{n}")).collect();
        let documents: Vec<&str> = words.iter().map(String::as_str).collect();
        let scores = Bm25::new(documents).scores(&words.join(" "));
        assert!(scores.iter().all(|score| *score > 0.0));
    }

    #[test]
    fn an_empty_index_scores_nothing() {
        assert!(Bm25::new(std::iter::empty()).scores("anything").is_empty());
    }
}
