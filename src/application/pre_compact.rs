//! `hook pre-compact`: record how full the context was and a checkpoint to resume from.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::compaction::{Checkpoint, ContextState, Fill, Tier, resumption_summary};
use crate::domain::ports::{
    Clock, ContextStateStore, DigestScope, ProjectContext, SessionRecordStore, TranscriptReader,
};
use crate::domain::project::SlugStyle;
use crate::domain::session_id::SessionId;

use super::{WindowSettings, unknown_window_diagnostic};

/// How much of the transcript's end the checkpoint summary reads: the hook must stay within a
/// few milliseconds whatever the transcript's size (200 MB ones exist).
pub const CHECKPOINT_TAIL_BYTES: u64 = 1024 * 1024;

/// What pre-compact was handed.
#[derive(Debug, Clone, PartialEq)]
pub struct PreCompactRequest {
    /// The session being compacted.
    pub session_id: Option<SessionId>,
    /// Its transcript.
    pub transcript: Option<PathBuf>,
    /// Its working directory.
    pub cwd: PathBuf,
    /// `manual` or `auto`.
    pub trigger: Option<String>,
    /// Instructions given to `/compact`.
    pub custom_instructions: Option<String>,
    /// The payload's model, when sent.
    pub payload_model: Option<String>,
    /// Window and tier settings.
    pub window: WindowSettings,
    /// How the project's directory is named.
    pub slug_style: SlugStyle,
}

/// What was recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct PreCompactOutcome {
    /// Tokens, window, fill and tier, when the transcript told.
    pub figures: Option<(u64, u64, Fill, Tier)>,
    /// The checkpoint written.
    pub checkpoint: Option<PathBuf>,
    /// What went wrong without stopping it.
    pub warnings: Vec<String>,
}

/// Records the state and a checkpoint. Never fails: every problem becomes a warning.
pub struct PreCompact<St, R, T, P> {
    states: St,
    records: R,
    transcripts: T,
    projects: P,
    clock: Arc<dyn Clock>,
}

