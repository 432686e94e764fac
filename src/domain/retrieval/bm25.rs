//! Okapi BM25 over the learnings: exact words matter (table names, tools, services), which a
//! static embedding blurs.

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words that carry no topic (sorted, and mirrored by [`is_stopword`]): function words, and the verbs that open
/// commit subjects, todo items and learnings ("Add …", "Write …", "Uses …"), which would
/// otherwise match any two texts that share an imperative.
#[cfg(test)]
const STOPWORDS: &[&str] = &[
    "a", "add", "added", "adds", "an", "and", "are", "as", "at", "be", "before", "by", "change",
    "document", "every", "fix", "fixes", "for", "from", "has", "have", "in", "instead", "into",
    "is", "it", "its", "keep", "keeps", "make", "makes", "new", "not", "of", "on", "only", "or",
    "over", "rather", "run", "runs", "so", "than", "that", "the", "their", "them", "then", "there",
    "these", "this", "to", "too", "update", "use", "uses", "was", "when", "with", "without",
    "write", "writes",
];

/// Calls `term` with each topic word of `text`: lower-cased, two or more characters, stop
/// words dropped, a plural `s` trimmed. One buffer is reused, so nothing is allocated per
/// word; ASCII text (nearly every learning) is split byte by byte.
fn for_each_term(text: &str, mut term: impl FnMut(&str)) {
    let mut buffer = String::with_capacity(32);
    let mut emit = |buffer: &str| {
        if buffer.len() < 2 || is_stopword(buffer) {
            return;
        }
        let stem = match buffer.strip_suffix('s') {
            Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem,
            _ => buffer,
        };
        term(stem);
    };
    if text.is_ascii() {
        for word in text.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
            if word.len() < 2 {
                continue;
            }
            buffer.clear();
            buffer.extend(word.iter().map(|b| char::from(b.to_ascii_lowercase())));
            emit(&buffer);
        }
        return;
    }
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.chars().nth(1).is_none() {
            continue;
        }
        buffer.clear();
        buffer.extend(word.chars().flat_map(char::to_lowercase));
        emit(&buffer);
    }
}

/// Whether a lower-cased word is in [`STOPWORDS`]; a `match` compiles to a switch on length
/// and a few comparisons, several times cheaper than bisecting the list for every word.
fn is_stopword(word: &str) -> bool {
    matches!(
        word,
        "a" | "add"
            | "added"
            | "adds"
            | "an"
            | "and"
            | "are"
            | "as"
            | "at"
            | "be"
            | "before"
            | "by"
            | "change"
            | "document"
            | "every"
            | "fix"
            | "fixes"
            | "for"
            | "from"
            | "has"
            | "have"
            | "in"
            | "instead"
            | "into"
            | "is"
            | "it"
            | "its"
            | "keep"
            | "keeps"
            | "make"
            | "makes"
            | "new"
            | "not"
            | "of"
            | "on"
            | "only"
            | "or"
            | "over"
            | "rather"
            | "run"
            | "runs"
            | "so"
            | "than"
            | "that"
            | "the"
            | "their"
            | "them"
            | "then"
            | "there"
            | "these"
            | "this"
            | "to"
            | "too"
            | "update"
            | "use"
            | "uses"
            | "was"
            | "when"
            | "with"
            | "without"
            | "write"
            | "writes"
    )
}

/// The topic words of `text` (see [`for_each_term`]), for tests and tools.
pub fn lexical_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for_each_term(text, |term| terms.push(term.to_owned()));
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
        let mut query_terms = lexical_terms(query);
        query_terms.sort();
        query_terms.dedup();
        let n = self.documents.len();
        let mut counts = vec![0u32; n * query_terms.len()];
        let mut lengths = vec![0f32; n];
        // First bytes of the query's terms: most words of a learning fail this test and are
        // never compared.
        let mut first_bytes = [false; 256];
        for term in &query_terms {
            first_bytes[usize::from(term.as_bytes()[0])] = true;
        }
        for (doc, text) in self.documents.iter().enumerate() {
            for_each_term(text, |term| {
                lengths[doc] += 1.0;
                if !first_bytes[usize::from(term.as_bytes()[0])] {
                    return;
                }
                if let Ok(q) = query_terms.binary_search_by(|probe| probe.as_str().cmp(term)) {
                    counts[doc * query_terms.len() + q] += 1;
                }
            });
        }
        let average = if n == 0 {
            0.0
        } else {
            lengths.iter().sum::<f32>() / n as f32
        };
        let idf: Vec<f32> = (0..query_terms.len())
            .map(|q| {
                let df = (0..n)
                    .filter(|doc| counts[doc * query_terms.len() + q] > 0)
                    .count() as f32;
                ((n as f32 - df + 0.5) / (df + 0.5) + 1.0).ln()
            })
            .collect();
        (0..n)
            .map(|doc| {
                let norm = K1 * (1.0 - B + B * lengths[doc] / average.max(1.0));
                idf.iter()
                    .enumerate()
                    .map(|(q, idf)| {
                        let tf = counts[doc * query_terms.len() + q] as f32;
                        if tf == 0.0 {
                            0.0
                        } else {
                            idf * tf * (K1 + 1.0) / (tf + norm)
                        }
                    })
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_stopword_match_and_list_agree() {
        assert!(
            STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]),
            "kept sorted for review"
        );
        assert!(STOPWORDS.iter().all(|word| is_stopword(word)));
        assert!(!is_stopword("migration") && !is_stopword("adds retries"));
    }

    #[rstest]
    #[case("Writes SQL migrations as forward-only files", &["sql", "migration", "forward", "file"])]
    #[case("The CI runners' caches", &["ci", "runner", "cache"])]
    #[case("address process", &["address", "process"])]
    #[case("Ünïcode WORDS", &["ünïcode", "word"])]
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
    fn an_empty_index_scores_nothing() {
        assert!(Bm25::new(std::iter::empty()).scores("anything").is_empty());
    }
}
