//! Feature flags: named values, global or per project, project over global.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A flag's value: a bool, a string, or a list of strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FlagValue {
    /// `true` / `false`.
    Bool(bool),
    /// Any text.
    Text(String),
    /// Several texts.
    List(Vec<String>),
}

impl FlagValue {
    /// Reads a command-line value: `true`/`false` are bools, `[a, b]` is a list, anything
    /// else is text.
    pub fn parse_cli(raw: &str) -> Result<Self, crate::domain::RuleError> {
        let trimmed = raw.trim();
        match trimmed {
            "true" => return Ok(Self::Bool(true)),
            "false" => return Ok(Self::Bool(false)),
            _ => {}
        }
        if let Some(inner) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if inner.contains(['[', ']']) {
                return Err(crate::domain::RuleError::InvalidFlagValue {
                    value: raw.to_owned(),
                    why: "a list holds text items, not lists",
                });
            }
            return Ok(Self::List(
                inner
                    .split(',')
                    .map(|item| item.trim().trim_matches(['"', '\'']).to_owned())
                    .filter(|item| !item.is_empty())
                    .collect(),
            ));
        }
        Ok(Self::Text(raw.to_owned()))
    }

    /// Whether it counts as "on": `true`, non-empty text other than false/0/no/off, a
    /// non-empty list.
    pub fn is_truthy(&self) -> bool {
        match self {
            Self::Bool(on) => *on,
            Self::Text(text) => {
                let text = text.trim().to_ascii_lowercase();
                !(text.is_empty() || matches!(text.as_str(), "false" | "0" | "no" | "off"))
            }
            Self::List(items) => !items.is_empty(),
        }
    }
}

impl fmt::Display for FlagValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bool(on) => write!(f, "{on}"),
            Self::Text(text) => f.write_str(text),
            Self::List(items) => write!(f, "{}", items.join(", ")),
        }
    }
}

/// Where a resolved flag came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagScope {
    /// `[feature_flags]`.
    Global,
    /// `[projects."<slug>".feature_flags]`.
    Project,
}

impl FlagScope {
    /// `global` or `project`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Global => "global",
            Self::Project => "project",
        }
    }
}

/// The flags in force for one project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolvedFlags(BTreeMap<String, (FlagValue, FlagScope)>);

impl ResolvedFlags {
    /// Project flags over global ones.
    pub fn resolve(
        global: &BTreeMap<String, FlagValue>,
        project: Option<&BTreeMap<String, FlagValue>>,
    ) -> Self {
        let mut resolved: BTreeMap<String, (FlagValue, FlagScope)> = global
            .iter()
            .map(|(name, value)| (name.clone(), (value.clone(), FlagScope::Global)))
            .collect();
        for (name, value) in project.into_iter().flatten() {
            resolved.insert(name.clone(), (value.clone(), FlagScope::Project));
        }
        Self(resolved)
    }

    /// A flag's value.
    pub fn get(&self, name: &str) -> Option<&FlagValue> {
        self.0.get(name).map(|(value, _)| value)
    }

    /// A flag's value and where it came from.
    pub fn get_with_scope(&self, name: &str) -> Option<(&FlagValue, FlagScope)> {
        self.0.get(name).map(|(value, scope)| (value, *scope))
    }

    /// Every flag, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &FlagValue, FlagScope)> {
        self.0
            .iter()
            .map(|(name, (value, scope))| (name.as_str(), value, *scope))
    }
}

/// Whether a flag name is usable: letters, digits, `-`, `_`, `.`; not empty.
pub fn valid_flag_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("true", FlagValue::Bool(true))]
    #[case("false", FlagValue::Bool(false))]
    #[case("[a, 'b', \"c\"]", FlagValue::List(vec!["a".into(), "b".into(), "c".into()]))]
    #[case("[]", FlagValue::List(vec![]))]
    #[case("make status", FlagValue::Text("make status".into()))]
    fn parses_command_line_values(#[case] raw: &str, #[case] value: FlagValue) {
        assert_eq!(FlagValue::parse_cli(raw), Ok(value));
    }

    #[rstest]
    #[case("[a, [b, c]]")]
    #[case("[a]]")]
    fn refuses_lists_in_lists(#[case] raw: &str) {
        assert!(FlagValue::parse_cli(raw).is_err());
    }

    #[rstest]
    #[case(FlagValue::Bool(true), true)]
    #[case(FlagValue::Bool(false), false)]
    #[case(FlagValue::Text("make status".into()), true)]
    #[case(FlagValue::Text("off".into()), false)]
    #[case(FlagValue::Text("".into()), false)]
    #[case(FlagValue::List(vec!["a".into()]), true)]
    #[case(FlagValue::List(vec![]), false)]
    fn truthiness(#[case] value: FlagValue, #[case] truthy: bool) {
        assert_eq!(value.is_truthy(), truthy);
    }

    #[test]
    fn project_flags_win_over_global_ones() {
        let global = BTreeMap::from([
            ("a".to_owned(), FlagValue::Bool(true)),
            ("b".to_owned(), FlagValue::Text("global".into())),
        ]);
        let project = BTreeMap::from([("b".to_owned(), FlagValue::Text("project".into()))]);
        let resolved = ResolvedFlags::resolve(&global, Some(&project));
        assert_eq!(
            resolved.get_with_scope("a"),
            Some((&FlagValue::Bool(true), FlagScope::Global))
        );
        assert_eq!(
            resolved.get_with_scope("b"),
            Some((&FlagValue::Text("project".into()), FlagScope::Project))
        );
    }

    #[rstest]
    #[case("startup-instruction", true)]
    #[case("a.b_c", true)]
    #[case("", false)]
    #[case("has space", false)]
    #[case("x]y", false)]
    fn flag_names(#[case] name: &str, #[case] valid: bool) {
        assert_eq!(valid_flag_name(name), valid);
    }
}
