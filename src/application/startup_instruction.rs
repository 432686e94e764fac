//! The start-up instruction listener: renders the `_startup.md` template for every new session
//! and queues the result with priority, once per session, only from trusted templates.

use std::sync::{Arc, Mutex};

use crate::domain::compaction::StartSource;
use crate::domain::ports::{
    FlagStore, SessionRecordStore, TemplateFile, TemplateSource, TrustStore, amend_record,
};
use crate::domain::project::SlugStyle;
use crate::domain::session::Session;
use crate::domain::session_id::SessionId;
use crate::domain::startup::{
    RenderVariables, StartupTemplate, render_template, requirements_hold,
};

use super::{InstructionQueue, ListenerNotes, Priority, SessionListener};

/// What the listener found at the last configuration change, for `carryover flags`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartupReport {
    /// The template applies to the session as configured now.
    pub applies: Option<bool>,
}

/// Why nothing was rendered, or what was.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    NoTemplate,
    /// The warning, and the digest of the template it is about.
    Untrusted(String, String),
    NotApplicable,
    Rendered(String),
}

/// Renders the start-up template and queues it with priority. Only a new conversation
/// (`startup`, `clear`, or an agent that does not say) that the session's record does not show
/// as instructed gets it; recording that it was injected is the session start's job, since
/// only the session start knows whether it made it into the context.
pub struct StartupInstructionListener<T, Tr, R, F> {
    templates: T,
    trust: Tr,
    records: R,
    flags: F,
    queue: Arc<InstructionQueue>,
    slug_style: SlugStyle,
    report: Mutex<StartupReport>,
}

