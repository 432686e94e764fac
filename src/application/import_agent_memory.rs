//! `carryover import claude-memory`: the memories Claude Code saved for a project, proposed
//! as pending learnings (ADR 0014), deduplicated as session-end proposals are.

use std::path::Path;

use crate::domain::agent_memory::{
    AgentMemory, NoLearning, is_memory_file_name, parse_agent_memory,
};
use crate::domain::ports::{AgentMemoryFolder, Embedder, EmbeddingIndex, SeedRepository};
use crate::domain::seed::Proposal;
use crate::domain::{AgentMemoryError, ChangeReason, RuleError, SeedError};

use super::{
    AppError, Dropped, LearningProposals, ProposalOrigin, ProposalSettings, add_proposals,
};

/// Why a file of the folder was not imported.
#[derive(Debug, Clone, PartialEq)]
pub enum Skipped {
    /// It is the folder's index (`MEMORY.md`), not a memory.
    Index,
    /// It could not be read (a link, too large, not UTF-8); the reason.
    Unreadable(String),
    /// Nothing in it makes a learning.
    NoText,
    /// Its learning would hold a secret.
    HoldsSecret,
    /// Deduplication left it out.
    Dropped(Dropped),
    /// Another carryover proposed the same text while this import ran.
    AddedMeanwhile,
}

/// What an import found, file by file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryImport {
    /// The memories proposed (written, unless a dry run), by file name.
    pub imported: Vec<(String, Proposal)>,
    /// The files left out, and why.
    pub skipped: Vec<(String, Skipped)>,
    /// What went wrong without stopping it (an embedder that did not answer).
    pub warnings: Vec<String>,
}

/// Imports a memory folder as pending proposals.
pub struct ImportAgentMemory<F, S, E, I> {
    folder: F,
    seeds: S,
    proposals: LearningProposals<E, I>,
}

