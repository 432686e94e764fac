//! One session's compaction as pre-compact recorded it, kept apart from the other sessions of
//! the project so that parallel sessions (two terminals, agents in worktrees) each get their
//! own notice.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::seed::Timestamp;

use super::{Fill, Tier};

/// An entry of `sessions` in `context-state.json`; unknown keys are kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionCompaction {
    /// Fill before the compaction; cleared once a session start has reported it.
    pub fill: Option<f64>,
    /// Tier of that fill.
    pub tier: Option<String>,
    /// The checkpoint file written with it.
    pub checkpoint: Option<PathBuf>,
    /// When pre-compact ran.
    pub recorded_at: Option<Timestamp>,
    /// Whether a session start already told the session of this compaction.
    pub reported: bool,
    /// Keys this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A recorded compaction that a session start has yet to report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendingCompaction<'a> {
    /// How full the context was.
    pub fill: Fill,
    /// Its tier.
    pub tier: Tier,
    /// The checkpoint written with it.
    pub checkpoint: Option<&'a Path>,
}

impl PendingCompaction<'_> {
    /// The pending compaction described by a recorded fill, tier and checkpoint.
    pub(super) fn of<'a>(
        fill: Option<f64>,
        tier: Option<&str>,
        checkpoint: Option<&'a Path>,
    ) -> Option<PendingCompaction<'a>> {
        Some(PendingCompaction {
            fill: Fill::from_ratio(fill?),
            tier: tier.and_then(Tier::parse).unwrap_or(Tier::Nominal),
            checkpoint,
        })
    }
}

impl SessionCompaction {
    /// The compaction, while it awaits reporting.
    pub fn pending(&self) -> Option<PendingCompaction<'_>> {
        match self.reported {
            true => None,
            false => {
                PendingCompaction::of(self.fill, self.tier.as_deref(), self.checkpoint.as_deref())
            }
        }
    }

    /// Forgets the fill once reported, keeping the rest for inspection.
    pub fn mark_reported(&mut self) {
        self.fill = None;
        self.reported = true;
    }
}
