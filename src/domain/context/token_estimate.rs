//! A token count good enough for budgeting, without a tokenizer.

/// About four characters a token for English text and code, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("", 0)]
    #[case("abc", 1)]
    #[case("abcd", 1)]
    #[case("abcde", 2)]
    fn rounds_up_quarters(#[case] text: &str, #[case] tokens: usize) {
        assert_eq!(estimate_tokens(text), tokens);
    }
}
