//! Test doubles shared by the services' unit tests.

use std::sync::Arc;

use crate::domain::ports::{Clock, MockClock, MockProjectContext};
use crate::domain::project::Project;
use crate::domain::seed::Timestamp;

/// The instant the services' tests run at.
pub const NOW: &str = "2026-11-22T18:40:00Z";

/// A clock stopped at [`NOW`].
pub fn fixed_clock() -> Arc<dyn Clock> {
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .returning(|| Timestamp::parse(NOW).unwrap());
    Arc::new(clock)
}

/// A project locator that puts every directory in the project at `root`.
pub fn project_at(root: &'static str) -> MockProjectContext {
    let mut projects = MockProjectContext::new();
    projects
        .expect_project()
        .returning(move |_| Project::at(root));
    projects
}
