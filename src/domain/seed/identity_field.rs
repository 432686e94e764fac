//! The identity's fields by the names the command line gives them, each with its own check, so
//! that `identity set`, `init` and anything later change one field the same way.

use crate::domain::RuleError;

use super::{Identity, LocaleTag, ResponseStyle, TimeZoneName};

/// One field of the identity or its preferences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentityField {
    /// `identity.aiName`.
    AiName,
    /// `identity.principalName`.
    Principal,
    /// `identity.catchphrase`.
    Catchphrase,
    /// `identity.preferences.responseStyle`.
    Style,
    /// `identity.preferences.timezone`.
    Timezone,
    /// `identity.preferences.locale`.
    Locale,
    /// `identity.voiceId`.
    VoiceId,
}

impl IdentityField {
    /// Every field, in the order `identity show` lists them.
    pub const ALL: [Self; 7] = [
        Self::AiName,
        Self::Principal,
        Self::Catchphrase,
        Self::Style,
        Self::Timezone,
        Self::Locale,
        Self::VoiceId,
    ];

    /// The key as the command line spells it (the flag of `init` without its dashes).
    pub fn key(self) -> &'static str {
        match self {
            Self::AiName => "ai-name",
            Self::Principal => "principal",
            Self::Catchphrase => "catchphrase",
            Self::Style => "style",
            Self::Timezone => "timezone",
            Self::Locale => "locale",
            Self::VoiceId => "voice-id",
        }
    }

    /// The seed's own name of the field, accepted as a key too.
    fn seed_name(self) -> &'static str {
        match self {
            Self::AiName => "aiName",
            Self::Principal => "principalName",
            Self::Catchphrase => "catchphrase",
            Self::Style => "responseStyle",
            Self::Timezone => "timezone",
            Self::Locale => "locale",
            Self::VoiceId => "voiceId",
        }
    }

    /// The keys, comma-separated, for messages.
    pub fn keys() -> String {
        Self::ALL.map(Self::key).join(", ")
    }

    /// Finds a field by its key, its seed name (`aiName`) or either with `_` or `-` between
    /// words, in any case.
    pub fn parse(key: &str) -> Result<Self, RuleError> {
        let folded = |text: &str| {
            text.chars()
                .filter(|c| !matches!(c, '-' | '_'))
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let wanted = folded(key.trim());
        let aliases = [("timezone", "tz"), ("style", "responsestyle")];
        Self::ALL
            .into_iter()
            .find(|field| {
                folded(field.key()) == wanted
                    || folded(field.seed_name()) == wanted
                    || aliases
                        .iter()
                        .any(|(name, alias)| *name == field.key() && *alias == wanted)
            })
            .ok_or_else(|| RuleError::UnknownIdentityKey {
                key: key.to_owned(),
                valid: Self::keys(),
            })
    }

    /// The field's value in `identity`.
    pub fn get(self, identity: &Identity) -> &str {
        match self {
            Self::AiName => &identity.ai_name,
            Self::Principal => &identity.principal_name,
            Self::Catchphrase => &identity.catchphrase,
            Self::Style => identity.preferences.response_style.as_str(),
            Self::Timezone => &identity.preferences.timezone,
            Self::Locale => &identity.preferences.locale,
            Self::VoiceId => &identity.voice_id,
        }
    }

    /// Checks `raw` as a value of this field and returns it as the seed stores it (trimmed,
    /// a zone or locale in its canonical spelling). The catchphrase alone may be empty. Text
    /// that looks like it holds a secret is refused: the identity is committed, synced and
    /// injected into every session, as learnings are.
    pub fn check(self, raw: &str) -> Result<String, RuleError> {
        let trimmed = raw.trim();
        if let Some(finding) = crate::domain::redaction::find_secrets(trimmed)
            .into_iter()
            .next()
        {
            return Err(RuleError::SecretInIdentity {
                what: self.what(),
                rule: finding.rule,
            });
        }
        match self {
            Self::Timezone => TimeZoneName::parse(raw).map(String::from),
            Self::Locale => LocaleTag::parse(raw).map(String::from),
            Self::Style => ResponseStyle::parse(trimmed)
                .map(String::from)
                .ok_or_else(|| RuleError::InvalidStyle {
                    value: raw.to_owned(),
                }),
            Self::Catchphrase => Ok(trimmed.to_owned()),
            Self::AiName | Self::Principal | Self::VoiceId if trimmed.is_empty() => {
                Err(RuleError::Empty { what: self.what() })
            }
            Self::AiName | Self::Principal | Self::VoiceId => Ok(trimmed.to_owned()),
        }
    }

    /// Sets the field to `raw` once it passes [`Self::check`]. Renaming the assistant renames
    /// it in a catchphrase that was only the default one (`Juno here, ready to go.`).
    pub fn set(self, identity: &mut Identity, raw: &str) -> Result<(), RuleError> {
        let value = self.check(raw)?;
        match self {
            Self::AiName => {
                if identity.catchphrase.trim().is_empty()
                    || identity.catchphrase == default_catchphrase(&identity.ai_name)
                {
                    identity.catchphrase = default_catchphrase(&value);
                }
                identity.ai_name = value;
            }
            Self::Principal => identity.principal_name = value,
            Self::Catchphrase => identity.catchphrase = value,
            Self::Style => identity.preferences.response_style = ResponseStyle::from(value),
            Self::Timezone => identity.preferences.timezone = value,
            Self::Locale => identity.preferences.locale = value,
            Self::VoiceId => identity.voice_id = value,
        }
        Ok(())
    }

    fn what(self) -> &'static str {
        match self {
            Self::AiName => "the assistant's name",
            Self::Principal => "the principal's name",
            Self::VoiceId => "the voice id",
            Self::Catchphrase => "the catchphrase",
            Self::Style => "the response style",
            Self::Timezone => "the time zone",
            Self::Locale => "the locale",
        }
    }
}

