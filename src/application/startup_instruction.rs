//! The start-up instruction listener: renders the `_startup.md` template for every new session
//! and queues the result with priority, once per session, only from trusted templates.

use std::sync::{Arc, Mutex};

use crate::domain::ports::{
    ContextStateStore, FlagStore, TemplateFile, TemplateSource, TrustStore,
};
use crate::domain::project::SlugStyle;
use crate::domain::session::Session;
use crate::domain::startup::{
    RenderVariables, StartupTemplate, render_template, requirements_hold,
};

use super::{InstructionQueue, Priority, SessionListener};

/// What the listener did for the last event, for the caller to report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartupReport {
    /// The instruction was queued.
    pub queued: bool,
    /// The template applies to the session as configured now (after a config change).
    pub applies: Option<bool>,
    /// Messages for the user (an untrusted template).
    pub user_messages: Vec<String>,
    /// Diagnostics.
    pub warnings: Vec<String>,
}

/// Why nothing was rendered, or what was.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    NoTemplate,
    Untrusted(String),
    NotApplicable,
    Rendered(String),
}

/// Renders the start-up template and queues it with priority. `consume` is set by the hook:
/// the session is then recorded as instructed so resumes and compactions do not repeat it; a
/// preview (`carryover context`) records nothing.
pub struct StartupInstructionListener<T, Tr, St, F> {
    templates: T,
    trust: Tr,
    states: St,
    flags: F,
    queue: Arc<InstructionQueue>,
    slug_style: SlugStyle,
    consume: bool,
    report: Mutex<StartupReport>,
}

