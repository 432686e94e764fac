//! Learnings proposed from a session's user messages: the phrase rules' candidates, kept when
//! confident enough, new and within the per-session cap. New: no learning or proposal
//! (rejected ones included) that a session would see beside the candidate has its text or
//! nearly its meaning. The agent's own memories (ADR 0014) are proposed the same way, minus
//! the floor and the cap: the agent already chose them.

use std::sync::Arc;

use crate::domain::agent_memory::AgentMemory;
use crate::domain::extraction::{Candidate, Family, candidates_from, normalised};
use crate::domain::ports::{Clock, Embedder, EmbeddingIndex, IdGenerator};
use crate::domain::project::Project;
use crate::domain::retrieval::{StoredVectors, content_hash};
use crate::domain::scope::{ProposedScope, candidate_scope, scopes_overlap};
use crate::domain::seed::{Proposal, ProposalStatus, Seed};

/// How a proposal records that the phrase rules found it.
pub const METHOD: &str = "rules";

/// How a proposal records that it came from the agent's own memory.
pub const MEMORY_METHOD: &str = "claude-memory";

/// A memory's confidence: the agent judged it worth keeping, which no phrase rule can beat,
/// yet it may still be a passing note, so the user reviews it like any other.
pub const MEMORY_CONFIDENCE: f64 = 0.9;

/// Extraction settings (`[proposals]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProposalSettings {
    /// Propose learnings at session end at all.
    pub enabled: bool,
    /// Proposals one session may add at most.
    pub max_per_session: usize,
    /// Confidence a candidate needs (tuned on the dev set: 0.65 keeps every family's
    /// confident forms and the weaker habitual facts).
    pub floor: f64,
    /// Built-in model cosine at or above which a candidate repeats an existing learning or
    /// proposal (near-duplicates measured 0.81–1.00, distinct ones at most 0.53).
    pub duplicate_similarity: f32,
}

impl Default for ProposalSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            max_per_session: 5,
            floor: 0.65,
            duplicate_similarity: 0.8,
        }
    }
}

/// Why a candidate was not proposed.
#[derive(Debug, Clone, PartialEq)]
pub enum Dropped {
    /// Less confident than the floor.
    BelowFloor,
    /// A learning or proposal with the same text exists (its id, or the text of an earlier
    /// memory of the same batch).
    SameText(String),
    /// A learning or proposal says nearly the same (its id, or the text of an earlier
    /// candidate of the same session; the cosine).
    Similar(String, f32),
    /// The session's cap was reached.
    OverCap,
}

/// What extraction found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extraction {
    /// New pending proposals, most confident first.
    pub proposals: Vec<Proposal>,
    /// The candidates left out, and why.
    pub dropped: Vec<(Candidate, Dropped)>,
    /// What went wrong without stopping it (an embedder that did not answer).
    pub warnings: Vec<String>,
}

/// Where a session's messages come from: each proposal's source, and the project it is
/// scoped to when it is about that project (ADR 0010).
#[derive(Debug, Clone, Copy)]
pub struct ProposalOrigin<'a> {
    /// The session id, recorded as the proposal's source.
    pub session: &'a str,
    /// The session's project.
    pub project: &'a Project,
}

/// Finds proposals in user messages.
pub struct LearningProposals<E, I> {
    embedder: E,
    index: I,
    ids: Arc<dyn IdGenerator>,
    clock: Arc<dyn Clock>,
}

impl<E: Embedder, I: EmbeddingIndex> LearningProposals<E, I> {
    /// A service over the given ports.
    pub fn new(embedder: E, index: I, ids: Arc<dyn IdGenerator>, clock: Arc<dyn Clock>) -> Self {
        Self {
            embedder,
            index,
            ids,
            clock,
        }
    }

    /// Whether any candidate in `messages` clears the floor: cheap, and false for most
    /// sessions, so that the seed and the embedder are only consulted when it is true.
    pub fn worth_a_look(messages: &[String], settings: ProposalSettings) -> bool {
        candidates_from(messages)
            .iter()
            .any(|candidate| candidate.confidence >= settings.floor)
    }

