//! Okapi BM25 over the learnings: exact words matter (table names, tools, services), which a
//! static embedding blurs.

use std::collections::HashMap;

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words that carry no topic: function words, and the verbs that open commit subjects, todo
/// items and learnings ("Add …", "Write …", "Uses …"), which would otherwise match any two
/// texts that share an imperative.
const STOPWORDS: &[&str] = &[
    "a", "add", "added", "adds", "an", "and", "are", "as", "at", "be", "before", "by", "change",
    "document", "every", "fix", "fixes", "for", "from", "has", "have", "in", "instead", "into",
    "is", "it", "its", "keep", "keeps", "make", "makes", "new", "not", "of", "on", "only", "or",
    "over", "rather", "run", "runs", "so", "than", "that", "the", "their", "them", "then", "there",
    "these", "this", "to", "too", "update", "use", "uses", "was", "when", "with", "without",
    "write", "writes",
];

/// Lower-cased words of two or more characters, stop words dropped, a plural `s` trimmed.
pub fn lexical_terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_owned(),
            _ => w,
        })
        .collect()
}

/// A BM25 index over a fixed list of documents.
#[derive(Debug, Clone)]
pub struct Bm25 {
    documents: Vec<HashMap<String, u32>>,
    lengths: Vec<f32>,
    average_length: f32,
    document_frequency: HashMap<String, u32>,
}

impl Bm25 {
    /// Indexes `documents` in order.
    pub fn new<'a>(documents: impl IntoIterator<Item = &'a str>) -> Self {
        let mut index = Self {
            documents: Vec::new(),
            lengths: Vec::new(),
            average_length: 0.0,
            document_frequency: HashMap::new(),
        };
        for document in documents {
            let terms = lexical_terms(document);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for term in &terms {
                *counts.entry(term.clone()).or_default() += 1;
            }
            for term in counts.keys() {
                *index.document_frequency.entry(term.clone()).or_default() += 1;
            }
            index.lengths.push(terms.len() as f32);
            index.documents.push(counts);
        }
        let total: f32 = index.lengths.iter().sum();
        index.average_length = if index.documents.is_empty() {
            0.0
        } else {
            total / index.documents.len() as f32
        };
        index
    }

    /// The score of every document for `query`, in document order.
    pub fn scores(&self, query: &str) -> Vec<f32> {
        let n = self.documents.len() as f32;
        let mut terms = lexical_terms(query);
        terms.sort();
        terms.dedup();
        self.documents
            .iter()
            .zip(&self.lengths)
            .map(|(counts, length)| {
                terms
                    .iter()
                    .filter_map(|term| {
                        let tf = *counts.get(term)? as f32;
                        let df = *self.document_frequency.get(term)? as f32;
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        let norm = K1 * (1.0 - B + B * length / self.average_length.max(1.0));
                        Some(idf * tf * (K1 + 1.0) / (tf + norm))
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

    #[rstest]
    #[case("Writes SQL migrations as forward-only files", &["sql", "migration", "forward", "file"])]
    #[case("The CI runners' caches", &["ci", "runner", "cache"])]
    #[case("address process", &["address", "process"])]
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
