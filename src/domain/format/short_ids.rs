//! Short, unique id prefixes for people to type: `prp_Q4mZ8xWc2Lna` → `Q4mZ8`.

/// For each id, the shortest prefix of at least `min` characters (after the prefix all ids
/// share, such as `prp_`) that no other id starts with. Equal ids get their whole text.
pub fn short_ids(ids: &[&str], min: usize) -> Vec<String> {
    let common = common_prefix(ids);
    ids.iter()
        .map(|id| {
            let rest = &id[common.min(id.len())..];
            let chars: Vec<(usize, char)> = rest.char_indices().collect();
            let mut length = min.min(chars.len());
            loop {
                let end = chars.get(length).map_or(rest.len(), |(at, _)| *at);
                let candidate = &rest[..end];
                let clashes = ids.iter().filter(|other| *other != id).any(|other| {
                    other
                        .get(common..)
                        .is_some_and(|other_rest| other_rest.starts_with(candidate))
                });
                if !clashes || end == rest.len() {
                    return candidate.to_owned();
                }
                length += 1;
            }
        })
        .collect()
}

/// Bytes all ids share at the start, cut back to the last `_` so that `prp_` goes but a
/// shared first letter of the random part stays.
fn common_prefix(ids: &[&str]) -> usize {
    let Some(first) = ids.first() else { return 0 };
    let shared = ids.iter().skip(1).fold(first.len(), |length, id| {
        first
            .bytes()
            .zip(id.bytes())
            .take(length)
            .take_while(|(a, b)| a == b)
            .count()
    });
    first[..shared].rfind('_').map_or(0, |at| at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::distinct(&["prp_Q4mZ8xWc2Lna", "prp_T7nB3vKd9Spe"], &["Q4mZ8", "T7nB3"])]
    #[case::sharing_a_long_start(&["prp_ABCDEFxx", "prp_ABCDEGyy"], &["ABCDEF", "ABCDEG"])]
    #[case::one_is_a_prefix_of_the_other(&["prp_ABCDE", "prp_ABCDEF"], &["ABCDE", "ABCDEF"])]
    #[case::short_ids(&["prp_ab", "prp_cd"], &["ab", "cd"])]
    #[case::no_shared_prefix(&["pat_aaaaaa", "ins_aaaaab"], &["pat_a", "ins_a"])]
    #[case::single(&["prp_Q4mZ8xWc2Lna"], &["Q4mZ8"])]
    fn shortest_unique_prefixes(#[case] ids: &[&str], #[case] short: &[&str]) {
        assert_eq!(short_ids(ids, 5), short);
    }

    #[test]
    fn never_collide() {
        let ids: Vec<String> = (0..500).map(|n| format!("prp_{:08x}", n * 7919)).collect();
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let short = short_ids(&refs, 5);
        for (i, s) in short.iter().enumerate() {
            let matching = refs
                .iter()
                .filter(|id| id[4..].starts_with(s.as_str()))
                .count();
            assert_eq!(matching, 1, "{s} is ambiguous (from {})", refs[i]);
        }
    }
}
