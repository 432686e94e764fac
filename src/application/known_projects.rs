//! The names of the projects carryover knows, for the scope rule (ADR 0010).

use crate::domain::ports::ProjectCatalog;
use crate::domain::project::ProjectId;
use crate::domain::seed::Seed;

/// The projects the catalog lists, those the seed's state remembers as active, and those its
/// learnings and proposals belong to.
pub(super) async fn known_projects(
    catalog: Option<&dyn ProjectCatalog>,
    seed: &Seed,
) -> Vec<String> {
    let mut names = match catalog {
        Some(catalog) => catalog.names().await,
        None => Vec::new(),
    };
    let scopes = seed
        .learned
        .iter()
        .filter_map(|(_, learning)| learning.project.as_deref())
        .chain(
            seed.state
                .proposals
                .iter()
                .filter_map(|p| p.project.as_deref()),
        );
    names.extend(seed.state.active_projects.iter().cloned());
    names.extend(
        scopes
            .filter_map(ProjectId::parse)
            .map(|id| id.short_name().to_owned()),
    );
    names.sort_unstable();
    names.dedup();
    names
}
