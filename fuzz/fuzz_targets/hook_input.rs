//! The hook's stdin parser: any bytes give a payload (possibly empty) and never a panic.
#![no_main]

use carryover::interface::hook::HookInput;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let (input, _warning) = HookInput::parse(bytes);
    // Whatever was parsed, a session id either validates or is refused; never a panic.
    if let Some(id) = input.session_id.as_deref() {
        let _ = carryover::domain::session_id::SessionId::parse(id);
    }
});
