//! Where a hook's payload ends. Clients write one JSON object on stdin and may keep the pipe
//! open, so a hook stops reading at the end of the first complete value instead of waiting
//! for end of file; and a payload cut short by the size bound still gives the fields that
//! arrived whole.

use serde_json::{Map, Value};

/// Scans JSON text chunk by chunk for the end of the first complete value. It tracks only
/// nesting, strings and escapes, so it costs one pass over the bytes whatever the chunking.
#[derive(Debug, Default)]
pub struct ValueFramer {
    depth: usize,
    in_string: bool,
    escaped: bool,
    started: bool,
    scanned: usize,
    end: Option<usize>,
}

impl ValueFramer {
    /// Feeds the bytes that follow those already fed; returns the length of the first
    /// complete object or array once its closing bracket was seen. A payload that starts with
    /// anything else is never complete before end of file.
    pub fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        if self.end.is_some() {
            return self.end;
        }
        for (offset, &byte) in bytes.iter().enumerate() {
            let at = self.scanned + offset;
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' if self.started => self.in_string = true,
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.started => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.end = Some(at + 1);
                        return self.end;
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' => {}
                // A scalar or garbage at the top: only end of file can end it.
                _ if !self.started => self.started = true,
                _ => {}
            }
        }
        self.scanned += bytes.len();
        None
    }
}

/// The top-level fields of an object that was cut short: every key whose value arrived
/// whole, in order; scanning stops at the first value that did not.
pub fn salvage_fields(bytes: &[u8]) -> Map<String, Value> {
    let mut fields = Map::new();
    let Some(open) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return fields;
    };
    if bytes[open] != b'{' {
        return fields;
    }
    let mut at = open + 1;
    loop {
        at = skip_whitespace_and(bytes, at, b',');
        let Some(key_end) = string_end(bytes, at) else {
            return fields;
        };
        let Ok(key) = serde_json::from_slice::<String>(&bytes[at..key_end]) else {
            return fields;
        };
        at = skip_whitespace_and(bytes, key_end, b':');
        let Some(value_end) = value_end(bytes, at) else {
            return fields;
        };
        match serde_json::from_slice::<Value>(&bytes[at..value_end]) {
            Ok(value) => {
                fields.insert(key, value);
            }
            Err(_) => return fields,
        }
        at = value_end;
    }
}

/// Skips whitespace and at most one `separator`.
fn skip_whitespace_and(bytes: &[u8], mut at: usize, separator: u8) -> usize {
    let mut seen = false;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b if b == separator && !seen => {
                seen = true;
                at += 1;
            }
            _ => break,
        }
    }
    at
}

/// The end (exclusive) of the string starting at `at`, if it is complete.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    for (offset, &byte) in bytes[at + 1..].iter().enumerate() {
        match (escaped, byte) {
            (true, _) => escaped = false,
            (false, b'\\') => escaped = true,
            (false, b'"') => return Some(at + offset + 2),
            _ => {}
        }
    }
    None
}

/// The end (exclusive) of the value starting at `at`, if it is complete.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => ValueFramer::default()
            .feed(&bytes[at..])
            .map(|len| at + len),
        _ => {
            // A number, true, false or null: it ends at a delimiter, which must have arrived.
            let len = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))?;
            Some(at + len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::object(b"{\"a\": 1}\n", Some(8))]
    #[case::nested(br#" {"a": {"b": [1, {"c": 2}]}} trailing"#, Some(28))]
    #[case::brackets_in_strings(br#"{"a": "}]{[", "b": "\"}"}"#, Some(25))]
    #[case::escaped_backslash_before_quote(br#"{"a": "x\\"}"#, Some(12))]
    #[case::incomplete(br#"{"a": "x"#, None)]
    #[case::scalar_needs_eof(b"42", None)]
    fn finds_where_the_first_value_ends(#[case] bytes: &[u8], #[case] end: Option<usize>) {
        assert_eq!(ValueFramer::default().feed(bytes), end);
    }

    #[test]
    fn chunking_does_not_change_the_answer() {
        let text = br#"{"session_id": "s\"1", "nested": {"x": [1, 2, "]"]}, "cwd": "/p"} {"#;
        let whole = ValueFramer::default().feed(text);
        for size in 1..text.len() {
            let mut framer = ValueFramer::default();
            let found = text.chunks(size).find_map(|chunk| framer.feed(chunk));
            assert_eq!(found, whole, "chunks of {size}");
        }
    }

    #[test]
    fn a_cut_payload_keeps_the_fields_that_arrived_whole() {
        let mut payload =
            br#"{"session_id": "s1", "cwd": "/home/u/p", "n": 3, "ok": true, "prompt": ""#.to_vec();
        payload.extend(std::iter::repeat_n(b'x', 1000));
        let fields = salvage_fields(&payload);
        assert_eq!(fields["session_id"], "s1");
        assert_eq!(fields["cwd"], "/home/u/p");
        assert_eq!(fields["n"], 3);
        assert_eq!(fields["ok"], true);
        assert!(!fields.contains_key("prompt"));
    }

    #[rstest]
    #[case::not_an_object(b"[1, 2")]
    #[case::empty(b"")]
    #[case::garbage(b"{\"a\" 1")]
    fn salvage_never_invents_fields(#[case] bytes: &[u8]) {
        assert!(salvage_fields(bytes).is_empty());
    }
}