impl<T, Tr, St, F> StartupInstructionListener<T, Tr, St, F>
where
    T: TemplateSource,
    Tr: TrustStore,
    St: ContextStateStore,
    F: FlagStore,
{
    /// A listener over the given ports, queueing into `queue`.
    pub fn new(
        templates: T,
        trust: Tr,
        states: St,
        flags: F,
        queue: Arc<InstructionQueue>,
        slug_style: SlugStyle,
        consume: bool,
    ) -> Self {
        Self {
            templates,
            trust,
            states,
            flags,
            queue,
            slug_style,
            consume,
            report: Mutex::default(),
        }
    }

    /// What happened so far.
    pub fn report(&self) -> StartupReport {
        self.report
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn note(&self, change: impl FnOnce(&mut StartupReport)) {
        change(
            &mut self
                .report
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
    }

    /// The template to use: the project's when it has one (and only if trusted), else the
    /// user's own.
    async fn template(&self, session: &Session) -> Result<Option<TemplateFile>, Outcome> {
        let warn = |error: crate::domain::TemplateError| {
            self.note(|r| r.warnings.push(error.to_string()));
            Outcome::NoTemplate
        };
        match self.templates.project_template(&session.project.root).await {
            Ok(Some(file)) => {
                let trusted = self
                    .trust
                    .is_trusted(&file.path, &file.sha256)
                    .await
                    .unwrap_or_else(|error| {
                        self.note(|r| r.warnings.push(error.to_string()));
                        false
                    });
                if trusted {
                    Ok(Some(file))
                } else {
                    Err(Outcome::Untrusted(format!(
                        "the start-up template {} is new or changed and was not injected; review it, then run `carryover trust --cwd {}`",
                        file.path.display(),
                        session.project.root.display()
                    )))
                }
            }
            Ok(None) => self.templates.user_template().await.map_err(warn),
            Err(error) => Err(warn(error)),
        }
    }

    async fn evaluate(&self, session: &Session) -> Outcome {
        let file = match self.template(session).await {
            Ok(Some(file)) => file,
            Ok(None) => return Outcome::NoTemplate,
            Err(outcome) => return outcome,
        };
        let template = match StartupTemplate::parse(&file.text) {
            Ok(template) => template,
            Err(problem) => {
                self.note(|r| {
                    r.warnings
                        .push(format!("{}: {problem}", file.path.display()))
                });
                return Outcome::NotApplicable;
            }
        };
        let slug = session.project.slug(self.slug_style);
        let flags = match self.flags.resolved(&slug).await {
            Ok(flags) => flags,
            Err(error) => {
                self.note(|r| r.warnings.push(error.to_string()));
                return Outcome::NotApplicable;
            }
        };
        if !requirements_hold(&template, &flags) {
            return Outcome::NotApplicable;
        }
        let root = session.project.root.to_string_lossy();
        let (text, warnings) = render_template(
            &template.body,
            &RenderVariables {
                flags: &flags,
                project_name: &session.project.name,
                project_root: &root,
                session_id: session.id.as_deref().unwrap_or_default(),
                session_source: session.source.map(|s| s.as_str()).unwrap_or_default(),
            },
        );
        self.note(|r| {
            r.warnings.extend(
                warnings
                    .into_iter()
                    .map(|w| format!("{}: {w}", file.path.display())),
            )
        });
        let text = text.trim();
        if text.is_empty() {
            Outcome::NotApplicable
        } else {
            Outcome::Rendered(text.to_owned())
        }
    }

    /// Whether this session already had its instruction: only a continued conversation
    /// (resume, compact, or an agent that does not say) of a recorded session counts.
    async fn already_instructed(&self, session: &Session) -> bool {
        let Some(id) = session.id.as_deref() else {
            return false;
        };
        if session.is_new_conversation() {
            return false;
        }
        match self
            .states
            .load(&session.project.slug(self.slug_style))
            .await
        {
            Ok(state) => state.is_some_and(|s| s.had_startup_instruction(id)),
            Err(error) => {
                self.note(|r| r.warnings.push(error.to_string()));
                false
            }
        }
    }

    async fn record(&self, session: &Session) {
        let Some(id) = session.id.clone() else { return };
        let slug = session.project.slug(self.slug_style);
        let recorded = self
            .states
            .update(
                &slug,
                Box::new(move |current| {
                    let mut state = current.unwrap_or_default();
                    state.record_startup_instruction(&id);
                    state
                }),
            )
            .await;
        if let Err(error) = recorded {
            self.note(|r| r.warnings.push(error.to_string()));
        }
    }
}

#[async_trait::async_trait]
impl<T, Tr, St, F> SessionListener for StartupInstructionListener<T, Tr, St, F>
where
    T: TemplateSource,
    Tr: TrustStore,
    St: ContextStateStore,
    F: FlagStore,
{
    async fn on_session_changed(&self, session: &Session) {
        if self.already_instructed(session).await {
            return;
        }
        match self.evaluate(session).await {
            Outcome::Rendered(text) => {
                self.queue.queue(text, Priority::High);
                self.note(|r| r.queued = true);
                if self.consume {
                    self.record(session).await;
                }
            }
            Outcome::Untrusted(message) => self.note(|r| r.user_messages.push(message)),
            Outcome::NoTemplate | Outcome::NotApplicable => {}
        }
    }

    async fn on_config_changed(&self, session: &Session) {
        match self.evaluate(session).await {
            Outcome::Rendered(_) => self.note(|r| r.applies = Some(true)),
            Outcome::NotApplicable => self.note(|r| r.applies = Some(false)),
            Outcome::Untrusted(message) => self.note(|r| r.user_messages.push(message)),
            Outcome::NoTemplate => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compaction::{ContextState, StartSource};
    use crate::domain::flags::{FlagValue, ResolvedFlags};
    use crate::domain::ports::{
        MockContextStateStore, MockFlagStore, MockTemplateSource, MockTrustStore,
    };
    use crate::domain::project::Project;
    use rstest::rstest;
    use std::collections::BTreeMap;

    const TEMPLATE: &str = include_str!("../../tests/fixtures/startup/_startup.md");

    fn file(path: &str, text: &str) -> TemplateFile {
        TemplateFile {
            path: path.into(),
            text: text.into(),
            sha256: "digest".into(),
        }
    }

    fn templates(project: Option<&'static str>, user: Option<&'static str>) -> MockTemplateSource {
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(move |_| {
            Ok(project.map(|text| file("/code/p/.carryover/_startup.md", text)))
        });
        templates
            .expect_user_template()
            .returning(move || Ok(user.map(|text| file("/data/templates/_startup.md", text))));
        templates
    }

    fn trust(trusted: bool) -> MockTrustStore {
        let mut store = MockTrustStore::new();
        store.expect_is_trusted().returning(move |_, _| Ok(trusted));
        store
    }

    fn flags(instruction: Option<FlagValue>) -> MockFlagStore {
        let mut store = MockFlagStore::new();
        store.expect_resolved().returning(move |_| {
            let global: BTreeMap<String, FlagValue> = instruction
                .clone()
                .map(|v| ("startup-instruction".to_owned(), v))
                .into_iter()
                .collect();
            Ok(ResolvedFlags::resolve(&global, None))
        });
        store
    }

    fn states(instructed: &'static [&'static str], records: usize) -> MockContextStateStore {
        let mut states = MockContextStateStore::new();
        states.expect_load().returning(move |_| {
            Ok(Some(ContextState {
                startup_sessions: instructed.iter().map(|s| (*s).to_owned()).collect(),
                ..Default::default()
            }))
        });
        states.expect_update().times(records).returning(|_, edit| {
            let state = edit(None);
            assert_eq!(state.startup_sessions, vec!["s1"]);
            Ok(state)
        });
        states
    }

    fn session(source: Option<StartSource>) -> Session {
        Session {
            id: Some("s1".into()),
            source,
            project: Project::at("/code/p"),
        }
    }

    type Listener = StartupInstructionListener<
        MockTemplateSource,
        MockTrustStore,
        MockContextStateStore,
        MockFlagStore,
    >;

    fn listener(
        templates: MockTemplateSource,
        trust: MockTrustStore,
        states: MockContextStateStore,
        flags: MockFlagStore,
    ) -> (Listener, Arc<InstructionQueue>) {
        let queue = Arc::new(InstructionQueue::new());
        (
            StartupInstructionListener::new(
                templates,
                trust,
                states,
                flags,
                queue.clone(),
                SlugStyle::Path,
                true,
            ),
            queue,
        )
    }

    #[test]
    fn a_trusted_project_template_is_rendered_and_queued_first() {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            states(&[], 1),
            flags(Some(FlagValue::Text("make status".into()))),
        );
        queue.queue("already there".into(), Priority::Normal);
        pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert_eq!(
            queue.drain(),
            vec![
                "Before anything else this session, run `make status` and report its result in one line.",
                "already there"
            ]
        );
        assert!(listener.report().queued);
    }

    #[test]
    fn an_untrusted_project_template_injects_nothing_and_tells_the_user() {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), Some(TEMPLATE)),
            trust(false),
            states(&[], 0),
            flags(Some(FlagValue::Bool(true))),
        );
        pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        let report = listener.report();
        assert!(
            report.user_messages[0].contains("carryover trust --cwd /code/p"),
            "{report:?}"
        );
    }

    #[test]
    fn the_users_own_template_needs_no_trust() {
        let mut trust = MockTrustStore::new();
        trust.expect_is_trusted().never();
        let (listener, queue) = listener(
            templates(None, Some(TEMPLATE)),
            trust,
            states(&[], 1),
            flags(Some(FlagValue::Text("just check".into()))),
        );
        pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Clear))));
        assert_eq!(queue.drain().len(), 1);
    }

    #[rstest]
    #[case::flag_off(Some(FlagValue::Bool(false)))]
    #[case::flag_missing(None)]
    fn a_template_whose_requirements_fail_is_filtered_silently(#[case] flag: Option<FlagValue>) {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            states(&[], 0),
            flags(flag),
        );
        pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        assert_eq!(listener.report(), StartupReport::default());
    }

    #[rstest]
    #[case::resume(Some(StartSource::Resume), 0)]
    #[case::compact(Some(StartSource::Compact), 0)]
    #[case::unknown_source(None, 0)]
    #[case::startup(Some(StartSource::Startup), 1)]
    #[case::clear(Some(StartSource::Clear), 1)]
    fn once_per_session_unless_the_conversation_is_new(
        #[case] source: Option<StartSource>,
        #[case] queued: usize,
    ) {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            states(&["s1"], queued),
            flags(Some(FlagValue::Bool(true))),
        );
        pollster::block_on(listener.on_session_changed(&session(source)));
        assert_eq!(queue.drain().len(), queued);
    }

    #[test]
    fn a_blank_render_queues_nothing() {
        let blank = "---\ntype: agent/instruction\n---\n  {{flags.unknown}}  \n";
        let (listener, queue) = listener(
            templates(None, Some(blank)),
            trust(true),
            states(&[], 0),
            flags(None),
        );
        pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        assert_eq!(
            listener.report().warnings.len(),
            1,
            "the unknown variable is reported"
        );
    }

    #[test]
    fn a_config_change_over_an_untrusted_template_says_so_instead() {
        let (listener, _queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(false),
            states(&[], 0),
            flags(Some(FlagValue::Bool(true))),
        );
        pollster::block_on(listener.on_config_changed(&session(None)));
        let report = listener.report();
        assert_eq!(report.applies, None);
        assert_eq!(report.user_messages.len(), 1);
    }

    #[test]
    fn a_config_change_reports_whether_the_template_now_applies() {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            states(&[], 0),
            flags(Some(FlagValue::Bool(true))),
        );
        pollster::block_on(listener.on_config_changed(&session(None)));
        assert_eq!(listener.report().applies, Some(true));
        assert!(queue.drain().is_empty(), "a config change queues nothing");
    }
}