impl<T, Tr, R, F> StartupInstructionListener<T, Tr, R, F>
where
    T: TemplateSource,
    Tr: TrustStore,
    R: SessionRecordStore,
    F: FlagStore,
{
    /// A listener over the given ports, queueing into `queue`.
    pub fn new(
        templates: T,
        trust: Tr,
        records: R,
        flags: F,
        queue: Arc<InstructionQueue>,
        slug_style: SlugStyle,
    ) -> Self {
        Self {
            templates,
            trust,
            records,
            flags,
            queue,
            slug_style,
            report: Mutex::default(),
        }
    }

    /// What the last configuration change found.
    pub fn report(&self) -> StartupReport {
        self.report
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The template to use: the project's when it has one (and only if trusted), else the
    /// user's own.
    async fn template(
        &self,
        session: &Session,
        notes: &mut ListenerNotes,
    ) -> Result<Option<TemplateFile>, Outcome> {
        match self.templates.project_template(&session.project.root).await {
            Ok(Some(file)) => {
                let trusted = self
                    .trust
                    .is_trusted(&file.path, &file.sha256)
                    .await
                    .unwrap_or_else(|error| {
                        notes.diagnostics.push(error.to_string());
                        false
                    });
                if trusted {
                    Ok(Some(file))
                } else {
                    Err(Outcome::Untrusted(
                        format!(
                            "the start-up template {} is new or changed and was not injected; review it, then run `carryover trust --cwd {}`",
                            file.path.display(),
                            session.project.root.display()
                        ),
                        file.sha256,
                    ))
                }
            }
            Ok(None) => self.templates.user_template().await.map_err(|error| {
                notes.diagnostics.push(error.to_string());
                Outcome::NoTemplate
            }),
            Err(error) => {
                notes.diagnostics.push(error.to_string());
                Err(Outcome::NoTemplate)
            }
        }
    }

    async fn evaluate(&self, session: &Session, notes: &mut ListenerNotes) -> Outcome {
        let file = match self.template(session, notes).await {
            Ok(Some(file)) => file,
            Ok(None) => return Outcome::NoTemplate,
            Err(outcome) => return outcome,
        };
        let template = match StartupTemplate::parse(&file.text) {
            Ok(template) => template,
            Err(problem) => {
                notes
                    .diagnostics
                    .push(format!("{}: {problem}", file.path.display()));
                return Outcome::NotApplicable;
            }
        };
        let slug = session.project.slug(self.slug_style);
        let flags = match self.flags.resolved(&slug).await {
            Ok(flags) => flags,
            Err(error) => {
                notes.diagnostics.push(error.to_string());
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
        notes.diagnostics.extend(
            warnings
                .into_iter()
                .map(|w| format!("{}: {w}", file.path.display())),
        );
        let text = text.trim();
        if text.is_empty() {
            Outcome::NotApplicable
        } else {
            Outcome::Rendered(text.to_owned())
        }
    }

    /// Whether the session has not been warned about this untrusted template yet, noting that
    /// it now is: the warning is for the user, and a session hears it once (a changed
    /// template is warned about again). Without a usable session id, or a record store that
    /// works, the warning is given rather than lost.
    async fn first_warning(
        &self,
        session: &Session,
        sha256: &str,
        notes: &mut ListenerNotes,
    ) -> bool {
        let Some(id) = session
            .id
            .as_deref()
            .and_then(|raw| SessionId::parse(raw).ok())
        else {
            return true;
        };
        let first = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let noted = first.clone();
        let digest = sha256.to_owned();
        let updated = self
            .records
            .update(
                &session.project.slug(self.slug_style),
                &id,
                amend_record(move |record| {
                    if record.untrusted_template.as_deref() == Some(digest.as_str()) {
                        noted.store(false, std::sync::atomic::Ordering::Relaxed);
                    }
                    record.untrusted_template = Some(digest);
                }),
            )
            .await;
        if let Err(error) = updated {
            notes.diagnostics.push(error.to_string());
            return true;
        }
        first.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether this session may not have the instruction: a continued conversation never
    /// does, and a session whose record shows it had it already did.
    async fn not_for(&self, session: &Session, notes: &mut ListenerNotes) -> bool {
        if matches!(
            session.source,
            Some(StartSource::Resume | StartSource::Compact)
        ) {
            return true;
        }
        let Some(id) = session
            .id
            .as_deref()
            .and_then(|raw| SessionId::parse(raw).ok())
        else {
            return false;
        };
        match self
            .records
            .load(&session.project.slug(self.slug_style), &id)
            .await
        {
            Ok(record) => record.is_some_and(|r| r.startup_instruction),
            Err(error) => {
                notes.diagnostics.push(error.to_string());
                false
            }
        }
    }
}

#[async_trait::async_trait]
impl<T, Tr, R, F> SessionListener for StartupInstructionListener<T, Tr, R, F>
where
    T: TemplateSource,
    Tr: TrustStore,
    R: SessionRecordStore,
    F: FlagStore,
{
    async fn on_session_changed(&self, session: &Session) -> ListenerNotes {
        let mut notes = ListenerNotes::default();
        if self.not_for(session, &mut notes).await {
            return notes;
        }
        match self.evaluate(session, &mut notes).await {
            Outcome::Rendered(text) => self.queue.queue(text, Priority::High),
            Outcome::Untrusted(message, sha256) => {
                if self.first_warning(session, &sha256, &mut notes).await {
                    notes.user_messages.push(message);
                }
            }
            Outcome::NoTemplate | Outcome::NotApplicable => {}
        }
        notes
    }

    async fn on_config_changed(&self, session: &Session) -> ListenerNotes {
        let mut notes = ListenerNotes::default();
        let applies = match self.evaluate(session, &mut notes).await {
            Outcome::Rendered(_) => Some(true),
            Outcome::NotApplicable => Some(false),
            Outcome::Untrusted(message, _) => {
                notes.user_messages.push(message);
                None
            }
            Outcome::NoTemplate => None,
        };
        *self
            .report
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = StartupReport { applies };
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::flags::{FlagValue, ResolvedFlags};
    use crate::domain::ports::{
        MockFlagStore, MockSessionRecordStore, MockTemplateSource, MockTrustStore,
    };
    use crate::domain::project::Project;
    use crate::domain::session_record::SessionRecord;
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

    /// A record store in which session `s1` did (or did not) have its instruction; the
    /// listener only ever reads it.
    fn records(instructed: bool) -> MockSessionRecordStore {
        let mut records = MockSessionRecordStore::new();
        records.expect_load().returning(move |_, _| {
            Ok(Some(SessionRecord {
                startup_instruction: instructed,
                ..SessionRecord::default()
            }))
        });
        records.expect_update().never();
        records
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
        MockSessionRecordStore,
        MockFlagStore,
    >;

    fn listener(
        templates: MockTemplateSource,
        trust: MockTrustStore,
        records: MockSessionRecordStore,
        flags: MockFlagStore,
    ) -> (Listener, Arc<InstructionQueue>) {
        let queue = Arc::new(InstructionQueue::new());
        (
            StartupInstructionListener::new(
                templates,
                trust,
                records,
                flags,
                queue.clone(),
                SlugStyle::Path,
            ),
            queue,
        )
    }

    #[test]
    fn a_trusted_project_template_is_rendered_and_queued_first() {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            records(false),
            flags(Some(FlagValue::Text("make status".into()))),
        );
        queue.queue("already there".into(), Priority::Normal);
        let notes =
            pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert_eq!(
            queue.drain(),
            vec![
                "Before anything else this session, run `make status` and report its result in one line.",
                "already there"
            ]
        );
        assert_eq!(notes, ListenerNotes::default());
    }

    /// A record store whose session `s1` was warned about the template of digest `warned`;
    /// it keeps what the listener writes.
    fn warned_records(warned: Option<&'static str>) -> MockSessionRecordStore {
        let mut records = MockSessionRecordStore::new();
        records.expect_load().returning(|_, _| Ok(None));
        records
            .expect_update()
            .times(1)
            .returning(move |_, _, edit| {
                let record = edit(Some(SessionRecord {
                    untrusted_template: warned.map(str::to_owned),
                    ..SessionRecord::default()
                }));
                assert_eq!(record.untrusted_template.as_deref(), Some("digest"));
                Ok(record)
            });
        records
    }

    #[rstest]
    #[case::first_time_in_the_session(None, 1)]
    #[case::already_warned_in_the_session(Some("digest"), 0)]
    #[case::warned_about_an_earlier_version(Some("older"), 1)]
    fn an_untrusted_project_template_injects_nothing_and_tells_the_user_once(
        #[case] warned: Option<&'static str>,
        #[case] messages: usize,
    ) {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), Some(TEMPLATE)),
            trust(false),
            warned_records(warned),
            flags(Some(FlagValue::Bool(true))),
        );
        let notes =
            pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        assert_eq!(notes.user_messages.len(), messages, "{notes:?}");
        if messages == 1 {
            assert!(
                notes.user_messages[0].contains("carryover trust --cwd /code/p"),
                "{notes:?}"
            );
        }
    }

    #[test]
    fn the_users_own_template_needs_no_trust() {
        let mut trust = MockTrustStore::new();
        trust.expect_is_trusted().never();
        let (listener, queue) = listener(
            templates(None, Some(TEMPLATE)),
            trust,
            records(false),
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
            records(false),
            flags(flag),
        );
        let notes =
            pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        assert_eq!(notes, ListenerNotes::default());
    }

    #[rstest]
    #[case::resume_never(Some(StartSource::Resume), false, 0)]
    #[case::compact_never(Some(StartSource::Compact), false, 0)]
    #[case::startup(Some(StartSource::Startup), false, 1)]
    #[case::clear(Some(StartSource::Clear), false, 1)]
    #[case::an_agent_that_does_not_say(None, false, 1)]
    #[case::startup_once_per_session(Some(StartSource::Startup), true, 0)]
    #[case::clear_once_per_session(Some(StartSource::Clear), true, 0)]
    #[case::silent_agent_once_per_session(None, true, 0)]
    fn new_conversations_only_and_once_per_session(
        #[case] source: Option<StartSource>,
        #[case] instructed: bool,
        #[case] queued: usize,
    ) {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            records(instructed),
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
            records(false),
            flags(None),
        );
        let notes =
            pollster::block_on(listener.on_session_changed(&session(Some(StartSource::Startup))));
        assert!(queue.drain().is_empty());
        assert_eq!(
            notes.diagnostics.len(),
            1,
            "the unknown variable is reported"
        );
    }

    #[test]
    fn a_config_change_over_an_untrusted_template_says_so_instead() {
        let (listener, _queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(false),
            records(false),
            flags(Some(FlagValue::Bool(true))),
        );
        let notes = pollster::block_on(listener.on_config_changed(&session(None)));
        assert_eq!(listener.report().applies, None);
        assert_eq!(notes.user_messages.len(), 1);
    }

    #[test]
    fn a_config_change_reports_whether_the_template_now_applies() {
        let (listener, queue) = listener(
            templates(Some(TEMPLATE), None),
            trust(true),
            records(false),
            flags(Some(FlagValue::Bool(true))),
        );
        pollster::block_on(listener.on_config_changed(&session(None)));
        assert_eq!(listener.report().applies, Some(true));
        assert!(queue.drain().is_empty(), "a config change queues nothing");
    }
}
