//! Starting a session: what `hook session-start` injects and what `carryover context` shows,
//! one use case. It decides what the moment calls for (a new conversation, a compaction, a
//! resume), gathers each part through the ports, lets the domain assemble them within the
//! budget, and, when it runs for real, records what it told the session.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::compaction::{ContextState, StartSource};
use crate::domain::context::{
    Assembled, HARD_CAP_CHARS, HandoffRule, Mode, Moment, Part, ProposalRule, Section,
    SessionContext, ShownLearning, assemble, setup_notice, unusable_seed_notice,
};
use crate::domain::format::{identity_summary, new_proposals_line, proposal_index, session_state};
use crate::domain::handoff::{
    HANDOFF_MAX_CHARS, HandoffOrigin, ParsedHandoff, SECTION_GOAL, SECTION_IN_PROGRESS,
    SECTION_NEXT_STEPS, SECTION_OPEN, handoff_section,
};
use crate::domain::ports::{
    Clock, ContextStateStore, Embedder, EmbeddingIndex, HandoffStore, ProjectCatalog,
    ProjectContext, SeedRepository, SessionRecordStore, TranscriptReader, amend_record,
};
use crate::domain::project::{Project, ProjectSlug, SlugStyle};
use crate::domain::retrieval::{ProjectQuery, StoredVectors};
use crate::domain::scope::Visibility;
use crate::domain::seed::{Proposal, Seed};
use crate::domain::session::Session;
use crate::domain::session_id::SessionId;
use crate::domain::session_record::SessionRecord;
use crate::domain::transcript::PriorInjection;

use super::handoffs::{FoundHandoff, HandoffFilter, Handoffs};
use super::known_projects::known_projects;
use super::learning_retrieval::{Candidates, RetrievalSettings, Retrieved, retrieve};
use super::start_notice::{NoticeInput, start_notice};
use super::{InstructionQueue, ListenerRegistry, WindowSettings};

/// The handoff's share of the budget: it may not crowd out the learnings.
const HANDOFF_SHARE_PERCENT: usize = 40;
/// The pinned learnings' share: standing rules open the learnings, but may not crowd out the
/// ones this session's work calls for.
const PINNED_SHARE_PERCENT: usize = 20;

/// How session starts are configured.
#[derive(Debug, Clone, PartialEq)]
pub struct StartSettings {
    /// Characters injected at most (never more than the client's cap).
    pub budget_chars: usize,
    /// Window and tier settings.
    pub window: WindowSettings,
    /// How the project's directory is named.
    pub slug_style: SlugStyle,
    /// Inject handoffs.
    pub handoffs_enabled: bool,
    /// How many learnings to show and how similar they must be.
    pub retrieval: RetrievalSettings,
}

/// The session that is starting, as the agent described it.
#[derive(Debug, Clone, PartialEq)]
pub struct StartRequest {
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
    /// Full or complement.
    pub mode: Mode,
    /// The hook consumes: it records what it told the session and reports a compaction once.
    /// A preview (`carryover context`) writes nothing.
    pub consume: bool,
}

/// What starting the session produced.
#[derive(Debug, Clone, PartialEq)]
pub struct StartOutcome {
    /// The context, and what it holds.
    pub context: SessionContext,
    /// For the user, beside the context (Claude Code's `systemMessage`), never for the model.
    pub user_messages: Vec<String>,
    /// For stderr and the log.
    pub diagnostics: Vec<String>,
}

/// The use case. It never fails: whatever cannot be read becomes a short notice in the text,
/// a message for the user or a diagnostic, because a session must always start.
pub struct StartSession<S, St, R, T, P, H, E, I> {
    seeds: S,
    states: St,
    records: R,
    transcripts: T,
    projects: P,
    handoffs: Handoffs<H>,
    embedder: E,
    index: I,
    listeners: ListenerRegistry,
    queue: Arc<InstructionQueue>,
    settings: StartSettings,
    clock: Arc<dyn Clock>,
    catalog: Option<Arc<dyn ProjectCatalog>>,
}

/// What the use case knows of the session while it runs.
struct Started {
    request: StartRequest,
    id: Option<SessionId>,
    project: Project,
    slug: ProjectSlug,
    record: Option<SessionRecord>,
    user_messages: Vec<String>,
    diagnostics: Vec<String>,
}

/// The parts gathered through the ports, before assembly.
struct Gathered {
    parts: Vec<(Part, Section)>,
    seed: Option<Seed>,
    needs_setup: bool,
    scores: HashMap<String, f32>,
    /// The confirmed learnings the session may see.
    visible: usize,
    /// The pending proposals the session may see (the global ones and its project's): what
    /// the user is told waits for review counts these, as the index lists them.
    proposals: Vec<Proposal>,
    handoff: Option<FoundHandoff>,
}

