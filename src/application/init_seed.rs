//! `carryover init`: name the assistant and the person it serves.

use crate::domain::ports::SeedRepository;
use crate::domain::seed::{Identity, Preferences, ResponseStyle, Seed};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;

/// The identity to write.
#[derive(Debug, Clone, PartialEq)]
pub struct InitRequest {
    /// The assistant's name.
    pub ai_name: String,
    /// The person it serves.
    pub principal: String,
    /// Optional opening line.
    pub catchphrase: Option<String>,
    /// Answer style.
    pub style: ResponseStyle,
    /// IANA zone name.
    pub timezone: String,
    /// BCP 47 locale.
    pub locale: String,
    /// Replace the identity of a seed that is already set up.
    pub force: bool,
}

/// Writes the identity into a new seed, or into the existing one when forced. Learnings and
/// state of an existing seed are always kept: only the identity is replaced.
pub struct InitSeed<S> {
    seeds: S,
}

impl<S: SeedRepository> InitSeed<S> {
    /// A service over the given seed store.
    pub fn new(seeds: S) -> Self {
        Self { seeds }
    }

    /// Applies the request; refuses to touch a set-up seed unless `force` is set.
    pub async fn init(&self, request: InitRequest) -> Result<Seed, AppError> {
        let identity = identity_from(&request).map_err(AppError::Rule)?;
        let reason = ChangeReason::Init {
            ai_name: identity.ai_name.clone(),
            principal: identity.principal_name.clone(),
        };
        let force = request.force;
        let seed = self
            .seeds
            .update(Box::new(move |current| {
                let seed = match current {
                    Some(existing) if !existing.needs_setup() && !force => {
                        return Err(RuleError::AlreadyInitialised.into());
                    }
                    Some(mut existing) => {
                        let extra = std::mem::take(&mut existing.identity.extra);
                        existing.identity = Identity { extra, ..identity };
                        existing
                    }
                    None => Seed::new(identity),
                };
                Ok((seed, reason))
            }))
            .await?;
        Ok(seed)
    }
}

fn identity_from(request: &InitRequest) -> Result<Identity, RuleError> {
    let ai_name = request.ai_name.trim();
    let principal = request.principal.trim();
    if ai_name.is_empty() {
        return Err(RuleError::Empty {
            what: "the assistant's name",
        });
    }
    if principal.is_empty() {
        return Err(RuleError::Empty {
            what: "the principal's name",
        });
    }
    let catchphrase = request
        .catchphrase
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map_or_else(|| format!("{ai_name} here, ready to go."), str::to_owned);
    Ok(Identity {
        principal_name: principal.to_owned(),
        ai_name: ai_name.to_owned(),
        catchphrase,
        preferences: Preferences {
            response_style: request.style.clone(),
            timezone: request.timezone.trim().to_owned(),
            locale: request.locale.trim().to_owned(),
            ..Preferences::default()
        },
        ..Identity::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::SeedError;
    use crate::domain::ports::MockSeedRepository;
    use rstest::rstest;

    fn request(force: bool) -> InitRequest {
        InitRequest {
            ai_name: " Juno ".into(),
            principal: "Mara".into(),
            catchphrase: None,
            style: ResponseStyle::Concise,
            timezone: "Europe/Lisbon".into(),
            locale: "en-GB".into(),
            force,
        }
    }

    fn set_up_seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Old".into();
        seed.learned.patterns.push(crate::domain::seed::Learning {
            id: "pat_1".into(),
            content: "kept".into(),
            source: String::new(),
            extracted_at: crate::domain::seed::Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
            confirmed_at: None,
            confirmed: true,
            tags: vec![],
            project: None,
            pinned: false,
            extra: Default::default(),
        });
        seed
    }

    /// A store whose `update` runs the edit against `current`, as a real store would.
    fn store_with(current: Option<Seed>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().times(1).returning(move |edit| {
            edit(current.clone()).map(|(seed, reason)| {
                assert!(reason.to_string().starts_with("Init: Juno serving Mara"));
                seed
            })
        });
        seeds
    }

    #[rstest]
    #[case::first_run(None, false)]
    #[case::placeholder_seed(Some(Seed::default()), false)]
    #[case::forced_over_a_set_up_seed(Some(set_up_seed()), true)]
    fn writes_the_identity(#[case] current: Option<Seed>, #[case] force: bool) {
        let had_learnings = current.as_ref().map_or(0, |s| s.learned.len());
        let service = InitSeed::new(store_with(current));
        let seed = pollster::block_on(service.init(request(force))).unwrap();
        assert_eq!(seed.identity.ai_name, "Juno");
        assert_eq!(seed.identity.principal_name, "Mara");
        assert_eq!(seed.identity.catchphrase, "Juno here, ready to go.");
        assert_eq!(seed.learned.len(), had_learnings, "learnings must be kept");
    }

    #[test]
    fn refuses_a_set_up_seed_without_force() {
        let service = InitSeed::new(store_with(Some(set_up_seed())));
        let error = pollster::block_on(service.init(request(false))).unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::AlreadyInitialised)),
            "{error:?}"
        );
    }

    #[rstest]
    #[case::no_ai_name("", "Mara")]
    #[case::blank_principal("Juno", "  ")]
    fn refuses_empty_names_without_touching_the_store(#[case] ai: &str, #[case] principal: &str) {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let service = InitSeed::new(seeds);
        let mut bad = request(false);
        bad.ai_name = ai.into();
        bad.principal = principal.into();
        let error = pollster::block_on(service.init(bad)).unwrap_err();
        assert!(matches!(error, AppError::Rule(RuleError::Empty { .. })));
    }

    #[test]
    fn a_store_failure_is_reported() {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().returning(|_| {
            Err(SeedError::LockTimeout {
                path: "/x".into(),
                waited_ms: 5,
            })
        });
        let error = pollster::block_on(InitSeed::new(seeds).init(request(false))).unwrap_err();
        assert!(matches!(
            error,
            AppError::Seed(SeedError::LockTimeout { .. })
        ));
    }
}
