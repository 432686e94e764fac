//! `Identity: Juno (serving Mara)` and the lines that go with it.

use crate::domain::context::Section;
use crate::domain::seed::Identity;

use super::data_line;

const MAX_NAME_CHARS: usize = 80;
const MAX_LINE_CHARS: usize = 240;

/// Who the assistant is, whom it serves, and how the principal likes answers.
pub fn identity_summary(identity: &Identity) -> Section {
    let mut lines = vec![format!(
        "Identity: {} (serving {})",
        data_line(&identity.ai_name, MAX_NAME_CHARS),
        data_line(&identity.principal_name, MAX_NAME_CHARS)
    )];
    if !identity.catchphrase.trim().is_empty() {
        let catchphrase = data_line(&identity.catchphrase, MAX_LINE_CHARS);
        lines.push(format!("Catchphrase: \"{catchphrase}\""));
    }
    let preferences = &identity.preferences;
    lines.push(format!(
        "Style: {} | Timezone: {} | Locale: {}",
        preferences.response_style,
        data_line(&preferences.timezone, MAX_NAME_CHARS),
        data_line(&preferences.locale, MAX_NAME_CHARS)
    ));
    Section::fixed(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_assistant_the_principal_and_preferences() {
        let identity = Identity {
            ai_name: "Juno".into(),
            principal_name: "Mara".into(),
            catchphrase: "Juno here.".into(),
            preferences: crate::domain::seed::Preferences {
                response_style: crate::domain::seed::ResponseStyle::Concise,
                timezone: "Europe/Lisbon".into(),
                locale: "en-GB".into(),
                ..Default::default()
            },
            ..Identity::default()
        };
        assert_eq!(
            identity_summary(&identity).render(),
            "Identity: Juno (serving Mara)\nCatchphrase: \"Juno here.\"\nStyle: concise | Timezone: Europe/Lisbon | Locale: en-GB"
        );
    }

    #[test]
    fn omits_an_empty_catchphrase() {
        let identity = Identity {
            catchphrase: "  ".into(),
            ..Identity::default()
        };
        assert!(!identity_summary(&identity).render().contains("Catchphrase"));
    }
}
