//! A start-up template: front matter `type: agent/instruction` and `requires-<flag>: value`
//! conditions, then the body.

use crate::domain::flags::{FlagValue, ResolvedFlags};
use crate::domain::front_matter::{FrontValue, parse_front_matter};

/// The only `type` a start-up template may have.
pub const INSTRUCTION_TYPE: &str = "agent/instruction";

/// A template that parsed: its conditions and its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartupTemplate {
    /// `requires-<flag>` conditions: flag name and required value.
    pub requires: Vec<(String, FrontValue)>,
    /// The body to render.
    pub body: String,
}

/// Why a template is not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateProblem {
    /// The front matter could not be read.
    #[error("front matter: {0}")]
    FrontMatter(String),
    /// The front matter's `type` is not `agent/instruction`.
    #[error("type must be `agent/instruction`, not {0:?}")]
    WrongType(String),
}

impl StartupTemplate {
    /// Parses a template.
    pub fn parse(text: &str) -> Result<Self, TemplateProblem> {
        let front = parse_front_matter(text)
            .map_err(|error| TemplateProblem::FrontMatter(error.to_string()))?;
        let kind = front
            .get("type")
            .and_then(FrontValue::as_scalar)
            .unwrap_or_default();
        if kind != INSTRUCTION_TYPE {
            return Err(TemplateProblem::WrongType(kind.to_owned()));
        }
        let requires = front
            .fields
            .iter()
            .filter_map(|(key, value)| {
                key.strip_prefix("requires-")
                    .map(|flag| (flag.to_owned(), value.clone()))
            })
            .collect();
        Ok(Self {
            requires,
            body: front.body.to_owned(),
        })
    }
}

/// Whether every `requires-<flag>` holds: a bool requirement against the flag's truthiness; a
/// list requirement when the flag's value is in it (or, for a list flag, they share an item);
/// any other value by equality with the flag's text.
pub fn requirements_hold(template: &StartupTemplate, flags: &ResolvedFlags) -> bool {
    template.requires.iter().all(|(name, required)| {
        let flag = flags.get(name);
        match required {
            FrontValue::Scalar(text) if text == "true" || text == "false" => {
                flag.is_some_and(FlagValue::is_truthy) == (text == "true")
            }
            FrontValue::List(allowed) => match flag {
                Some(FlagValue::List(items)) => items.iter().any(|item| allowed.contains(item)),
                Some(value) => allowed.contains(&value.to_string()),
                None => false,
            },
            FrontValue::Scalar(expected) => {
                flag.is_some_and(|value| value.to_string() == *expected)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use std::collections::BTreeMap;

    fn flags(pairs: &[(&str, FlagValue)]) -> ResolvedFlags {
        let global: BTreeMap<String, FlagValue> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        ResolvedFlags::resolve(&global, None)
    }

    fn template(requirement: &str) -> StartupTemplate {
        StartupTemplate::parse(&format!(
            "---\ntype: agent/instruction\n{requirement}\n---\nbody"
        ))
        .unwrap()
    }

    #[test]
    fn reads_the_fixture() {
        let parsed =
            StartupTemplate::parse(include_str!("../../../tests/fixtures/startup/_startup.md"))
                .unwrap();
        assert_eq!(
            parsed.requires,
            vec![(
                "startup-instruction".to_owned(),
                FrontValue::Scalar("true".into())
            )]
        );
        assert!(
            parsed
                .body
                .contains("{{feature_flags.startup-instruction}}")
        );
    }

    #[rstest]
    #[case::no_front_matter("body only")]
    #[case::wrong_type("---\ntype: note\n---\nbody")]
    #[case::missing_type("---\nrequires-x: true\n---\nbody")]
    fn refuses_what_is_not_an_instruction(#[case] text: &str) {
        assert!(StartupTemplate::parse(text).is_err());
    }

    #[rstest]
    #[case::bool_true_truthy_text("requires-si: true", &[("si", FlagValue::Text("make status".into()))], true)]
    #[case::bool_true_flag_true("requires-si: true", &[("si", FlagValue::Bool(true))], true)]
    #[case::bool_true_flag_false("requires-si: true", &[("si", FlagValue::Bool(false))], false)]
    #[case::bool_true_flag_missing("requires-si: true", &[], false)]
    #[case::bool_false_flag_missing("requires-si: false", &[], true)]
    #[case::bool_false_flag_on("requires-si: false", &[("si", FlagValue::Bool(true))], false)]
    #[case::list_contains_text("requires-env: [dev, staging]", &[("env", FlagValue::Text("dev".into()))], true)]
    #[case::list_lacks_text("requires-env: [dev, staging]", &[("env", FlagValue::Text("prod".into()))], false)]
    #[case::list_shares_item("requires-env: [dev, staging]", &[("env", FlagValue::List(vec!["prod".into(), "staging".into()]))], true)]
    #[case::list_shares_nothing("requires-env: [dev]", &[("env", FlagValue::List(vec!["prod".into()]))], false)]
    #[case::list_flag_missing("requires-env: [dev]", &[], false)]
    #[case::equality_holds("requires-tier: gold", &[("tier", FlagValue::Text("gold".into()))], true)]
    #[case::equality_fails("requires-tier: gold", &[("tier", FlagValue::Text("silver".into()))], false)]
    #[case::hyphenated_names("requires-startup-instruction: true", &[("startup-instruction", FlagValue::Bool(true))], true)]
    fn requirements(
        #[case] requirement: &str,
        #[case] set: &[(&str, FlagValue)],
        #[case] holds: bool,
    ) {
        assert_eq!(
            requirements_hold(&template(requirement), &flags(set)),
            holds
        );
    }

    #[test]
    fn every_requirement_must_hold() {
        let both = StartupTemplate::parse(
            "---\ntype: agent/instruction\nrequires-a: true\nrequires-b: true\n---\nx",
        )
        .unwrap();
        assert!(!requirements_hold(
            &both,
            &flags(&[("a", FlagValue::Bool(true))])
        ));
        assert!(requirements_hold(
            &both,
            &flags(&[("a", FlagValue::Bool(true)), ("b", FlagValue::Bool(true))])
        ));
    }
}
