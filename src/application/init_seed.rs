//! `carryover init`: name the assistant and the person it serves.

use crate::domain::ports::SeedRepository;
use crate::domain::seed::{Identity, IdentityField, ResponseStyle, Seed};
use crate::domain::{ChangeReason, RuleError};

use super::AppError;

/// The identity to write: each field given replaces the seed's, each left out (`None`) is
/// kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InitRequest {
    /// The assistant's name (needed for a seed that is not set up yet).
    pub ai_name: Option<String>,
    /// The person it serves (needed for a seed that is not set up yet).
    pub principal: Option<String>,
    /// Opening line; left out, a default one follows the assistant's name.
    pub catchphrase: Option<String>,
    /// Answer style.
    pub style: Option<ResponseStyle>,
    /// IANA zone name.
    pub timezone: Option<String>,
    /// BCP 47 locale.
    pub locale: Option<String>,
    /// The zone a seed that is not set up yet gets when none is given (from `$TZ`); a valid
    /// one only, else the seed's default stays.
    pub fresh_timezone: Option<String>,
    /// The locale a seed that is not set up yet gets when none is given (from `$LANG`).
    pub fresh_locale: Option<String>,
    /// Change the identity of a seed that is already set up.
    pub force: bool,
}

/// Writes the identity into a new seed, or into the existing one when forced. Everything the
/// request leaves out is kept: the identity's other fields, learnings, proposals and state.
pub struct InitSeed<S> {
    seeds: S,
}

impl<S: SeedRepository> InitSeed<S> {
    /// A service over the given seed store.
    pub fn new(seeds: S) -> Self {
        Self { seeds }
    }

    /// Applies the request; refuses to touch a set-up seed unless `force` is set. Every value
    /// is checked before the store is touched: one refused value writes nothing.
    pub async fn init(&self, request: InitRequest) -> Result<Seed, AppError> {
        let given = given_fields(&request).map_err(AppError::Rule)?;
        let fresh: Vec<(IdentityField, String)> = [
            (IdentityField::Timezone, &request.fresh_timezone),
            (IdentityField::Locale, &request.fresh_locale),
        ]
        .into_iter()
        .filter_map(|(field, value)| Some((field, field.check(value.as_deref()?).ok()?)))
        .collect();
        let force = request.force;
        let seed = self
            .seeds
            .update(Box::new(move |current| {
                let mut seed = match current {
                    Some(existing) if !existing.needs_setup() && !force => {
                        return Err(RuleError::AlreadyInitialised.into());
                    }
                    Some(existing) => existing,
                    None => Seed::new(Identity::default()),
                };
                let fresh_seed = seed.needs_setup();
                if fresh_seed {
                    for (field, value) in &fresh {
                        field.set(&mut seed.identity, value)?;
                    }
                    for (field, what) in [
                        (IdentityField::AiName, "the assistant's name"),
                        (IdentityField::Principal, "the principal's name"),
                    ] {
                        if !given.iter().any(|(given, _)| *given == field) {
                            return Err(RuleError::Empty { what }.into());
                        }
                    }
                }
                for (field, value) in &given {
                    field.set(&mut seed.identity, value)?;
                }
                let reason = ChangeReason::Init {
                    ai_name: seed.identity.ai_name.clone(),
                    principal: seed.identity.principal_name.clone(),
                };
                Ok((seed, reason))
            }))
            .await?;
        Ok(seed)
    }
}

