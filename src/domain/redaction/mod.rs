//! Removing secrets from text before it is written anywhere (handoffs, checkpoints, proposals,
//! learnings) or sent anywhere (an HTTP embedder). The rules are gitleaks' default set (MIT,
//! compiled in from `assets/redaction/gitleaks.toml`) and carryover's own for what people type
//! rather than commit (`assets/redaction/carryover.toml`: URL credentials, Basic auth, secret
//! assignments with an entropy check, `mysql -p…`, "my password is …").

mod keyword_index;
mod rule_set;
mod rule_spec;

use std::borrow::Cow;
use std::sync::LazyLock;

pub use rule_set::{Finding, RuleSet, shannon};
pub use rule_spec::{AllowlistSpec, RuleFile, RuleSpec};

/// What replaces a secret.
pub const REDACTED: &str = "[REDACTED]";

/// The compiled-in rule files, as the build script wrote them out from `assets/redaction/`.
mod compiled {
    use std::borrow::Cow;

    use super::rule_spec::{AllowlistSpec, RuleFile, RuleSpec};

    include!(concat!(env!("OUT_DIR"), "/redaction_rules.rs"));
}

/// The compiled-in rules, built on first use.
static RULES: LazyLock<RuleSet> = LazyLock::new(|| RuleSet::from_files(compiled::compiled_in()));

/// The compiled-in rule files, as `RuleSet::from_files` takes them.
pub fn compiled_in_rules() -> Vec<RuleFile> {
    compiled::compiled_in()
}

/// The secrets `text` holds, by the compiled-in rules.
pub fn find_secrets(text: &str) -> Vec<Finding> {
    let mut findings = RULES.find(text);
    // A rule may take the placeholder itself for a secret (`postgres://a:[REDACTED]@h`):
    // what was redacted once has nothing left to hide.
    findings.retain(|finding| {
        text.get(finding.span.clone()).is_none_or(|found| {
            found
                .replace(REDACTED, "")
                .chars()
                .any(char::is_alphanumeric)
        })
    });
    findings
}

/// Whether `text` holds a secret.
pub fn contains_secret(text: &str) -> bool {
    !find_secrets(text).is_empty()
}

/// `text` with every secret the rules find replaced by [`REDACTED`], until none is left: a
/// replacement can join what surrounded two secrets into a third (found by the `redaction`
/// fuzz target). Each pass replaces characters of the text with the placeholder, which is
/// never a secret itself, so the passes end. Callers redact before they cut text to length,
/// so that a cut never leaves a secret's first half behind.
pub fn redact(text: &str) -> Cow<'_, str> {
    let findings = find_secrets(text);
    if findings.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut redacted = replace(text, findings);
    loop {
        let findings = find_secrets(&redacted);
        if findings.is_empty() {
            return Cow::Owned(redacted);
        }
        redacted = replace(&redacted, findings);
    }
}

