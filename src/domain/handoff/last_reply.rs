//! The assistant's last reply as a handoff quotes it: whole paragraphs up to a size, its
//! headings made bold so that they never read as sections of the handoff.

/// `text` cut at the last paragraph boundary within `max` characters (the first paragraph
/// is cut at a sentence or word when it alone is longer), with Markdown headings demoted.
pub fn cut_reply(text: &str, max: usize) -> String {
    let demoted: Vec<String> = text.trim().lines().map(demote).collect();
    let text = demoted.join("\n");
    if text.chars().count() <= max {
        return text;
    }
    let mut kept = String::new();
    for paragraph in text.split("\n\n") {
        let extra = usize::from(!kept.is_empty()) * 2 + paragraph.chars().count();
        if kept.chars().count() + extra > max {
            break;
        }
        if !kept.is_empty() {
            kept.push_str("\n\n");
        }
        kept.push_str(paragraph);
    }
    if !kept.is_empty() {
        return format!("{kept}\n…");
    }
    let head: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = head
        .rfind(['.', '!', '?', '。', '\n'])
        .filter(|at| *at > max / 3)
        .map(|at| at + head[at..].chars().next().map_or(1, char::len_utf8))
        .or_else(|| head.rfind(' '))
        .unwrap_or(head.len());
    format!("{}…", head[..cut].trim_end())
}

/// `## Next steps` → `**Next steps**`.
fn demote(line: &str) -> String {
    let trimmed = line.trim_start();
    let hashes = trimmed.chars().take_while(|c| *c == '#').count();
    if hashes == 0 || !trimmed[hashes..].starts_with(' ') {
        return line.to_owned();
    }
    let title = trimmed[hashes..].trim().trim_matches('*');
    if title.is_empty() {
        String::new()
    } else {
        format!("**{title}**")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::short("Done.", 100, "Done.")]
    #[case::headings_demoted("## Summary\nAll green.", 100, "**Summary**\nAll green.")]
    #[case::not_a_heading("#hashtag stays", 100, "#hashtag stays")]
    #[case::paragraphs("First part.\n\nSecond part is longer.", 20, "First part.\n…")]
    #[case::sentence(
        "One sentence. Another one that runs past the end",
        30,
        "One sentence.…"
    )]
    fn cuts_at_boundaries(#[case] text: &str, #[case] max: usize, #[case] expected: &str) {
        assert_eq!(cut_reply(text, max), expected);
    }

    #[test]
    fn never_ends_mid_word_when_it_can_help_it() {
        let cut = cut_reply(&"word ".repeat(100), 52);
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= 52);
    }
}