    /// The proposals `messages` (one session's user messages, oldest first) yield against
    /// what `seed` already holds; `origin` gives each its source and scope.
    pub async fn extract(
        &self,
        messages: &[String],
        seed: &Seed,
        origin: ProposalOrigin<'_>,
        settings: ProposalSettings,
    ) -> Extraction {
        let mut extraction = Extraction::default();
        let known: Vec<(String, Known<'_>)> = known_texts(seed, origin.project)
            .map(|known| (normalised(known.text), known))
            .collect();
        let mut kept: Vec<Scoped> = Vec::new();
        for candidate in candidates_from(messages) {
            if candidate.confidence < settings.floor {
                extraction.dropped.push((candidate, Dropped::BelowFloor));
                continue;
            }
            let project = (candidate_scope(&candidate, &origin.project.name)
                == ProposedScope::Project)
                .then(|| origin.project.id.as_str().to_owned());
            let text = normalised(&candidate.text);
            match known.iter().find(|(known_text, known)| {
                *known_text == text && known.seen_with(project.as_deref())
            }) {
                Some((_, known)) => {
                    let id = known.id.to_owned();
                    extraction.dropped.push((candidate, Dropped::SameText(id)));
                }
                None => kept.push(Scoped { candidate, project }),
            }
        }
        if !kept.is_empty() {
            kept = self
                .drop_similar(kept, seed, origin.project, settings, &mut extraction)
                .await;
        }
        let now = self.clock.now();
        for (rank, Scoped { candidate, project }) in kept.into_iter().enumerate() {
            if rank >= settings.max_per_session {
                extraction.dropped.push((candidate, Dropped::OverCap));
                continue;
            }
            extraction.proposals.push(Proposal {
                id: self.ids.next_id("prp_"),
                kind: candidate.kind,
                content: candidate.text,
                source: origin.session.to_owned(),
                extracted_at: now,
                status: ProposalStatus::Pending,
                method: Some(METHOD.to_owned()),
                confidence: Some((candidate.confidence * 100.0).round() / 100.0),
                decided_at: None,
                project,
                extra: Default::default(),
            });
        }
        extraction
    }

    /// The proposals the agent's `memories` yield against what `seed` already holds: each is
    /// proposed as written unless a learning or proposal (or an earlier memory) says the same
    /// or nearly the same. `origin` gives their source and project; a memory about the user is
    /// global unless `force_project`.
    pub async fn from_memories(
        &self,
        memories: &[AgentMemory],
        seed: &Seed,
        origin: ProposalOrigin<'_>,
        force_project: bool,
        settings: ProposalSettings,
    ) -> Extraction {
        let mut extraction = Extraction::default();
        let mut known: Vec<(String, String, Option<String>)> = known_texts(seed, origin.project)
            .map(|known| {
                (
                    normalised(known.text),
                    known.id.to_owned(),
                    known.project.map(str::to_owned),
                )
            })
            .collect();
        let mut kept: Vec<Scoped> = Vec::new();
        for memory in memories {
            // A memory is the agent's own "remember that …".
            let candidate = Candidate {
                kind: memory.kind,
                text: memory.text.clone(),
                confidence: MEMORY_CONFIDENCE,
                family: Family::Reminder,
                said: memory.text.clone(),
            };
            let project = (memory.scope(force_project) == ProposedScope::Project)
                .then(|| origin.project.id.as_str().to_owned());
            let text = normalised(&memory.text);
            match known.iter().find(|(known_text, _, known_project)| {
                *known_text == text && scopes_overlap(known_project.as_deref(), project.as_deref())
            }) {
                Some((_, id, _)) => {
                    let id = id.clone();
                    extraction.dropped.push((candidate, Dropped::SameText(id)));
                }
                None => {
                    known.push((text, memory.text.clone(), project.clone()));
                    kept.push(Scoped { candidate, project });
                }
            }
        }
        if !kept.is_empty() {
            kept = self
                .drop_similar(kept, seed, origin.project, settings, &mut extraction)
                .await;
        }
        let now = self.clock.now();
        for Scoped { candidate, project } in kept {
            extraction.proposals.push(Proposal {
                id: self.ids.next_id("prp_"),
                kind: candidate.kind,
                content: candidate.text,
                source: origin.session.to_owned(),
                extracted_at: now,
                status: ProposalStatus::Pending,
                method: Some(MEMORY_METHOD.to_owned()),
                confidence: Some(MEMORY_CONFIDENCE),
                decided_at: None,
                project,
                extra: Default::default(),
            });
        }
        extraction
    }

    /// Keeps the candidates no existing learning or proposal that a session seeing the
    /// candidate also sees (nor an earlier candidate) says nearly the same as. Stored vectors
    /// serve the learnings; the rest are embedded in one call. When the embedder fails, only
    /// exact duplicates were dropped (and a warning says so).
    async fn drop_similar(
        &self,
        candidates: Vec<Scoped>,
        seed: &Seed,
        project: &Project,
        settings: ProposalSettings,
        extraction: &mut Extraction,
    ) -> Vec<Scoped> {
        let stored = self
            .index
            .load(&self.embedder.model_id())
            .await
            .unwrap_or_default();
        let known: Vec<Known<'_>> = known_texts(seed, project).collect();
        let slots: Vec<Option<usize>> = known
            .iter()
            .map(|known| stored.find_current(known.id, content_hash(known.text)))
            .collect();
        let mut texts: Vec<String> = candidates
            .iter()
            .map(|scoped| scoped.candidate.text.clone())
            .collect();
        texts.extend(
            known
                .iter()
                .zip(&slots)
                .filter(|(_, slot)| slot.is_none())
                .map(|(known, _)| known.text.to_owned()),
        );
        let vectors = match self.embedder.embed(&texts).await {
            Ok(vectors) if vectors.len() == texts.len() => vectors,
            Ok(_) => {
                extraction
                    .warnings
                    .push("the embedder returned the wrong number of vectors".into());
                return candidates;
            }
            Err(error) => {
                extraction.warnings.push(format!(
                    "{error}; proposals were checked for exact duplicates only"
                ));
                return candidates;
            }
        };
        let (candidate_vectors, fresh) = vectors.split_at(candidates.len());
        let mut fresh = fresh.iter();
        let known_vectors: Vec<KnownVector<'_>> = slots
            .iter()
            .map(|slot| match slot {
                Some(slot) => KnownVector::Stored(*slot),
                None => KnownVector::Fresh(fresh.next().expect("one vector per unstored text")),
            })
            .collect();
        let mut kept: Vec<(Scoped, &[f32])> = Vec::new();
        for (scoped, vector) in candidates.into_iter().zip(candidate_vectors) {
            let closest_known = known
                .iter()
                .zip(&known_vectors)
                .filter(|(known, _)| known.seen_with(scoped.project.as_deref()))
                .map(|(known, known_vector)| {
                    (
                        known.id.to_owned(),
                        known_vector.similarity(&stored, vector),
                    )
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            let closest_kept = kept
                .iter()
                .filter(|(other, _)| {
                    scopes_overlap(other.project.as_deref(), scoped.project.as_deref())
                })
                .map(|(other, other_vector)| {
                    (other.candidate.text.clone(), dot(other_vector, vector))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            let closest = [closest_known, closest_kept]
                .into_iter()
                .flatten()
                .max_by(|a, b| a.1.total_cmp(&b.1));
            match closest {
                Some((id, similarity)) if similarity >= settings.duplicate_similarity => {
                    extraction
                        .dropped
                        .push((scoped.candidate, Dropped::Similar(id, similarity)));
                }
                _ => kept.push((scoped, vector)),
            }
        }
        kept.into_iter().map(|(scoped, _)| scoped).collect()
    }
}

/// An existing learning's or proposal's vector: in the index, or embedded just now.
enum KnownVector<'a> {
    Stored(usize),
    Fresh(&'a [f32]),
}

impl KnownVector<'_> {
    fn similarity(&self, stored: &StoredVectors, vector: &[f32]) -> f32 {
        match self {
            Self::Stored(slot) => stored.similarity(*slot, vector),
            Self::Fresh(known) => dot(known, vector),
        }
    }
}

/// A candidate with the scope it would be proposed in (a project id, or `None` for global).
struct Scoped {
    candidate: Candidate,
    project: Option<String>,
}

/// A learning or proposal already in the seed.
struct Known<'a> {
    id: &'a str,
    text: &'a str,
    project: Option<&'a str>,
}

impl Known<'_> {
    /// Whether a session would see both this and a text proposed in `project`: only then is
    /// the same text twice a duplicate (ADR 0010), so one project's learning never keeps a
    /// candidate for another project out (a global candidate would reach that project too,
    /// so it is held back).
    fn seen_with(&self, project: Option<&str>) -> bool {
        scopes_overlap(self.project, project)
    }
}

/// Every learning (confirmed or not) and every proposal (whatever its status: a rejected one
/// must not come back), with `project`'s scopes spelled as it goes now (one stored before
/// its `origin` remote was added is still its own).
fn known_texts<'a>(seed: &'a Seed, project: &'a Project) -> impl Iterator<Item = Known<'a>> {
    let spelled = |stored: Option<&'a str>| stored.map(|stored| project.spelling(stored));
    seed.learned
        .iter()
        .map(move |(_, l)| Known {
            id: &l.id,
            text: &l.content,
            project: spelled(l.project.as_deref()),
        })
        .chain(seed.state.proposals.iter().map(move |p| Known {
            id: &p.id,
            text: &p.content,
            project: spelled(p.project.as_deref()),
        }))
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Adds to `seed` those of `proposals` (found in `project`) whose text it does not hold yet
/// where a session would see both (another process may have added one since extraction
/// looked); returns how many were added.
pub fn add_proposals(seed: &mut Seed, proposals: &[Proposal], project: &Project) -> usize {
    // Normalised once: this runs under the seed's lock, over every learning.
    let mut known: std::collections::HashMap<String, Vec<Option<String>>> =
        std::collections::HashMap::new();
    for existing in known_texts(seed, project) {
        known
            .entry(normalised(existing.text))
            .or_default()
            .push(existing.project.map(str::to_owned));
    }
    let mut added = 0;
    for proposal in proposals {
        let scopes = known.entry(normalised(&proposal.content)).or_default();
        let spelled = proposal
            .project
            .as_deref()
            .map(|stored| project.spelling(stored));
        if scopes
            .iter()
            .any(|known| scopes_overlap(known.as_deref(), spelled))
        {
            continue;
        }
        scopes.push(spelled.map(str::to_owned));
        seed.state.proposals.push(proposal.clone());
        added += 1;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{counting_ids, empty_index, fixed_clock, word_embedder};
    use crate::domain::EmbedError;
    use crate::domain::ports::{MockEmbedder, MockEmbeddingIndex};
    use crate::domain::seed::LearningKind;

    fn seed() -> Seed {
        crate::application::testing::example_seed()
    }

    fn origin() -> ProposalOrigin<'static> {
        static PROJECT: std::sync::LazyLock<Project> =
            std::sync::LazyLock::new(|| Project::at("/home/user/code/shop-api"));
        ProposalOrigin {
            session: "s1",
            project: &PROJECT,
        }
    }

    fn service(embedder: MockEmbedder) -> LearningProposals<MockEmbedder, MockEmbeddingIndex> {
        LearningProposals::new(embedder, empty_index(), counting_ids(), fixed_clock())
    }

    /// An embedder that puts the texts `same` accepts at one point and all others at another.
    fn embedder_matching(same: impl Fn(&str) -> bool + Send + 'static) -> MockEmbedder {
        let mut embedder = MockEmbedder::new();
        embedder.expect_model_id().returning(|| "m".into());
        embedder.expect_embed().returning(move |texts| {
            Ok(texts
                .iter()
                .map(|t| {
                    if same(t) {
                        vec![1.0, 0.0]
                    } else {
                        vec![0.0, 1.0]
                    }
                })
                .collect())
        });
        embedder
    }

    fn messages(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn proposals_carry_the_method_the_session_and_a_rounded_confidence() {
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&["I prefer early returns over nested if blocks."]),
            &seed(),
            origin(),
            ProposalSettings::default(),
        ));
        let proposal = &found.proposals[0];
        assert_eq!(
            proposal.content,
            "Prefers early returns over nested if blocks."
        );
        assert_eq!(proposal.kind, LearningKind::Pattern);
        assert_eq!(proposal.method.as_deref(), Some(METHOD));
        assert_eq!(proposal.source, "s1");
        assert_eq!(proposal.confidence, Some(0.85));
        assert_eq!(proposal.status, ProposalStatus::Pending);
        assert_eq!(proposal.id, "prp_1");
    }

    #[test]
    fn at_most_the_cap_most_confident_first() {
        let settings = ProposalSettings {
            max_per_session: 2,
            ..ProposalSettings::default()
        };
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&[
                "The integration tests need a running Postgres on port 5433.",
                "Never commit directly to main in this repo.",
                "I prefer early returns over nested if blocks.",
            ]),
            &seed(),
            origin(),
            settings,
        ));
        let kept: Vec<f64> = found
            .proposals
            .iter()
            .filter_map(|p| p.confidence)
            .collect();
        assert_eq!(kept, [0.85, 0.8]);
        assert!(matches!(found.dropped[..], [(_, Dropped::OverCap)]));
    }

    #[test]
    fn below_the_floor_is_not_proposed() {
        let settings = ProposalSettings {
            floor: 0.9,
            ..ProposalSettings::default()
        };
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&["Never commit directly to main in this repo."]),
            &seed(),
            origin(),
            settings,
        ));
        assert!(found.proposals.is_empty());
        assert!(matches!(found.dropped[..], [(_, Dropped::BelowFloor)]));
        assert!(
            !LearningProposals::<MockEmbedder, MockEmbeddingIndex>::worth_a_look(
                &messages(&["Never commit directly to main in this repo."]),
                settings
            )
        );
    }

    #[test]
    fn a_known_text_or_a_near_duplicate_is_not_proposed_again() {
        let mut seed = seed();
        seed.learned.patterns[0].content = "Never commit directly to main in this repo".into();
        let known = seed.learned.patterns[0].id.clone();
        // An embedder that finds "early returns" texts identical to the seed's first insight.
        let insight = seed.learned.insights[0].id.clone();
        let insight_text = seed.learned.insights[0].content.clone();
        let embedder = embedder_matching(move |t| t.contains("early returns") || t == insight_text);
        let found = pollster::block_on(service(embedder).extract(
            &messages(&[
                "Never commit directly to main in this repo!",
                "I prefer early returns over nested if blocks.",
            ]),
            &seed,
            origin(),
            ProposalSettings::default(),
        ));
        assert!(found.proposals.is_empty(), "{:?}", found.proposals);
        assert!(
            found
                .dropped
                .iter()
                .any(|(_, why)| *why == Dropped::SameText(known.clone()))
        );
        assert!(found.dropped.iter().any(
            |(_, why)| matches!(why, Dropped::Similar(id, s) if *id == insight && *s >= 0.99)
        ));
    }

    /// "in this repo" scopes the candidate to the session's project.
    const PROJECT_RULE: &str = "Never commit directly to main in this repo";

    #[rstest::rstest]
    #[case::another_projects_learning_does_not_hold_it_back(Some("other-project"), 1)]
    #[case::this_projects_learning_does(Some(origin().project.id.as_str()), 0)]
    #[case::a_global_learning_does(None, 0)]
    fn the_same_text_is_a_duplicate_only_where_a_session_sees_both(
        #[case] known_project: Option<&str>,
        #[case] proposed: usize,
    ) {
        let mut seed = seed();
        seed.learned.patterns[0].content = PROJECT_RULE.into();
        seed.learned.patterns[0].project = known_project.map(str::to_owned);
        // The rule's texts at one point: only scope can tell the candidate from the learning.
        let embedder = embedder_matching(|t| t.contains("main in this repo"));
        let found = pollster::block_on(service(embedder).extract(
            &messages(&[&format!("{PROJECT_RULE}!")]),
            &seed,
            origin(),
            ProposalSettings::default(),
        ));
        assert_eq!(found.proposals.len(), proposed, "{:?}", found.dropped);
        if let [proposal] = &found.proposals[..] {
            assert_eq!(
                proposal.project.as_deref(),
                Some(origin().project.id.as_str())
            );
        }
    }

    #[rstest::rstest]
    #[case::another_projects_memory(Some("other-project"), 1)]
    #[case::a_global_one(None, 0)]
    fn a_memory_is_a_duplicate_only_where_a_session_sees_both(
        #[case] known_project: Option<&str>,
        #[case] proposed: usize,
    ) {
        let mut seed = seed();
        seed.learned.patterns[0].content = "Squash before merging".into();
        seed.learned.patterns[0].project = known_project.map(str::to_owned);
        let embedder = embedder_matching(|t| t.contains("Squash"));
        let found = pollster::block_on(service(embedder).from_memories(
            &[memory(
                LearningKind::Pattern,
                "Squash before merging",
                false,
            )],
            &seed,
            origin(),
            false,
            ProposalSettings::default(),
        ));
        assert_eq!(found.proposals.len(), proposed, "{:?}", found.dropped);
    }

    #[test]
    fn a_text_stored_before_the_remote_was_added_is_still_this_projects() {
        let id = crate::domain::project::ProjectId::from_remote("git@github.com:acme/shop-api.git")
            .unwrap();
        let root = std::path::PathBuf::from("/home/user/code/shop-api");
        let project = Project::new(root.clone(), root, id);
        let origin = ProposalOrigin {
            session: "s1",
            project: &project,
        };
        let mut seed = seed();
        seed.learned.patterns[0].content = PROJECT_RULE.into();
        seed.learned.patterns[0].project = Some("path:/home/user/code/shop-api".into());
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&[&format!("{PROJECT_RULE}!")]),
            &seed,
            origin,
            ProposalSettings::default(),
        ));
        assert!(found.proposals.is_empty(), "{:?}", found.proposals);
        assert!(
            matches!(&found.dropped[..], [(_, Dropped::SameText(id))] if *id == seed.learned.patterns[0].id),
            "{:?}",
            found.dropped
        );

        let mut again = seed.clone();
        again.learned.patterns[0].content = "Something else entirely".into();
        let proposed = pollster::block_on(service(word_embedder()).extract(
            &messages(&[&format!("{PROJECT_RULE}!")]),
            &again,
            origin,
            ProposalSettings::default(),
        ))
        .proposals;
        assert_eq!(proposed.len(), 1);
        // A seed written before the remote holds the proposal under the path identity.
        let mut stored_by_path = proposed.clone();
        stored_by_path[0].project = Some("path:/home/user/code/shop-api".into());
        let mut before_the_remote = again.clone();
        before_the_remote
            .state
            .proposals
            .extend(stored_by_path.clone());
        assert_eq!(
            add_proposals(&mut before_the_remote, &proposed, &project),
            0
        );
        // Both spellings in one batch are one proposal.
        let both: Vec<Proposal> = stored_by_path.into_iter().chain(proposed).collect();
        assert_eq!(add_proposals(&mut again, &both, &project), 1);
    }

    #[test]
    fn adding_keeps_the_same_text_for_another_project() {
        let mut seed = seed();
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&[&format!("{PROJECT_RULE}!")]),
            &seed,
            origin(),
            ProposalSettings::default(),
        ));
        let mut elsewhere = found.proposals.clone();
        elsewhere[0].project = Some("other-project".into());
        elsewhere[0].id = "prp_other".into();
        assert_eq!(add_proposals(&mut seed, &elsewhere, origin().project), 1);
        assert_eq!(
            add_proposals(&mut seed, &found.proposals, origin().project),
            1
        );
        assert_eq!(
            add_proposals(&mut seed, &found.proposals, origin().project),
            0
        );
    }

    fn memory(kind: LearningKind, text: &str, about_user: bool) -> AgentMemory {
        AgentMemory {
            name: None,
            kind,
            text: text.into(),
            about_user,
        }
    }

    #[test]
    fn memories_are_proposed_with_their_kind_method_and_scope() {
        let found = pollster::block_on(service(word_embedder()).from_memories(
            &[
                memory(
                    LearningKind::Pattern,
                    "Keep pull requests under 400 lines",
                    false,
                ),
                memory(
                    LearningKind::SelfKnowledge,
                    "Mara reviews code in the mornings",
                    true,
                ),
            ],
            &seed(),
            origin(),
            false,
            ProposalSettings::default(),
        ));
        let shown: Vec<_> = found
            .proposals
            .iter()
            .map(|p| {
                (
                    p.kind,
                    p.project.is_some(),
                    p.method.as_deref(),
                    p.confidence,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (LearningKind::Pattern, true, Some(MEMORY_METHOD), Some(0.9)),
                (
                    LearningKind::SelfKnowledge,
                    false,
                    Some(MEMORY_METHOD),
                    Some(0.9)
                ),
            ]
        );
        assert_eq!(
            found.proposals[0].project.as_deref(),
            Some(origin().project.id.as_str())
        );
        assert!(found.dropped.is_empty());
    }

    #[test]
    fn forcing_the_project_scopes_a_user_memory_too() {
        let found = pollster::block_on(service(word_embedder()).from_memories(
            &[memory(
                LearningKind::SelfKnowledge,
                "Mara reviews code in the mornings",
                true,
            )],
            &seed(),
            origin(),
            true,
            ProposalSettings::default(),
        ));
        assert!(found.proposals[0].project.is_some());
    }

    #[test]
    fn a_memory_already_known_or_repeated_is_dropped_with_its_reason() {
        let mut seed = seed();
        seed.learned.insights[0].content = "Staging resets every Sunday".into();
        let known = seed.learned.insights[0].id.clone();
        let found = pollster::block_on(service(word_embedder()).from_memories(
            &[
                memory(LearningKind::Insight, "staging resets every sunday.", false),
                memory(LearningKind::Pattern, "Squash before merging", false),
                memory(LearningKind::Pattern, "Squash before merging!", false),
            ],
            &seed,
            origin(),
            false,
            ProposalSettings::default(),
        ));
        assert_eq!(found.proposals.len(), 1);
        let reasons: Vec<&Dropped> = found.dropped.iter().map(|(_, why)| why).collect();
        assert_eq!(
            reasons,
            [
                &Dropped::SameText(known),
                &Dropped::SameText("Squash before merging".into())
            ]
        );
    }

    #[test]
    fn a_memory_that_restates_a_learning_is_dropped_as_similar() {
        let seed = seed();
        let insight = seed.learned.insights[0].id.clone();
        let insight_text = seed.learned.insights[0].content.clone();
        let embedder = embedder_matching(move |t| t.starts_with("Restated") || t == insight_text);
        let found = pollster::block_on(service(embedder).from_memories(
            &[memory(LearningKind::Insight, "Restated insight", false)],
            &seed,
            origin(),
            false,
            ProposalSettings::default(),
        ));
        assert!(found.proposals.is_empty());
        assert!(matches!(&found.dropped[..], [(_, Dropped::Similar(id, _))] if *id == insight));
    }

    #[test]
    fn an_embedder_failure_leaves_exact_deduplication_and_a_warning() {
        let mut embedder = MockEmbedder::new();
        embedder.expect_model_id().returning(|| "m".into());
        embedder.expect_embed().returning(|_| {
            Err(EmbedError::Unavailable {
                endpoint: "http://127.0.0.1:9".into(),
                message: "refused".into(),
            })
        });
        let found = pollster::block_on(service(embedder).extract(
            &messages(&["I prefer early returns over nested if blocks."]),
            &seed(),
            origin(),
            ProposalSettings::default(),
        ));
        assert_eq!(found.proposals.len(), 1);
        assert!(found.warnings[0].contains("exact duplicates only"));
    }

    #[test]
    fn adding_skips_a_text_another_process_added_meanwhile() {
        let mut seed = seed();
        let found = pollster::block_on(service(word_embedder()).extract(
            &messages(&["I prefer early returns over nested if blocks."]),
            &seed,
            origin(),
            ProposalSettings::default(),
        ));
        assert_eq!(
            add_proposals(&mut seed, &found.proposals, origin().project),
            1
        );
        assert_eq!(
            add_proposals(&mut seed, &found.proposals, origin().project),
            0
        );
    }
}