impl<S, St, R, T, P, H, E, I> StartSession<S, St, R, T, P, H, E, I>
where
    S: SeedRepository,
    St: ContextStateStore,
    R: SessionRecordStore,
    T: TranscriptReader,
    P: ProjectContext,
    H: HandoffStore,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A use case over the given ports. `listeners` hear of the session; what they queue in
    /// `queue` opens the context of a new conversation.
    #[allow(clippy::too_many_arguments)] // one per port; a builder would only hide them
    pub fn new(
        seeds: S,
        states: St,
        records: R,
        transcripts: T,
        projects: P,
        handoffs: H,
        embedder: E,
        index: I,
        listeners: ListenerRegistry,
        queue: Arc<InstructionQueue>,
        settings: StartSettings,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            seeds,
            states,
            records,
            transcripts,
            projects,
            handoffs: Handoffs::new(handoffs),
            embedder,
            index,
            listeners,
            queue,
            settings,
            clock,
            catalog: None,
        }
    }

    /// Knows the projects `catalog` lists, so that a global learning naming one of them stays
    /// out of the others (ADR 0010).
    pub fn with_catalog(mut self, catalog: Arc<dyn ProjectCatalog>) -> Self {
        self.catalog = Some(catalog);
        self
    }

    /// Starts the session described by `request`.
    pub async fn run(&self, request: StartRequest) -> StartOutcome {
        let mut started = self.begin(request).await;
        let state = self
            .states
            .load(&started.slug)
            .await
            .unwrap_or_else(|error| {
                started.diagnostics.push(error.to_string());
                None
            });
        let block = self.prior_block(&mut started).await;
        let moment = Moment::of(
            started.request.source,
            state.as_ref().is_some_and(|state| {
                state
                    .pending_for(started.request.session_id.as_deref())
                    .is_some()
            }),
            block,
        );
        let mut gathered = self.gather(&mut started, moment, state.as_ref()).await;
        let budget = self.settings.budget_chars.min(HARD_CAP_CHARS);
        let assembled = assemble(std::mem::take(&mut gathered.parts), budget);
        let context = self.context(&started, moment, &gathered, &assembled);
        let announced = self.tell_user(&mut started, &gathered);
        if started.request.consume {
            self.remember(&mut started, moment, &assembled, &gathered, announced)
                .await;
        }
        StartOutcome {
            context,
            user_messages: started.user_messages,
            diagnostics: started.diagnostics,
        }
    }

    async fn begin(&self, request: StartRequest) -> Started {
        let mut diagnostics = Vec::new();
        let project = self.projects.project(&request.cwd).await;
        let slug = project.slug(self.settings.slug_style);
        let id = request.session_id.as_deref().and_then(|raw| {
            SessionId::parse(raw)
                .map_err(|error| diagnostics.push(error.to_string()))
                .ok()
        });
        let record = match &id {
            Some(id) => self.records.load(&slug, id).await.unwrap_or_else(|error| {
                diagnostics.push(error.to_string());
                None
            }),
            None => None,
        };
        Started {
            request,
            id,
            project,
            slug,
            record,
            user_messages: Vec::new(),
            diagnostics,
        }
    }

    /// For a resume: when carryover's block, still in the transcript after its last
    /// compaction, was injected. The transcript's tail decides; where its bounded search
    /// cannot tell (or there is no transcript), the session's record does.
    async fn prior_block(&self, started: &mut Started) -> Option<crate::domain::seed::Timestamp> {
        if started.request.source != Some(StartSource::Resume) {
            return None;
        }
        let recorded = started.record.as_ref().and_then(|r| r.context_at);
        let Some(path) = started.request.transcript.as_deref() else {
            return recorded;
        };
        match self.transcripts.last_injection(path).await {
            Ok(PriorInjection::Found(at)) => Some(at),
            Ok(PriorInjection::Absent) => None,
            Ok(PriorInjection::Unknown) => recorded,
            Err(error) => {
                started.diagnostics.push(error.to_string());
                recorded
            }
        }
    }

    /// Each part the moment calls for, in the order the text shows them.
    async fn gather(
        &self,
        started: &mut Started,
        moment: Moment,
        state: Option<&ContextState>,
    ) -> Gathered {
        let plan = moment.plan();
        let mut parts = Vec::with_capacity(8);
        let instructions = self.instructions(started).await;
        if plan.instruction {
            parts.push((Part::Instruction, instruction_section(&instructions)));
        }
        if let Some(kind) = plan.notice {
            let input = NoticeInput {
                session_id: started.request.session_id.as_deref(),
                transcript: started.request.transcript.as_deref(),
                payload_model: started.request.payload_model.as_deref(),
                reported_window: started.record.as_ref().and_then(|r| r.context_window),
                window: &self.settings.window,
                consume: started.request.consume,
            };
            let notice = start_notice(
                &self.states,
                &self.transcripts,
                kind,
                &input,
                &started.slug,
                state,
                &mut started.diagnostics,
            )
            .await;
            parts.push((Part::Notice, notice.unwrap_or_default()));
        }
        let handoff = self.handoff(started, plan.handoff).await;
        let handoff_section = match &handoff {
            Some(found) => self.handoff_section(found, plan.handoff),
            None => Section::empty(),
        };
        let mut gathered = Gathered {
            parts,
            seed: None,
            needs_setup: false,
            scores: HashMap::new(),
            visible: 0,
            proposals: Vec::new(),
            handoff: None,
        };
        let seed = match self.seeds.load().await {
            Ok(Some(loaded)) => {
                if let Some(repaired) = loaded.repaired {
                    started
                        .user_messages
                        .push(repaired.message(&self.seeds.location()));
                }
                Some(loaded.seed).filter(|seed| !seed.needs_setup())
            }
            Ok(None) => None,
            Err(error) => {
                let problem = error.to_string();
                started.user_messages.push(problem.clone());
                if plan.seed {
                    gathered
                        .parts
                        .push((Part::Setup, unusable_seed_notice(&problem)));
                }
                gathered.parts.push((Part::Handoff, handoff_section));
                gathered.handoff = handoff;
                return gathered;
            }
        };
        let Some(seed) = seed else {
            gathered.needs_setup = true;
            if plan.seed {
                gathered.parts.push((Part::Setup, setup_notice()));
            }
            gathered.parts.push((Part::Handoff, handoff_section));
            gathered.handoff = handoff;
            return gathered;
        };
        if plan.seed && started.request.mode == Mode::Full {
            gathered
                .parts
                .push((Part::Identity, identity_summary(&seed.identity)));
        }
        gathered.parts.push((Part::Handoff, handoff_section));
        let known = match plan.seed || seed.pending_proposals().next().is_some() {
            true => known_projects(self.catalog.as_deref(), &seed).await,
            false => Vec::new(),
        };
        let project = started.project.clone();
        let visibility = Visibility::new(&project, known);
        if plan.seed {
            let retrieved = self
                .learnings(
                    started,
                    &seed,
                    handoff.as_ref().map(|h| &h.parsed),
                    &visibility,
                )
                .await;
            gathered.parts.push((Part::Learnings, retrieved.section));
            gathered.scores = retrieved.scores;
            gathered.visible = retrieved.visible;
        }
        gathered.proposals = seed
            .pending_proposals()
            .filter(|p| visibility.admits_proposal(p))
            .cloned()
            .collect();
        let proposals = match plan.proposals {
            ProposalRule::Index => {
                proposal_index(&seed.state.proposals, |p| visibility.admits_proposal(p))
            }
            ProposalRule::NewSince { at } => {
                new_proposals_line(&seed.state.proposals, at, |p| visibility.admits_proposal(p))
            }
        };
        gathered.parts.push((Part::Proposals, proposals));
        if plan.seed {
            gathered
                .parts
                .push((Part::State, session_state(&seed.state, self.clock.now())));
        }
        gathered.handoff = handoff;
        gathered.seed = Some(seed);
        gathered
    }

    /// Lets the listeners hear of the session and takes what they queued.
    async fn instructions(&self, started: &mut Started) -> Vec<String> {
        let session = Session {
            id: started.request.session_id.clone(),
            source: started.request.source,
            project: started.project.clone(),
        };
        let active = self.listeners.start(session).await;
        let notes = active.notes().clone();
        started.user_messages.extend(notes.user_messages);
        started.diagnostics.extend(notes.diagnostics);
        self.queue.drain()
    }

    /// The handoff `rule` asks for, if the project has one.
    async fn handoff(&self, started: &mut Started, rule: HandoffRule) -> Option<FoundHandoff> {
        if !self.settings.handoffs_enabled {
            return None;
        }
        let own = started.request.session_id.clone();
        let filter = match rule {
            HandoffRule::None => return None,
            HandoffRule::Newest { own_excluded } => HandoffFilter {
                exclude_sessions: own.filter(|_| own_excluded).into_iter().collect(),
                written_after: None,
            },
            // What changed since: not the session's own, nor one it was already shown.
            HandoffRule::OtherSince { at } => HandoffFilter {
                exclude_sessions: own
                    .into_iter()
                    .chain(
                        started
                            .record
                            .iter()
                            .flat_map(|r| r.handoffs.iter().cloned()),
                    )
                    .collect(),
                written_after: Some(at),
            },
        };
        match self.handoffs.newest(&started.slug, &filter).await {
            Ok(search) => {
                started.diagnostics.extend(search.skipped);
                search.found
            }
            Err(error) => {
                started.diagnostics.push(error.to_string());
                None
            }
        }
    }

    fn handoff_section(&self, found: &FoundHandoff, rule: HandoffRule) -> Section {
        let origin = match rule {
            HandoffRule::OtherSince { .. } => HandoffOrigin::EndedMeanwhile,
            _ => HandoffOrigin::Previous,
        };
        let share = (self.settings.budget_chars.min(HARD_CAP_CHARS) * HANDOFF_SHARE_PERCENT / 100)
            .min(HANDOFF_MAX_CHARS);
        handoff_section(
            &found.parsed,
            origin,
            &found.entry.path.to_string_lossy(),
            found.written,
            self.clock.now(),
            share,
        )
    }

    /// The learnings ranked for what the project is doing.
    async fn learnings(
        &self,
        started: &mut Started,
        seed: &Seed,
        handoff: Option<&ParsedHandoff>,
        visibility: &Visibility<'_>,
    ) -> Retrieved {
        let query = self.query(&started.project, handoff).await;
        let stored = self
            .index
            .load(&self.embedder.model_id())
            .await
            .unwrap_or_else(|error| {
                started.diagnostics.push(error.to_string());
                StoredVectors::default()
            });
        let candidates = Candidates {
            learnings: seed
                .confirmed_learnings()
                .filter(|(_, learning)| visibility.admits(learning))
                .collect(),
            pinned_chars: self.settings.budget_chars.min(HARD_CAP_CHARS) * PINNED_SHARE_PERCENT
                / 100,
        };
        retrieve(
            &self.embedder,
            &stored,
            candidates,
            &query,
            self.settings.retrieval,
            &mut started.diagnostics,
        )
        .await
    }

    /// What the project is doing: name, branch, recent commits, and the handoff's goal and open
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
            // The goal and the open threads say what the work is about as much as the
            // in-progress lines do.
            in_progress: [SECTION_GOAL, SECTION_OPEN, SECTION_IN_PROGRESS]
                .into_iter()
                .flat_map(lines)
                .collect(),
            next_steps: lines(SECTION_NEXT_STEPS),
        }
    }

    fn context(
        &self,
        started: &Started,
        moment: Moment,
        gathered: &Gathered,
        assembled: &Assembled,
    ) -> SessionContext {
        let seed = gathered.seed.as_ref();
        let learnings = seed
            .map(|seed| shown_learnings(seed, &assembled.learnings, &gathered.scores))
            .unwrap_or_default();
        SessionContext {
            text: assembled.text.clone(),
            needs_setup: gathered.needs_setup,
            mode: started.request.mode,
            moment,
            learnings,
            learnings_total: gathered.visible,
            proposal_count: gathered.proposals.len(),
            startup_instruction: assembled.shows(Part::Instruction),
            handoff: gathered
                .handoff
                .as_ref()
                .filter(|_| assembled.shows(Part::Handoff))
                .map(|found| found.entry.path.clone()),
            notice: moment
                .plan()
                .notice
                .filter(|_| assembled.shows(Part::Notice)),
        }
    }

    /// What the user (not the model) should hear: set-up, and proposals waiting for their
    /// review, once per session. Returns whether the proposals were announced now.
    fn tell_user(&self, started: &mut Started, gathered: &Gathered) -> bool {
        if gathered.needs_setup {
            started
                .user_messages
                .push("run `carryover init` to give the assistant its identity".to_owned());
        }
        let already = started
            .record
            .as_ref()
            .is_some_and(|r| r.proposals_announced);
        let message = proposals_message(&gathered.proposals);
        match message.filter(|_| !already) {
            Some(message) => {
                started.user_messages.push(message);
                true
            }
            None => false,
        }
    }

    /// Records what the session was told, so that a resume, a prompt or a later start does
    /// not repeat it.
    async fn remember(
        &self,
        started: &mut Started,
        moment: Moment,
        assembled: &Assembled,
        gathered: &Gathered,
        announced: bool,
    ) {
        let injected = !assembled.text.is_empty();
        let Some(id) = started.id.clone().filter(|_| injected || announced) else {
            return;
        };
        let now = self.clock.now();
        let learnings = assembled.learnings.clone();
        let handoff = gathered
            .handoff
            .as_ref()
            .filter(|_| assembled.shows(Part::Handoff))
            .map(|found| found.entry.session.clone());
        let instructed = assembled.shows(Part::Instruction);
        let compacted = moment == Moment::Compacted;
        let result = self
            .records
            .update(
                &started.slug,
                &id,
                amend_record(move |record| {
                    if compacted {
                        record.compacted();
                    }
                    if injected {
                        record.note_context(now, &learnings, handoff.as_deref());
                    }
                    record.startup_instruction |= instructed;
                    record.proposals_announced |= announced;
                }),
            )
            .await;
        if let Err(error) = result {
            started.diagnostics.push(error.to_string());
        }
    }
}

