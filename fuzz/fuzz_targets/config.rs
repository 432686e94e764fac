//! Config parsing: any text gives a configuration or an error naming the file, never a panic,
//! and the budget never exceeds the client's cap.
#![no_main]

use std::path::Path;

use carryover::domain::context::HARD_CAP_CHARS;
use carryover::infrastructure::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match Config::parse(text, Path::new("/data/config.toml")) {
        Ok(config) => {
            assert!(config.budget_chars() <= HARD_CAP_CHARS);
            let _ = config.thresholds();
        }
        Err(error) => assert!(error.to_string().contains("config.toml")),
    }
});