impl<F, S, E, I> ImportAgentMemory<F, S, E, I>
where
    F: AgentMemoryFolder,
    S: SeedRepository,
    E: Embedder,
    I: EmbeddingIndex,
{
    /// A service over the given ports.
    pub fn new(folder: F, seeds: S, proposals: LearningProposals<E, I>) -> Self {
        Self {
            folder,
            seeds,
            proposals,
        }
    }

    /// Proposes every memory in `dir` that the seed does not hold yet; `origin` gives their
    /// source and project, `force_project` scopes memories about the user to it too. Unless
    /// `dry_run`, the new ones are added in one commit.
    pub async fn run(
        &self,
        dir: &Path,
        origin: ProposalOrigin<'_>,
        force_project: bool,
        settings: ProposalSettings,
        dry_run: bool,
    ) -> Result<MemoryImport, AppError> {
        let seed = self
            .seeds
            .load()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))?
            .seed;
        let mut import = MemoryImport::default();
        let mut memories: Vec<(String, AgentMemory)> = Vec::new();
        for name in self.folder.list(dir).await? {
            if !is_memory_file_name(&name) {
                import.skipped.push((name, Skipped::Index));
                continue;
            }
            match self.folder.read(dir, &name).await {
                Err(AgentMemoryError::Refused { reason, .. }) => {
                    import.skipped.push((name, Skipped::Unreadable(reason)));
                }
                Err(error) => import
                    .skipped
                    .push((name, Skipped::Unreadable(error.to_string()))),
                Ok(text) => match parse_agent_memory(&text) {
                    Ok(memory) => memories.push((name, memory)),
                    Err(NoLearning::NoText) => import.skipped.push((name, Skipped::NoText)),
                    Err(NoLearning::HoldsSecret) => {
                        import.skipped.push((name, Skipped::HoldsSecret));
                    }
                },
            }
        }
        let parsed: Vec<AgentMemory> = memories.iter().map(|(_, m)| m.clone()).collect();
        let extraction = self
            .proposals
            .from_memories(&parsed, &seed, origin, force_project, settings)
            .await;
        import.warnings = extraction.warnings;
        // Each result names its memory by text; two files with one text are told apart by
        // taking each file once.
        let mut files: Vec<Option<(String, String)>> = memories
            .into_iter()
            .map(|(name, memory)| Some((name, memory.text)))
            .collect();
        let mut file_of = |text: &str| {
            files
                .iter_mut()
                .find(|slot| slot.as_ref().is_some_and(|(_, t)| t == text))
                .and_then(Option::take)
                .map_or_else(String::new, |(name, _)| name)
        };
        for (candidate, why) in extraction.dropped {
            import
                .skipped
                .push((file_of(&candidate.text), Skipped::Dropped(why)));
        }
        let mut proposed: Vec<(String, Proposal)> = extraction
            .proposals
            .into_iter()
            .map(|proposal| (file_of(&proposal.content), proposal))
            .collect();
        if !dry_run && !proposed.is_empty() {
            let proposals: Vec<Proposal> = proposed.iter().map(|(_, p)| p.clone()).collect();
            let project = origin.project.clone();
            let written = self
                .seeds
                .update(Box::new(move |current| {
                    let mut seed = current.ok_or(SeedError::Rule(RuleError::NotInitialised))?;
                    let proposals = add_proposals(&mut seed, &proposals, &project);
                    Ok((seed, ChangeReason::ImportMemory { proposals }))
                }))
                .await?;
            let (kept, raced): (Vec<_>, Vec<_>) = proposed
                .into_iter()
                .partition(|(_, p)| written.state.proposals.iter().any(|w| w.id == p.id));
            proposed = kept;
            import.skipped.extend(
                raced
                    .into_iter()
                    .map(|(name, _)| (name, Skipped::AddedMeanwhile)),
            );
        }
        import.imported = proposed;
        import.skipped.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(import)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::{counting_ids, empty_index, fixed_clock, word_embedder};
    use crate::domain::ports::{
        LoadedSeed, MockAgentMemoryFolder, MockEmbedder, MockEmbeddingIndex, MockSeedRepository,
    };
    use crate::domain::project::Project;
    use crate::domain::seed::{LearningKind, Seed};

    type Service = ImportAgentMemory<
        MockAgentMemoryFolder,
        MockSeedRepository,
        MockEmbedder,
        MockEmbeddingIndex,
    >;

    /// A folder holding `files` (name, text); a text of `None` cannot be read.
    fn folder(files: &'static [(&'static str, Option<&'static str>)]) -> MockAgentMemoryFolder {
        let mut folder = MockAgentMemoryFolder::new();
        folder
            .expect_list()
            .returning(|_| Ok(files.iter().map(|(name, _)| (*name).to_owned()).collect()));
        folder.expect_read().returning(|dir, name| {
            match files.iter().find(|(n, _)| *n == name).and_then(|(_, t)| *t) {
                Some(text) => Ok(text.to_owned()),
                None => Err(AgentMemoryError::Refused {
                    path: dir.join(name),
                    reason: "a symbolic link; not followed".into(),
                }),
            }
        });
        folder
    }

    fn seed_holding(content: &str) -> Seed {
        let mut seed = Seed::default();
        seed.state.proposals.push(Proposal {
            id: "prp_old".into(),
            kind: LearningKind::Insight,
            content: content.into(),
            source: "s0".into(),
            extracted_at: crate::domain::seed::Timestamp::parse("2026-11-01T09:00:00Z").unwrap(),
            status: crate::domain::seed::ProposalStatus::Rejected,
            method: None,
            confidence: None,
            decided_at: None,
            project: None,
            extra: Default::default(),
        });
        seed
    }

    fn seeds(seed: Option<Seed>, commits: usize) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        let loaded = seed.clone();
        seeds.expect_load().returning(move || {
            Ok(loaded.clone().map(|seed| LoadedSeed {
                seed,
                repaired: None,
            }))
        });
        seeds.expect_update().times(commits).returning(move |edit| {
            let (seed, reason) = edit(seed.clone())?;
            assert!(reason.to_string().starts_with("Import: "), "{reason}");
            Ok(seed)
        });
        seeds
    }

    fn service(folder: MockAgentMemoryFolder, seeds: MockSeedRepository) -> Service {
        ImportAgentMemory::new(
            folder,
            seeds,
            LearningProposals::new(
                word_embedder(),
                empty_index(),
                counting_ids(),
                fixed_clock(),
            ),
        )
    }

    fn run(service: &Service, dry_run: bool) -> Result<MemoryImport, AppError> {
        let project = Project::at("/home/user/code/shop-api");
        pollster::block_on(service.run(
            Path::new("/m"),
            ProposalOrigin {
                session: "claude-memory",
                project: &project,
            },
            false,
            ProposalSettings::default(),
            dry_run,
        ))
    }

    const FOLDER: &[(&str, Option<&str>)] = &[
        ("MEMORY.md", Some("- [Terse](feedback_terse.md)\n")),
        (
            "feedback_terse.md",
            Some("---\nname: terse\ndescription: Prefers terse answers\ntype: feedback\n---\n"),
        ),
        (
            "project_deploys.md",
            Some(
                "---\ndescription: Deploys happen on Thursdays\nmetadata:\n  type: project\n---\n",
            ),
        ),
        ("empty.md", Some("---\nname: empty\n---\n")),
        ("linked.md", None),
        (
            "reference_token.md",
            Some(
                "---\ndescription: The deploy token is ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8V\n---\n",
            ),
        ),
    ];

    #[test]
    fn proposes_each_memory_and_says_why_the_rest_were_skipped() {
        let service = service(
            folder(FOLDER),
            seeds(Some(seed_holding("Deploys happen on Thursdays")), 1),
        );
        let import = run(&service, false).unwrap();
        let imported: Vec<(&str, LearningKind)> = import
            .imported
            .iter()
            .map(|(name, p)| (name.as_str(), p.kind))
            .collect();
        assert_eq!(imported, [("feedback_terse.md", LearningKind::Pattern)]);
        let skipped: Vec<(&str, &Skipped)> = import
            .skipped
            .iter()
            .map(|(n, why)| (n.as_str(), why))
            .collect();
        assert_eq!(
            skipped,
            [
                ("MEMORY.md", &Skipped::Index),
                ("empty.md", &Skipped::NoText),
                (
                    "linked.md",
                    &Skipped::Unreadable("a symbolic link; not followed".into())
                ),
                (
                    "project_deploys.md",
                    &Skipped::Dropped(Dropped::SameText("prp_old".into()))
                ),
                ("reference_token.md", &Skipped::HoldsSecret),
            ]
        );
    }

    #[test]
    fn a_dry_run_writes_nothing() {
        let service = service(folder(FOLDER), seeds(Some(Seed::default()), 0));
        let import = run(&service, true).unwrap();
        assert_eq!(import.imported.len(), 2);
    }

    #[test]
    fn an_uninitialised_seed_is_refused_before_the_folder_is_read() {
        let mut folder = MockAgentMemoryFolder::new();
        folder.expect_list().never();
        let service = service(folder, seeds(None, 0));
        assert!(matches!(
            run(&service, false),
            Err(AppError::Rule(RuleError::NotInitialised))
        ));
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let mut folder = MockAgentMemoryFolder::new();
        folder.expect_list().returning(|dir| {
            Err(AgentMemoryError::NoFolder {
                path: dir.to_path_buf(),
            })
        });
        let service = service(folder, seeds(Some(Seed::default()), 0));
        assert!(matches!(
            run(&service, false),
            Err(AppError::Memory(AgentMemoryError::NoFolder { .. }))
        ));
    }
}
