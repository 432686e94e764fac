//! The start of a transcript's first row, which is how the agent that wrote it is told
//! (ADRs 0016, 0019, 0022): each client's first row names its kind within its first bytes.

use std::io::Read;
use std::path::Path;

/// How much of a file's start is read: Codex's and Copilot's `type` and Gemini's
/// `projectHash` come within the first few hundred bytes.
const SNIFF_BYTES: u64 = 1024;

/// The first row's start, at most [`SNIFF_BYTES`]; `None` when the file cannot be read
/// (the reader chosen afterwards then reports why).
pub fn first_row(path: &Path) -> Option<Vec<u8>> {
    let file = super::open_regular(path).ok()?;
    let mut head = Vec::with_capacity(SNIFF_BYTES as usize);
    file.take(SNIFF_BYTES).read_to_end(&mut head).ok()?;
    let end = memchr::memchr(b'\n', &head).unwrap_or(head.len());
    head.truncate(end);
    Some(head)
}

/// Whether `row` holds every one of `keys` (`"name"` with its quotes).
pub fn has_keys(row: &[u8], keys: &[&str]) -> bool {
    keys.iter()
        .all(|key| memchr::memmem::find(row, key.as_bytes()).is_some())
}

/// Whether `row` says `"type":"<kind>"`, compact as a client writes it or spaced as a
/// re-serialised copy is.
pub fn has_type(row: &[u8], kind: &str) -> bool {
    [
        format!("\"type\":\"{kind}\""),
        format!("\"type\": \"{kind}\""),
    ]
    .iter()
    .any(|needle| memchr::memmem::find(row, needle.as_bytes()).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::compact(br#"{"timestamp":"t","type":"session_meta","payload":{}}"#, true)]
    #[case::spaced(br#"{"timestamp": "t", "type": "session_meta"}"#, true)]
    #[case::another_type(br#"{"type":"response_item"}"#, false)]
    #[case::a_payload_value(br#"{"type":"user","text":"session_meta"}"#, false)]
    fn tells_the_type(#[case] row: &[u8], #[case] expected: bool) {
        assert_eq!(has_type(row, "session_meta"), expected);
    }

    #[test]
    fn reads_only_the_first_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        fs_err::write(&path, "{\"type\":\"a\"}\n{\"type\":\"b\"}\n").unwrap();
        let row = first_row(&path).unwrap();
        assert!(has_type(&row, "a") && !has_type(&row, "b"));
        assert!(has_keys(&row, &["\"type\""]) && !has_keys(&row, &["\"type\"", "\"x\""]));
        assert_eq!(first_row(&dir.path().join("missing")), None);
    }
}
