//! The redactor over any text: never a panic, always valid text, no secret a rule finds left
//! in what it returns, and redacting twice changes nothing more.
#![no_main]

use carryover::domain::redaction::{contains_secret, redact};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let once = redact(text);
    assert!(!contains_secret(&once), "a secret survived: {once:?}");
    assert_eq!(redact(&once), once, "redaction is idempotent");
});
