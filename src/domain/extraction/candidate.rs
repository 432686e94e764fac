//! A sentence the rules judged worth proposing as a learning.

use crate::domain::seed::LearningKind;

/// Which family of phrases matched, so that tests can tell which rule fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// "I prefer …", "I'd rather …", "I like …".
    Preference,
    /// "We always …", "we never …", "we use …".
    Convention,
    /// "Always …", "Never …", "Don't …", "Avoid …", "Use X instead of Y".
    Imperative,
    /// "No, …", "That's wrong, …", "Actually, …" followed by the right version.
    Correction,
    /// "Remember that …", "FYI …", "Keep in mind that …".
    Reminder,
    /// A habitual fact about the project or environment: "Staging is reset every Sunday".
    Fact,
    /// "Stop …", "You keep …": about how the assistant works.
    Behaviour,
    /// An instruction tied to every later occasion: "from now on …", "ask me before …",
    /// "every time you …", "commit without …", and their equivalents in other languages.
    Standing,
    /// Where and on what the project runs: "we are on X", "we will use X only", "hosted on
    /// Y", "the repo is a fork".
    ProjectFact,
}

/// A proposed learning before deduplication.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Which list it would join.
    pub kind: LearningKind,
    /// The learning as a stand-alone sentence.
    pub text: String,
    /// How sure the rules are that it is durable, in [0, 1].
    pub confidence: f64,
    /// The family that matched.
    pub family: Family,
    /// The sentence as the user said it (redacted): the rewrite into `text` may drop what
    /// ties it to the project ("… in this repo").
    pub said: String,
}
