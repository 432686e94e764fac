//! Composes what a session start injects: the start-up instruction, the notice about how the
//! session began, the identity, the project's newest handoff, the learnings relevant to the
//! project, the index of pending proposals and the session state.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::compaction::StartSource;
use crate::domain::context::{
    HARD_CAP_CHARS, Mode, Section, SessionContext, ShownLearning, compose, setup_notice,
    unusable_seed_notice,
};
use crate::domain::format::{identity_summary, proposal_index, session_state};
use crate::domain::handoff::{
    ParsedHandoff, SECTION_IN_PROGRESS, SECTION_NEXT_STEPS, handoff_section, read_handoff,
};
use crate::domain::ports::{
    Clock, ContextStateStore, Embedder, EmbeddingIndex, HandoffEntry, HandoffStore, ProjectContext,
    SeedRepository, TranscriptReader,
};
use crate::domain::project::{Project, ProjectSlug, SlugStyle};
use crate::domain::retrieval::{ProjectQuery, StoredVectors};
use crate::domain::seed::Seed;

use super::WindowSettings;
use super::learning_retrieval::{RetrievalSettings, Retrieved, retrieve};
use super::start_notice::start_notice;

/// What the caller wants composed.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextRequest {
    /// Full or complement.
    pub mode: Mode,
    /// Character budget of the text.
    pub budget_chars: usize,
    /// The session that is starting.
    pub start: StartInfo,
    /// Queued instructions (the start-up instruction first); they open the context.
    pub instructions: Vec<String>,
    /// How many learnings to show and how similar they must be.
    pub retrieval: RetrievalSettings,
}

/// The session that is starting, as the agent described it.
#[derive(Debug, Clone, PartialEq)]
pub struct StartInfo {
    /// The agent's session id.
    pub session_id: Option<String>,
    /// How it started; `None` for agents that do not say.
    pub source: Option<StartSource>,
    /// Its working directory.
    pub cwd: PathBuf,
    /// Its transcript.
    pub transcript: Option<PathBuf>,
    /// The payload's model, when sent.
    pub payload_model: Option<String>,
    /// Window and tier settings.
    pub window: WindowSettings,
    /// How the project's directory is named.
    pub slug_style: SlugStyle,
    /// Inject the project's newest handoff.
    pub handoffs_enabled: bool,
    /// The hook consumes one-time notices; a preview (`carryover context`) must not.
    pub consume: bool,
}

/// The handoff's share of the budget: it may not crowd out the learnings.
const HANDOFF_SHARE_PERCENT: usize = 40;

/// Handoffs tried, newest first, before giving up on finding a usable one.
const HANDOFF_CANDIDATES: usize = 5;

/// The newest usable handoff.
struct FoundHandoff {
    path: PathBuf,
    section: Section,
    parsed: ParsedHandoff,
}

/// Builds the session context. It never fails: whatever cannot be read becomes a short notice
/// in the text, a message for the user or a diagnostic, because a session must always start.
pub struct SessionContextService<S, St, T, P, H, E, I> {
    seeds: S,
    states: St,
    transcripts: T,
    projects: P,
    handoffs: H,
    embedder: E,
    index: I,
    clock: Arc<dyn Clock>,
}

