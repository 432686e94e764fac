//! Random ids in the seed's style: a kind prefix and 12 base-62 characters.

use crate::domain::ports::IdGenerator;

const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LENGTH: usize = 12;

/// Ids from the operating system's randomness (through UUID v4): 12 base-62 characters are
/// 71 bits, so a seed would need billions of entries before a collision became likely.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomIds;

impl IdGenerator for RandomIds {
    fn next_id(&self, prefix: &str) -> String {
        let mut value = uuid::Uuid::new_v4().as_u128();
        let mut id = String::with_capacity(prefix.len() + LENGTH);
        id.push_str(prefix);
        for _ in 0..LENGTH {
            id.push(char::from(ALPHABET[(value % 62) as usize]));
            value /= 62;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_and_twelve_alphanumerics_without_repeats() {
        let ids: std::collections::HashSet<String> =
            (0..1_000).map(|_| RandomIds.next_id("pat_")).collect();
        assert_eq!(ids.len(), 1_000);
        for id in ids {
            let rest = id.strip_prefix("pat_").unwrap();
            assert_eq!(rest.len(), 12);
            assert!(rest.bytes().all(|b| b.is_ascii_alphanumeric()));
        }
    }
}
