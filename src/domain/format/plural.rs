//! Counts with their noun in the right number: "1 commit", "2 commits", "0 commits".

/// `count` followed by `one` when it is 1, else by `many`.
pub fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case(0, "0 commits")]
    #[case(1, "1 commit")]
    #[case(2, "2 commits")]
    fn the_noun_follows_the_count(#[case] count: usize, #[case] shown: &str) {
        assert_eq!(counted(count, "commit", "commits"), shown);
    }
}
