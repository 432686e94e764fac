//! Learnings proposed from what the user said in a session, by phrase rules and no model:
//! the user's own prose (no code, logs or quotes), sentence by sentence, matched against
//! families of durable statements (preferences, conventions, corrections, facts, standing
//! rules), in English, German, Spanish, French, Chinese, Japanese and Korean.

mod audit;
mod candidate;
mod cjk;
mod cues;
mod multilingual;
mod pasted_output;
mod rules;
mod selection;
mod standing;
mod user_prose;

pub use audit::{Ignored, IgnoredReason, ignored_in};
pub use candidate::{Candidate, Family};
pub use rules::classify_sentence;
pub use selection::{MAX_CHARS, MIN_CHARS, MIN_CJK_CHARS, candidates_from, normalised};
pub use user_prose::{sentences, user_prose};
