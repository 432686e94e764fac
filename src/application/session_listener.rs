//! Listeners that hear about every session, and the one registry that holds them (ADR 0004).

use std::sync::Arc;

use crate::domain::project::Project;
use crate::domain::session::Session;

/// What a listener has to say after an event: messages for the user (shown beside the
/// context, never to the model) and diagnostics (stderr and the log).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListenerNotes {
    /// For the user.
    pub user_messages: Vec<String>,
    /// For the log.
    pub diagnostics: Vec<String>,
}

impl ListenerNotes {
    /// Adds `other`'s notes after these.
    pub fn extend(&mut self, other: ListenerNotes) {
        self.user_messages.extend(other.user_messages);
        self.diagnostics.extend(other.diagnostics);
    }
}

/// Hears about sessions. Listeners are registered once, by the composition root, and never
/// fail the caller: what goes wrong comes back as notes.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SessionListener: Send + Sync {
    /// A session was created, or moved to another project.
    async fn on_session_changed(&self, session: &Session) -> ListenerNotes;

    /// The configuration (feature flags) changed while `session` was current.
    async fn on_config_changed(&self, session: &Session) -> ListenerNotes;
}

/// The listeners, in registration order. Built once and shared (`Arc`), never global.
#[derive(Default, Clone)]
pub struct ListenerRegistry {
    listeners: Vec<Arc<dyn SessionListener>>,
}

impl ListenerRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a listener.
    pub fn register(&mut self, listener: Arc<dyn SessionListener>) {
        self.listeners.push(listener);
    }

    /// How many listeners are registered.
    pub fn len(&self) -> usize {
        self.listeners.len()
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.listeners.is_empty()
    }

    /// Starts `session`: every listener hears of it once.
    pub async fn start(&self, session: Session) -> ActiveSession<'_> {
        let mut active = ActiveSession {
            session,
            registry: self,
            notes: ListenerNotes::default(),
        };
        active.notify_changed().await;
        active
    }

    async fn session_changed(&self, session: &Session) -> ListenerNotes {
        let mut notes = ListenerNotes::default();
        for listener in &self.listeners {
            notes.extend(listener.on_session_changed(session).await);
        }
        notes
    }

    async fn config_changed(&self, session: &Session) -> ListenerNotes {
        let mut notes = ListenerNotes::default();
        for listener in &self.listeners {
            notes.extend(listener.on_config_changed(session).await);
        }
        notes
    }
}

/// A session whose changes the registry's listeners hear about.
pub struct ActiveSession<'a> {
    session: Session,
    registry: &'a ListenerRegistry,
    notes: ListenerNotes,
}

impl ActiveSession<'_> {
    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// What the listeners said so far.
    pub fn notes(&self) -> &ListenerNotes {
        &self.notes
    }

    /// Moves the session to `project`; listeners hear of it only if the project changed.
    pub async fn move_to(&mut self, project: Project) {
        if self.session.project != project {
            self.session.project = project;
            self.notify_changed().await;
        }
    }

    /// Tells the listeners that the flags changed; returns what they said of it.
    pub async fn config_changed(&mut self) -> ListenerNotes {
        let notes = self.registry.config_changed(&self.session).await;
        self.notes.extend(notes.clone());
        notes
    }

    async fn notify_changed(&mut self) {
        let notes = self.registry.session_changed(&self.session).await;
        self.notes.extend(notes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compaction::StartSource;

    fn session() -> Session {
        Session {
            id: Some("s1".into()),
            source: Some(StartSource::Startup),
            project: Project::at("/code/a"),
        }
    }

    fn counting(changed: usize, config: usize) -> Arc<dyn SessionListener> {
        let mut listener = MockSessionListener::new();
        listener
            .expect_on_session_changed()
            .times(changed)
            .returning(|_| ListenerNotes {
                diagnostics: vec!["changed".into()],
                ..ListenerNotes::default()
            });
        listener
            .expect_on_config_changed()
            .times(config)
            .returning(|_| ListenerNotes {
                user_messages: vec!["config".into()],
                ..ListenerNotes::default()
            });
        Arc::new(listener)
    }

    #[test]
    fn every_listener_hears_each_event_once() {
        let mut registry = ListenerRegistry::new();
        registry.register(counting(2, 1));
        registry.register(counting(2, 1));
        pollster::block_on(async {
            let mut active = registry.start(session()).await;
            active.move_to(Project::at("/code/a")).await;
            active.move_to(Project::at("/code/b")).await;
            active.config_changed().await;
            assert_eq!(active.session().project.name, "b");
            assert_eq!(
                active.notes().diagnostics.len(),
                4,
                "two listeners, two changes"
            );
            assert_eq!(active.notes().user_messages, ["config", "config"]);
        });
    }

    #[test]
    fn listeners_hear_in_registration_order() {
        let order = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut registry = ListenerRegistry::new();
        for name in ["first", "second"] {
            let order = order.clone();
            let mut listener = MockSessionListener::new();
            listener.expect_on_session_changed().returning(move |_| {
                order.lock().unwrap().push(name);
                ListenerNotes::default()
            });
            registry.register(Arc::new(listener));
        }
        pollster::block_on(registry.start(session()));
        assert_eq!(*order.lock().unwrap(), vec!["first", "second"]);
    }
}
