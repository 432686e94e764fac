//! What is left of a forgotten learning, so that a merge with a seed that still holds it
//! (another machine's) does not bring it back (ADR 0021). Stored under `$.state.forgotten`, a
//! key pai-seed v1 readers do not know and keep, like a learning's scope (ADR 0010): the seed
//! stays a valid v1 seed. A tombstone holds a hash of the text, never the text.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Learning, Seed, Timestamp};

/// The key under `$.state` that holds the tombstones.
pub const TOMBSTONES_KEY: &str = "forgotten";

/// One forgotten learning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tombstone {
    /// The learning's id.
    pub id: String,
    /// [`text_hash`] of its text.
    pub text_hash: String,
    /// When it was forgotten.
    pub forgotten_at: Timestamp,
}

impl Tombstone {
    /// The tombstone of `learning`, forgotten `at`.
    pub fn of(learning: &Learning, at: Timestamp) -> Self {
        Self {
            id: learning.id.clone(),
            text_hash: text_hash(&learning.content),
            forgotten_at: at,
        }
    }

    /// Whether `learning` is the one forgotten: the same id, or the same text written down no
    /// later than it was forgotten (the same learning from another machine, under its own
    /// id). The same text learned again afterwards is a new decision and stays.
    pub fn buries(&self, learning: &Learning) -> bool {
        learning.id == self.id
            || (learning.extracted_at <= self.forgotten_at
                && text_hash(&learning.content) == self.text_hash)
    }
}

/// A learning's text as duplicates are recognised: words lower-cased and joined by one
/// space, a final full stop dropped.
pub fn normalised_text(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches('.')
        .to_owned()
}

/// The first 16 bytes of the SHA-256 of [`normalised_text`], in hex.
pub fn text_hash(text: &str) -> String {
    let digest = Sha256::digest(normalised_text(text).as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

impl Seed {
    /// The tombstones the seed keeps; an entry that is not one (written by hand) is skipped.
    pub fn tombstones(&self) -> Vec<Tombstone> {
        self.state
            .extra
            .get(TOMBSTONES_KEY)
            .and_then(serde_json::Value::as_array)
            .map(|entries| {
                entries
                    .iter()
                    .filter_map(|entry| serde_json::from_value(entry.clone()).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Replaces the tombstones; none removes the key.
    pub fn set_tombstones(&mut self, tombstones: Vec<Tombstone>) {
        if tombstones.is_empty() {
            self.state.extra.shift_remove(TOMBSTONES_KEY);
            return;
        }
        let entries = tombstones
            .iter()
            .filter_map(|t| serde_json::to_value(t).ok())
            .collect();
        self.state
            .extra
            .insert(TOMBSTONES_KEY.to_owned(), serde_json::Value::Array(entries));
    }

    /// Records that `learning` was forgotten `at` (it is removed by the caller).
    pub fn bury(&mut self, learning: &Learning, at: Timestamp) {
        let mut tombstones = self.tombstones();
        tombstones.retain(|t| t.id != learning.id);
        tombstones.push(Tombstone::of(learning, at));
        self.set_tombstones(tombstones);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{decode_seed, encode_seed};
    use rstest::rstest;

    fn at(raw: &str) -> Timestamp {
        Timestamp::parse(raw).unwrap()
    }

    fn learning(id: &str, text: &str, when: &str) -> Learning {
        Learning::new(id.into(), text.into(), "test".into(), at(when), true)
    }

    #[rstest]
    #[case::the_same_id("ins_1", "Anything else", "2026-11-23T10:00:00Z", true)]
    #[case::the_same_text_from_another_machine(
        "ins_2",
        "deploys go out on TUESDAYS.",
        "2026-11-01T10:00:00Z",
        true
    )]
    #[case::the_same_text_learned_again_later(
        "ins_3",
        "Deploys go out on Tuesdays",
        "2026-11-23T10:00:00Z",
        false
    )]
    #[case::another_learning("ins_4", "Staging resets on Sundays", "2026-11-01T10:00:00Z", false)]
    fn buries(#[case] id: &str, #[case] text: &str, #[case] when: &str, #[case] buried: bool) {
        let forgotten = learning(
            "ins_1",
            "Deploys go out on Tuesdays",
            "2026-11-01T09:00:00Z",
        );
        let tombstone = Tombstone::of(&forgotten, at("2026-11-20T10:00:00Z"));
        assert_eq!(tombstone.buries(&learning(id, text, when)), buried);
    }

    #[test]
    fn tombstones_round_trip_as_a_valid_seed_without_the_text() {
        let mut seed = Seed::default();
        let forgotten = learning(
            "ins_1",
            "The staging password lives in 1Password",
            "2026-11-01T09:00:00Z",
        );
        seed.bury(&forgotten, at("2026-11-20T10:00:00Z"));
        let text = encode_seed(&seed);
        assert!(!text.contains("1Password"), "{text}");
        let decoded = decode_seed(&text).expect("still a valid seed");
        assert_eq!(
            decoded.tombstones(),
            vec![Tombstone::of(&forgotten, at("2026-11-20T10:00:00Z"))]
        );
    }
}
