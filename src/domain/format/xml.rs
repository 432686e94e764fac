//! Escaping for the XML-shaped notices the context carries.

/// Escapes text for an element body: `&`, `<`, `>`.
pub fn xml_text(text: &str) -> String {
    escape(text, false)
}

/// Escapes text for a double-quoted attribute: also `"` and `'`, and newlines as references.
pub fn xml_attr(text: &str) -> String {
    escape(text, true)
}

/// Undoes the escaping (and `&#39;`, which other writers use for `'`): for text a client
/// recorded escaped, such as the output of a command the user ran.
pub fn xml_unescape(text: &str) -> String {
    text.replace("&#10;", "\n")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            '\n' if attribute => out.push_str("&#10;"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::plain("fill", "fill")]
    #[case::markup("</compaction-notice><x>", "&lt;/compaction-notice&gt;&lt;x&gt;")]
    #[case::ampersand("a & b", "a &amp; b")]
    #[case::control_dropped("a\u{0}b\u{1b}", "ab")]
    fn escapes_bodies(#[case] raw: &str, #[case] escaped: &str) {
        assert_eq!(xml_text(raw), escaped);
    }

    #[test]
    fn unescapes_once_and_reads_numeric_apostrophes() {
        assert_eq!(
            xml_unescape("a &#39;b&#39; -&gt; c &amp;lt;"),
            "a 'b' -> c &lt;"
        );
    }

    #[test]
    fn escapes_quotes_and_newlines_in_attributes() {
        assert_eq!(xml_attr("a\"b'c\nd"), "a&quot;b&apos;c&#10;d");
    }

    proptest::proptest! {
        /// Escaped text has no markup of its own and means the same text, minus control
        /// characters.
        #[test]
        fn escaped_text_is_well_formed_and_reversible(text in "\\PC*|[<>&\"'\n\t a-z\x00-\x08]*") {
            let visible: String = text
                .chars()
                .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
                .collect();
            let attr = xml_attr(&text);
            proptest::prop_assert!(!attr.contains(['<', '>', '"', '\'', '\n']));
            proptest::prop_assert_eq!(xml_unescape(&attr), visible.clone());
            let body = xml_text(&text);
            proptest::prop_assert!(!body.contains(['<', '>']));
            proptest::prop_assert_eq!(xml_unescape(&body), visible);
            for (at, _) in body.match_indices('&') {
                let entity = &body[at..];
                proptest::prop_assert!(
                    entity.starts_with("&amp;") || entity.starts_with("&lt;") || entity.starts_with("&gt;")
                );
            }
        }
    }
}
