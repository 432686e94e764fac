//! Which learnings a session start shows: the ones most relevant to the project (embedding
//! similarity fused with BM25), else the most recent.

use std::collections::HashMap;

use crate::domain::context::Section;
use crate::domain::format::{ListedLearning, recent_learnings, relevant_learnings};
use crate::domain::ports::Embedder;
use crate::domain::retrieval::{
    Bm25, ProjectQuery, RankedLearning, StoredVectors, content_hash, fuse,
};
use crate::domain::seed::{Learning, LearningKind};

/// How many learnings to show and how similar they must be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetrievalSettings {
    /// Learnings shown at most.
    pub top_n: usize,
    /// Cosine similarity below which a learning is not shown as relevant; depends on the
    /// embedder (a static model's similarities run lower than a neural one's).
    pub floor: f32,
}

impl Default for RetrievalSettings {
    fn default() -> Self {
        Self {
            top_n: 5,
            floor: 0.22,
        }
    }
}

/// The learnings section and the score that ranked each learning it lists.
pub(super) struct Retrieved {
    pub section: Section,
    pub scores: HashMap<String, f32>,
    /// How many learnings the session could have been shown.
    pub visible: usize,
}

/// What a session start may show: the learnings the session may see (ADR 0010), and how many
/// characters its pinned ones may take.
pub(super) struct Candidates<'a> {
    /// The visible confirmed learnings.
    pub learnings: Vec<(LearningKind, &'a Learning)>,
    /// The pinned learnings' share of the budget, in characters.
    pub pinned_chars: usize,
}

/// Lists the pinned learnings first (newest first, as many as fit their share), then ranks
/// the rest for `query`, reusing `stored` vectors whose content hash still matches and
/// embedding the others with the query in one call. An embedder failure, or no learning above
/// the floor, falls back to the most recent ones (the failure becomes a diagnostic).
pub(super) async fn retrieve<E: Embedder>(
    embedder: &E,
    stored: &StoredVectors,
    candidates: Candidates<'_>,
    query: &ProjectQuery,
    settings: RetrievalSettings,
    diagnostics: &mut Vec<String>,
) -> Retrieved {
    let total = candidates.learnings.len();
    if total == 0 {
        return Retrieved {
            section: recent_learnings(&[], 0),
            scores: HashMap::new(),
            visible: total,
        };
    }
    let (pinned, rest) = split_pinned(candidates.learnings, candidates.pinned_chars);
    let pinned: Vec<ListedLearning<'_>> = pinned.iter().map(|e| listed(*e, None)).collect();
    if rest.is_empty() {
        return Retrieved {
            section: relevant_learnings(&pinned, total),
            scores: HashMap::new(),
            visible: total,
        };
    }
    let ranked = match rank(
        embedder,
        stored,
        &rest,
        &query.text(),
        Some(MAX_FRESH_AT_START),
    )
    .await
    {
        Ok((ranked, unembedded)) => {
            if unembedded > 0 {
                diagnostics.push(format!(
                    "{unembedded} learnings are not in the index and were ranked by their words \
                     only; run `carryover index`"
                ));
            }
            ranked
        }
        Err(problem) => {
            diagnostics.push(format!("{problem}; showing recent learnings"));
            return recency(pinned, &rest, total, settings.top_n);
        }
    };
    let ranked: Vec<_> = ranked
        .into_iter()
        .filter(|r| r.similarity >= settings.floor)
        .take(settings.top_n)
        .collect();
    if ranked.is_empty() {
        return recency(pinned, &rest, total, settings.top_n);
    }
    let mut shown = pinned;
    shown.extend(ranked.iter().map(|r| listed(rest[r.index], Some(r.fused))));
    let scores = shown
        .iter()
        .filter_map(|l| l.score.map(|score| (l.id.to_owned(), score)))
        .collect();
    Retrieved {
        section: relevant_learnings(&shown, total),
        scores,
        visible: total,
    }
}

/// A learning with its kind.
type Entry<'a> = (LearningKind, &'a Learning);

