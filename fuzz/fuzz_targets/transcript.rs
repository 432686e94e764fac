//! The transcript reader over arbitrary file contents: usage, compaction and digest never
//! panic, whatever the rows (truncated JSON, invalid UTF-8, huge lines).
#![no_main]

use carryover::domain::ports::{DigestScope, TranscriptReader};
use carryover::infrastructure::ClaudeTranscriptReader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    std::io::Write::write_all(&mut file, bytes).expect("write");
    let reader = ClaudeTranscriptReader;
    let path = file.path();
    let _ = pollster_block_on(reader.last_usage(path));
    let _ = pollster_block_on(reader.last_compaction(path));
    let _ = pollster_block_on(reader.digest(path, DigestScope::Tail(4096)));
    let _ = pollster_block_on(reader.digest(path, DigestScope::Whole));
});

/// The reader's futures complete without waiting on anything.
fn pollster_block_on<F: std::future::Future>(future: F) -> F::Output {
    let waker = std::task::Waker::noop();
    let mut context = std::task::Context::from_waker(waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}