/// The command the user reviews proposals with; the message names it.
const PROPOSALS_REVIEW: &str = "carryover proposals review";

/// `3 learnings proposed from your last session — carryover proposals review`, when any of
/// `pending` (the ones this session may see) wait.
fn proposals_message(pending: &[Proposal]) -> Option<String> {
    let first = pending.first()?;
    let noun = if pending.len() == 1 {
        "learning"
    } else {
        "learnings"
    };
    let from = if pending.iter().all(|p| p.source == first.source) {
        "your last session"
    } else {
        "your recent sessions"
    };
    Some(format!(
        "{} {noun} proposed from {from} — {PROPOSALS_REVIEW}",
        pending.len()
    ))
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

/// The learnings behind the ids the composed text kept, in the text's order, with the scores
/// that ranked them. The ids are few, so the learnings are scanned once against them.
fn shown_learnings(
    seed: &Seed,
    ids: &[String],
    scores: &HashMap<String, f32>,
) -> Vec<ShownLearning> {
    let mut found: Vec<Option<ShownLearning>> = vec![None; ids.len()];
    for (kind, learning) in seed.confirmed_learnings() {
        if let Some(slot) = ids.iter().position(|id| *id == learning.id) {
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
    use crate::application::testing::{NOW, empty_index, fixed_clock, flat_embedder, project_at};
    use crate::application::{ListenerNotes, MockSessionListener, Priority};
    use crate::domain::compaction::StartKind;
    use crate::domain::ports::{
        HandoffEntry, LoadedSeed, MockContextStateStore, MockEmbedder, MockEmbeddingIndex,
        MockHandoffStore, MockProjectContext, MockSeedRepository, MockSessionRecordStore,
        MockTranscriptReader, Repaired,
    };
    use crate::domain::seed::{SeedDecodeError, Timestamp, decode_seed};
    use crate::domain::transcript::{CompactBoundary, ContextUsage};
    use crate::domain::{SeedError, StateError};
    use rstest::rstest;
    use std::sync::Mutex;

    const EXAMPLE: &str = include_str!("../../tests/fixtures/seed/seed.json");
    const HANDOFF: &str = include_str!("../../tests/fixtures/handoff/handoff.md");

    type Service = StartSession<
        MockSeedRepository,
        MockContextStateStore,
        MockSessionRecordStore,
        MockTranscriptReader,
        MockProjectContext,
        MockHandoffStore,
        MockEmbedder,
        MockEmbeddingIndex,
    >;

    fn example() -> Result<Option<LoadedSeed>, SeedError> {
        Ok(Some(LoadedSeed {
            seed: decode_seed(EXAMPLE).unwrap(),
            repaired: None,
        }))
    }

    fn minutes_ago(minutes: i64) -> Timestamp {
        let now = Timestamp::parse(NOW).unwrap();
        Timestamp::new(now.instant() - time::Duration::minutes(minutes))
    }

    /// Everything the ports hold, as plain data; [`Setup::run`] turns it into mocks.
    struct Setup {
        seed: fn() -> Result<Option<LoadedSeed>, SeedError>,
        state: Result<Option<ContextState>, ()>,
        record: Option<SessionRecord>,
        injection: PriorInjection,
        boundary: Option<CompactBoundary>,
        usage_model: Option<&'static str>,
        /// (session, minutes ago, text), newest first.
        handoffs: Vec<(&'static str, i64, &'static str)>,
        instructions: Vec<&'static str>,
        budget: usize,
        handoffs_enabled: bool,
    }

    /// What a run produced, and what it wrote.
    struct Ran {
        outcome: StartOutcome,
        records: Vec<SessionRecord>,
        states: Vec<ContextState>,
    }

    impl Ran {
        fn text(&self) -> &str {
            &self.outcome.context.text
        }
    }

    impl Default for Setup {
        fn default() -> Self {
            Self {
                seed: example,
                state: Ok(None),
                record: None,
                injection: PriorInjection::Absent,
                boundary: None,
                usage_model: None,
                handoffs: Vec::new(),
                instructions: Vec::new(),
                budget: 9_000,
                handoffs_enabled: true,
            }
        }
    }

    fn request(source: Option<StartSource>, consume: bool) -> StartRequest {
        StartRequest {
            session_id: Some("s1".into()),
            source,
            cwd: "/home/user/code/notes".into(),
            transcript: Some("/t.jsonl".into()),
            payload_model: None,
            mode: Mode::Full,
            consume,
        }
    }

    impl Setup {
        fn run(self, request: StartRequest) -> Ran {
            let records_written = Arc::new(Mutex::new(Vec::new()));
            let states_written = Arc::new(Mutex::new(Vec::new()));
            let mut seeds = MockSeedRepository::new();
            let load = self.seed;
            seeds.expect_load().times(1).returning(load);
            seeds
                .expect_location()
                .returning(|| "/data/seed.json".into());
            seeds.expect_update().never();

            let mut states = MockContextStateStore::new();
            let state = self.state.clone();
            states.expect_load().returning(move |_| {
                state.clone().map_err(|()| StateError::Corrupt {
                    path: "/s.json".into(),
                    reason: "bad".into(),
                })
            });
            states.expect_read_checkpoint().returning(|_, _| {
                Ok("# cp\n\n## Resumption summary\n\nLast requests:\n  - add retries\n".into())
            });
            let current = self.state.clone().ok().flatten();
            let written = states_written.clone();
            states.expect_update().returning(move |_, edit| {
                let state = edit(current.clone());
                written.lock().unwrap().push(state.clone());
                Ok(state)
            });

            let mut records = MockSessionRecordStore::new();
            let record = self.record.clone();
            records
                .expect_load()
                .returning(move |_, _| Ok(record.clone()));
            let current = self.record.clone();
            let written = records_written.clone();
            records.expect_update().returning(move |_, _, edit| {
                let record = edit(current.clone());
                written.lock().unwrap().push(record.clone());
                Ok(record)
            });

            let mut transcripts = MockTranscriptReader::new();
            let injection = self.injection;
            transcripts
                .expect_last_injection()
                .returning(move |_| Ok(injection));
            let boundary = self.boundary.clone();
            transcripts
                .expect_last_compaction()
                .returning(move |_| Ok(boundary.clone()));
            let model = self.usage_model;
            transcripts.expect_last_usage().returning(move |_| {
                Ok(model.map(|m| ContextUsage {
                    tokens: 1,
                    model: Some(m.into()),
                }))
            });

            let mut handoffs = MockHandoffStore::new();
            let listed = self.handoffs.clone();
            handoffs.expect_list().returning(move |_| {
                Ok(listed
                    .iter()
                    .map(|(session, minutes, _)| HandoffEntry {
                        session: (*session).into(),
                        path: format!("/data/projects/p/sessions/{session}/handoff.md").into(),
                        modified: minutes_ago(*minutes),
                    })
                    .collect())
            });
            let texts = self.handoffs.clone();
            handoffs.expect_read().returning(move |entry| {
                Ok(texts
                    .iter()
                    .find(|(s, ..)| *s == entry.session)
                    .unwrap()
                    .2
                    .to_owned())
            });

            let queue = Arc::new(InstructionQueue::new());
            let mut listener = MockSessionListener::new();
            let (into, instructions) = (queue.clone(), self.instructions.clone());
            listener.expect_on_session_changed().returning(move |_| {
                for text in &instructions {
                    into.queue((*text).to_owned(), Priority::High);
                }
                ListenerNotes::default()
            });
            let mut listeners = ListenerRegistry::new();
            listeners.register(Arc::new(listener));

            let service: Service = StartSession::new(
                seeds,
                states,
                records,
                transcripts,
                project_at("/home/user/code/notes"),
                handoffs,
                flat_embedder(),
                empty_index(),
                listeners,
                queue,
                StartSettings {
                    budget_chars: self.budget,
                    window: WindowSettings::default(),
                    slug_style: SlugStyle::Path,
                    handoffs_enabled: self.handoffs_enabled,
                    retrieval: RetrievalSettings::default(),
                },
                fixed_clock(),
            );
            let outcome = pollster::block_on(service.run(request));
            Ran {
                outcome,
                records: records_written.lock().unwrap().clone(),
                states: states_written.lock().unwrap().clone(),
            }
        }
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

    #[test]
    fn a_new_session_gets_every_part_in_order_ending_with_the_marker() {
        let ran = Setup {
            handoffs: vec![("s0", 60, HANDOFF)],
            instructions: vec!["Run `make status` first."],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        let text = ran.text();
        let order = [
            "Run `make status` first.",
            "<session-reset>New session started. No prior compaction state detected.</session-reset>",
            "Identity: Juno (serving Mara)",
            "Handoff from the previous session (",
            "Relevant learnings (5/11, ~",
            "Proposed learnings awaiting the user's review (3, newest first):",
            "Last session: 1 day ago (2026-11-21 18:40 UTC)",
            "[carryover: session context]",
        ];
        let mut at = 0;
        for expected in order {
            let found = text[at..]
                .find(expected)
                .unwrap_or_else(|| panic!("{expected:?} missing after {at} in:\n{text}"));
            at += found + expected.len();
        }
        assert!(
            !text.contains("Uses anyhow in binaries only"),
            "rejected proposal shown"
        );
        let context = &ran.outcome.context;
        assert_eq!(context.moment, Moment::Fresh);
        // 12 confirmed, less the one about shop-api (another project the seed knows): this is
        // the notes project (ADR 0010).
        assert_eq!((context.learnings_total, context.proposal_count), (11, 3));
        assert!(!text.contains("shop-api integration tests"), "{text}");
        assert_eq!(context.learnings.len(), 5);
        assert!(context.startup_instruction);
        assert_eq!(context.notice, Some(StartKind::Reset));
        assert_eq!(
            context.handoff,
            Some(PathBuf::from("/data/projects/p/sessions/s0/handoff.md"))
        );
    }

    #[test]
    fn what_the_session_was_told_is_recorded_once_by_the_hook_and_never_by_a_preview() {
        let setup = || Setup {
            handoffs: vec![("s0", 60, HANDOFF)],
            instructions: vec!["Run `make status` first."],
            ..Setup::default()
        };
        let ran = setup().run(request(Some(StartSource::Startup), true));
        let [record] = ran.records.as_slice() else {
            panic!("one record written: {:?}", ran.records)
        };
        assert_eq!(record.context_at, Some(Timestamp::parse(NOW).unwrap()));
        assert!(record.startup_instruction && record.proposals_announced);
        assert_eq!(record.handoffs, ["s0"]);
        let shown: Vec<&str> = ran
            .outcome
            .context
            .learnings
            .iter()
            .map(|l| l.id.as_str())
            .collect();
        assert_eq!(record.learnings, shown);

        let preview = setup().run(request(Some(StartSource::Startup), false));
        assert!(preview.records.is_empty() && preview.states.is_empty());
        assert_eq!(
            preview.text(),
            ran.text(),
            "a preview shows what the hook injects"
        );
    }

    #[test]
    fn the_user_not_the_model_hears_of_waiting_proposals_once_per_session() {
        let ran = Setup::default().run(request(Some(StartSource::Startup), true));
        assert!(
            !ran.text().contains("carryover proposals"),
            "{}",
            ran.text()
        );
        assert_eq!(
            ran.outcome.user_messages,
            ["3 learnings proposed from your recent sessions — carryover proposals review"]
        );
        let again = Setup {
            record: Some(SessionRecord {
                proposals_announced: true,
                ..SessionRecord::default()
            }),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Clear), true));
        assert!(again.outcome.user_messages.is_empty());
    }

    /// The example seed with its newest pending proposal belonging to another project.
    fn example_with_another_projects_proposal() -> Result<Option<LoadedSeed>, SeedError> {
        let mut seed = decode_seed(EXAMPLE).unwrap();
        let proposal = seed
            .state
            .proposals
            .iter_mut()
            .find(|p| p.is_pending())
            .unwrap();
        proposal.project = Some("path:/home/user/code/shop-api".into());
        Ok(Some(LoadedSeed {
            seed,
            repaired: None,
        }))
    }

    #[test]
    fn another_projects_proposals_are_not_counted_as_waiting_here() {
        let ran = Setup {
            seed: example_with_another_projects_proposal,
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert_eq!(ran.outcome.context.proposal_count, 2);
        assert_eq!(
            ran.outcome.user_messages,
            ["2 learnings proposed from your recent sessions — carryover proposals review"]
        );
    }

    #[test]
    fn scores_follow_the_order_shown() {
        let ran = Setup::default().run(request(Some(StartSource::Startup), true));
        let scores: Vec<f32> = ran
            .outcome
            .context
            .learnings
            .iter()
            .map(|l| l.score.unwrap())
            .collect();
        assert!(
            scores.windows(2).all(|pair| pair[0] >= pair[1]),
            "{scores:?}"
        );
        assert!(
            !ran.text().contains("] pattern:"),
            "no numbers for the model"
        );
    }

    #[test]
    fn complement_mode_leaves_the_identity_out() {
        let mut complement = request(Some(StartSource::Startup), true);
        complement.mode = Mode::Complement;
        let ran = Setup::default().run(complement);
        assert!(!ran.text().contains("Identity:"));
        assert!(ran.text().contains("Relevant learnings (5/11"));
        assert_eq!(ran.outcome.context.mode, Mode::Complement);
    }

    #[rstest]
    #[case::consumed_by_the_hook(true, 1)]
    #[case::left_by_a_preview(false, 0)]
    fn a_compaction_gets_its_checkpoint_and_learnings_but_no_other_sessions_handoff(
        #[case] consume: bool,
        #[case] updates: usize,
    ) {
        let ran = Setup {
            state: Ok(Some(recorded_state())),
            handoffs: vec![("s0", 60, HANDOFF)],
            instructions: vec!["Run `make status` first."],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), consume));
        let text = ran.text();
        assert!(
            text.starts_with(
                "<compaction-notice tier=\"EMERGENCY\" fill=\"0.89\">Context was compacted at EMERGENCY tier (89% fill). Review checkpoint at /data/projects/p/checkpoints/c.md."
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "Resumption summary from the checkpoint:\nLast requests:\n  - add retries"
            )
        );
        assert!(text.contains("Identity: Juno") && text.contains("Relevant learnings (5/11"));
        assert!(!text.contains("Handoff from"), "{text}");
        assert!(
            !text.contains("make status"),
            "no start-up instruction after a compaction"
        );
        assert_eq!(ran.outcome.context.notice, Some(StartKind::Compaction));
        assert_eq!(ran.states.len(), updates);
        if let Some(state) = ran.states.first() {
            assert_eq!(state.pre_compaction_fill, None, "the fill is consumed");
        }
    }

    #[test]
    fn a_compaction_makes_the_record_forget_the_learnings_the_model_lost() {
        let ran = Setup {
            state: Ok(Some(recorded_state())),
            record: Some(SessionRecord {
                learnings: vec!["lost_one".into()],
                ..SessionRecord::default()
            }),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), true));
        let record = ran.records.last().unwrap();
        assert!(!record.knows_learning("lost_one"));
        assert_eq!(record.learnings.len(), 5, "{record:?}");
    }

    /// A session on `claude-sonnet-5` at 171k tokens is at 0.17 of its 1M window, not
    /// CRITICAL at 0.86; the client's own figure wins over the table.
    #[rstest]
    #[case::the_table_knows_the_model(None, "<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">")]
    #[case::the_clients_figure_wins(
        Some(200_000),
        "<compaction-notice tier=\"CRITICAL\" fill=\"0.86\">"
    )]
    fn without_recorded_state_the_transcript_boundary_gives_the_figures(
        #[case] reported: Option<u64>,
        #[case] opening: &str,
    ) {
        let ran = Setup {
            boundary: Some(CompactBoundary {
                pre_tokens: 171_243,
                trigger: Some("manual".into()),
            }),
            usage_model: Some("claude-sonnet-5"),
            record: reported.map(|window| SessionRecord {
                context_window: Some(window),
                ..SessionRecord::default()
            }),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), true));
        assert!(ran.text().starts_with(opening), "{}", ran.text());
        assert_eq!(ran.states[0].reported_session.as_deref(), Some("s1"));
    }

    #[test]
    fn an_unknown_model_falls_back_to_200k_with_a_diagnostic() {
        let ran = Setup {
            boundary: Some(CompactBoundary {
                pre_tokens: 171_243,
                trigger: None,
            }),
            usage_model: Some("gpt-9"),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), true));
        assert!(ran.text().contains("fill=\"0.86\""), "{}", ran.text());
        assert!(
            ran.outcome
                .diagnostics
                .iter()
                .any(|d| d.contains("\"gpt-9\"")),
            "{:?}",
            ran.outcome.diagnostics
        );
    }

    #[test]
    fn a_second_start_of_a_reported_compaction_gets_no_notice() {
        let ran = Setup {
            state: Ok(Some(ContextState {
                reported_session: Some("s1".into()),
                pre_compaction_fill: None,
                ..recorded_state()
            })),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), true));
        assert_eq!(ran.outcome.context.notice, None);
        assert!(ran.text().starts_with("Identity: Juno"), "{}", ran.text());
    }

    #[test]
    fn a_fill_recorded_by_another_session_is_not_reported() {
        let ran = Setup {
            state: Ok(Some(ContextState {
                session_id: Some("other".into()),
                ..recorded_state()
            })),
            ..Setup::default()
        }
        .run(request(Some(StartSource::Compact), true));
        assert!(ran.text().starts_with(
            "<compaction-notice>Context was compacted. No pre-compaction state was recorded.</compaction-notice>"
        ));
    }

    #[test]
    fn a_state_that_cannot_be_read_loses_the_notice_not_the_session() {
        let ran = Setup {
            state: Err(()),
            ..Setup::default()
        }
        .run(request(None, true));
        assert!(ran.text().starts_with("<session-reset>"), "{}", ran.text());
        assert!(ran.text().contains("Identity: Juno"));
        assert!(
            ran.outcome
                .diagnostics
                .iter()
                .any(|d| d.contains("/s.json"))
        );
    }

    #[test]
    fn without_a_source_a_recorded_fill_means_compaction() {
        let ran = Setup {
            state: Ok(Some(recorded_state())),
            ..Setup::default()
        }
        .run(request(None, true));
        assert_eq!(ran.outcome.context.moment, Moment::Compacted);
        assert_eq!(ran.outcome.context.notice, Some(StartKind::Compaction));
    }

    #[rstest]
    #[case::found_in_the_transcript(PriorInjection::Found(minutes_ago(30)), None)]
    #[case::the_transcript_cannot_tell_but_the_record_can(
        PriorInjection::Unknown,
        Some(minutes_ago(30))
    )]
    fn a_resume_whose_block_is_still_there_gets_nothing_when_nothing_changed(
        #[case] injection: PriorInjection,
        #[case] recorded: Option<Timestamp>,
    ) {
        let ran = Setup {
            injection,
            record: Some(SessionRecord {
                context_at: recorded,
                proposals_announced: true,
                ..SessionRecord::default()
            }),
            handoffs: vec![("s1", 5, "## Notes\n- mine\n"), ("s0", 60, HANDOFF)],
            instructions: vec!["Run `make status` first."],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Resume), true));
        assert_eq!(ran.text(), "", "nothing is injected twice");
        assert!(ran.records.is_empty(), "nothing new to record");
        assert!(matches!(
            ran.outcome.context.moment,
            Moment::Resumed { since: Some(_) }
        ));
    }

    #[test]
    fn a_resume_hears_only_of_a_handoff_that_ended_meanwhile_and_of_new_proposals() {
        let ran = Setup {
            injection: PriorInjection::Found(Timestamp::parse("2026-11-21T18:40:30Z").unwrap()),
            record: Some(SessionRecord {
                proposals_announced: true,
                ..SessionRecord::default()
            }),
            handoffs: vec![
                ("s1", 1, "## Notes\n- mine\n"),
                ("s2", 10, "## Notes\n- ended meanwhile\n"),
                ("s0", 24 * 60 * 2, HANDOFF),
            ],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Resume), true));
        assert_eq!(
            ran.text(),
            "Handoff from a session that ended since this one began (10 minutes ago, 2026-11-22 18:30 UTC):\n\
             Notes:\n  - ended meanwhile\n\
             Full handoff: /data/projects/p/sessions/s2/handoff.md\n\n\
             Since this session began, 1 learning was proposed for the user's review (3 pending in all).\n\n\
             [carryover: session context]"
        );
        let record = ran.records.last().unwrap();
        assert_eq!(record.handoffs, ["s2"]);
        assert_eq!(record.context_at, Some(Timestamp::parse(NOW).unwrap()));
    }

    #[test]
    fn a_handoff_the_session_was_already_shown_is_not_news_on_the_next_resume() {
        let ran = Setup {
            injection: PriorInjection::Found(minutes_ago(30)),
            record: Some(SessionRecord {
                handoffs: vec!["s2".into()],
                proposals_announced: true,
                ..SessionRecord::default()
            }),
            handoffs: vec![("s2", 10, "## Notes\n- ended meanwhile\n")],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Resume), true));
        assert_eq!(ran.text(), "");
    }

    #[test]
    fn a_resume_without_a_block_in_the_transcript_gets_the_block_without_its_own_handoff() {
        let ran = Setup {
            injection: PriorInjection::Absent,
            record: Some(SessionRecord {
                context_at: Some(minutes_ago(30)),
                ..SessionRecord::default()
            }),
            handoffs: vec![
                ("s1", 5, "## Notes\n- mine\n"),
                ("s0", 60, "## Notes\n- previous\n"),
            ],
            instructions: vec!["Run `make status` first."],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Resume), true));
        let text = ran.text();
        assert!(
            text.starts_with("Identity: Juno"),
            "no notice, no instruction: {text}"
        );
        assert!(
            text.contains("  - previous") && !text.contains("  - mine"),
            "{text}"
        );
        assert!(text.contains("Relevant learnings (5/11"));
    }

    #[test]
    fn a_new_start_that_reuses_the_id_gets_its_handoff() {
        let ran = Setup {
            handoffs: vec![("s1", 5, "## Notes\n- mine\n")],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert!(ran.text().contains("  - mine"), "{}", ran.text());
    }

    #[test]
    fn an_empty_handoff_is_skipped_with_a_diagnostic() {
        let ran = Setup {
            handoffs: vec![
                ("empty", 5, "  \n"),
                ("older", 10, "## What's In Progress\n- the older one\n"),
            ],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert!(ran.text().contains("  - the older one"), "{}", ran.text());
        assert!(ran.outcome.diagnostics.iter().any(|d| d.contains("empty")));
    }

    #[test]
    fn disabled_handoffs_are_not_shown() {
        let ran = Setup {
            handoffs: vec![("s0", 60, HANDOFF)],
            handoffs_enabled: false,
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert_eq!(ran.outcome.context.handoff, None);
        assert!(!ran.text().contains("Handoff from"));
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
    fn first_run_asks_for_init_and_still_gets_the_handoff(
        #[case] seed: fn() -> Result<Option<LoadedSeed>, SeedError>,
    ) {
        let ran = Setup {
            seed,
            handoffs: vec![("s0", 60, "## Notes\n- keep going\n")],
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        let context = &ran.outcome.context;
        assert!(context.needs_setup);
        assert!(
            context.text.starts_with("<session-reset>"),
            "{}",
            context.text
        );
        assert!(context.text.contains("carryover init") && context.text.contains("  - keep going"));
        assert!(
            ran.outcome
                .user_messages
                .iter()
                .any(|m| m.contains("carryover init"))
        );
        assert_eq!(context.learnings_total, 0);
    }

    #[test]
    fn an_unusable_seed_still_yields_a_context_and_tells_the_user() {
        let ran = Setup {
            seed: || {
                Err(SeedError::Decode {
                    path: "/data/seed.json".into(),
                    source: SeedDecodeError::UnsupportedVersion {
                        found: "2.0.0".into(),
                    },
                })
            },
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert!(
            ran.text().contains("seed version 2.0.0 is not supported"),
            "{}",
            ran.text()
        );
        assert!(!ran.outcome.context.needs_setup);
        assert_eq!(ran.outcome.user_messages.len(), 1);
    }

    #[test]
    fn a_repair_is_reported_to_the_user() {
        let ran = Setup {
            seed: || {
                Ok(Some(LoadedSeed {
                    seed: decode_seed(EXAMPLE).unwrap(),
                    repaired: Some(Repaired {
                        problem: "not valid JSON".into(),
                        kept: Some("/data/seed.json.corrupted-1".into()),
                        from_commit: "abc1234".into(),
                    }),
                }))
            },
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert!(ran.outcome.user_messages[0].contains("restored the version of commit abc1234"));
        assert!(ran.text().contains("Identity: Juno"));
    }

    #[test]
    fn stays_within_a_small_budget() {
        let ran = Setup {
            budget: 600,
            ..Setup::default()
        }
        .run(request(Some(StartSource::Startup), true));
        assert!(ran.text().encode_utf16().count() <= 600);
        assert!(ran.text().ends_with("[carryover: session context]"));
        assert!(ran.outcome.context.learnings.len() < 5);
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
                    project: None,
                    pinned: false,
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
                    project: None,
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
                handoffs.expect_list().returning(|_| Ok(vec![HandoffEntry {
                    session: "s0".into(),
                    path: "/data/projects/p/sessions/s0/handoff.md".into(),
                    modified: minutes_ago(5),
                }]));
                handoffs.expect_read().returning(move |_| Ok(handoff_text.clone()));
                let mut states = MockContextStateStore::new();
                states.expect_load().returning(|_| Ok(None));
                let mut records = MockSessionRecordStore::new();
                records.expect_load().returning(|_, _| Ok(None));
                let queue = Arc::new(InstructionQueue::new());
                for instruction in instructions {
                    queue.queue(instruction, super::Priority::High);
                }
                let service: Service = StartSession::new(
                    seeds,
                    states,
                    records,
                    MockTranscriptReader::new(),
                    project_at("/home/user/code/notes"),
                    handoffs,
                    flat_embedder(),
                    empty_index(),
                    ListenerRegistry::new(),
                    queue,
                    StartSettings {
                        budget_chars: budget,
                        window: WindowSettings::default(),
                        slug_style: SlugStyle::Path,
                        handoffs_enabled: true,
                        retrieval: RetrievalSettings::default(),
                    },
                    fixed_clock(),
                );
                let outcome = pollster::block_on(service.run(request(Some(StartSource::Startup), false)));
                let length = outcome.context.text.encode_utf16().count();
                prop_assert!(length <= budget.min(HARD_CAP_CHARS), "{length} > {budget}");
            }
        }
    }
}
