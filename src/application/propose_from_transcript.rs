//! `carryover proposals extract`: the proposals a transcript yields, shown or written.

use std::path::Path;

use crate::domain::extraction::{Ignored, ignored_in};
use crate::domain::ports::{
    DigestScope, Embedder, EmbeddingIndex, SeedRepository, TranscriptReader,
};
use crate::domain::{ChangeReason, RuleError, SeedError};

use super::{
    AppError, Extraction, LearningProposals, ProposalOrigin, ProposalSettings, add_proposals,
};

/// What a transcript yielded: the extraction, how many proposals were added, and the user's
/// sentences with a rule's cue word that yielded nothing (the audit of misses).
#[derive(Debug)]
pub struct TranscriptProposals {
    /// Proposals, candidates left out by deduplication, the floor or the cap, and warnings.
    pub extraction: Extraction,
    /// How many proposals were written (0 on a dry run).
    pub added: usize,
    /// Sentences with a cue word that no rule turned into a candidate, and why.
    pub ignored: Vec<Ignored>,
}

/// Extraction over a transcript file, outside a session end.
pub struct ProposeFromTranscript<T, S, E, I> {
    transcripts: T,
    seeds: S,
    proposals: LearningProposals<E, I>,
}

impl<T, S, E, I> ProposeFromTranscript<T, S, E, I>
where
    T: TranscriptReader,
    S: SeedRepository,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A service over the given ports.
    pub fn new(transcripts: T, seeds: S, proposals: LearningProposals<E, I>) -> Self {
        Self {
            transcripts,
            seeds,
            proposals,
        }
    }

    /// What `transcript`'s user messages yield (`origin` gives each proposal its source and
    /// scope); unless `dry_run`, the new ones are added as pending proposals in one commit.
    pub async fn run(
        &self,
        transcript: &Path,
        origin: ProposalOrigin<'_>,
        settings: ProposalSettings,
        dry_run: bool,
    ) -> Result<TranscriptProposals, AppError> {
        let digest = self
            .transcripts
            .digest(transcript, DigestScope::Whole)
            .await
            .map_err(AppError::Transcript)?;
        let seed = self
            .seeds
            .load()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))?
            .seed;
        let extraction = self
            .proposals
            .extract(&digest.user_requests, &seed, origin, settings)
            .await;
        let ignored = ignored_in(&digest.user_requests);
        if dry_run || extraction.proposals.is_empty() {
            return Ok(TranscriptProposals {
                extraction,
                added: 0,
                ignored,
            });
        }
        let proposals = extraction.proposals.clone();
        let session = origin.session.to_owned();
        let project = origin.project.clone();
        let written = self
            .seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(SeedError::Rule(RuleError::NotInitialised))?;
                let proposals = add_proposals(&mut seed, &proposals, &project);
                Ok((seed, ChangeReason::Propose { session, proposals }))
            }))
            .await?;
        let added = extraction
            .proposals
            .iter()
            .filter(|p| written.state.proposals.iter().any(|w| w.id == p.id))
            .count();
        Ok(TranscriptProposals {
            extraction,
            added,
            ignored,
        })
    }
}
