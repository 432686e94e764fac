//! Listeners that hear about every session, and the one registry that holds them (ADR 0004).

use std::sync::Arc;

use crate::domain::project::Project;
use crate::domain::session::Session;

/// Hears about sessions. Listeners are registered once, by the composition root, and never
/// fail the caller: what goes wrong is theirs to report.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait SessionListener: Send + Sync {
    /// A session was created, or moved to another project.
    async fn on_session_changed(&self, session: &Session);

    /// The configuration (feature flags) changed while `session` was current.
    async fn on_config_changed(&self, session: &Session);
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
        let active = ActiveSession {
            session,
            registry: self,
        };
        active.notify_changed().await;
        active
    }

    async fn session_changed(&self, session: &Session) {
        for listener in &self.listeners {
            listener.on_session_changed(session).await;
        }
    }

    async fn config_changed(&self, session: &Session) {
        for listener in &self.listeners {
            listener.on_config_changed(session).await;
        }
    }
}

/// A session whose changes the registry's listeners hear about.
pub struct ActiveSession<'a> {
    session: Session,
    registry: &'a ListenerRegistry,
}

impl ActiveSession<'_> {
    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Moves the session to `project`; listeners hear of it only if the project changed.
    pub async fn move_to(&mut self, project: Project) {
        if self.session.project != project {
            self.session.project = project;
            self.notify_changed().await;
        }
    }

    /// Tells the listeners that the flags changed.
    pub async fn config_changed(&self) {
        self.registry.config_changed(&self.session).await;
    }

    async fn notify_changed(&self) {
        self.registry.session_changed(&self.session).await;
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
            .return_const(());
        listener
            .expect_on_config_changed()
            .times(config)
            .return_const(());
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
        });
    }

    #[test]
    fn listeners_hear_in_registration_order() {
        let order = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut registry = ListenerRegistry::new();
        for name in ["first", "second"] {
            let order = order.clone();
            let mut listener = MockSessionListener::new();
            listener
                .expect_on_session_changed()
                .returning(move |_| order.lock().unwrap().push(name));
            registry.register(Arc::new(listener));
        }
        pollster::block_on(registry.start(session()));
        assert_eq!(*order.lock().unwrap(), vec!["first", "second"]);
    }
}
