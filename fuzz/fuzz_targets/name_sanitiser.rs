//! Text from outside (names, transcripts) made inert: one line, no control character, no `<`
//! that could open a tag, never longer than asked.
#![no_main]

use carryover::domain::format::data_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, u16)| {
    let (text, max) = input;
    let line = data_line(text, usize::from(max));
    assert!(!line.chars().any(char::is_control));
    // Escaping may lengthen a cut text by the escapes only.
    let escapes = line.matches("&lt;").count();
    assert!(line.chars().count() <= usize::from(max) + 3 * escapes);
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'<' {
            let next = bytes.get(i + 1).copied().unwrap_or(b' ');
            assert!(!(next.is_ascii_alphabetic() || b"/!?".contains(&next)), "{line:?}");
        }
    }
});
