//! The current time, behind a port so that tests and reproducible runs can fix it.

use crate::domain::seed::Timestamp;

/// Tells the time. Synchronous: reading a clock never waits.
#[cfg_attr(test, mockall::automock)]
pub trait Clock: Send + Sync {
    /// Now, in UTC.
    fn now(&self) -> Timestamp;
}
