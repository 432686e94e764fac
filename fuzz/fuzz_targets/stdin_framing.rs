//! A hook's stdin framing: the end of the first JSON value is found the same way whatever the
//! chunking, salvaging a cut payload never invents a field, and parsing never panics.
#![no_main]

use carryover::interface::hook::{HookInput, ValueFramer, salvage_fields};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let whole = ValueFramer::default().feed(bytes);
    if let Some(end) = whole {
        assert!(end <= bytes.len());
    }
    // Fed in uneven chunks, the framer finds the same end.
    let mut framer = ValueFramer::default();
    let mut found = None;
    for chunk in bytes.chunks(7) {
        found = framer.feed(chunk);
        if found.is_some() {
            break;
        }
    }
    assert_eq!(found, whole);
    // Every salvaged field is one the text really has, with its value.
    let fields = salvage_fields(bytes);
    if let Ok(serde_json::Value::Object(full)) = serde_json::from_slice::<serde_json::Value>(bytes) {
        for (key, value) in &fields {
            assert_eq!(full.get(key), Some(value), "{key}");
        }
    }
    let _ = HookInput::parse(bytes);
});