/// The pinned learnings that fit `share` characters, newest first, and every other learning
/// (pinned ones that did not fit are ranked like the rest).
fn split_pinned(learnings: Vec<Entry<'_>>, share: usize) -> (Vec<Entry<'_>>, Vec<Entry<'_>>) {
    let (mut pinned, mut rest): (Vec<_>, Vec<_>) =
        learnings.into_iter().partition(|(_, l)| l.pinned);
    pinned.sort_by_key(|(_, l)| std::cmp::Reverse(l.recency()));
    let mut used = 0;
    let mut kept = Vec::with_capacity(pinned.len());
    for entry in pinned {
        let cost = line_chars(entry.1);
        if used + cost <= share {
            used += cost;
            kept.push(entry);
        } else {
            rest.push(entry);
        }
    }
    (kept, rest)
}

/// What a learning's line costs in the section, roughly: its text and its kind's label.
fn line_chars(learning: &Learning) -> usize {
    learning.content.chars().count().min(MAX_LINE_CHARS) + LINE_OVERHEAD
}

/// The longest line a learning gets in the section (the list's own cut).
const MAX_LINE_CHARS: usize = 240;
/// Indent, kind and separator.
const LINE_OVERHEAD: usize = 20;

fn listed<'a>(
    (kind, learning): (LearningKind, &'a Learning),
    score: Option<f32>,
) -> ListedLearning<'a> {
    ListedLearning {
        id: &learning.id,
        kind,
        content: &learning.content,
        score,
    }
}

/// Learnings a session start embeds on the fly at most: beyond this (a large seed that was
/// never indexed) embedding them would take seconds, so they are ranked by their words only.
pub(super) const MAX_FRESH_AT_START: usize = 2_000;

/// Ranks `learnings` for `query_text`: stored vectors whose content hash still matches are
/// reused, the rest are embedded with the query in one call (unless there are more than
/// `max_fresh`: then none is, and they score 0 on similarity), and the cosine similarities
/// are fused with BM25. Best first, with how many learnings went without a vector.
pub(super) async fn rank<E: Embedder>(
    embedder: &E,
    stored: &StoredVectors,
    learnings: &[(LearningKind, &Learning)],
    query_text: &str,
    max_fresh: Option<usize>,
) -> Result<(Vec<RankedLearning>, usize), String> {
    let (mut similarity, unembedded) = similarities(
        embedder,
        stored,
        learnings,
        &[query_text.to_owned()],
        max_fresh,
    )
    .await?;
    let similarity = similarity.pop().unwrap_or_default();
    let lexical = Bm25::new(learnings.iter().map(|(_, l)| l.content.as_str())).scores(query_text);
    Ok((fuse(&similarity, &lexical), unembedded))
}

/// Each query's cosine similarity to each learning (one row per query, in `learnings`'
/// order), with how many learnings went without a vector. Stored vectors whose content hash
/// still matches are reused; the rest are embedded with the queries in one call, unless there
/// are more than `max_fresh` (then none is, and they score 0).
pub(super) async fn similarities<E: Embedder>(
    embedder: &E,
    stored: &StoredVectors,
    learnings: &[(LearningKind, &Learning)],
    queries: &[String],
    max_fresh: Option<usize>,
) -> Result<(Vec<Vec<f32>>, usize), String> {
    let slots: Vec<Option<usize>> = learnings
        .iter()
        .map(|(_, l)| stored.find_current(&l.id, content_hash(&l.content)))
        .collect();
    let missing = slots.iter().filter(|slot| slot.is_none()).count();
    let embed_missing = max_fresh.is_none_or(|max| missing <= max);
    let mut texts = queries.to_vec();
    if embed_missing {
        texts.extend(
            learnings
                .iter()
                .zip(&slots)
                .filter(|(_, slot)| slot.is_none())
                .map(|((_, l), _)| l.content.clone()),
        );
    }
    let fresh = embedder
        .embed(&texts)
        .await
        .map_err(|error| error.to_string())?;
    if fresh.len() != texts.len() {
        return Err("the embedder returned the wrong number of vectors".into());
    }
    let (query_vectors, fresh_vectors) = fresh.split_at(queries.len());
    let rows = query_vectors
        .iter()
        .map(|query_vector| {
            let mut fresh = fresh_vectors.iter();
            slots
                .iter()
                .map(|slot| match slot {
                    Some(slot) => stored.similarity(*slot, query_vector),
                    None if !embed_missing => 0.0,
                    None => dot(
                        fresh.next().expect("one fresh vector per missing learning"),
                        query_vector,
                    ),
                })
                .collect()
        })
        .collect();
    let unembedded = if embed_missing { 0 } else { missing };
    Ok((rows, unembedded))
}