/// The catchphrase an assistant gets when none is given.
pub fn default_catchphrase(ai_name: &str) -> String {
    format!("{} here, ready to go.", ai_name.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn identity() -> Identity {
        Identity {
            ai_name: "Juno".into(),
            principal_name: "Mara".into(),
            catchphrase: default_catchphrase("Juno"),
            ..Identity::default()
        }
    }

    #[rstest]
    #[case::the_flag_name("ai-name", IdentityField::AiName)]
    #[case::the_seed_name("aiName", IdentityField::AiName)]
    #[case::with_an_underscore("ai_name", IdentityField::AiName)]
    #[case::principal_name("principal-name", IdentityField::Principal)]
    #[case::response_style("responseStyle", IdentityField::Style)]
    #[case::time_zone("time-zone", IdentityField::Timezone)]
    #[case::tz("TZ", IdentityField::Timezone)]
    #[case::voice("voice_id", IdentityField::VoiceId)]
    fn finds_a_field_by_any_of_its_names(#[case] key: &str, #[case] field: IdentityField) {
        assert_eq!(IdentityField::parse(key), Ok(field));
    }

    #[test]
    fn an_unknown_key_is_refused_with_the_valid_ones() {
        assert_eq!(
            IdentityField::parse("mood"),
            Err(RuleError::UnknownIdentityKey {
                key: "mood".into(),
                valid: "ai-name, principal, catchphrase, style, timezone, locale, voice-id".into(),
            })
        );
    }

    #[rstest]
    #[case::a_zone(IdentityField::Timezone, "europe/lisbon", "Europe/Lisbon")]
    #[case::a_locale(IdentityField::Locale, "pt-br", "pt-BR")]
    #[case::a_style(IdentityField::Style, "detailed", "detailed")]
    #[case::a_name(IdentityField::Principal, "  Ana ", "Ana")]
    #[case::an_empty_catchphrase(IdentityField::Catchphrase, "", "")]
    fn sets_the_checked_value(
        #[case] field: IdentityField,
        #[case] raw: &str,
        #[case] stored: &str,
    ) {
        let mut identity = identity();
        field.set(&mut identity, raw).unwrap();
        assert_eq!(field.get(&identity), stored);
    }

    #[rstest]
    #[case::a_zone(IdentityField::Timezone, "Lisbon")]
    #[case::a_locale(IdentityField::Locale, "english")]
    #[case::a_style(IdentityField::Style, "verbose")]
    #[case::an_empty_name(IdentityField::AiName, " ")]
    fn refuses_a_bad_value_and_changes_nothing(#[case] field: IdentityField, #[case] raw: &str) {
        let mut identity = identity();
        assert!(field.set(&mut identity, raw).is_err());
        assert_eq!(identity, self::identity());
    }

    #[rstest]
    #[case::a_catchphrase(
        IdentityField::Catchphrase,
        "token ghp_4Zq8Lm2Vx7Rt9Kp3Wn6Yb1Hc5Jd0Fs8Ge2Ta"
    )]
    #[case::a_name(
        IdentityField::Principal,
        "Mara sk-ant-api03-Zx9Qv3LmT7pR2sW8yB4nC6dF1gH5jK0aE"
    )]
    #[case::a_voice(IdentityField::VoiceId, "AKIAQ3EGRT7PLM4XVW2N")]
    fn refuses_a_value_that_holds_a_secret(#[case] field: IdentityField, #[case] raw: &str) {
        let mut identity = identity();
        let error = field.set(&mut identity, raw).unwrap_err();
        assert!(
            matches!(error, RuleError::SecretInIdentity { .. }),
            "{error:?}"
        );
        assert!(
            !error.to_string().contains(&raw[raw.len() - 8..]),
            "{error}"
        );
        assert_eq!(identity, self::identity());
    }

    #[rstest]
    #[case::the_default_catchphrase(default_catchphrase("Juno"), "Nova here, ready to go.")]
    #[case::no_catchphrase(String::new(), "Nova here, ready to go.")]
    #[case::a_catchphrase_of_ones_own("At your service.".to_owned(), "At your service.")]
    fn renaming_the_assistant_renames_only_a_default_catchphrase(
        #[case] before: String,
        #[case] after: &str,
    ) {
        let mut identity = identity();
        identity.catchphrase = before;
        IdentityField::AiName.set(&mut identity, "Nova").unwrap();
        assert_eq!(identity.catchphrase, after);
    }
}
