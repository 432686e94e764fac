//! Finding a proposal or learning by the start of its id, as people type it.

use crate::domain::RuleError;

/// The index of the one id that `prefix` starts, with or without the id's kind prefix
/// (`Q4mZ8` and `prp_Q4mZ8` both find `prp_Q4mZ8xWc2Lna`). An exact id always wins.
pub fn resolve_prefix(what: &'static str, ids: &[&str], prefix: &str) -> Result<usize, RuleError> {
    let prefix = prefix.trim();
    if prefix.is_empty() {
        return Err(RuleError::Empty {
            what: "the id prefix",
        });
    }
    if let Some(exact) = ids.iter().position(|id| *id == prefix) {
        return Ok(exact);
    }
    let matches: Vec<usize> = ids
        .iter()
        .enumerate()
        .filter(|(_, id)| {
            id.starts_with(prefix)
                || id
                    .split_once('_')
                    .is_some_and(|(_, rest)| rest.starts_with(prefix))
        })
        .map(|(index, _)| index)
        .collect();
    match matches.as_slice() {
        [] => Err(RuleError::UnknownPrefix {
            what,
            prefix: prefix.to_owned(),
        }),
        [one] => Ok(*one),
        many => Err(RuleError::AmbiguousPrefix {
            what,
            prefix: prefix.to_owned(),
            candidates: many.iter().map(|i| ids[*i].to_owned()).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const IDS: [&str; 3] = ["prp_Q4mZ8xWc2Lna", "prp_Q4mZ9abc", "prp_T7nB3vKd9Spe"];

    #[rstest]
    #[case::short_prefix("T7n", 2)]
    #[case::with_kind_prefix("prp_T7nB3", 2)]
    #[case::long_enough("Q4mZ8", 0)]
    #[case::exact_id("prp_Q4mZ9abc", 1)]
    fn finds_the_one_id(#[case] prefix: &str, #[case] index: usize) {
        assert_eq!(resolve_prefix("proposal", &IDS, prefix).unwrap(), index);
    }

    #[test]
    fn an_ambiguous_prefix_lists_the_candidates() {
        let error = resolve_prefix("proposal", &IDS, "Q4mZ").unwrap_err();
        assert_eq!(
            error.to_string(),
            "\"Q4mZ\" matches several proposals: prp_Q4mZ8xWc2Lna, prp_Q4mZ9abc"
        );
    }

    #[rstest]
    #[case::unknown("zzz")]
    #[case::empty(" ")]
    fn refuses_what_matches_nothing(#[case] prefix: &str) {
        assert!(resolve_prefix("proposal", &IDS, prefix).is_err());
    }
}
