//! The seed's merge as git's merge driver runs it: three texts in, one text out (ADR 0021).

use crate::domain::SyncError;
use crate::domain::seed::{MergeConflict, Side, decode_seed, encode_seed, merge_seeds};

/// Merges `theirs` into `ours`, both grown from `base` (empty when they share no history);
/// returns the merged text and what could not be decided. A side that is not a valid seed is
/// refused: git then leaves the merge unresolved and the seed as it was.
pub fn merge_seed_texts(
    base: &str,
    ours: &str,
    theirs: &str,
    newer: Side,
) -> Result<(String, Vec<MergeConflict>), SyncError> {
    let decode = |side: &str, text: &str| {
        decode_seed(text).map_err(|error| SyncError::Unmergeable {
            reason: format!("carryover: {side} seed is not valid: {error}"),
        })
    };
    let base = match base.trim() {
        "" => None,
        // A base that does not decode is treated as no common history: the merge then keeps
        // everything either side holds.
        text => decode_seed(text).ok(),
    };
    let ours = decode("this machine's", ours)?;
    let theirs = decode("the remote's", theirs)?;
    let merged = merge_seeds(base.as_ref(), &ours, &theirs, newer);
    Ok((encode_seed(&merged.seed), merged.conflicts))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../tests/fixtures/seed/seed.json");

    #[test]
    fn a_seed_merged_with_itself_is_unchanged() {
        let (merged, conflicts) = merge_seed_texts(SEED, SEED, SEED, Side::Ours).unwrap();
        assert_eq!(decode_seed(&merged).unwrap(), decode_seed(SEED).unwrap());
        assert!(conflicts.is_empty());
    }

    #[test]
    fn a_side_that_is_not_a_seed_is_refused() {
        let error = merge_seed_texts("", SEED, "{\"version\":", Side::Ours).unwrap_err();
        assert!(
            error.to_string().contains("the remote's seed is not valid"),
            "{error}"
        );
    }
}
