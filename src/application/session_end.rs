//! `hook session-end`: write the session's handoff and note when the last session ran.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::ChangeReason;
use crate::domain::agent_memory::{AgentMemory, parse_agent_memory, remembered_note_memory};
use crate::domain::handoff::{HandoffScope, ParsedHandoff, build_handoff, read_handoff};
use crate::domain::ports::{
    Clock, DigestScope, Embedder, EmbeddingIndex, HandoffStore, ProjectContext, SeedRepository,
    TranscriptReader,
};
use crate::domain::seed::Proposal;
use crate::domain::transcript::SessionDigest;

use super::{LearningProposals, ProposalOrigin, ProposalSettings, add_proposals};
use crate::domain::project::{Project, ProjectSlug, SlugStyle};
use crate::domain::session_id::SessionId;

/// How many active projects the seed's state remembers.
const ACTIVE_PROJECTS_KEPT: usize = 10;

/// Handoff settings (`[handoff]` in the configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandoffSettings {
    /// Write and inject handoffs at all.
    pub enabled: bool,
    /// Sessions that did no work and made fewer requests leave no handoff; one that did work
    /// leaves one whatever its length.
    pub min_turns: usize,
    /// How project directories are named.
    pub slug_style: SlugStyle,
}

impl Default for HandoffSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            min_turns: 2,
            slug_style: SlugStyle::Path,
        }
    }
}

/// What session-end was handed.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEndRequest {
    /// The session that ended.
    pub session_id: SessionId,
    /// Its transcript.
    pub transcript: Option<PathBuf>,
    /// Its working directory.
    pub cwd: PathBuf,
    /// Handoff settings.
    pub settings: HandoffSettings,
    /// Proposal extraction settings.
    pub proposals: ProposalSettings,
}

/// What session-end did.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEndOutcome {
    /// The handoff written, if one was.
    pub handoff: Option<PathBuf>,
    /// Why none was written, if none was.
    pub skipped: Option<String>,
    /// Learnings proposed from the session.
    pub proposals: usize,
    /// What went wrong without stopping it.
    pub warnings: Vec<String>,
}

/// Writes handoffs, proposes learnings from what the user said and from the memories the
/// agent saved, and records the last session. Never fails: problems become warnings.
pub struct SessionEnd<H, T, P, S, E, I> {
    handoffs: H,
    transcripts: T,
    projects: P,
    seeds: S,
    proposals: LearningProposals<E, I>,
    clock: Arc<dyn Clock>,
}