impl<S, St, T, P, H, E, I> SessionContextService<S, St, T, P, H, E, I>
where
    S: SeedRepository,
    St: ContextStateStore,
    T: TranscriptReader,
    P: ProjectContext,
    H: HandoffStore,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A service over the given ports.
    #[allow(clippy::too_many_arguments)] // one per port; a builder would only hide them
    pub fn new(
        seeds: S,
        states: St,
        transcripts: T,
        projects: P,
        handoffs: H,
        embedder: E,
        index: I,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            seeds,
            states,
            transcripts,
            projects,
            handoffs,
            embedder,
            index,
            clock,
        }
    }

    /// The context for the session described by `request`, never longer than its budget nor
    /// than the client's hard cap, whatever the budget asks for.
    pub async fn compose(&self, mut request: ContextRequest) -> SessionContext {
        request.budget_chars = request.budget_chars.min(HARD_CAP_CHARS);
        let mut user_notices = Vec::new();
        let mut diagnostics = Vec::new();
        let project = self.projects.project(&request.start.cwd).await;
        let slug = project.slug(request.start.slug_style);
        let notice = start_notice(
            &self.states,
            &self.transcripts,
            &request.start,
            &slug,
            &mut diagnostics,
        )
        .await;
        let (notice_kind, notice_section) = match notice {
            Some((kind, section)) => (Some(kind), section),
            None => (None, Section::empty()),
        };
        let handoff = match request.start.handoffs_enabled {
            true => {
                self.newest_handoff(
                    &slug,
                    &request.start,
                    request.budget_chars,
                    &mut diagnostics,
                )
                .await
            }
            false => None,
        };
        let instructions = instruction_section(&request.instructions);
        let (handoff_path, handoff_section, handoff_parsed) = match handoff {
            Some(found) => (Some(found.path), found.section, Some(found.parsed)),
            None => (None, Section::empty(), None),
        };
        let mut context = match self.seeds.load().await {
            Ok(Some(loaded)) => {
                if let Some(repaired) = loaded.repaired {
                    user_notices.push(format!(
                        "repaired {}: {}; restored the version of commit {} and kept the bad file as {}",
                        self.seeds.location().display(),
                        repaired.problem,
                        repaired.from_commit,
                        repaired.kept.display()
                    ));
                }
                if loaded.seed.needs_setup() {
                    short(
                        [
                            instructions,
                            notice_section,
                            setup_notice(),
                            handoff_section,
                        ],
                        true,
                        &request,
                    )
                } else {
                    let query = self.query(&project, handoff_parsed.as_ref()).await;
                    let stored = self.stored_vectors(&mut diagnostics).await;
                    let retrieved = retrieve(
                        &self.embedder,
                        &stored,
                        &loaded.seed,
                        &query,
                        request.retrieval,
                        &mut diagnostics,
                    )
                    .await;
                    let opening = [instructions, notice_section];
                    self.full(opening, handoff_section, retrieved, &loaded.seed, &request)
                }
            }
            Ok(None) => short(
                [
                    instructions,
                    notice_section,
                    setup_notice(),
                    handoff_section,
                ],
                true,
                &request,
            ),
            Err(error) => {
                let problem = error.to_string();
                user_notices.push(problem.clone());
                let unusable = unusable_seed_notice(&problem);
                short(
                    [instructions, notice_section, unusable, handoff_section],
                    false,
                    &request,
                )
            }
        };
        context.startup_instruction = request
            .instructions
            .first()
            .and_then(|first| first.lines().next())
            .is_some_and(|first_line| context.text.starts_with(first_line));
        context.handoff =
            handoff_path.filter(|path| context.text.contains(&*path.to_string_lossy()));
        context.notice = notice_kind;
        context.user_notices = user_notices;
        context.diagnostics.extend(diagnostics);
        context
    }

    /// The learnings' stored vectors for this embedder; an unreadable index means embedding
    /// them all now (and a diagnostic suggesting `carryover index`).
    async fn stored_vectors(&self, diagnostics: &mut Vec<String>) -> StoredVectors {
        self.index
            .load(&self.embedder.model_id())
            .await
            .unwrap_or_else(|error| {
                diagnostics.push(error.to_string());
                StoredVectors::default()
            })
    }

    /// What the project is doing: name, branch, recent commits, and the newest handoff's open
    /// lines (ADR 0005).
    async fn query(&self, project: &Project, handoff: Option<&ParsedHandoff>) -> ProjectQuery {
        let facts = self.projects.facts(project).await;
        let lines = |heading: &str| -> Vec<String> {
            handoff
                .and_then(|h| h.sections.iter().find(|(name, _)| name == heading))
                .map(|(_, lines)| {
                    lines
                        .iter()
                        .map(|l| l.trim_start_matches("- ").to_owned())
                        .collect()
                })
                .unwrap_or_default()
        };
        ProjectQuery {
            name: project.name.clone(),
            branch: facts.branch,
            recent_commits: facts.recent_commits,
            in_progress: lines(SECTION_IN_PROGRESS),
            next_steps: lines(SECTION_NEXT_STEPS),
        }
    }

    /// The newest usable handoff of the project, as a section cut to its share of the budget.
    /// Empty, unreadable or malformed files are skipped with a diagnostic.
    async fn newest_handoff(
        &self,
        slug: &ProjectSlug,
        start: &StartInfo,
        budget: usize,
        diagnostics: &mut Vec<String>,
    ) -> Option<FoundHandoff> {
        let entries = match self.handoffs.list(slug).await {
            Ok(entries) => entries,
            Err(error) => {
                diagnostics.push(error.to_string());
                return None;
            }
        };
        // A resumed or compacted session already holds what its own handoff says; a new start
        // (even one that reuses the id, as `claude -p` does) is what the handoff is for.
        let continuing = matches!(
            start.source,
            Some(StartSource::Resume | StartSource::Compact)
        );
        let own = |entry: &HandoffEntry| {
            continuing && start.session_id.as_deref() == Some(entry.session.as_str())
        };
        let candidates = entries
            .into_iter()
            .filter(|entry| !own(entry))
            .take(HANDOFF_CANDIDATES);
        for entry in candidates {
            let text = match self.handoffs.read(&entry).await {
                Ok(text) => text,
                Err(error) => {
                    diagnostics.push(format!("skipped a handoff: {error}"));
                    continue;
                }
            };
            let parsed = match read_handoff(&text) {
                Ok(parsed) => parsed,
                Err(error) => {
                    diagnostics.push(format!("skipped {}: {error}", entry.path.display()));
                    continue;
                }
            };
            if let Some(warning) = &parsed.warning {
                diagnostics.push(format!("{}: {warning}", entry.path.display()));
            }
            let written = parsed.timestamp.unwrap_or(entry.modified);
            let share = budget * HANDOFF_SHARE_PERCENT / 100;
            let shown = entry.path.to_string_lossy();
            let section = handoff_section(&parsed, &shown, written, self.clock.now(), share);
            return Some(FoundHandoff {
                path: entry.path,
                section,
                parsed,
            });
        }
        None
    }

    fn full(
        &self,
        opening: [Section; 2],
        handoff: Section,
        retrieved: Retrieved,
        seed: &Seed,
        request: &ContextRequest,
    ) -> SessionContext {
        let mut sections: Vec<Section> = Vec::with_capacity(7);
        sections.extend(opening);
        if request.mode == Mode::Full {
            sections.push(identity_summary(&seed.identity));
        }
        sections.push(handoff);
        sections.push(retrieved.section);
        sections.push(proposal_index(&seed.state.proposals));
        sections.push(session_state(&seed.state, self.clock.now()));
        let composed = compose(sections, request.budget_chars);
        let learnings = shown_learnings(seed, &composed.keys, &retrieved.scores);
        SessionContext {
            text: composed.text,
            needs_setup: false,
            mode: request.mode,
            learnings,
            learnings_total: seed.confirmed_learnings().count(),
            proposal_count: seed.pending_proposals().count(),
            notice: None,
            handoff: None,
            startup_instruction: false,
            user_notices: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

/// The queued instructions, first line of each kept, the rest droppable to fit the budget.
fn instruction_section(instructions: &[String]) -> Section {
    let mut section = Section::empty();
    for instruction in instructions {
        let mut lines = instruction.lines();
        if let Some(first) = lines.next() {
            section.push_fixed(first.to_owned());
        }
        for line in lines {
            section.push_item(line.to_owned());
        }
    }
    section
}

/// A context without the seed's sections: first run, or a seed that cannot be used.
fn short(sections: [Section; 4], needs_setup: bool, request: &ContextRequest) -> SessionContext {
    SessionContext {
        text: compose(sections.into(), request.budget_chars).text,
        needs_setup,
        mode: request.mode,
        learnings: Vec::new(),
        learnings_total: 0,
        proposal_count: 0,
        notice: None,
        handoff: None,
        startup_instruction: false,
        user_notices: Vec::new(),
        diagnostics: Vec::new(),
    }
}

/// The learnings behind the keys the composed text kept, in the text's order, with their
/// scores. The keys are few, so the learnings are scanned once against them.
fn shown_learnings(
    seed: &Seed,
    keys: &[String],
    scores: &std::collections::HashMap<String, f32>,
) -> Vec<ShownLearning> {
    let mut found: Vec<Option<ShownLearning>> = vec![None; keys.len()];
    for (kind, learning) in seed.confirmed_learnings() {
        if let Some(slot) = keys.iter().position(|key| *key == learning.id) {
            found[slot] = Some(ShownLearning {
                id: learning.id.clone(),
                kind,
                content: learning.content.clone(),
                score: scores.get(&learning.id).copied(),
            });
        }
    }
    found.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{empty_index, fixed_clock, flat_embedder, project_at};
    use crate::domain::compaction::{ContextState, StartKind};
    use crate::domain::ports::{
        LoadedSeed, MockContextStateStore, MockEmbedder, MockEmbeddingIndex, MockHandoffStore,
        MockProjectContext, MockSeedRepository, MockTranscriptReader, Repaired,
    };

    use crate::domain::seed::{SeedDecodeError, Timestamp, decode_seed};
    use crate::domain::transcript::CompactBoundary;
    use crate::domain::{SeedError, StateError};
    use rstest::rstest;

    const EXAMPLE: &str = include_str!("../../tests/fixtures/seed/seed.json");

    fn seeds(result: fn() -> Result<Option<LoadedSeed>, SeedError>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().times(1).returning(result);
        seeds
            .expect_location()
            .returning(|| "/data/seed.json".into());
        seeds.expect_update().never();
        seeds
    }

    fn example() -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed: decode_seed(EXAMPLE).unwrap(),
            repaired: None,
        }))
    }

    fn no_state() -> MockContextStateStore {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| Ok(None));
        states.expect_update().never();
        states
    }

    type Service = SessionContextService<
        MockSeedRepository,
        MockContextStateStore,
        MockTranscriptReader,
        MockProjectContext,
        MockHandoffStore,
        MockEmbedder,
        MockEmbeddingIndex,
    >;

    fn no_handoffs() -> MockHandoffStore {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| Ok(Vec::new()));
        handoffs
    }

    fn service(
        seeds: MockSeedRepository,
        states: MockContextStateStore,
        transcripts: MockTranscriptReader,
    ) -> Service {
        with_handoffs(seeds, states, transcripts, no_handoffs())
    }

    fn with_handoffs(
        seeds: MockSeedRepository,
        states: MockContextStateStore,
        transcripts: MockTranscriptReader,
        handoffs: MockHandoffStore,
    ) -> Service {
        SessionContextService::new(
            seeds,
            states,
            transcripts,
            project_at("/home/user/code/notes"),
            handoffs,
            flat_embedder(),
            empty_index(),
            fixed_clock(),
        )
    }

    fn request(mode: Mode, source: Option<StartSource>, consume: bool) -> ContextRequest {
        ContextRequest {
            mode,
            budget_chars: 9_000,
            start: StartInfo {
                session_id: Some("s1".into()),
                source,
                cwd: "/home/user/code/notes".into(),
                transcript: Some("/t.jsonl".into()),
                payload_model: None,
                window: WindowSettings::default(),
                slug_style: SlugStyle::Path,
                handoffs_enabled: true,
                consume,
            },
            instructions: Vec::new(),
            retrieval: RetrievalSettings::default(),
        }
    }

    fn compose(service: &Service, request: ContextRequest) -> SessionContext {
        pollster::block_on(service.compose(request))
    }

    #[test]
    fn full_mode_holds_identity_learnings_proposals_and_state() {
        let service = service(seeds(example), no_state(), MockTranscriptReader::new());
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        for expected in [
            "<session-reset>New session started. No prior compaction state detected.</session-reset>",
            "Identity: Juno (serving Mara)",
            "Relevant learnings (5/12, ~",
            "Pending proposals (3, newest first):",
            "  T7nB3 insight  \"The fetcher's retry budget must stay bel...\" (0.84)",
            "Review: carryover proposals review",
            "Last session: 1 day ago (2026-11-21 18:40 UTC)",
            "Checkpoint: ckpt_2026-11-21_001",
        ] {
            assert!(
                context.text.contains(expected),
                "{expected:?} missing from:\n{}",
                context.text
            );
        }
        assert!(context.text.starts_with("<session-reset>"));
        assert!(
            !context.text.contains("Uses anyhow in binaries only"),
            "rejected proposal shown"
        );
        assert!(!context.needs_setup);
        assert_eq!((context.learnings_total, context.proposal_count), (12, 3));
        assert_eq!(context.learnings.len(), 5);
        assert!(
            context.learnings.iter().all(|l| l.score == Some(1.0)),
            "{:?}",
            context.learnings
        );
        assert_eq!(context.notice, Some(StartKind::Reset));
        assert!(context.user_notices.is_empty());
    }

    #[test]
    fn complement_mode_leaves_the_identity_out() {
        let service = service(seeds(example), no_state(), MockTranscriptReader::new());
        let context = compose(
            &service,
            request(Mode::Complement, Some(StartSource::Resume), true),
        );
        assert!(!context.text.contains("Identity:"));
        assert!(context.text.contains("Relevant learnings (5/12"));
        assert_eq!(context.mode, Mode::Complement);
        assert_eq!(context.notice, None, "a resume carries no notice");
    }

    fn placeholder() -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed: Seed::default(),
            repaired: None,
        }))
    }

    #[rstest]
    #[case::no_seed(|| Ok(None))]
    #[case::placeholder_principal(placeholder)]
    fn first_run_asks_for_init(#[case] result: fn() -> Result<Option<LoadedSeed>, SeedError>) {
        let service = service(seeds(result), no_state(), MockTranscriptReader::new());
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        assert!(context.needs_setup);
        assert!(context.text.contains("carryover init"), "{}", context.text);
        assert!(
            context.text.starts_with("<session-reset>"),
            "the notice comes first even then"
        );
        assert_eq!(context.learnings_total, 0);
    }

    #[test]
    fn an_unusable_seed_still_yields_a_context_and_tells_the_user() {
        let service = service(
            seeds(|| {
                Err(SeedError::Decode {
                    path: "/data/seed.json".into(),
                    source: SeedDecodeError::UnsupportedVersion {
                        found: "2.0.0".into(),
                    },
                })
            }),
            no_state(),
            MockTranscriptReader::new(),
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Resume), true),
        );
        assert!(
            context.text.contains("seed version 2.0.0 is not supported"),
            "{}",
            context.text
        );
        assert!(!context.needs_setup);
        assert_eq!(context.user_notices.len(), 1);
    }

    #[test]
    fn a_repair_is_reported_to_the_user() {
        let service = service(
            seeds(|| {
                Ok(Some(LoadedSeed {
                    seed: decode_seed(EXAMPLE).unwrap(),
                    repaired: Some(Repaired {
                        problem: "not valid JSON".into(),
                        kept: "/data/seed.json.corrupted-1".into(),
                        from_commit: "abc1234".into(),
                    }),
                }))
            }),
            no_state(),
            MockTranscriptReader::new(),
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Resume), true),
        );
        assert!(context.user_notices[0].contains("restored the version of commit abc1234"));
        assert!(context.text.contains("Identity: Juno"));
    }

    #[test]
    fn stays_within_a_small_budget() {
        let service = service(seeds(example), no_state(), MockTranscriptReader::new());
        let mut request = request(Mode::Full, Some(StartSource::Resume), true);
        request.budget_chars = 600;
        let context = compose(&service, request);
        assert!(context.text.chars().count() <= 600);
        assert!(context.text.starts_with("Identity: Juno"));
        assert!(context.learnings.len() < 11);
    }

    fn recorded_state() -> ContextState {
        ContextState {
            session_id: Some("s1".into()),
            pre_compaction_fill: Some(0.89),
            pre_compaction_tier: Some("EMERGENCY".into()),
            checkpoint: Some("/data/projects/p/checkpoints/c.md".into()),
            ..ContextState::default()
        }
    }

    #[rstest]
    #[case::consumed_by_the_hook(true, 1)]
    #[case::left_by_a_preview(false, 0)]
    fn a_recorded_compaction_is_reported_with_its_checkpoint(
        #[case] consume: bool,
        #[case] updates: usize,
    ) {
        let mut states = MockContextStateStore::new();
        states
            .expect_load()
            .returning(|_| Ok(Some(recorded_state())));
        states.expect_read_checkpoint().returning(|_, _| {
            Ok("# cp\n\n## Resumption summary\n\nLast requests:\n  - add retries\n".into())
        });
        states.expect_update().times(updates).returning(|_, edit| {
            let state = edit(Some(recorded_state()));
            assert_eq!(state.pre_compaction_fill, None, "the fill is consumed");
            assert_eq!(state.pre_compaction_tier.as_deref(), Some("EMERGENCY"));
            Ok(state)
        });
        let service = service(seeds(example), states, MockTranscriptReader::new());
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Compact), consume),
        );
        assert!(
            context.text.starts_with(
                "<compaction-notice tier=\"EMERGENCY\" fill=\"0.89\">Context was compacted at EMERGENCY tier (89% fill). Review checkpoint at /data/projects/p/checkpoints/c.md."
            ),
            "{}",
            context.text
        );
        assert!(
            context.text.contains(
                "Resumption summary from the checkpoint:\nLast requests:\n  - add retries"
            )
        );
        assert_eq!(context.notice, Some(StartKind::Compaction));
    }

    #[test]
    fn without_recorded_state_the_transcript_boundary_gives_the_figures() {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_last_compaction().returning(|_| {
            Ok(Some(CompactBoundary {
                pre_tokens: 171_243,
                trigger: Some("manual".into()),
            }))
        });
        transcripts.expect_last_usage().returning(|_| Ok(None));
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| Ok(None));
        states.expect_update().times(1).returning(|_, edit| {
            let state = edit(None);
            assert_eq!(state.reported_session.as_deref(), Some("s1"));
            Ok(state)
        });
        let service = service(seeds(example), states, transcripts);
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Compact), true),
        );
        assert!(
            context
                .text
                .starts_with("<compaction-notice tier=\"CRITICAL\" fill=\"0.86\">"),
            "{}",
            context.text
        );
    }

    #[test]
    fn a_second_start_of_a_reported_session_gets_no_notice() {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| {
            Ok(Some(ContextState {
                reported_session: Some("s1".into()),
                pre_compaction_fill: None,
                ..recorded_state()
            }))
        });
        states.expect_update().never();
        let service = service(seeds(example), states, MockTranscriptReader::new());
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Compact), true),
        );
        assert_eq!(context.notice, None);
        assert!(
            context.text.starts_with("Identity: Juno"),
            "{}",
            context.text
        );
    }

    #[test]
    fn a_fill_recorded_by_another_session_is_not_reported() {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| {
            Ok(Some(ContextState {
                session_id: Some("other".into()),
                ..recorded_state()
            }))
        });
        states
            .expect_update()
            .times(1)
            .returning(|_, edit| Ok(edit(None)));
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_last_compaction().returning(|_| Ok(None));
        let service = service(seeds(example), states, transcripts);
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Compact), true),
        );
        assert!(context.text.starts_with(
            "<compaction-notice>Context was compacted. No pre-compaction state was recorded.</compaction-notice>"
        ));
    }

    #[test]
    fn a_state_that_cannot_be_read_loses_the_notice_not_the_session() {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| {
            Err(StateError::Corrupt {
                path: "/s.json".into(),
                reason: "bad".into(),
            })
        });
        states.expect_update().never();
        let service = service(seeds(example), states, MockTranscriptReader::new());
        let context = compose(&service, request(Mode::Full, None, true));
        assert!(
            context.text.starts_with("<session-reset>"),
            "{}",
            context.text
        );
        assert!(context.text.contains("Identity: Juno"));
        assert_eq!(context.diagnostics.len(), 1);
    }

    #[test]
    fn without_a_source_a_recorded_fill_means_compaction() {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(|_| {
            Ok(Some(ContextState {
                checkpoint: None,
                ..recorded_state()
            }))
        });
        states
            .expect_update()
            .times(1)
            .returning(|_, edit| Ok(edit(None)));
        let service = service(seeds(example), states, MockTranscriptReader::new());
        let context = compose(&service, request(Mode::Full, None, true));
        assert_eq!(context.notice, Some(StartKind::Compaction));
    }

    fn entry(session: &str, minutes_ago: i64) -> HandoffEntry {
        let now = Timestamp::parse("2026-11-22T18:40:00Z").unwrap();
        HandoffEntry {
            session: session.into(),
            path: format!("/data/projects/p/sessions/{session}/handoff.md").into(),
            modified: Timestamp::new(now.instant() - time::Duration::minutes(minutes_ago)),
        }
    }

    fn handoffs(texts: &'static [(&'static str, &'static str)]) -> MockHandoffStore {
        let mut handoffs = MockHandoffStore::new();
        handoffs.expect_list().returning(|_| {
            Ok(texts
                .iter()
                .enumerate()
                .map(|(n, (s, _))| entry(s, n as i64 * 10))
                .collect())
        });
        handoffs.expect_read().returning(|entry| {
            Ok(texts
                .iter()
                .find(|(s, _)| *s == entry.session)
                .unwrap()
                .1
                .to_owned())
        });
        handoffs
    }

    #[test]
    fn the_newest_handoff_follows_the_identity() {
        let store = handoffs(&[(
            "prev",
            include_str!("../../tests/fixtures/handoff/handoff.md"),
        )]);
        let service = with_handoffs(
            seeds(example),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        let identity = context.text.find("Identity: Juno").unwrap();
        let handoff = context.text.find("Handoff from the previous session (23 hours ago, 2026-11-21 18:40 UTC; session 81b8f225, 14 turns):").unwrap();
        let learnings = context.text.find("Relevant learnings (").unwrap();
        assert!(
            identity < handoff && handoff < learnings,
            "{}",
            context.text
        );
        assert!(
            context
                .text
                .contains("Full handoff: /data/projects/p/sessions/prev/handoff.md")
        );
        assert_eq!(
            context.handoff,
            Some(PathBuf::from("/data/projects/p/sessions/prev/handoff.md"))
        );
    }

    #[test]
    fn an_empty_handoff_is_skipped_with_a_diagnostic() {
        let store = handoffs(&[
            ("empty", "  \n"),
            ("older", "## What's In Progress\n- the older one\n"),
        ]);
        let service = with_handoffs(
            seeds(example),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        assert!(
            context.text.contains("  - the older one"),
            "{}",
            context.text
        );
        assert!(
            context.diagnostics.iter().any(|d| d.contains("empty")),
            "{:?}",
            context.diagnostics
        );
    }

    #[test]
    fn a_new_start_that_reuses_the_id_gets_its_handoff() {
        let store = handoffs(&[("s1", "## Notes\n- mine\n")]);
        let service = with_handoffs(
            seeds(example),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        assert!(context.text.contains("  - mine"), "{}", context.text);
    }

    #[test]
    fn the_sessions_own_handoff_is_not_injected_back() {
        let store = handoffs(&[
            ("s1", "## Notes\n- mine\n"),
            ("s0", "## Notes\n- previous\n"),
        ]);
        let service = with_handoffs(
            seeds(example),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Resume), true),
        );
        assert!(
            context.text.contains("  - previous") && !context.text.contains("  - mine"),
            "{}",
            context.text
        );
    }

    #[test]
    fn disabled_handoffs_are_not_even_listed() {
        let mut store = MockHandoffStore::new();
        store.expect_list().never();
        let service = with_handoffs(
            seeds(example),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let mut request = request(Mode::Full, Some(StartSource::Startup), true);
        request.start.handoffs_enabled = false;
        assert_eq!(compose(&service, request).handoff, None);
    }

    #[test]
    fn a_first_run_still_gets_the_projects_handoff() {
        let store = handoffs(&[("prev", "## Notes\n- keep going\n")]);
        let service = with_handoffs(
            seeds(|| Ok(None)),
            no_state(),
            MockTranscriptReader::new(),
            store,
        );
        let context = compose(
            &service,
            request(Mode::Full, Some(StartSource::Startup), true),
        );
        assert!(context.needs_setup);
        assert!(context.text.contains("  - keep going"), "{}", context.text);
    }

    #[test]
    fn queued_instructions_open_the_context() {
        let service = service(seeds(example), no_state(), MockTranscriptReader::new());
        let mut request = request(Mode::Full, Some(StartSource::Startup), true);
        request.instructions = vec!["Run `make status` first.".into()];
        let context = compose(&service, request);
        assert!(
            context
                .text
                .starts_with("Run `make status` first.\n\n<session-reset>"),
            "{}",
            context.text
        );
        assert!(context.startup_instruction);
    }

    mod budget_property {
        use super::*;
        use crate::domain::seed::{Learning, Proposal, ProposalStatus};
        use proptest::prelude::*;

        fn text(max: usize) -> impl Strategy<Value = String> {
            proptest::string::string_regex(&format!("[a-zA-Z0-9 äé漢🙂<>&\"'\\n-]{{0,{max}}}"))
                .unwrap()
        }

        fn seed_with(learnings: &[String], proposals: &[String]) -> Seed {
            let mut seed = decode_seed(EXAMPLE).unwrap();
            let at = Timestamp::parse("2026-10-02T09:12:00Z").unwrap();
            seed.learned.patterns = learnings
                .iter()
                .enumerate()
                .map(|(n, content)| Learning {
                    id: format!("pat_{n:06}"),
                    content: format!("x{content}"),
                    source: String::new(),
                    extracted_at: at,
                    confirmed_at: Some(at),
                    confirmed: true,
                    tags: Vec::new(),
                    extra: Default::default(),
                })
                .collect();
            seed.state.proposals = proposals
                .iter()
                .enumerate()
                .map(|(n, content)| Proposal {
                    id: format!("prp_{n:06}"),
                    kind: crate::domain::seed::LearningKind::Insight,
                    content: format!("y{content}"),
                    source: String::new(),
                    extracted_at: at,
                    status: ProposalStatus::Pending,
                    method: None,
                    confidence: Some(0.5),
                    decided_at: None,
                    extra: Default::default(),
                })
                .collect();
            seed
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            /// Whatever the seed, handoff, start-up instructions and budget, the context stays
            /// within the budget and within the client's cap.
            #[test]
            fn the_context_never_exceeds_its_budget_or_the_cap(
                learnings in proptest::collection::vec(text(300), 0..120),
                proposals in proptest::collection::vec(text(200), 0..20),
                handoff in proptest::collection::vec(text(200), 0..150),
                instructions in proptest::collection::vec(text(3_000), 0..3),
                budget in prop_oneof![0usize..2_000, 2_000usize..12_000, Just(usize::MAX)],
            ) {
                let seed = seed_with(&learnings, &proposals);
                let mut seeds = MockSeedRepository::new();
                seeds.expect_load().returning(move || {
                    Ok(Some(LoadedSeed { seed: seed.clone(), repaired: None }))
                });
                seeds.expect_location().returning(|| "/data/seed.json".into());
                let handoff_text = format!("# Handoff\n\n## In Progress\n{}", handoff.join("\n- "));
                let mut handoffs = MockHandoffStore::new();
                handoffs.expect_list().returning(|_| Ok(vec![entry("s0", 5)]));
                handoffs.expect_read().returning(move |_| Ok(handoff_text.clone()));
                let service = with_handoffs(seeds, no_state(), MockTranscriptReader::new(), handoffs);
                let mut request = request(Mode::Full, Some(StartSource::Startup), false);
                request.budget_chars = budget;
                request.instructions = instructions;
                let context = compose(&service, request);
                let length = context.text.chars().count();
                prop_assert!(length <= budget.min(HARD_CAP_CHARS), "{length} > {budget}");
            }
        }
    }
}
