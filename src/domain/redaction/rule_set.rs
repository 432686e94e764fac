//! A set of secret-detection rules in gitleaks' format, run as gitleaks runs them: a rule is
//! tried only when one of its keywords occurs in the text, its secret is the configured capture
//! group, a finding needs the secret's Shannon entropy above the rule's threshold, and
//! allowlists (global, then the rule's) drop findings that are placeholders.
//!
//! Patterns are compiled by `regex-lite`, whose `\w`, `\d`, `\s` and `\b` are ASCII, Go RE2's
//! meaning of them in gitleaks' patterns, and only when a keyword first calls for them. A hook
//! is a fresh process that compiles the rules its text's keywords select and then runs them
//! over a few kilobytes, so compiling is what it pays for: `regex-lite` compiled all 221 rules
//! of the time in 3 ms where `regex` took 24 ms (ADR 0012).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use regex_lite::{Regex, RegexBuilder};

use super::keyword_index::KeywordIndex;
use super::rule_spec::{AllowlistSpec, RuleFile};

/// Compiled regexes may grow this large (gitleaks' generic rule needs more than the default).
const SIZE_LIMIT: usize = 64 << 20;

/// What an allowlist's regexes look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// A pattern compiled on first use; `None` when it does not compile (skipped, never fatal).
#[derive(Debug)]
struct LazyRegex {
    source: Cow<'static, str>,
    compiled: OnceLock<Option<Regex>>,
}

impl LazyRegex {
    fn new(source: Cow<'static, str>) -> Self {
        Self {
            source,
            compiled: OnceLock::new(),
        }
    }

    fn get(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| {
                RegexBuilder::new(&self.source)
                    .size_limit(SIZE_LIMIT)
                    .build()
                    .ok()
            })
            .as_ref()
    }
}

#[derive(Debug)]
struct Allowlist {
    all_of: bool,
    target: Target,
    regexes: Vec<LazyRegex>,
    stopwords: Vec<Cow<'static, str>>,
}

impl Allowlist {
    fn from_spec(spec: AllowlistSpec) -> Self {
        Self {
            all_of: spec
                .condition
                .is_some_and(|c| c.eq_ignore_ascii_case("and")),
            target: match spec.regex_target.as_deref() {
                Some("match") => Target::Match,
                Some("line") => Target::Line,
                _ => Target::Secret,
            },
            regexes: spec.regexes.into_iter().map(LazyRegex::new).collect(),
            stopwords: spec
                .stopwords
                .into_iter()
                .map(|word| match word.bytes().any(|b| b.is_ascii_uppercase()) {
                    true => Cow::Owned(word.to_ascii_lowercase()),
                    false => word,
                })
                .collect(),
        }
    }

    /// Whether this allowlist lets the finding through as harmless.
    fn allows(&self, secret: &str, matched: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let by_regex = (!self.regexes.is_empty()).then(|| {
            self.regexes
                .iter()
                .any(|r| r.get().is_some_and(|r| r.is_match(target)))
        });
        let lower = secret.to_ascii_lowercase();
        let by_stopword = (!self.stopwords.is_empty()).then(|| {
            self.stopwords
                .iter()
                .any(|w| memchr::memmem::find(lower.as_bytes(), w.as_bytes()).is_some())
        });
        let verdicts = [by_regex, by_stopword].into_iter().flatten();
        match self.all_of {
            true => {
                let mut verdicts = verdicts.peekable();
                verdicts.peek().is_some() && verdicts.all(|v| v)
            }
            false => verdicts.into_iter().any(|v| v),
        }
    }
}

#[derive(Debug)]
struct Rule {
    id: Cow<'static, str>,
    regex: LazyRegex,
    secret_group: usize,
    entropy: Option<f64>,
    allowlists: Vec<Allowlist>,
}

/// A rule set, ready to run.
#[derive(Debug)]
pub struct RuleSet {
    rules: Vec<Rule>,
    global: Option<Allowlist>,
    keywords: KeywordIndex,
}

/// A secret found in a text: its byte range and the rule that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Where the secret is.
    pub span: Range<usize>,
    /// The rule's id.
    pub rule: String,
}

impl RuleSet {
    /// Parses rule files in gitleaks' TOML format (the first one's global allowlist applies to
    /// all). Rules whose pattern does not compile are skipped when they first run.
    pub fn parse(files: &[&str]) -> Result<Self, String> {
        let files = files
            .iter()
            .map(|text| toml::from_str(text).map_err(|e| e.to_string()))
            .collect::<Result<Vec<RuleFile>, String>>()?;
        Ok(Self::from_files(files))
    }