impl<St, R, T, P> PreCompact<St, R, T, P>
where
    St: ContextStateStore,
    R: SessionRecordStore,
    T: TranscriptReader,
    P: ProjectContext,
{
    /// A service over the given ports.
    pub fn new(states: St, records: R, transcripts: T, projects: P, clock: Arc<dyn Clock>) -> Self {
        Self {
            states,
            records,
            transcripts,
            projects,
            clock,
        }
    }

    /// The window the client reported for this session (through the status line), if any.
    async fn reported_window(
        &self,
        slug: &crate::domain::project::ProjectSlug,
        session: Option<&SessionId>,
        warnings: &mut Vec<String>,
    ) -> Option<u64> {
        let session = session?;
        match self.records.load(slug, session).await {
            Ok(record) => record.and_then(|r| r.context_window),
            Err(error) => {
                warnings.push(error.to_string());
                None
            }
        }
    }

    /// Records what it can.
    pub async fn record(&self, request: PreCompactRequest) -> PreCompactOutcome {
        let mut warnings = Vec::new();
        let project = self.projects.project(&request.cwd).await;
        let slug = project.slug(request.slug_style);
        let (usage, digest) = match &request.transcript {
            Some(path) => {
                let usage = self
                    .transcripts
                    .last_usage(path)
                    .await
                    .unwrap_or_else(|error| {
                        warnings.push(error.to_string());
                        None
                    });
                let digest = self
                    .transcripts
                    .digest(path, DigestScope::Tail(CHECKPOINT_TAIL_BYTES))
                    .await
                    .unwrap_or_else(|error| {
                        warnings.push(error.to_string());
                        Default::default()
                    });
                (usage, digest)
            }
            None => {
                warnings.push("no transcript_path in the payload; fill unknown".to_owned());
                (None, Default::default())
            }
        };
        let reported = self
            .reported_window(&slug, request.session_id.as_ref(), &mut warnings)
            .await;
        let (window, model) = request.window.window(
            reported,
            request.payload_model.as_deref(),
            usage.as_ref().and_then(|u| u.model.as_deref()),
        );
        warnings.extend(unknown_window_diagnostic(window, model));
        let window = window.tokens;
        let figures = usage.as_ref().map(|usage| {
            let fill = Fill::of(usage.tokens, window);
            (
                usage.tokens,
                window,
                fill,
                request.window.thresholds.tier(fill),
            )
        });
        let now = self.clock.now();
        let summary = resumption_summary(&digest, Some(&project.root));
        let document = Checkpoint {
            session_id: request.session_id.as_ref().map(SessionId::as_str),
            recorded_at: now,
            trigger: request.trigger.as_deref(),
            instructions: request.custom_instructions.as_deref(),
            figures,
            model,
            summary: &summary,
        }
        .render();
        let name = match &request.session_id {
            Some(id) => format!("{}-{}", now.compact(), id.as_str()),
            None => now.compact(),
        };
        let checkpoint = match self.states.write_checkpoint(&slug, &name, &document).await {
            Ok(path) => Some(path),
            Err(error) => {
                warnings.push(error.to_string());
                None
            }
        };
        let state = ContextState {
            session_id: request.session_id.as_ref().map(|id| id.as_str().to_owned()),
            pre_compaction_fill: figures.map(|(_, _, fill, _)| fill.ratio()),
            pre_compaction_tier: figures.map(|(_, _, _, tier)| tier.as_str().to_owned()),
            pre_compaction_tokens: figures.map(|(tokens, ..)| tokens),
            context_window: Some(window),
            model: model.map(str::to_owned),
            trigger: request.trigger.clone(),
            checkpoint: checkpoint.clone(),
            recorded_at: Some(now),
            reported_session: None,
            sessions: Default::default(),
            extra: Default::default(),
        };
        if let Err(error) = self
            .states
            .update(
                &slug,
                Box::new(move |previous| state.recorded_over(previous)),
            )
            .await
        {
            warnings.push(error.to_string());
        }
        PreCompactOutcome {
            figures,
            checkpoint,
            warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{fixed_clock, project_at};
    use crate::domain::compaction::Tier;
    use crate::domain::ports::{
        MockContextStateStore, MockSessionRecordStore, MockTranscriptReader,
    };
    use crate::domain::session_record::SessionRecord;

    use crate::domain::transcript::{ContextUsage, SessionDigest};
    use crate::domain::{StateError, TranscriptError};
    use std::sync::Mutex;

    fn transcripts(tokens: u64, model: &str) -> MockTranscriptReader {
        let model = model.to_owned();
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_last_usage().returning(move |_| {
            Ok(Some(ContextUsage {
                tokens,
                model: Some(model.clone()),
            }))
        });
        transcripts.expect_digest().returning(|_, scope| {
            assert_eq!(scope, DigestScope::Tail(CHECKPOINT_TAIL_BYTES));
            Ok(SessionDigest {
                user_requests: vec!["add retries".into()],
                user_turns: 1,
                ..SessionDigest::default()
            })
        });
        transcripts
    }

    fn request(payload_model: Option<&str>) -> PreCompactRequest {
        PreCompactRequest {
            session_id: Some(SessionId::parse("2c764cf4-ae92").unwrap()),
            transcript: Some("/t.jsonl".into()),
            cwd: "/home/user/code/notes".into(),
            trigger: Some("manual".into()),
            custom_instructions: None,
            payload_model: payload_model.map(str::to_owned),
            window: WindowSettings::default(),
            slug_style: SlugStyle::Path,
        }
    }

    /// Records in which the client reported `window` for the session (or nothing).
    fn records(window: Option<u64>) -> MockSessionRecordStore {
        let mut records = MockSessionRecordStore::new();
        records.expect_load().returning(move |_, session| {
            assert_eq!(session.as_str(), "2c764cf4-ae92");
            Ok(window.map(|w| SessionRecord {
                context_window: Some(w),
                ..SessionRecord::default()
            }))
        });
        records.expect_update().never();
        records
    }

    /// A store that keeps what is written.
    fn recording_store(
        saved: Arc<Mutex<Option<ContextState>>>,
        document: Arc<Mutex<String>>,
    ) -> MockContextStateStore {
        let mut states = MockContextStateStore::new();
        states
            .expect_write_checkpoint()
            .times(1)
            .returning(move |slug, name, text| {
                assert!(slug.as_str().starts_with("notes-"));
                assert_eq!(
                    name, "20261122T184000Z-2c764cf4-ae92",
                    "the whole id: parallel sessions never share a name"
                );
                *document.lock().unwrap() = text.to_owned();
                Ok(PathBuf::from(format!("/data/checkpoints/{name}.md")))
            });
        states.expect_update().times(1).returning(move |_, edit| {
            let state = edit(None);
            *saved.lock().unwrap() = Some(state.clone());
            Ok(state)
        });
        states
    }

    #[test]
    fn records_fill_tier_and_a_checkpoint() {
        let saved = Arc::new(Mutex::new(None));
        let document = Arc::new(Mutex::new(String::new()));
        let service = PreCompact::new(
            recording_store(saved.clone(), document.clone()),
            records(None),
            transcripts(171_203, "claude-sonnet-4-5"),
            project_at("/home/user/code/notes"),
            fixed_clock(),
        );
        let outcome = pollster::block_on(service.record(request(None)));
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
        let state = saved.lock().unwrap().clone().unwrap();
        assert_eq!(state.pre_compaction_tokens, Some(171_203));
        assert_eq!(state.context_window, Some(200_000));
        assert_eq!(state.pre_compaction_tier.as_deref(), Some("CRITICAL"));
        assert!((state.pre_compaction_fill.unwrap() - 0.856).abs() < 0.001);
        assert_eq!(
            state.checkpoint,
            Some(PathBuf::from(
                "/data/checkpoints/20261122T184000Z-2c764cf4-ae92.md"
            ))
        );
        assert_eq!(state.session_id.as_deref(), Some("2c764cf4-ae92"));
        let own = &state.sessions["2c764cf4-ae92"];
        assert_eq!((own.fill, own.reported), (state.pre_compaction_fill, false));
        assert!(document.lock().unwrap().contains("  - add retries"));
    }

    #[test]
    fn the_payload_model_decides_the_window() {
        let saved = Arc::new(Mutex::new(None));
        let service = PreCompact::new(
            recording_store(saved.clone(), Arc::default()),
            records(None),
            transcripts(171_203, "claude-sonnet-4-5"),
            project_at("/home/user/code/notes"),
            fixed_clock(),
        );
        let outcome = pollster::block_on(service.record(request(Some("claude-opus-5-5"))));
        let (_, window, _, tier) = outcome.figures.unwrap();
        assert_eq!((window, tier), (1_000_000, Tier::Nominal));
    }

    /// A session on `claude-sonnet-5` at 171k tokens is at 0.17 of its 1M window.
    #[rstest::rstest]
    #[case::the_table_knows_the_model(None, "claude-sonnet-5", 1_000_000, Tier::Nominal)]
    #[case::the_clients_figure_wins(Some(200_000), "claude-sonnet-5", 200_000, Tier::Critical)]
    fn the_window_is_the_clients_else_the_models(
        #[case] reported: Option<u64>,
        #[case] model: &str,
        #[case] expected: u64,
        #[case] expected_tier: Tier,
    ) {
        let saved = Arc::new(Mutex::new(None));
        let service = PreCompact::new(
            recording_store(saved.clone(), Arc::default()),
            records(reported),
            transcripts(171_203, model),
            project_at("/home/user/code/notes"),
            fixed_clock(),
        );
        let outcome = pollster::block_on(service.record(request(None)));
        let (_, window, _, tier) = outcome.figures.unwrap();
        assert_eq!((window, tier), (expected, expected_tier));
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    }

    #[test]
    fn an_unknown_model_is_a_warning() {
        let saved = Arc::new(Mutex::new(None));
        let service = PreCompact::new(
            recording_store(saved.clone(), Arc::default()),
            records(None),
            transcripts(171_203, "gpt-9"),
            project_at("/home/user/code/notes"),
            fixed_clock(),
        );
        let outcome = pollster::block_on(service.record(request(None)));
        assert_eq!(outcome.figures.unwrap().1, 200_000);
        assert!(
            outcome.warnings[0].contains("\"gpt-9\""),
            "{:?}",
            outcome.warnings
        );
    }

    #[test]
    fn an_unreadable_transcript_and_a_failing_store_are_warnings() {
        let mut transcripts = MockTranscriptReader::new();
        transcripts.expect_last_usage().returning(|p| {
            Err(TranscriptError::Io {
                path: p.to_owned(),
                source: std::io::ErrorKind::NotFound.into(),
            })
        });
        transcripts.expect_digest().returning(|p, _| {
            Err(TranscriptError::Io {
                path: p.to_owned(),
                source: std::io::ErrorKind::NotFound.into(),
            })
        });
        let mut states = MockContextStateStore::new();
        states.expect_write_checkpoint().returning(|_, _, _| {
            Err(StateError::LockTimeout {
                path: "/x".into(),
                waited_ms: 1,
            })
        });
        states.expect_update().returning(|_, _| {
            Err(StateError::LockTimeout {
                path: "/x".into(),
                waited_ms: 1,
            })
        });
        let outcome = pollster::block_on(
            PreCompact::new(
                states,
                records(None),
                transcripts,
                project_at("/home/user/code/notes"),
                fixed_clock(),
            )
            .record(request(None)),
        );
        assert_eq!(outcome.figures, None);
        assert_eq!(outcome.warnings.len(), 4);
    }
}
