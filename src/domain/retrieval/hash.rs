//! A stable hash of a learning's text: stored vectors are reused only while it matches.

/// FNV-1a over the UTF-8 bytes: the same in every process and release, unlike std's hasher.
pub fn content_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_stable_and_tells_texts_apart() {
        assert_eq!(content_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(content_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(content_hash("Uses rstest"), content_hash("Uses rstest."));
    }
}
