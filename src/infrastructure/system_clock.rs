//! Clocks: the system's, and a fixed one for reproducible output.

use time::OffsetDateTime;

use crate::domain::ports::Clock;
use crate::domain::seed::Timestamp;

/// The real time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::new(OffsetDateTime::now_utc())
    }
}

/// Always the same instant (`CARRYOVER_NOW`), so output that shows time can be compared.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub Timestamp);

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.0
    }
}
