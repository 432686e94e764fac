//! The notice at the top of a session start: compacted (with figures and the checkpoint's
//! summary) or reset.

use std::path::Path;

use crate::domain::compaction::{
    ContextState, Fill, StartKind, bare_compaction_notice, boundary_notice, checkpoint_summary,
    compaction_notice, reset_notice,
};
use crate::domain::context::Section;
use crate::domain::ports::{ContextStateStore, TranscriptReader};
use crate::domain::project::ProjectSlug;

use super::{WindowSettings, unknown_window_diagnostic};

/// What the notice needs to know of the session.
pub(super) struct NoticeInput<'a> {
    /// The agent's session id.
    pub session_id: Option<&'a str>,
    /// Its transcript.
    pub transcript: Option<&'a Path>,
    /// The payload's model.
    pub payload_model: Option<&'a str>,
    /// The window the client reported for the session.
    pub reported_window: Option<u64>,
    /// Window and tier settings.
    pub window: &'a WindowSettings,
    /// Report a compaction once: mark it reported.
    pub consume: bool,
}

/// Renders the notice of `kind`. Reading failures lose the figures, never the session: they
/// become diagnostics. With `input.consume` a recorded fill is cleared once reported. `None`
/// when this compaction was already reported.
pub(super) async fn start_notice<St: ContextStateStore, T: TranscriptReader>(
    states: &St,
    transcripts: &T,
    kind: StartKind,
    input: &NoticeInput<'_>,
    slug: &ProjectSlug,
    state: Option<&ContextState>,
    diagnostics: &mut Vec<String>,
) -> Option<Section> {
    match kind {
        StartKind::Resumed => return None,
        StartKind::Reset => return Some(reset_notice()),
        StartKind::Compaction => {}
    }
    if let Some(pending) = state.and_then(|s| s.pending_for(input.session_id)) {
        let (fill, tier, checkpoint) = (pending.fill, pending.tier, pending.checkpoint);
        let summary = match checkpoint {
            Some(path) => match states.read_checkpoint(slug, path).await {
                Ok(document) => checkpoint_summary(&document),
                Err(error) => {
                    diagnostics.push(error.to_string());
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        let shown = checkpoint.map(Path::to_string_lossy);
        let section = compaction_notice(tier, fill, shown.as_deref(), &summary);
        mark_reported(states, input, slug, diagnostics).await;
        return Some(section);
    }
    if state.is_some_and(|s| s.reported_for(input.session_id)) {
        return None;
    }
    let section = from_transcript(transcripts, input, diagnostics).await;
    mark_reported(states, input, slug, diagnostics).await;
    Some(section)
}

/// One notice per compaction: the hook records that this session's compaction was reported.
async fn mark_reported<St: ContextStateStore>(
    states: &St,
    input: &NoticeInput<'_>,
    slug: &ProjectSlug,
    diagnostics: &mut Vec<String>,
) {
    if !input.consume || input.session_id.is_none() {
        return;
    }
    let session = input.session_id.map(str::to_owned);
    let marked = states
        .update(
            slug,
            Box::new(move |current| {
                let mut state = current.unwrap_or_default();
                state.mark_reported(session.as_deref());
                state
            }),
        )
        .await;
    if let Err(error) = marked {
        diagnostics.push(error.to_string());
    }
}

/// No recorded state: the transcript's `compact_boundary` gives the figures when it has one.
async fn from_transcript<T: TranscriptReader>(
    transcripts: &T,
    input: &NoticeInput<'_>,
    diagnostics: &mut Vec<String>,
) -> Section {
    let Some(path) = input.transcript else {
        return bare_compaction_notice();
    };
    let boundary = match transcripts.last_compaction(path).await {
        Ok(Some(boundary)) => boundary,
        Ok(None) => return bare_compaction_notice(),
        Err(error) => {
            diagnostics.push(error.to_string());
            return bare_compaction_notice();
        }
    };
    let transcript_model = match (input.payload_model, input.reported_window) {
        (None, None) => transcripts
            .last_usage(path)
            .await
            .ok()
            .flatten()
            .and_then(|usage| usage.model),
        _ => None,
    };
    let (window, model) = input.window.window(
        input.reported_window,
        input.payload_model,
        transcript_model.as_deref(),
    );
    diagnostics.extend(unknown_window_diagnostic(window, model));
    let fill = Fill::of(boundary.pre_tokens, window.tokens);
    boundary_notice(
        input.window.thresholds.tier(fill),
        fill,
        boundary.pre_tokens,
    )
}
