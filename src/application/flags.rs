//! `carryover flags`: set, read and remove feature flags.

use crate::domain::RuleError;
use crate::domain::flags::{FlagValue, ResolvedFlags, valid_flag_name};
use crate::domain::ports::{FlagStore, FlagTarget};
use crate::domain::project::ProjectSlug;

use super::AppError;

/// Feature flags, with names checked before anything is written.
pub struct Flags<F> {
    store: F,
}

impl<F: FlagStore> Flags<F> {
    /// A service over the given store.
    pub fn new(store: F) -> Self {
        Self { store }
    }

    /// Sets `name` to the command-line value `raw`; returns the value as stored.
    pub async fn set(
        &self,
        target: &FlagTarget,
        name: &str,
        raw: &str,
    ) -> Result<FlagValue, AppError> {
        check(name)?;
        let value = FlagValue::parse_cli(raw).map_err(AppError::Rule)?;
        self.store.set(target, name, &value).await?;
        Ok(value)
    }

    /// Removes `name`; returns whether it was set.
    pub async fn unset(&self, target: &FlagTarget, name: &str) -> Result<bool, AppError> {
        check(name)?;
        Ok(self.store.unset(target, name).await?)
    }

    /// The flags in force for a project.
    pub async fn resolved(&self, project: &ProjectSlug) -> Result<ResolvedFlags, AppError> {
        Ok(self.store.resolved(project).await?)
    }
}

fn check(name: &str) -> Result<(), AppError> {
    if valid_flag_name(name) {
        Ok(())
    } else {
        Err(AppError::Rule(RuleError::InvalidFlagName {
            name: name.to_owned(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ports::MockFlagStore;

    #[test]
    fn stores_the_parsed_value() {
        let mut store = MockFlagStore::new();
        store
            .expect_set()
            .withf(|target, name, value| {
                *target == FlagTarget::Global
                    && name == "envs"
                    && *value == FlagValue::List(vec!["dev".into()])
            })
            .times(1)
            .returning(|_, _, _| Ok(()));
        let value = pollster::block_on(Flags::new(store).set(&FlagTarget::Global, "envs", "[dev]"))
            .unwrap();
        assert_eq!(value, FlagValue::List(vec!["dev".into()]));
    }

    #[test]
    fn a_bad_name_writes_nothing() {
        let mut store = MockFlagStore::new();
        store.expect_set().never();
        store.expect_unset().never();
        let flags = Flags::new(store);
        assert!(matches!(
            pollster::block_on(flags.set(&FlagTarget::Global, "a b", "true")),
            Err(AppError::Rule(RuleError::InvalidFlagName { .. }))
        ));
        assert!(pollster::block_on(flags.unset(&FlagTarget::Global, "")).is_err());
    }
}