impl<H, T, P, S, E, I> SessionEnd<H, T, P, S, E, I>
where
    H: HandoffStore,
    T: TranscriptReader,
    P: ProjectContext,
    S: SeedRepository,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A service over the given ports.
    pub fn new(
        handoffs: H,
        transcripts: T,
        projects: P,
        seeds: S,
        proposals: LearningProposals<E, I>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            handoffs,
            transcripts,
            projects,
            seeds,
            proposals,
            clock,
        }
    }

    /// Handles the end of a session: one read of the transcript serves the proposals and the
    /// handoff, and one seed update records the last session (unless it held no request) with
    /// any proposals (committed only when there are proposals: the bookkeeping alone rides
    /// along with the next commit).
    pub async fn end(&self, request: SessionEndRequest) -> SessionEndOutcome {
        let mut outcome = SessionEndOutcome {
            handoff: None,
            skipped: None,
            proposals: 0,
            warnings: Vec::new(),
        };
        let project = self.projects.project(&request.cwd).await;
        let wanted = request.settings.enabled || request.proposals.enabled;
        let digest = match (&request.transcript, wanted) {
            (Some(transcript), true) => {
                match self
                    .transcripts
                    .digest(transcript, DigestScope::Whole)
                    .await
                {
                    Ok(digest) => Some(digest),
                    Err(error) => {
                        outcome.warnings.push(error.to_string());
                        None
                    }
                }
            }
            _ => None,
        };
        let proposals = match &digest {
            Some(digest) => {
                self.propose(&request, &project, digest, &mut outcome.warnings)
                    .await
            }
            None => Vec::new(),
        };
        // A session that held no request (opened and cleared at once) is no one's last session;
        // a `#` note or a memory it saved is still proposed.
        let empty = digest.as_ref().is_some_and(|digest| digest.user_turns == 0);
        if !empty || !proposals.is_empty() {
            outcome.proposals = self
                .record_last_session(
                    &request.session_id,
                    &project,
                    !empty,
                    proposals,
                    &mut outcome.warnings,
                )
                .await;
        }
        if !request.settings.enabled {
            outcome.skipped = Some("handoffs are disabled".to_owned());
            return outcome;
        }
        let Some(digest) = digest else {
            outcome.skipped = Some(match request.transcript {
                None => "no transcript_path in the payload".to_owned(),
                Some(_) => "the transcript could not be read".to_owned(),
            });
            return outcome;
        };
        let did_work = digest.work_done > 0 || !digest.commits.is_empty();
        if !did_work && digest.user_turns < request.settings.min_turns.max(1) {
            outcome.skipped = Some(match digest.user_turns {
                0 => "the session holds no request from the user".to_owned(),
                turns => format!(
                    "no work done and {turns} request(s), fewer than handoff.min_turns = {}",
                    request.settings.min_turns
                ),
            });
            return outcome;
        }
        let slug = project.slug(request.settings.slug_style);
        let previous = self
            .previous_handoff(&slug, &request.session_id, &mut outcome.warnings)
            .await;
        let handoff = build_handoff(
            &digest,
            HandoffScope {
                session_id: request.session_id.as_str(),
                project_name: &project.name,
                root: &project.root.to_string_lossy(),
                previous: previous.as_ref(),
            },
            self.clock.now(),
        );
        match self.handoffs.read_session(&slug, &request.session_id).await {
            Ok(Some(previous)) if richness_of(&previous) > handoff.richness() => {
                outcome.skipped = Some("this session already has a richer handoff".to_owned());
                return outcome;
            }
            Ok(_) => {}
            Err(error) => outcome.warnings.push(error.to_string()),
        }
        match self
            .handoffs
            .write(&slug, &request.session_id, &handoff.render())
            .await
        {
            Ok(path) => outcome.handoff = Some(path),
            Err(error) => outcome.warnings.push(error.to_string()),
        }
        outcome
    }

    /// The project's newest handoff of another session, whose open threads come along.
    async fn previous_handoff(
        &self,
        slug: &ProjectSlug,
        session: &SessionId,
        warnings: &mut Vec<String>,
    ) -> Option<ParsedHandoff> {
        let entries = match self.handoffs.list(slug).await {
            Ok(entries) => entries,
            Err(error) => {
                warnings.push(error.to_string());
                return None;
            }
        };
        let entry = entries
            .into_iter()
            .find(|entry| entry.session != session.as_str())?;
        match self.handoffs.read(&entry).await {
            Ok(text) => read_handoff(&text).ok(),
            Err(error) => {
                warnings.push(error.to_string());
                None
            }
        }
    }

    /// The proposals the session yields: the agent's memories it saved (ADR 0014), then what
    /// the user's messages say. The seed is read only when there is a memory or a rule
    /// candidate clears the floor, which most sessions' messages do not.
    async fn propose(
        &self,
        request: &SessionEndRequest,
        project: &Project,
        digest: &SessionDigest,
        warnings: &mut Vec<String>,
    ) -> Vec<Proposal> {
        let settings = request.proposals;
        if !settings.enabled {
            return Vec::new();
        }
        let memories: Vec<AgentMemory> = digest
            .agent_memories
            .iter()
            .filter_map(|text| parse_agent_memory(text).ok())
            .chain(
                digest
                    .remembered
                    .iter()
                    .filter_map(|note| remembered_note_memory(note).ok()),
            )
            .collect();
        let worth_it = LearningProposals::<E, I>::worth_a_look(&digest.user_requests, settings);
        if memories.is_empty() && !worth_it {
            return Vec::new();
        }
        let mut seed = match self.seeds.load().await {
            Ok(Some(loaded)) => loaded.seed,
            Ok(None) => return Vec::new(),
            Err(error) => {
                warnings.push(error.to_string());
                return Vec::new();
            }
        };
        let origin = ProposalOrigin {
            session: request.session_id.as_str(),
            project,
        };
        let mut proposals = Vec::new();
        if !memories.is_empty() {
            let harvest = self
                .proposals
                .from_memories(&memories, &seed, origin, false, settings)
                .await;
            warnings.extend(harvest.warnings);
            // The rules' candidates are then checked against the memories' proposals too: the
            // agent's wording of a preference beats the rules' restatement of it.
            seed.state
                .proposals
                .extend(harvest.proposals.iter().cloned());
            proposals = harvest.proposals;
        }
        if worth_it {
            let extraction = self
                .proposals
                .extract(&digest.user_requests, &seed, origin, settings)
                .await;
            warnings.extend(extraction.warnings);
            proposals.extend(extraction.proposals);
        }
        proposals
    }

    /// Records the session as the last one, in `project`, unless it held no request
    /// (`held_a_request` false), and adds `proposals` (found in `project`), in one update;
    /// returns how many proposals were added.
    async fn record_last_session(
        &self,
        session: &SessionId,
        project: &Project,
        held_a_request: bool,
        proposals: Vec<Proposal>,
        warnings: &mut Vec<String>,
    ) -> usize {
        let now = self.clock.now();
        let session = session.as_str().to_owned();
        let owner = project.clone();
        let project = held_a_request.then(|| project.name.clone());
        let ids: Vec<String> = proposals.iter().map(|p| p.id.clone()).collect();
        let result = self
            .seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(crate::domain::RuleError::NotInitialised)?;
                if let Some(project) = project {
                    seed.state.last_session_id = Some(session.clone());
                    seed.state.last_session_at = Some(now);
                    seed.state.active_projects.retain(|known| *known != project);
                    seed.state.active_projects.insert(0, project);
                    seed.state.active_projects.truncate(ACTIVE_PROJECTS_KEPT);
                }
                let proposals = add_proposals(&mut seed, &proposals, &owner);
                Ok((seed, ChangeReason::SessionEnd { session, proposals }))
            }))
            .await;
        match result {
            Ok(seed) => seed
                .state
                .proposals
                .iter()
                .filter(|p| ids.contains(&p.id))
                .count(),
            Err(crate::domain::SeedError::Rule(crate::domain::RuleError::NotInitialised)) => 0,
            Err(error) => {
                warnings.push(error.to_string());
                0
            }
        }
    }
}

