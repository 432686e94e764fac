//! Rules as gitleaks' TOML file spells them. The build script reads the compiled-in rule files
//! with these same types and writes them out as Rust (`redaction_rules.rs`), so that no hook
//! parses 100 kB of TOML; `RuleSet::parse` reads other rule files with them at run time.

use std::borrow::Cow;

use serde::Deserialize;

/// One rule file: an optional global allowlist and the rules.
#[derive(Debug, Default, Deserialize)]
pub struct RuleFile {
    /// Findings this allowlist lets through are dropped for every rule (the first file's).
    #[serde(default)]
    pub allowlist: Option<AllowlistSpec>,
    /// The rules, in file order.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
}

/// One rule: a pattern, the capture group that is the secret, and what selects and excuses it.
#[derive(Debug, Deserialize)]
pub struct RuleSpec {
    /// The rule's name, as gitleaks names it.
    pub id: Cow<'static, str>,
    /// The pattern, in RE2 syntax.
    pub regex: Cow<'static, str>,
    /// The capture group holding the secret; 0 means the first non-empty group.
    #[serde(default, rename = "secretGroup")]
    pub secret_group: usize,
    /// A finding needs more Shannon entropy than this, in bits per character.
    #[serde(default)]
    pub entropy: Option<f64>,
    /// The rule runs only on texts holding one of these (case-insensitive).
    #[serde(default)]
    pub keywords: Vec<Cow<'static, str>>,
    /// The rule's own allowlists.
    #[serde(default)]
    pub allowlists: Vec<AllowlistSpec>,
}

/// What lets a finding through as harmless.
#[derive(Debug, Default, Deserialize)]
pub struct AllowlistSpec {
    /// `"AND"` when every kind of check must agree; any one suffices otherwise.
    #[serde(default)]
    pub condition: Option<Cow<'static, str>>,
    /// What the regexes look at: `"match"`, `"line"`, or the secret when absent.
    #[serde(default, rename = "regexTarget")]
    pub regex_target: Option<Cow<'static, str>>,
    /// Patterns of harmless findings.
    #[serde(default)]
    pub regexes: Vec<Cow<'static, str>>,
    /// Case-insensitive substrings of harmless secrets.
    #[serde(default)]
    pub stopwords: Vec<Cow<'static, str>>,
}
