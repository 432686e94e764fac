//! `carryover identity show|set`: read the identity, or change one of its fields.

use std::sync::{Arc, Mutex, PoisonError};

use crate::domain::ports::SeedRepository;
use crate::domain::seed::{Identity, IdentityField};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;

/// What `set` did.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    /// The field.
    pub field: IdentityField,
    /// Its value before.
    pub before: String,
    /// Its value now, as stored.
    pub after: String,
}

impl FieldChange {
    /// True when the value was already the one asked for (nothing was written).
    pub fn is_unchanged(&self) -> bool {
        self.before == self.after
    }
}

/// Reads and changes the identity, one field at a time.
pub struct IdentitySettings<S> {
    seeds: S,
}

impl<S: SeedRepository> IdentitySettings<S> {
    /// A service over the given seed store.
    pub fn new(seeds: S) -> Self {
        Self { seeds }
    }

    /// The identity, or `None` before the first `init`.
    pub async fn current(&self) -> Result<Option<Identity>, AppError> {
        Ok(self.seeds.load().await?.map(|loaded| loaded.seed.identity))
    }

    /// The identity; refuses when there is no seed yet.
    pub async fn show(&self) -> Result<Identity, AppError> {
        self.current()
            .await?
            .ok_or(AppError::Rule(RuleError::NotInitialised))
    }

    /// Sets the field `key` names to `value`, in one commit. Both are checked before the store
    /// is touched: a refused key or value writes nothing.
    pub async fn set(&self, key: &str, value: &str) -> Result<FieldChange, AppError> {
        let field = IdentityField::parse(key).map_err(AppError::Rule)?;
        let stored = field.check(value).map_err(AppError::Rule)?;
        let reason = ChangeReason::Identity {
            key: field.key(),
            value: stored,
        };
        let value = value.to_owned();
        // The value before is taken under the store's lock, from the seed the edit replaces.
        let before = Arc::new(Mutex::new(String::new()));
        let seen = Arc::clone(&before);
        let seed = self
            .seeds
            .update(Box::new(move |current| {
                let mut seed = current.ok_or(RuleError::NotInitialised)?;
                *seen.lock().unwrap_or_else(PoisonError::into_inner) =
                    field.get(&seed.identity).to_owned();
                field.set(&mut seed.identity, &value)?;
                Ok((seed, reason))
            }))
            .await?;
        let before = std::mem::take(&mut *before.lock().unwrap_or_else(PoisonError::into_inner));
        Ok(FieldChange {
            field,
            before,
            after: field.get(&seed.identity).to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ports::{LoadedSeed, MockSeedRepository};
    use crate::domain::seed::Seed;
    use rstest::rstest;

    fn seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.ai_name = "Juno".into();
        seed.identity.principal_name = "Mara".into();
        seed.learned
            .patterns
            .push(crate::application::testing::learning("pat_1", "kept"));
        seed
    }

    /// A store whose `update` runs the edit against `current` and checks the commit message.
    fn store_with(current: Option<Seed>, message: &'static str) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().times(1).returning(move |edit| {
            edit(current.clone()).map(|(seed, reason)| {
                assert_eq!(reason.to_string(), message);
                seed
            })
        });
        seeds
    }

    #[test]
    fn sets_one_field_and_keeps_the_rest() {
        let service = IdentitySettings::new(store_with(
            Some(seed()),
            "Identity: set timezone to Europe/Lisbon",
        ));
        let change = pollster::block_on(service.set("timezone", "europe/lisbon")).unwrap();
        assert_eq!(
            change,
            FieldChange {
                field: IdentityField::Timezone,
                before: "UTC".into(),
                after: "Europe/Lisbon".into(),
            }
        );
        assert!(!change.is_unchanged());
    }

    #[rstest]
    #[case::an_unknown_key("mood", "calm")]
    #[case::a_zone_not_in_the_database("timezone", "Europe/Lisbn")]
    #[case::a_city_for_a_zone("timezone", "Lisbon")]
    #[case::a_language_name("locale", "english")]
    #[case::a_style_not_known("style", "verbose")]
    #[case::an_empty_name("principal", "")]
    fn refuses_without_touching_the_store(#[case] key: &str, #[case] value: &str) {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let error = pollster::block_on(IdentitySettings::new(seeds).set(key, value)).unwrap_err();
        assert!(matches!(error, AppError::Rule(_)), "{error:?}");
    }

    #[test]
    fn refuses_before_the_first_init() {
        let seeds = store_with(None, "unused");
        let error =
            pollster::block_on(IdentitySettings::new(seeds).set("locale", "en-GB")).unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::NotInitialised)),
            "{error:?}"
        );
    }

    #[test]
    fn shows_the_stored_identity() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| {
            Ok(Some(LoadedSeed {
                seed: seed(),
                repaired: None,
            }))
        });
        let identity = pollster::block_on(IdentitySettings::new(seeds).show()).unwrap();
        assert_eq!(identity.ai_name, "Juno");
    }

    #[test]
    fn show_needs_a_seed() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_load().returning(|| Ok(None));
        let error = pollster::block_on(IdentitySettings::new(seeds).show()).unwrap_err();
        assert!(matches!(error, AppError::Rule(RuleError::NotInitialised)));
    }
}
