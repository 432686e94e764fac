//! The short contexts given instead of the full one: first run, or a seed that cannot be used.

use super::Section;

/// First run: no seed, or the principal is still the placeholder.
pub fn setup_notice() -> Section {
    Section::fixed(vec![
        "carryover is not set up yet: no identity has been configured, so this \
         session starts without the assistant's identity or learnings. The user can run \
         `carryover init` to name the assistant and the person it serves."
            .to_owned(),
    ])
}

/// The seed exists but cannot be used (corrupt with no history, or a newer format).
pub fn unusable_seed_notice(problem: &str) -> Section {
    Section::fixed(vec![format!(
        "carryover could not load the seed, so this session starts without identity or \
         learnings: {problem}. `carryover status` shows the details."
    )])
}
