//! The seed parser and validator: any text decodes or is refused with a located error, and a
//! decoded seed encodes to text that decodes to the same seed.
#![no_main]

use carryover::domain::seed::{decode_seed, encode_seed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(seed) = decode_seed(text) {
        let again = decode_seed(&encode_seed(&seed)).expect("an encoded seed decodes");
        assert_eq!(again, seed, "encode then decode is the identity");
    }
});