/// `text` with each finding's span replaced by [`REDACTED`].
fn replace(text: &str, findings: Vec<Finding>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for finding in findings {
        let start = floor_boundary(text, finding.span.start).max(copied);
        let end = ceil_boundary(text, finding.span.end);
        if end <= copied {
            continue;
        }
        out.push_str(&text[copied..start]);
        out.push_str(REDACTED);
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// Found by the `redaction` fuzz target: the URL rule took the placeholder left in
    /// `postgres://a:[REDACTED]@h` for a password, and a replacement joined its neighbours
    /// into a new secret; redacted text still "held a secret".
    #[rstest]
    #[case::placeholder_as_password(
        "DB_PASS=s3cr3t-Pw9 and postgres://a:Wq9xZ27kLm@h/db and sk-ant-api03-Xk9mQ2vL7pR4sT8wY1nB3cD6"
    )]
    #[case::joined_neighbours(
        "LB_P\0mss.idPwB_PAess.idPw9 antg,es:/s.idPw9 antg,es://,:_PASS=s3cLm@antg,es:s3cLm@aSS=s3cLm@h"
    )]
    fn redacted_text_holds_no_secret_and_redacts_to_itself(#[case] text: &str) {
        let once = redact(text);
        assert!(!contains_secret(&once), "{once}");
        assert_eq!(redact(&once), once);
        assert!(
            !once.contains("Wq9xZ27kLm") && !once.contains("s3cLm@a"),
            "{once}"
        );
    }

    #[rstest]
    #[case::openai(
        "key is sk-proj-abcdefghijklmnop1234abcdT3BlbkFJabcdefghijklmnop1234",
        "key is [REDACTED]"
    )]
    #[case::anthropic("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv", "[REDACTED]")]
    #[case::github("token ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq", "token [REDACTED]")]
    #[case::aws_access_key("AKIAYQLCW4PPSA7WT7WE in env", "[REDACTED] in env")]
    #[case::slack(
        "xoxb-1234567890123-1234567890123-abcdefghijABCDEF12345678",
        "[REDACTED]"
    )]
    #[case::bearer(
        "Authorization: Bearer abc.def.ghi-jkl_mno9Q",
        "Authorization: Bearer [REDACTED]"
    )]
    #[case::password_assignment(
        "db password=hunter2!x and more",
        "db password=[REDACTED] and more"
    )]
    #[case::db_pass("DB_PASS=s3cr3t-Pw", "DB_PASS=[REDACTED]")]
    #[case::token_env("TOKEN=9f8e7d6c5b4a3f2e1d0c", "TOKEN=[REDACTED]")]
    #[case::url_credentials(
        "postgres://admin:Wq9!xZ27@db.internal:5432/app",
        "postgres://admin:[REDACTED]@db.internal:5432/app"
    )]
    #[case::basic_auth(
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "Authorization: Basic [REDACTED]"
    )]
    #[case::mysql("mysql -u root -pS3cretPW app", "mysql -u root -p[REDACTED] app")]
    #[case::prose(
        "and my password is hunter2-Example ok",
        "and my password is [REDACTED] ok"
    )]
    #[case::a_token_told_in_words(
        "my token is iK2ZWeqhFWCEPyYngFb51yBMWXaSCrUZoL8g",
        "my token is [REDACTED]"
    )]
    #[case::an_api_key_told_in_words(
        "the deploy API key is Qz7Lw2Rk9Xv4Tn8Bp3Hs6Jd1 for now",
        "the deploy API key is [REDACTED] for now"
    )]
    #[case::a_token_ending_a_sentence(
        "The token is iK2ZWeqhFWCEPyYngFb51yBMWX.",
        "The token is [REDACTED]."
    )]
    #[case::password_after_the_word(
        "We deploy with the password hunter2Secret! to staging",
        "We deploy with the password [REDACTED] to staging"
    )]
    #[case::private_key(
        "before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUx\n-----END OPENSSH PRIVATE KEY-----\nafter",
        "before\n[REDACTED]\nafter"
    )]
    fn redacts_secrets(#[case] text: &str, #[case] expected: &str) {
        assert_eq!(redact(text), expected);
    }

    #[rstest]
    #[case::prose("Use a password manager for the staging database")]
    #[case::the_token_is_a_word("the token is required on every request")]
    #[case::the_key_is_where("the API key is stored in 1Password under Staging")]
    #[case::the_token_lasts("the token is valid for 24 hours")]
    #[case::the_secret_is_a_version("the secret key is v2 now")]
    #[case::a_signing_algorithm("The access token is RS256-signed by the gateway")]
    #[case::an_encoding("the API key is base64-encoded before it is stored")]
    #[case::a_hash("the token is sha256-hashed before storage")]
    #[case::a_key_type("the private key is ed25519-based")]
    #[case::a_path("the token is src/auth/token2.rs for now")]
    #[case::a_long_path("the token is src/authentication/token_store2.rs")]
    #[case::a_version("the token is v1.2.3-beta4")]
    #[case::a_platform("The secret is k8s-managed")]
    #[case::password_is_a_word("the password is required here")]
    #[case::password_then_a_word("Fix the password reset flow for OAuth2 users")]
    #[case::password_then_a_version("password v2.0.1 hashing lands with bcrypt")]
    #[case::password_then_a_short_code("the password 2FA prompt moved to settings")]
    #[case::short_sk("the sk-1 variant")]
    #[case::words("Adds retries with exponential backoff to every client")]
    #[case::path("src/secret_store.rs was edited")]
    #[case::placeholder("API_KEY=$OPENAI_API_KEY")]
    #[case::reference("token = process.env.GITHUB_TOKEN")]
    #[case::url_without_password("https://user@github.com/org/repo.git")]
    fn leaves_ordinary_text_alone(#[case] text: &str) {
        assert_eq!(redact(text), text);
    }

    #[test]
    fn a_secret_next_to_multibyte_text_keeps_the_text_valid() {
        let text = "密码 password=Zx9!qW2e 完成";
        assert_eq!(redact(text), "密码 password=[REDACTED] 完成");
    }
}

