//! `carryover statusline`: the gauge under Claude Code's prompt, and the session's exact
//! context window recorded for pre-compact and the compaction notice.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::compaction::Fill;
use crate::domain::format::{GaugeReading, context_gauge};
use crate::domain::ports::{
    ProjectCatalog, ProjectContext, SeedRepository, SessionRecordStore, amend_record,
};
use crate::domain::project::{Project, SlugStyle};
use crate::domain::scope::Visibility;
use crate::domain::session_id::SessionId;

use super::WindowSettings;
use super::known_projects::known_projects;

/// What the client's status-line payload says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusRequest {
    /// The session.
    pub session_id: Option<String>,
    /// Its project directory.
    pub cwd: PathBuf,
    /// Tokens in context (`context_window.total_input_tokens`); `None` before the first reply.
    pub tokens: Option<u64>,
    /// The window (`context_window.context_window_size`).
    pub window: Option<u64>,
    /// The model id, for when the client does not say the window.
    pub model: Option<String>,
}

/// The line and what went wrong on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusOutcome {
    /// The gauge.
    pub line: String,
    /// For the log.
    pub diagnostics: Vec<String>,
}

/// Prints the gauge. Never fails: a status line must always show something.
pub struct StatusLine<S, R, P> {
    seeds: S,
    records: R,
    projects: P,
    window: WindowSettings,
    slug_style: SlugStyle,
    catalog: Option<Arc<dyn ProjectCatalog>>,
}

impl<S: SeedRepository, R: SessionRecordStore, P: ProjectContext> StatusLine<S, R, P> {
    /// A use case over the given ports.
    pub fn new(
        seeds: S,
        records: R,
        projects: P,
        window: WindowSettings,
        slug_style: SlugStyle,
    ) -> Self {
        Self {
            seeds,
            records,
            projects,
            window,
            slug_style,
            catalog: None,
        }
    }

    /// Knows the projects `catalog` lists, so that the proposals counted are the ones the
    /// session start lists (ADR 0010).
    pub fn with_catalog(mut self, catalog: Arc<dyn ProjectCatalog>) -> Self {
        self.catalog = Some(catalog);
        self
    }

    /// The gauge for `request`; records the client's window for the session when it is new
    /// (the file is written only when the figure changes, not at every refresh).
    pub async fn run(&self, request: StatusRequest) -> StatusOutcome {
        let mut diagnostics = Vec::new();
        let (window, _) = self
            .window
            .window(request.window, request.model.as_deref(), None);
        let project = self.projects.project(&request.cwd).await;
        if let (Some(raw), Some(reported)) = (request.session_id.as_deref(), request.window) {
            self.record_window(&project, raw, reported, &mut diagnostics)
                .await;
        }
        let fill = request.tokens.map(|tokens| {
            let fill = Fill::of(tokens, window.tokens);
            (fill, self.window.thresholds.tier(fill))
        });
        let pending = match self.seeds.load().await {
            Ok(Some(loaded)) if loaded.seed.pending_proposals().next().is_none() => 0,
            // The ones this project's session start lists: the global ones and its own.
            Ok(Some(loaded)) => {
                let known = known_projects(self.catalog.as_deref(), &loaded.seed).await;
                let visibility = Visibility::new(&project, known);
                loaded
                    .seed
                    .pending_proposals()
                    .filter(|p| visibility.admits_proposal(p))
                    .count()
            }
            Ok(None) => 0,
            Err(error) => {
                diagnostics.push(error.to_string());
                0
            }
        };
        let reading = GaugeReading {
            tokens: request.tokens,
            window: window.tokens,
            fill,
        };
        StatusOutcome {
            line: context_gauge(reading, pending),
            diagnostics,
        }
    }