    /// The rule set of rule files already read (the first one's global allowlist applies to
    /// all).
    pub fn from_files(files: Vec<RuleFile>) -> Self {
        let mut rules = Vec::new();
        let mut global = None;
        let mut keywords = Vec::new();
        for file in files {
            if global.is_none() {
                global = file.allowlist.map(Allowlist::from_spec);
            }
            for spec in file.rules {
                let index = rules.len();
                keywords.extend(spec.keywords.into_iter().map(|keyword| (keyword, index)));
                rules.push(Rule {
                    id: spec.id,
                    regex: LazyRegex::new(spec.regex),
                    secret_group: spec.secret_group,
                    entropy: spec.entropy,
                    allowlists: spec
                        .allowlists
                        .into_iter()
                        .map(Allowlist::from_spec)
                        .collect(),
                });
            }
        }
        let keywords = KeywordIndex::new(
            keywords
                .iter()
                .map(|(keyword, rule)| (keyword.as_ref(), *rule)),
        );
        Self {
            rules,
            global,
            keywords,
        }
    }

    /// How many rules the set holds.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The secrets in `text`, in order of their start.
    pub fn find(&self, text: &str) -> Vec<Finding> {
        let mut triggered = vec![false; self.rules.len()];
        self.keywords.select(text.as_bytes(), &mut triggered);
        let mut findings = Vec::new();
        for (rule, _) in self.rules.iter().zip(&triggered).filter(|(_, on)| **on) {
            let Some(regex) = rule.regex.get() else {
                continue;
            };
            for captures in regex.captures_iter(text) {
                let whole = captures.get(0).expect("group 0 always matches");
                let secret = match rule.secret_group {
                    0 => (1..captures.len())
                        .find_map(|i| captures.get(i).filter(|m| !m.is_empty()))
                        .unwrap_or(whole),
                    group => match captures.get(group) {
                        Some(secret) => secret,
                        None => continue,
                    },
                };
                let secret_text = secret.as_str().trim_matches('\n');
                if secret_text.is_empty() {
                    continue;
                }
                if rule
                    .entropy
                    .is_some_and(|min| shannon(secret_text.as_bytes()) <= min)
                {
                    continue;
                }
                let line = line_around(text, whole.range());
                let allowed = self
                    .global
                    .iter()
                    .chain(&rule.allowlists)
                    .any(|list| list.allows(secret_text, whole.as_str(), line));
                if allowed {
                    continue;
                }
                let start = secret.start()
                    + (secret.as_str().len() - secret.as_str().trim_start_matches('\n').len());
                findings.push(Finding {
                    span: start..start + secret_text.len(),
                    rule: rule.id.to_string(),
                });
            }
        }
        findings.sort_by_key(|f| (f.span.start, std::cmp::Reverse(f.span.end)));
        findings
    }
}

/// The line holding `range`.
fn line_around(text: &str, range: Range<usize>) -> &str {
    let bytes = text.as_bytes();
    let start = memchr::memrchr(b'\n', &bytes[..range.start]).map_or(0, |i| i + 1);
    let end = memchr::memchr(b'\n', &bytes[range.end..]).map_or(bytes.len(), |i| range.end + i);
    &text[start..end]
}

/// Shannon entropy in bits per character, as gitleaks computes it.
pub fn shannon(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0usize; 256];
    for byte in bytes {
        counts[usize::from(*byte)] += 1;
    }
    let length = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / length;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = r#"
[allowlist]
regexes = ['''^true$''']
stopwords = ["example"]

[[rules]]
id = "assign"
regex = '''(?i)\bkey\s*=\s*(\w+)'''
secretGroup = 1
entropy = 2.0
keywords = ["key"]

[[rules.allowlists]]
regexTarget = "line"
regexes = ['''# ignore''']

[[rules]]
id = "bad"
regex = '''(unclosed'''
keywords = ["key"]
"#;

    fn spans(set: &RuleSet, text: &str) -> Vec<String> {
        set.find(text)
            .into_iter()
            .map(|f| text[f.span].to_owned())
            .collect()
    }

    #[test]
    fn keyword_group_entropy_and_allowlists_decide() {
        let set = RuleSet::parse(&[RULES]).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(spans(&set, "KEY = a8Fk2Qz9"), ["a8Fk2Qz9"]);
        assert!(
            spans(&set, "no trigger = a8Fk2Qz9").is_empty(),
            "no keyword"
        );
        assert!(
            spans(&set, "key = aaaaaaaa").is_empty(),
            "too little entropy"
        );
        assert!(spans(&set, "key = true").is_empty(), "global allowlist");
        assert!(spans(&set, "key = example12").is_empty(), "stopword");
        assert!(
            spans(&set, "key = a8Fk2Qz9 # ignore").is_empty(),
            "the rule's line allowlist"
        );
    }

    #[test]
    fn unicode_word_characters_are_not_word_characters_as_in_go() {
        let set = RuleSet::parse(&[RULES]).unwrap();
        assert_eq!(spans(&set, "key = ab9Q4é"), ["ab9Q4"]);
    }

    #[test]
    fn entropy_is_bits_per_character() {
        assert_eq!(shannon(b"aaaa"), 0.0);
        assert!((shannon(b"abcd") - 2.0).abs() < 1e-9);
    }
}