/// The rule set measured on gitleaks' own test cases (`tests/fixtures/redaction/`): every
/// true positive of every rule, and the credential kinds a review found slipping through the
/// old hand list.
#[cfg(test)]
mod rule_set_cases {
    use super::*;

    /// The build script's Rust says what the TOML says (stopwords lowercased, as they are
    /// matched).
    #[test]
    fn the_compiled_in_rules_are_the_asset_files() {
        let mut parsed: Vec<RuleFile> = [
            include_str!("../../../assets/redaction/gitleaks.toml"),
            include_str!("../../../assets/redaction/carryover.toml"),
        ]
        .iter()
        .map(|text| toml::from_str(text).unwrap())
        .collect();
        let lowercase = |list: &mut AllowlistSpec| {
            for word in &mut list.stopwords {
                *word = Cow::Owned(word.to_ascii_lowercase());
            }
        };
        for file in &mut parsed {
            file.allowlist.iter_mut().for_each(lowercase);
            for rule in &mut file.rules {
                rule.allowlists.iter_mut().for_each(lowercase);
            }
        }
        let compiled = compiled_in_rules();
        assert_eq!(compiled.len(), 2);
        assert_eq!(compiled[0].rules.len(), 221, "gitleaks' rules");
        assert_eq!(format!("{compiled:?}"), format!("{parsed:?}"));
    }

    #[test]
    fn every_true_positive_is_redacted_and_few_false_positives_are() {
        let cases: serde_json::Value = serde_json::from_str(include_str!(
            "../../../tests/fixtures/redaction/gitleaks-cases.json"
        ))
        .unwrap();
        let (mut positives, mut missed) = (0, Vec::new());
        let (mut negatives, mut flagged, mut flagged_by_gitleaks) = (0, Vec::new(), 0);
        let gitleaks_alone =
            RuleSet::parse(&[include_str!("../../../assets/redaction/gitleaks.toml")]).unwrap();
        for case in cases["cases"].as_array().unwrap() {
            for text in case["true_positives"].as_array().unwrap() {
                positives += 1;
                let text = text.as_str().unwrap();
                if !contains_secret(text) {
                    missed.push(format!("{}: {text}", case["rule"]));
                }
            }
            for text in case["false_positives"].as_array().unwrap() {
                negatives += 1;
                let text = text.as_str().unwrap();
                if contains_secret(text) {
                    flagged.push(case["rule"].to_string());
                }
                flagged_by_gitleaks += usize::from(!gitleaks_alone.find(text).is_empty());
            }
        }
        for case in cases["extra_cases"].as_array().unwrap() {
            for text in case["true_positives"].as_array().unwrap() {
                positives += 1;
                let text = text.as_str().unwrap();
                let redacted = redact(text);
                if redacted == text {
                    missed.push(format!("{}: {text}", case["kind"]));
                }
            }
        }
        assert!(
            missed.is_empty(),
            "{} of {positives} missed: {missed:#?}",
            missed.len()
        );
        // gitleaks' false positives are near-misses of one rule's format (a key one character
        // short); run against every rule at once, some trip another rule, in gitleaks itself
        // too. carryover's looser rules (any-length `sk-` keys, secret assignments) flag more
        // of them on purpose: in conversation text a near-key is still worth hiding.
        assert!(
            flagged_by_gitleaks <= 40,
            "gitleaks' rules flag {flagged_by_gitleaks}"
        );
        let rate = flagged.len() as f64 / negatives as f64;
        assert!(
            rate < 0.25,
            "{} of {negatives} false positives flagged: {flagged:?}",
            flagged.len()
        );
        eprintln!(
            "redaction: {positives} true positives all caught; false positives flagged: {flagged_by_gitleaks}/{negatives} by gitleaks' rules, {}/{negatives} with carryover's",
            flagged.len()
        );
    }
}