/// Dot product; vectors of another size (a stale index of another model) score 0.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn recency<'a>(
    mut shown: Vec<ListedLearning<'a>>,
    rest: &[(LearningKind, &'a Learning)],
    total: usize,
    top_n: usize,
) -> Retrieved {
    let mut newest: Vec<&(LearningKind, &Learning)> = rest.iter().collect();
    newest.sort_by_key(|entry| std::cmp::Reverse(entry.1.recency()));
    shown.extend(
        newest
            .into_iter()
            .take(top_n)
            .map(|entry| listed(*entry, None)),
    );
    Retrieved {
        section: recent_learnings(&shown, total),
        scores: HashMap::new(),
        visible: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::EmbedError;
    use crate::domain::ports::MockEmbedder;
    use crate::domain::seed::Seed;

    fn seed() -> Seed {
        crate::application::testing::example_seed()
    }

    fn all(seed: &Seed) -> Candidates<'_> {
        Candidates {
            learnings: seed.confirmed_learnings().collect(),
            pinned_chars: 1_000,
        }
    }

    fn query() -> ProjectQuery {
        ProjectQuery {
            name: "shop-api".into(),
            recent_commits: vec!["Add retry budget to the HTTP client".into()],
            ..Default::default()
        }
    }

    /// An embedder that scores texts by whether they mention retries.
    fn keyword_embedder() -> MockEmbedder {
        let mut embedder = MockEmbedder::new();
        embedder.expect_embed().returning(|texts| {
            Ok(texts
                .iter()
                .map(|t| {
                    if t.contains("retr") {
                        vec![1.0, 0.0]
                    } else {
                        vec![0.6, 0.8]
                    }
                })
                .collect())
        });
        embedder
    }

    #[test]
    fn the_relevant_learning_comes_first_with_the_score_that_ranked_it() {
        let mut diagnostics = Vec::new();
        let retrieved = pollster::block_on(retrieve(
            &keyword_embedder(),
            &StoredVectors::default(),
            all(&seed()),
            &query(),
            RetrievalSettings::default(),
            &mut diagnostics,
        ));
        let text = retrieved.section.render();
        assert!(text.starts_with("Relevant learnings (5/12, ~"), "{text}");
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .starts_with("  pattern: Adds retries with exponential backoff"),
            "{text}"
        );
        assert_eq!(retrieved.scores["pat_Vb8kN2sPq5Wf"], 1.0);
        assert!(!text.contains('['), "no numbers for the model: {text}");
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn the_floor_drops_what_is_not_similar_enough() {
        let settings = RetrievalSettings {
            top_n: 5,
            floor: 0.9,
        };
        let retrieved = pollster::block_on(retrieve(
            &keyword_embedder(),
            &StoredVectors::default(),
            all(&seed()),
            &query(),
            settings,
            &mut Vec::new(),
        ));
        assert!(
            retrieved
                .section
                .render()
                .starts_with("Relevant learnings (1/12")
        );
    }

    #[test]
    fn an_unavailable_embedder_falls_back_to_recency() {
        let mut embedder = MockEmbedder::new();
        embedder.expect_embed().returning(|_| {
            Err(EmbedError::Unavailable {
                endpoint: "http://x".into(),
                message: "refused".into(),
            })
        });
        let mut diagnostics = Vec::new();
        let retrieved = pollster::block_on(retrieve(
            &embedder,
            &StoredVectors::default(),
            all(&seed()),
            &query(),
            RetrievalSettings::default(),
            &mut diagnostics,
        ));
        let text = retrieved.section.render();
        assert!(
            text.starts_with("Recent learnings (5/12):\n  pattern: Adds retries"),
            "{text}"
        );
        assert!(diagnostics[0].contains("refused"));
    }

    #[test]
    fn no_confirmed_learnings_says_so_without_embedding() {
        let mut embedder = MockEmbedder::new();
        embedder.expect_embed().never();
        let retrieved = pollster::block_on(retrieve(
            &embedder,
            &StoredVectors::default(),
            all(&Seed::default()),
            &query(),
            RetrievalSettings::default(),
            &mut Vec::new(),
        ));
        assert_eq!(retrieved.section.render(), "No confirmed learnings yet.");
    }

    #[test]
    fn stored_vectors_are_reused_while_their_content_is_unchanged() {
        let seed = seed();
        let mut builder = StoredVectors::builder();
        for (_, learning) in seed.confirmed_learnings() {
            builder.insert(&learning.id, content_hash(&learning.content), &[0.6, 0.8]);
        }
        builder.insert("pat_Vb8kN2sPq5Wf", 1, &[0.6, 0.8]);
        let stored = builder.finish();
        let mut embedder = MockEmbedder::new();
        embedder.expect_embed().times(1).returning(|texts| {
            assert_eq!(
                texts.len(),
                2,
                "the query and the one changed learning: {texts:?}"
            );
            Ok(vec![vec![1.0, 0.0], vec![1.0, 0.0]])
        });
        let retrieved = pollster::block_on(retrieve(
            &embedder,
            &stored,
            all(&seed),
            &query(),
            RetrievalSettings::default(),
            &mut Vec::new(),
        ));
        assert_eq!(retrieved.scores["pat_Vb8kN2sPq5Wf"], 1.0);
    }

    #[test]
    fn too_many_unindexed_learnings_are_ranked_by_words_without_embedding_them() {
        let seed = seed();
        let confirmed: Vec<(LearningKind, &Learning)> = seed.confirmed_learnings().collect();
        let mut embedder = MockEmbedder::new();
        embedder.expect_embed().times(1).returning(|texts| {
            assert_eq!(texts.len(), 1, "only the query is embedded");
            Ok(vec![vec![1.0, 0.0]])
        });
        let (ranked, unembedded) = pollster::block_on(rank(
            &embedder,
            &StoredVectors::default(),
            &confirmed,
            "retry budget for the HTTP client",
            Some(3),
        ))
        .unwrap();
        assert_eq!(unembedded, confirmed.len());
        assert!(ranked.iter().all(|r| r.similarity == 0.0));
        let best = confirmed[ranked[0].index].1;
        assert!(
            best.content.contains("retr"),
            "BM25 still ranks: {}",
            best.content
        );
    }

    fn pinned_seed(pins: &[&str]) -> Seed {
        let mut seed = seed();
        for learning in seed.learned.of_mut(LearningKind::Pattern).iter_mut() {
            learning.pinned = pins.iter().any(|pin| learning.content.contains(pin));
        }
        seed
    }

    #[test]
    fn pinned_learnings_open_the_section_whatever_the_ranking() {
        let seed = pinned_seed(&["Prefers"]);
        let pinned: Vec<&str> = seed
            .confirmed_learnings()
            .filter(|(_, l)| l.pinned)
            .map(|(_, l)| l.content.as_str())
            .collect();
        assert!(!pinned.is_empty(), "the fixture has a pattern to pin");
        let retrieved = pollster::block_on(retrieve(
            &keyword_embedder(),
            &StoredVectors::default(),
            all(&seed),
            &query(),
            RetrievalSettings::default(),
            &mut Vec::new(),
        ));
        let text = retrieved.section.render();
        let second = text.lines().nth(1).unwrap();
        assert!(second.contains(pinned[0]), "{text}");
        assert!(text.contains("retries"), "the ranked ones follow: {text}");
    }

    #[rstest::rstest]
    #[case::room_for_one(110, 1)]
    #[case::no_room(10, 0)]
    fn pinned_learnings_take_no_more_than_their_share(#[case] share: usize, #[case] first: usize) {
        let seed = pinned_seed(&["Prefers", "retries"]);
        let (kept, rest) = split_pinned(seed.confirmed_learnings().collect(), share);
        assert!(kept.iter().map(|(_, l)| line_chars(l)).sum::<usize>() <= share);
        assert_eq!(kept.len(), first);
        assert_eq!(kept.len() + rest.len(), seed.confirmed_learnings().count());
        assert!(
            rest.iter().any(|(_, l)| l.pinned),
            "what does not fit is ranked"
        );
    }
}
