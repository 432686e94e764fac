//! Removing secrets from text before it is written anywhere (handoffs, proposals).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// What replaces a secret.
pub const REDACTED: &str = "[REDACTED]";

/// Patterns of well-known credentials, each with its replacement. Kept specific: a handoff
/// full of false positives is as useless as one that leaks.
static RULES: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        // PEM private keys, whole blocks.
        (r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\z)", "[REDACTED PRIVATE KEY]"),
        // Authorization headers and bearer tokens.
        (r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}", "$1 [REDACTED]"),
        // key=value and key: value assignments of secrets.
        (
            r#"(?i)\b([a-z0-9_.-]*(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?key)[a-z0-9_.-]*)(\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;&]+)"#,
            "$1$2[REDACTED]",
        ),
        // OpenAI / Anthropic style keys.
        (r"\bsk-[A-Za-z0-9_-]{16,}", REDACTED),
        // GitHub tokens.
        (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", REDACTED),
        // GitLab tokens.
        (r"\bglpat-[A-Za-z0-9_-]{20,}", REDACTED),
        // AWS access key ids.
        (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", REDACTED),
        // Slack tokens.
        (r"\bxox[abposr]-[A-Za-z0-9-]{10,}", REDACTED),
        // Google API keys.
        (r"\bAIza[0-9A-Za-z_-]{35}", REDACTED),
        // JSON web tokens.
        (r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", REDACTED),
    ]
    .into_iter()
    .map(|(pattern, replacement)| (Regex::new(pattern).expect("redaction patterns are valid"), replacement))
    .collect()
});

/// `text` with every known kind of secret replaced.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for (pattern, replacement) in RULES.iter() {
        if pattern.is_match(&out) {
            out = Cow::Owned(pattern.replace_all(&out, *replacement).into_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::openai("key is sk-proj-abcdefghijklmnop1234", "key is [REDACTED]")]
    #[case::anthropic("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv", "[REDACTED]")]
    #[case::github("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [REDACTED]")]
    #[case::github_pat("github_pat_11ABCDEFG0123456789_abcdefghij", "[REDACTED]")]
    #[case::aws("AKIAIOSFODNN7EXAMPLE in env", "[REDACTED] in env")]
    #[case::slack("xoxb-123456789012-abcdefghij", "[REDACTED]")]
    #[case::bearer(
        "Authorization: Bearer abc.def.ghi-jkl_mno",
        "Authorization: Bearer [REDACTED]"
    )]
    #[case::password_assignment(
        "db password=hunter2!x and more",
        "db password=[REDACTED] and more"
    )]
    #[case::secret_colon("client_secret: 's3cr3t value'", "client_secret: [REDACTED]")]
    #[case::env_style("export API_KEY=\"abc123\"", "export API_KEY=[REDACTED]")]
    #[case::private_key(
        "before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nafter",
        "before\n[REDACTED PRIVATE KEY]\nafter"
    )]
    #[case::truncated_private_key(
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow",
        "[REDACTED PRIVATE KEY]"
    )]
    fn redacts_secrets(#[case] text: &str, #[case] expected: &str) {
        assert_eq!(redact(text), expected);
    }

    #[rstest]
    #[case::prose("Use a password manager for the staging database")]
    #[case::short_sk("the sk-1 variant")]
    #[case::words("Adds retries with exponential backoff to every client")]
    #[case::path("src/secret_store.rs was edited")]
    fn leaves_ordinary_text_alone(#[case] text: &str) {
        assert_eq!(redact(text), text);
    }
}