/// Richness of a handoff already on disk, counted as a rendered one is: list items and
/// changed files.
fn richness_of(text: &str) -> usize {
    read_handoff(text).map_or(0, |parsed| {
        parsed.files_changed.len()
            + parsed
                .sections
                .iter()
                .map(|(_, lines)| {
                    lines
                        .iter()
                        .filter(|l| l.starts_with("- "))
                        .count()
                        .max(usize::from(!lines.is_empty()))
                })
                .sum::<usize>()
    })
}

/// Richness of a handoff about to be written, by the same measure as [`richness_of`].
#[cfg(test)]
fn rendered_richness(handoff: &crate::domain::handoff::Handoff) -> usize {
    richness_of(&handoff.render())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{
        counting_ids, empty_index, fixed_clock, project_at, word_embedder,
    };
    use crate::domain::HandoffError;
    use crate::domain::ports::{
        MockEmbedder, MockEmbeddingIndex, MockHandoffStore, MockSeedRepository,
        MockTranscriptReader,
    };

    use crate::domain::seed::{Seed, Timestamp};
    use crate::domain::transcript::{TodoItem, TodoStatus};
    use rstest::rstest;

    fn seeds() -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().returning(|edit| {
            let mut seed = Seed::default();
            seed.state.active_projects = vec!["notes".into(), "shop-api".into()];
            let (seed, reason) = edit(Some(seed))?;
            assert_eq!(reason.to_string(), "Session end: s1");
            assert_eq!(seed.state.active_projects, vec!["shop-api", "notes"]);
            assert_eq!(seed.state.last_session_id.as_deref(), Some("s1"));
            Ok(seed)
        });
        seeds
    }

    fn digest(turns: usize) -> SessionDigest {
        SessionDigest {
            user_requests: (0..turns).map(|n| format!("request {n}")).collect(),
            user_turns: turns,
            todos: vec![TodoItem {
                content: "Write tests".into(),
                status: TodoStatus::InProgress,
            }],
            ..SessionDigest::default()
        }
    }

    fn transcripts(turns: usize) -> MockTranscriptReader {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_digest().returning(move |_, scope| {
            assert_eq!(scope, DigestScope::Whole);
            Ok(digest(turns))
        });
        transcripts
    }

    fn request(settings: HandoffSettings) -> SessionEndRequest {
        SessionEndRequest {
            session_id: SessionId::parse("s1").unwrap(),
            transcript: Some("/t.jsonl".into()),
            cwd: "/home/user/code/shop-api".into(),
            settings,
            proposals: ProposalSettings::default(),
        }
    }

    type Service = SessionEnd<
        MockHandoffStore,
        MockTranscriptReader,
        crate::domain::ports::MockProjectContext,
        MockSeedRepository,
        MockEmbedder,
        MockEmbeddingIndex,
    >;

    /// The service for the shop-api project, proposing with the word embedder.
    fn service(
        handoffs: MockHandoffStore,
        transcripts: MockTranscriptReader,
        seeds: MockSeedRepository,
    ) -> Service {
        SessionEnd::new(
            handoffs,
            transcripts,
            project_at("/home/user/code/shop-api"),
            seeds,
            proposals(),
            fixed_clock(),
        )
    }

    fn proposals() -> LearningProposals<MockEmbedder, MockEmbeddingIndex> {
        LearningProposals::new(
            word_embedder(),
            empty_index(),
            counting_ids(),
            fixed_clock(),
        )
    }

    /// A transcript whose user states a preference and repeats a rejected proposal.
    fn opinionated() -> MockTranscriptReader {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_digest().returning(|_, _| {
            Ok(SessionDigest {
                user_requests: vec![
                    "Add the retry budget.".into(),
                    "I prefer table-driven tests with rstest over one function per case.".into(),
                    "Never squash the history of release branches.".into(),
                ],
                user_turns: 3,
                ..SessionDigest::default()
            })
        });
        transcripts
    }

    fn seed_with_rejected() -> Seed {
        let mut seed = Seed::default();
        seed.state.proposals.push(crate::domain::seed::Proposal {
            id: "prp_old".into(),
            kind: crate::domain::seed::LearningKind::Pattern,
            content: "Never squash the history of release branches".into(),
            source: "s0".into(),
            extracted_at: Timestamp::parse("2026-11-01T09:00:00Z").unwrap(),
            status: crate::domain::seed::ProposalStatus::Rejected,
            method: Some("rules".into()),
            confidence: Some(0.8),
            decided_at: None,
            project: None,
            extra: Default::default(),
        });
        seed
    }

    #[test]
    fn proposes_what_the_user_stated_in_the_same_commit_as_the_last_session() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().times(1).returning(|| {
            Ok(Some(crate::domain::ports::LoadedSeed {
                seed: seed_with_rejected(),
                repaired: None,
            }))
        });
        seeds.expect_update().times(1).returning(|edit| {
            let (seed, reason) = edit(Some(seed_with_rejected()))?;
            assert_eq!(reason.to_string(), "Session end: s1; propose 1 learning(s)");
            Ok(seed)
        });
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs.expect_read_session().returning(|_, _| Ok(None));
        handoffs
            .expect_write()
            .returning(|_, _, _| Ok(PathBuf::from("/h")));
        let service = service(handoffs, opinionated(), seeds);
        let outcome = pollster::block_on(service.end(request(HandoffSettings::default())));
        assert_eq!(
            outcome.proposals, 1,
            "the rejected one is not proposed again"
        );
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    }

    /// A transcript whose agent saved `memory` and whose user said `said`.
    fn remembering(memory: &'static str, said: &'static str) -> MockTranscriptReader {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_digest().returning(move |_, _| {
            Ok(SessionDigest {
                user_requests: vec![said.into()],
                user_turns: 1,
                agent_memories: vec![memory.into()],
                ..SessionDigest::default()
            })
        });
        transcripts
    }

    /// Seeds that hold nothing and expect one session-end commit proposing `expected`.
    fn seeds_expecting(expected: &'static [(&'static str, &'static str)]) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().times(1).returning(|| {
            Ok(Some(crate::domain::ports::LoadedSeed {
                seed: Seed::default(),
                repaired: None,
            }))
        });
        seeds.expect_update().times(1).returning(move |edit| {
            let (seed, reason) = edit(Some(Seed::default()))?;
            let proposed: Vec<(&str, &str)> = seed
                .state
                .proposals
                .iter()
                .map(|p| (p.method.as_deref().unwrap_or_default(), p.content.as_str()))
                .collect();
            assert_eq!(proposed, expected);
            assert_eq!(
                reason.to_string(),
                format!("Session end: s1; propose {} learning(s)", expected.len())
            );
            Ok(seed)
        });
        seeds
    }

    /// A session end of `transcripts` in shop-api with handoffs off, whose seed expects
    /// exactly the `expected` proposals (method, text).
    fn end_without_handoff(
        transcripts: MockTranscriptReader,
        expected: &'static [(&'static str, &'static str)],
    ) -> SessionEndOutcome {
        let service = SessionEnd::new(
            MockHandoffStore::new(),
            transcripts,
            project_at("/home/user/code/shop-api"),
            seeds_expecting(expected),
            proposals(),
            fixed_clock(),
        );
        let request = request(HandoffSettings {
            enabled: false,
            ..HandoffSettings::default()
        });
        pollster::block_on(service.end(request))
    }

    #[rstest]
    #[case::without_any_rule_candidate(
        "---\ndescription: Payments deploy on Thursdays only\ntype: project\n---\n",
        "Add the retry budget.",
        &[("claude-memory", "Payments deploy on Thursdays only")]
    )]
    #[case::over_the_rules_restatement(
        "---\ndescription: Prefers early returns over nested if blocks\ntype: feedback\n---\n",
        "I prefer early returns over nested if blocks.",
        &[("claude-memory", "Prefers early returns over nested if blocks")]
    )]
    #[case::beside_a_distinct_rule_proposal(
        "---\ndescription: Payments deploy on Thursdays only\ntype: project\n---\n",
        "I prefer early returns over nested if blocks.",
        &[("claude-memory", "Payments deploy on Thursdays only"), ("rules", "Prefers early returns over nested if blocks.")]
    )]
    fn proposes_the_agents_memories(
        #[case] memory: &'static str,
        #[case] said: &'static str,
        #[case] expected: &'static [(&'static str, &'static str)],
    ) {
        let outcome = end_without_handoff(remembering(memory, said), expected);
        assert_eq!(outcome.proposals, expected.len());
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    }

    #[test]
    fn proposes_what_the_user_asked_the_client_to_remember() {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_digest().returning(|_, _| {
            Ok(SessionDigest {
                user_requests: vec!["Add the retry budget.".into()],
                user_turns: 1,
                remembered: vec!["Always use pnpm,  never npm".into()],
                ..SessionDigest::default()
            })
        });
        let expected: &'static [(&str, &str)] = &[("claude-memory", "Always use pnpm, never npm")];
        assert_eq!(end_without_handoff(transcripts, expected).proposals, 1);
    }

    #[test]
    fn a_note_to_remember_is_proposed_even_from_a_session_with_no_request() {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_digest().returning(|_, _| {
            Ok(SessionDigest {
                remembered: vec!["Always use pnpm".into()],
                ..SessionDigest::default()
            })
        });
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| {
            Ok(Some(crate::domain::ports::LoadedSeed {
                seed: Seed::default(),
                repaired: None,
            }))
        });
        seeds.expect_update().times(1).returning(|edit| {
            let (seed, _) = edit(Some(Seed::default()))?;
            assert_eq!(seed.state.proposals[0].content, "Always use pnpm");
            // The proposal is kept; the empty session is still no one's last.
            assert_eq!(seed.state.last_session_id, None);
            assert!(seed.state.active_projects.is_empty());
            Ok(seed)
        });
        let service = service(MockHandoffStore::new(), transcripts, seeds);
        let request = request(HandoffSettings {
            enabled: false,
            ..HandoffSettings::default()
        });
        assert_eq!(pollster::block_on(service.end(request)).proposals, 1);
    }

    #[test]
    fn proposals_can_be_switched_off() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().never();
        seeds.expect_update().returning(|edit| {
            let (seed, reason) = edit(Some(Seed::default()))?;
            assert_eq!(reason.to_string(), "Session end: s1");
            Ok(seed)
        });
        let service = SessionEnd::new(
            MockHandoffStore::new(),
            opinionated(),
            project_at("/home/user/code/shop-api"),
            seeds,
            proposals(),
            fixed_clock(),
        );
        let mut request = request(HandoffSettings {
            enabled: false,
            ..HandoffSettings::default()
        });
        request.proposals.enabled = false;
        assert_eq!(pollster::block_on(service.end(request)).proposals, 0);
    }

    #[test]
    fn writes_the_handoff_of_a_real_session() {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs.expect_read_session().returning(|_, _| Ok(None));
        handoffs
            .expect_write()
            .times(1)
            .returning(|slug, session, text| {
                assert!(slug.as_str().starts_with("shop-api-"));
                assert!(
                    text.contains("## What's In Progress\n- Write tests"),
                    "{text}"
                );
                Ok(PathBuf::from(format!("/h/{}/handoff.md", session)))
            });
        let service = service(handoffs, transcripts(3), seeds());
        let outcome = pollster::block_on(service.end(request(HandoffSettings::default())));
        assert_eq!(outcome.handoff, Some(PathBuf::from("/h/s1/handoff.md")));
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    }

    #[rstest]
    #[case::too_short(1, HandoffSettings::default(), "fewer than handoff.min_turns = 2")]
    #[case::disabled(5, HandoffSettings { enabled: false, ..HandoffSettings::default() }, "disabled")]
    fn skips_without_writing(
        #[case] turns: usize,
        #[case] settings: HandoffSettings,
        #[case] why: &str,
    ) {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs.expect_write().never();
        let service = SessionEnd::new(
            handoffs,
            transcripts(turns),
            project_at("/home/user/code/shop-api"),
            seeds(),
            proposals(),
            fixed_clock(),
        );
        let outcome = pollster::block_on(service.end(request(settings)));
        assert!(outcome.skipped.unwrap().contains(why));
    }

    #[test]
    fn a_session_with_no_request_is_not_recorded_as_the_last_one() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_write().never();
        let mut transcripts = MockTranscriptReader::new();
        transcripts
            .expect_digest()
            .returning(|_, _| Ok(SessionDigest::default()));
        let service = service(handoffs, transcripts, seeds);
        let outcome = pollster::block_on(service.end(request(HandoffSettings::default())));
        assert_eq!(
            outcome.skipped.as_deref(),
            Some("the session holds no request from the user")
        );
    }

    #[test]
    fn never_replaces_a_richer_handoff_of_the_same_session() {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs.expect_read_session().returning(|_, _| {
            Ok(Some("---\nsession_id: s1\n---\n## What Was Accomplished\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n".into()))
        });
        handoffs.expect_write().never();
        let service = service(handoffs, transcripts(2), seeds());
        let outcome = pollster::block_on(service.end(request(HandoffSettings::default())));
        assert_eq!(
            outcome.skipped.as_deref(),
            Some("this session already has a richer handoff")
        );
    }

    #[test]
    fn an_equal_or_poorer_previous_handoff_is_replaced() {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs
            .expect_read_session()
            .returning(|_, _| Ok(Some("---\nsession_id: s1\n---\n## Notes\n- one\n".into())));
        handoffs
            .expect_write()
            .times(1)
            .returning(|_, _, _| Ok(PathBuf::from("/h")));
        let service = service(handoffs, transcripts(4), seeds());
        assert!(
            pollster::block_on(service.end(request(HandoffSettings::default())))
                .handoff
                .is_some()
        );
    }

    #[test]
    fn a_failing_store_is_a_warning() {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs.expect_read_session().returning(|_, _| Ok(None));
        handoffs.expect_write().returning(|_, _, _| {
            Err(HandoffError::Io {
                path: "/h".into(),
                source: std::io::ErrorKind::PermissionDenied.into(),
            })
        });
        let service = service(handoffs, transcripts(2), seeds());
        let outcome = pollster::block_on(service.end(request(HandoffSettings::default())));
        assert_eq!(outcome.handoff, None);
        assert_eq!(outcome.warnings.len(), 1);
    }

    #[test]
    fn rendered_richness_counts_items_and_files() {
        let handoff = build_handoff(
            &digest(3),
            HandoffScope {
                session_id: "s1",
                project_name: "p",
                root: "/p",
                previous: None,
            },
            Timestamp::parse("2026-11-22T18:40:00Z").unwrap(),
        );
        assert_eq!(rendered_richness(&handoff), handoff.richness());
    }
}
