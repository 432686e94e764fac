//! Recall at the prompt: the few learnings a prompt needs, put beside it, or nothing (ADR
//! 0011). Only learnings the session may see (ADR 0010) are ranked, and those it has been
//! given since its last compaction are left out; what is recalled is recorded so that no later
//! prompt repeats it.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::ports::{
    Embedder, EmbeddingIndex, ProjectCatalog, ProjectContext, SeedRepository, SessionRecordStore,
    amend_record,
};
use crate::domain::project::{Project, SlugStyle};
use crate::domain::recall::{Calibration, PromptQuery, Signals, Silence, prompt_query, select};
use crate::domain::retrieval::{Bm25, ProjectQuery, StoredVectors};
use crate::domain::scope::Visibility;
use crate::domain::seed::{Learning, LearningKind};
use crate::domain::session_id::SessionId;

use super::known_projects::known_projects;
use super::learning_retrieval::{MAX_FRESH_AT_START, similarities};

/// How prompt recall is configured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecallSettings {
    /// Recall at all.
    pub enabled: bool,
    /// How project directories are named.
    pub slug_style: SlugStyle,
    /// The model and threshold that decide.
    pub calibration: Calibration,
}

/// A prompt, as the agent sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecallRequest {
    /// What the user typed.
    pub prompt: String,
    /// The agent's session id.
    pub session_id: Option<String>,
    /// The session's working directory.
    pub cwd: PathBuf,
    /// The hook records what it recalled; a preview (`carryover recall`) writes nothing.
    pub consume: bool,
}

/// A learning recalled for the prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct RecalledLearning {
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: LearningKind,
    /// Its full text.
    pub content: String,
    /// The calibrated probability that it bears on the prompt.
    pub probability: f32,
}

/// What recall found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecallOutcome {
    /// The learnings to put beside the prompt, most probable first; often none.
    pub recalled: Vec<RecalledLearning>,
    /// Why nothing was considered, when the prompt asks for nothing.
    pub silence: Option<Silence>,
    /// The learnings that were considered (visible and not yet given).
    pub considered: usize,
    /// For stderr and the log.
    pub diagnostics: Vec<String>,
}

/// The use case.
pub struct PromptRecall<S, R, P, E, I> {
    seeds: S,
    records: R,
    projects: P,
    embedder: E,
    index: I,
    catalog: Arc<dyn ProjectCatalog>,
    settings: RecallSettings,
}

