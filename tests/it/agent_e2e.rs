//! What every real agent client's end-to-end test sets up and expects alike: a project with
//! two learnings, one for the session start and one only a prompt recalls, and the first
//! prompt that needs both.

use std::path::Path;

use crate::support::Hermetic;

/// The learning session start shows (`[retrieval] top_n = 1` leaves the other for the prompt).
pub const START_LEARNING: &str = "Retry budgets for the HTTP client stay below five attempts";

/// The learning only the prompt hook recalls.
pub const PROMPT_LEARNING: &str = "The payment sandbox integration tests time out unless PAYMENT_SANDBOX_URL points at the local stub";

/// The configuration the tests run with: one learning at session start, so that the prompt's
/// is left for the prompt hook; a `-p` run is one request, which must be enough for a handoff.
pub fn one_learning_at_start(env: &Hermetic) {
    fs_err::write(
        env.data().join("config.toml"),
        "[retrieval]\ntop_n = 1\n\n[handoff]\nmin_turns = 1\n",
    )
    .unwrap();
}

/// Learns both learnings for `project`.
pub fn learn_both(env: &Hermetic, project: &Path) {
    for (kind, text) in [("pattern", START_LEARNING), ("insight", PROMPT_LEARNING)] {
        env.carryover()
            .current_dir(project)
            .args(["learn", kind, "--project", text])
            .assert()
            .success();
    }
}

/// Asserts that the first session's requests carried the identity, the session start's
/// learning and the learning recalled for the prompt.
pub fn assert_start_and_recall_reached_the_model(sent: &str) {
    assert!(sent.contains("Identity: Juno (serving Mara)"), "{sent}");
    assert!(
        sent.contains(&format!("pattern: {START_LEARNING}")),
        "{sent}"
    );
    assert!(
        sent.contains("Learnings for this prompt (carryover):")
            && sent.contains(&format!("insight: {}", &PROMPT_LEARNING[..60])),
        "{sent}"
    );
}

/// carryover's log, for failure messages.
pub fn log(env: &Hermetic) -> String {
    fs_err::read_to_string(env.data().join("logs/carryover.log")).unwrap_or_default()
}
