//! `carryover proposals extract`: the proposals a transcript yields, shown or written.

use std::path::Path;

use crate::domain::ports::{
    DigestScope, Embedder, EmbeddingIndex, SeedRepository, TranscriptReader,
};
use crate::domain::{ChangeReason, RuleError, SeedError};

use super::{
    AppError, Extraction, LearningProposals, ProposalOrigin, ProposalSettings, add_proposals,
};

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
    /// Returns the extraction and how many were added.
    pub async fn run(
        &self,
        transcript: &Path,
        origin: ProposalOrigin<'_>,
        settings: ProposalSettings,
        dry_run: bool,
    ) -> Result<(Extraction, usize), AppError> {
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
        if dry_run || extraction.proposals.is_empty() {
            return Ok((extraction, 0));
        }
        let proposals = extraction.proposals.clone();
        let session = origin.session.to_owned();
        let written = self
            .seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(SeedError::Rule(RuleError::NotInitialised))?;
                let proposals = add_proposals(&mut seed, &proposals);
                Ok((seed, ChangeReason::Propose { session, proposals }))
            }))
            .await?;
        let added = extraction
            .proposals
            .iter()
            .filter(|p| written.state.proposals.iter().any(|w| w.id == p.id))
            .count();
        Ok((extraction, added))
    }
}