    async fn record_window(
        &self,
        project: &Project,
        raw: &str,
        reported: u64,
        diagnostics: &mut Vec<String>,
    ) {
        let id = match SessionId::parse(raw) {
            Ok(id) => id,
            Err(error) => return diagnostics.push(error.to_string()),
        };
        let slug = project.slug(self.slug_style);
        let known = match self.records.load(&slug, &id).await {
            Ok(record) => record.and_then(|r| r.context_window),
            Err(error) => {
                diagnostics.push(error.to_string());
                None
            }
        };
        if known == Some(reported) {
            return;
        }
        let recorded = self
            .records
            .update(
                &slug,
                &id,
                amend_record(move |record| {
                    record.context_window = Some(reported);
                }),
            )
            .await;
        if let Err(error) = recorded {
            diagnostics.push(error.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::project_at;
    use crate::domain::ports::{MockSeedRepository, MockSessionRecordStore};
    use crate::domain::session_record::SessionRecord;
    use rstest::rstest;

    fn seeds() -> MockSeedRepository {
        crate::application::testing::seeds_holding_example()
    }

    /// The example seed with its first pending proposal changed by `edit`.
    fn seeds_with_first_pending(
        edit: fn(&mut crate::domain::seed::Proposal),
    ) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(move || {
            let mut seed = crate::application::testing::example_seed();
            let pending = seed.state.proposals.iter_mut().find(|p| p.is_pending());
            edit(pending.expect("the example seed has a pending proposal"));
            Ok(Some(crate::domain::ports::LoadedSeed {
                seed,
                repaired: None,
            }))
        });
        seeds
    }

    fn records(known: Option<u64>, writes: usize) -> MockSessionRecordStore {
        let mut records = MockSessionRecordStore::new();
        records.expect_load().returning(move |_, _| {
            Ok(known.map(|w| SessionRecord {
                context_window: Some(w),
                ..SessionRecord::default()
            }))
        });
        records
            .expect_update()
            .times(writes)
            .returning(|_, _, edit| {
                let record = edit(None);
                assert_eq!(record.context_window, Some(1_000_000));
                Ok(record)
            });
        records
    }

    fn request(tokens: Option<u64>, window: Option<u64>, model: Option<&str>) -> StatusRequest {
        StatusRequest {
            session_id: Some("s1".into()),
            cwd: "/home/user/code/notes".into(),
            tokens,
            window,
            model: model.map(str::to_owned),
        }
    }

    #[rstest]
    #[case::the_clients_window(
        request(Some(720_000), Some(1_000_000), None),
        None,
        1,
        "ctx 72% (720k/1M) WARNING · 3 proposals to review"
    )]
    #[case::written_once(
        request(Some(720_000), Some(1_000_000), None),
        Some(1_000_000),
        0,
        "ctx 72% (720k/1M) WARNING · 3 proposals to review"
    )]
    #[case::before_the_first_reply(
        request(None, Some(1_000_000), None),
        None,
        1,
        "ctx –/1M · 3 proposals to review"
    )]
    #[case::no_window_from_the_client(
        request(Some(171_243), None, Some("claude-sonnet-5")),
        None,
        0,
        "ctx 17% (171k/1M) NOMINAL · 3 proposals to review"
    )]
    fn prints_the_gauge_and_records_the_window_when_new(
        #[case] request: StatusRequest,
        #[case] known: Option<u64>,
        #[case] writes: usize,
        #[case] line: &str,
    ) {
        let service = StatusLine::new(
            seeds(),
            records(known, writes),
            project_at("/home/user/code/notes"),
            WindowSettings::default(),
            SlugStyle::Path,
        );
        let outcome = pollster::block_on(service.run(request));
        assert_eq!(outcome.line, line);
        assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
    }

    #[test]
    fn counts_only_the_proposals_this_projects_session_start_lists() {
        let seeds = seeds_with_first_pending(|proposal| {
            proposal.project = Some("path:/home/user/code/shop-api".into());
        });
        let service = StatusLine::new(
            seeds,
            records(Some(1_000_000), 0),
            project_at("/home/user/code/notes"),
            WindowSettings::default(),
            SlugStyle::Path,
        );
        let outcome =
            pollster::block_on(service.run(request(Some(720_000), Some(1_000_000), None)));
        assert_eq!(
            outcome.line,
            "ctx 72% (720k/1M) WARNING · 2 proposals to review"
        );
    }

    #[test]
    fn a_global_proposal_naming_a_project_known_only_from_the_catalog_is_not_counted() {
        let seeds = seeds_with_first_pending(|proposal| {
            proposal.content = "web-app: never commit to main".into();
        });
        let mut catalog = crate::domain::ports::MockProjectCatalog::new();
        catalog.expect_names().returning(|| vec!["web-app".into()]);
        let service = StatusLine::new(
            seeds,
            records(Some(1_000_000), 0),
            project_at("/home/user/code/notes"),
            WindowSettings::default(),
            SlugStyle::Path,
        )
        .with_catalog(Arc::new(catalog));
        let outcome =
            pollster::block_on(service.run(request(Some(720_000), Some(1_000_000), None)));
        assert_eq!(
            outcome.line,
            "ctx 72% (720k/1M) WARNING · 2 proposals to review"
        );
    }
}
