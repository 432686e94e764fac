//! The notice at the top of a session start: compacted (with figures and the checkpoint's
//! summary), reset, or nothing on resume.

use std::path::Path;

use crate::domain::compaction::{
    Fill, StartKind, bare_compaction_notice, boundary_notice, checkpoint_summary,
    compaction_notice, detect, reset_notice,
};
use crate::domain::context::Section;
use crate::domain::ports::{ContextStateStore, TranscriptReader};
use crate::domain::project::ProjectSlug;

use super::StartInfo;

/// Decides and renders the notice. Reading failures lose the notice, never the session: they
/// become diagnostics. When `start.consume` is set a recorded fill is cleared once reported.
pub(super) async fn start_notice<St: ContextStateStore, T: TranscriptReader>(
    states: &St,
    transcripts: &T,
    start: &StartInfo,
    slug: &ProjectSlug,
    diagnostics: &mut Vec<String>,
) -> Option<(StartKind, Section)> {
    let state = states.load(slug).await.unwrap_or_else(|error| {
        diagnostics.push(error.to_string());
        None
    });
    let kind = detect(
        start.source,
        state.as_ref().is_some_and(|s| s.has_pending_fill()),
    );
    match kind {
        StartKind::Resumed => return None,
        StartKind::Reset => return Some((kind, reset_notice())),
        StartKind::Compaction => {}
    }
    let recorded = state.as_ref().and_then(|s| {
        s.pending_for(start.session_id.as_deref())
            .map(|figures| (s, figures))
    });
    if let Some((state, (fill, tier))) = recorded {
        let checkpoint = state.checkpoint.as_deref();
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
        mark_reported(states, start, slug, diagnostics).await;
        return Some((kind, section));
    }
    if state
        .as_ref()
        .is_some_and(|s| s.reported_for(start.session_id.as_deref()))
    {
        return None;
    }
    let section = from_transcript(transcripts, start, diagnostics).await;
    mark_reported(states, start, slug, diagnostics).await;
    Some((kind, section))
}

/// One notice per compaction: the hook records that this session's compaction was reported.
async fn mark_reported<St: ContextStateStore>(
    states: &St,
    start: &StartInfo,
    slug: &ProjectSlug,
    diagnostics: &mut Vec<String>,
) {
    if !start.consume || start.session_id.is_none() {
        return;
    }
    let session = start.session_id.clone();
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
    start: &StartInfo,
    diagnostics: &mut Vec<String>,
) -> Section {
    let Some(path) = start.transcript.as_deref() else {
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
    let transcript_model = match start.payload_model {
        Some(_) => None,
        None => transcripts
            .last_usage(path)
            .await
            .ok()
            .flatten()
            .and_then(|usage| usage.model),
    };
    let (window, _) = start
        .window
        .window(start.payload_model.as_deref(), transcript_model.as_deref());
    let fill = Fill::of(boundary.pre_tokens, window);
    boundary_notice(
        start.window.thresholds.tier(fill),
        fill,
        boundary.pre_tokens,
    )
}
