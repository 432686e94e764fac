//! Small text helpers shared by the formatters.

/// Cuts `text` to at most `max` characters, ending with `…` when cut; whitespace runs
/// (including newlines) become one space so a learning stays on one line.
pub fn clip(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    if max == 0 {
        return String::new();
    }
    let kept: String = flat.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::short("abc", 5, "abc")]
    #[case::exact("abcde", 5, "abcde")]
    #[case::cut("abcdef", 5, "abcd…")]
    #[case::newlines_flattened("a\n  b", 10, "a b")]
    #[case::multibyte("ééééé", 3, "éé…")]
    fn clips_to_a_character_count(#[case] text: &str, #[case] max: usize, #[case] out: &str) {
        assert_eq!(clip(text, max), out);
        assert!(clip(text, max).chars().count() <= max);
    }

    proptest::proptest! {
        /// Clipping never exceeds its limit, never splits a character, and leaves short text
        /// alone.
        #[test]
        fn clipping_stays_within_its_limit(text in "\\PC{0,300}", max in 0usize..200) {
            let clipped = clip(&text, max);
            proptest::prop_assert!(clipped.chars().count() <= max);
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if flat.chars().count() <= max {
                proptest::prop_assert_eq!(clipped, flat);
            } else if max > 0 {
                proptest::prop_assert!(clipped.ends_with('…'));
            }
        }
    }
}
