//! The ports: what the application needs from the world, implemented in `infrastructure`.

mod clock;
mod id_generator;
mod seed_repository;

pub use clock::Clock;
pub use id_generator::IdGenerator;
pub use seed_repository::{LoadedSeed, Repaired, SeedEdit, SeedHistory, SeedRepository};

#[cfg(test)]
pub use clock::MockClock;
#[cfg(test)]
pub use id_generator::MockIdGenerator;
#[cfg(test)]
pub use seed_repository::MockSeedRepository;