/// The fields the request gives, checked, in the order they are applied (the assistant's name
/// before the catchphrase, which may follow it).
fn given_fields(request: &InitRequest) -> Result<Vec<(IdentityField, String)>, RuleError> {
    let style = request
        .style
        .as_ref()
        .map(|style| style.as_str().to_owned());
    [
        (IdentityField::AiName, &request.ai_name),
        (IdentityField::Principal, &request.principal),
        (IdentityField::Catchphrase, &request.catchphrase),
        (IdentityField::Style, &style),
        (IdentityField::Timezone, &request.timezone),
        (IdentityField::Locale, &request.locale),
    ]
    .into_iter()
    .filter_map(|(field, value)| value.as_deref().map(|value| (field, value)))
    .map(|(field, value)| Ok((field, field.check(value)?)))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::SeedError;
    use crate::domain::ports::MockSeedRepository;
    use rstest::rstest;

    fn request(force: bool) -> InitRequest {
        InitRequest {
            ai_name: Some(" Juno ".into()),
            principal: Some("Mara".into()),
            style: Some(ResponseStyle::Concise),
            timezone: Some("Europe/Lisbon".into()),
            locale: Some("en-GB".into()),
            force,
            ..InitRequest::default()
        }
    }

    fn set_up_seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Old".into();
        seed.identity.ai_name = "Iris".into();
        seed.identity.catchphrase = "Iris at your service.".into();
        seed.identity.voice_id = "alto".into();
        seed.identity.preferences.timezone = "Asia/Tokyo".into();
        seed.identity.preferences.locale = "ja-JP".into();
        seed.identity.preferences.response_style = ResponseStyle::Detailed;
        seed.learned
            .patterns
            .push(crate::application::testing::learning("pat_1", "kept"));
        seed
    }

    /// A store whose `update` runs the edit against `current`, as a real store would.
    fn store_with(current: Option<Seed>) -> MockSeedRepository {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().times(1).returning(move |edit| {
            edit(current.clone()).map(|(seed, reason)| {
                assert!(reason.to_string().starts_with("Init: "), "{reason}");
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
        assert_eq!(seed.identity.preferences.timezone, "Europe/Lisbon");
        assert_eq!(seed.learned.len(), had_learnings, "learnings must be kept");
    }

    #[test]
    fn a_new_seed_gets_a_catchphrase_and_the_fresh_preferences() {
        let service = InitSeed::new(store_with(None));
        let seed = pollster::block_on(service.init(InitRequest {
            ai_name: Some("Juno".into()),
            principal: Some("Mara".into()),
            fresh_timezone: Some("America/New_York".into()),
            fresh_locale: Some("not a locale".into()),
            ..InitRequest::default()
        }))
        .unwrap();
        let identity = &seed.identity;
        assert_eq!(identity.catchphrase, "Juno here, ready to go.");
        assert_eq!(identity.preferences.timezone, "America/New_York");
        assert_eq!(
            identity.preferences.locale, "en-US",
            "an invalid default is ignored"
        );
    }

    #[test]
    fn forced_it_changes_only_the_fields_given() {
        let service = InitSeed::new(store_with(Some(set_up_seed())));
        let seed = pollster::block_on(service.init(InitRequest {
            ai_name: Some("Nova".into()),
            principal: Some("Mara".into()),
            fresh_timezone: Some("America/New_York".into()),
            force: true,
            ..InitRequest::default()
        }))
        .unwrap();
        let mut expected = set_up_seed();
        expected.identity.ai_name = "Nova".into();
        expected.identity.principal_name = "Mara".into();
        assert_eq!(
            seed, expected,
            "everything else is kept, the fresh defaults unused"
        );
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
    #[case::no_ai_name(None, Some("Mara"))]
    #[case::no_principal(Some("Juno"), None)]
    fn a_new_seed_needs_both_names(#[case] ai: Option<&str>, #[case] principal: Option<&str>) {
        let service = InitSeed::new(store_with(None));
        let error = pollster::block_on(service.init(InitRequest {
            ai_name: ai.map(str::to_owned),
            principal: principal.map(str::to_owned),
            ..InitRequest::default()
        }))
        .unwrap_err();
        assert!(
            matches!(error, AppError::Rule(RuleError::Empty { .. })),
            "{error:?}"
        );
    }

    #[rstest]
    #[case::no_ai_name(|r: &mut InitRequest| r.ai_name = Some(String::new()))]
    #[case::blank_principal(|r: &mut InitRequest| r.principal = Some("  ".into()))]
    #[case::a_zone_not_in_the_database(|r: &mut InitRequest| r.timezone = Some("Europe/Lisbn".into()))]
    #[case::a_city_for_a_zone(|r: &mut InitRequest| r.timezone = Some("Lisbon".into()))]
    #[case::a_language_name(|r: &mut InitRequest| r.locale = Some("english".into()))]
    fn refuses_bad_values_without_touching_the_store(#[case] break_it: fn(&mut InitRequest)) {
        let mut seeds = MockSeedRepository::new();
        seeds.expect_update().never();
        let service = InitSeed::new(seeds);
        let mut bad = request(true);
        break_it(&mut bad);
        let error = pollster::block_on(service.init(bad)).unwrap_err();
        assert!(matches!(error, AppError::Rule(_)), "{error:?}");
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