impl<S, R, P, E, I> PromptRecall<S, R, P, E, I>
where
    S: SeedRepository,
    R: SessionRecordStore,
    P: ProjectContext,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A use case over the given ports.
    pub fn new(
        seeds: S,
        records: R,
        projects: P,
        embedder: E,
        index: I,
        catalog: Arc<dyn ProjectCatalog>,
        settings: RecallSettings,
    ) -> Self {
        Self {
            seeds,
            records,
            projects,
            embedder,
            index,
            catalog,
            settings,
        }
    }

    /// Recalls for `request`. Never fails: what cannot be read becomes a diagnostic and the
    /// prompt goes on without learnings.
    pub async fn run(&self, request: RecallRequest) -> RecallOutcome {
        let mut outcome = RecallOutcome::default();
        if !self.settings.enabled {
            return outcome;
        }
        let query = match prompt_query(&request.prompt) {
            Ok(query) => query,
            Err(silence) => {
                outcome.silence = Some(silence);
                return outcome;
            }
        };
        let seed = match self.seeds.load().await {
            Ok(Some(loaded)) if !loaded.seed.needs_setup() => loaded.seed,
            Ok(_) => return outcome,
            Err(error) => {
                outcome.diagnostics.push(error.to_string());
                return outcome;
            }
        };
        let project = self.projects.project(&request.cwd).await;
        let slug = project.slug(self.settings.slug_style);
        let session = request.session_id.as_deref().and_then(|raw| {
            SessionId::parse(raw)
                .map_err(|error| outcome.diagnostics.push(error.to_string()))
                .ok()
        });
        let record = match &session {
            Some(id) => self.records.load(&slug, id).await.unwrap_or_else(|error| {
                outcome.diagnostics.push(error.to_string());
                None
            }),
            None => None,
        };
        let known = known_projects(Some(self.catalog.as_ref()), &seed).await;
        let visibility = Visibility::new(&project, known);
        let candidates: Vec<(LearningKind, &Learning)> = seed
            .confirmed_learnings()
            .filter(|(_, learning)| visibility.admits(learning))
            .collect();
        let given = |index: usize| {
            record
                .as_ref()
                .is_some_and(|r| r.knows_learning(&candidates[index].1.id))
        };
        outcome.considered = (0..candidates.len()).filter(|&i| !given(i)).count();
        if outcome.considered == 0 {
            return outcome;
        }
        let stored = self
            .index
            .load(&self.embedder.model_id())
            .await
            .unwrap_or_else(|error| {
                outcome.diagnostics.push(error.to_string());
                StoredVectors::default()
            });
        let context = self.context(&project).await;
        let signals = match recall_signals(
            &self.embedder,
            &stored,
            &candidates,
            |learning| visibility.is_own(learning),
            &query,
            &context,
        )
        .await
        {
            Ok(signals) => signals,
            Err(problem) => {
                outcome
                    .diagnostics
                    .push(format!("{problem}; nothing recalled"));
                return outcome;
            }
        };
        outcome.recalled = select(
            &signals.signals,
            signals.query_terms,
            &self.settings.calibration,
            given,
        )
        .into_iter()
        .map(|chosen| {
            let (kind, learning) = candidates[chosen.index];
            RecalledLearning {
                id: learning.id.clone(),
                kind,
                content: learning.content.clone(),
                probability: chosen.probability,
            }
        })
        .collect();
        if request.consume
            && !outcome.recalled.is_empty()
            && let Some(id) = session
        {
            let ids: Vec<String> = outcome.recalled.iter().map(|r| r.id.clone()).collect();
            let noted = self
                .records
                .update(
                    &slug,
                    &id,
                    amend_record(move |record| {
                        record.note_learnings(&ids);
                    }),
                )
                .await;
            if let Err(error) = noted {
                outcome.diagnostics.push(error.to_string());
            }
        }
        outcome
    }

    /// The project's context as a second signal: its name, branch and recent commits.
    async fn context(&self, project: &Project) -> String {
        let facts = self.projects.facts(project).await;
        ProjectQuery {
            name: project.name.clone(),
            branch: facts.branch,
            recent_commits: facts.recent_commits,
            ..ProjectQuery::default()
        }
        .text()
    }
}

/// The signals of a prompt's candidates, and how many distinct terms the prompt has.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptSignals {
    /// One per candidate, in order.
    pub signals: Vec<Signals>,
    /// The prompt's distinct lexical terms.
    pub query_terms: usize,
}

/// What each of `learnings` says about `query`: its similarity to the prompt and to the
/// project's `context` (stored vectors reused, the rest embedded with the two in one call),
/// its BM25 score and matched terms, and whether `own` counts it as the project's.
pub async fn recall_signals<E: Embedder>(
    embedder: &E,
    stored: &StoredVectors,
    learnings: &[(LearningKind, &Learning)],
    own: impl Fn(&Learning) -> bool,
    query: &PromptQuery,
    context: &str,
) -> Result<PromptSignals, String> {
    let (rows, _) = similarities(
        embedder,
        stored,
        learnings,
        &[query.text.clone(), context.to_owned()],
        Some(MAX_FRESH_AT_START),
    )
    .await?;
    let lexical = Bm25::new(learnings.iter().map(|(_, l)| l.content.as_str())).lexical(&query.text);
    let signals = learnings
        .iter()
        .enumerate()
        .map(|(i, (_, learning))| Signals {
            similarity: rows[0][i],
            context_similarity: rows[1][i],
            lexical: lexical.scores[i],
            matched: lexical.matched[i],
            own: own(learning),
        })
        .collect();
    Ok(PromptSignals {
        signals,
        query_terms: lexical.query_terms,
    })
}
