//! The assistant's last reply as a handoff quotes it: its opening and its closing paragraphs
//! up to a size, its headings made bold so that they never read as sections of the handoff.
//! A long reply says what it did first and what it asks or leaves open last; the middle
//! (details, tables of results) is what goes.

use super::interjection::without_interjection;

/// Marks where paragraphs were left out.
const GAP: &str = "…";
/// Words with which a paragraph hands on work (what remains, what comes next, what was
/// skipped, what the user has to do or choose), lowercased, in the languages users write to
/// the assistant in. Such a paragraph outranks the rest of the middle.
const HANDS_ON: [&str; 30] = [
    "remaining",
    "next step",
    "next:",
    "follow-up",
    "follow up",
    "todo",
    "not done",
    "not yet",
    "left to",
    "skipped",
    "known issue",
    "residual",
    "still open",
    "open question",
    "up to you",
    "your call",
    "blocked",
    "nächste",
    "noch offen",
    "noch nicht",
    "次の",
    "残り",
    "未対応",
    "下一步",
    "待办",
    "剩余",
    "남은",
    "다음 단계",
    "sıradaki",
    "kalan",
];

/// Box-drawing characters: the rules an output style draws around a note.
const BOX_DRAWING: std::ops::RangeInclusive<char> = '\u{2500}'..='\u{257F}';

/// Whether a line only frames a note (`★ Insight ─────` and its closing rule, as Claude
/// Code's explanatory output style writes them) or is a markdown rule (`---`): it takes room
/// and tells nothing.
fn is_decoration(line: &str) -> bool {
    let bare = line.trim().trim_matches('`').trim();
    if is_thematic_break(bare) {
        return true;
    }
    let Some(rule_at) = bare.find(|c: char| BOX_DRAWING.contains(&c)) else {
        return false;
    };
    let (label, rule) = bare.split_at(rule_at);
    let label = label.trim();
    rule.chars()
        .all(|c| BOX_DRAWING.contains(&c) || c.is_whitespace())
        && (label.is_empty() || (label.starts_with('★') && label.split_whitespace().count() <= 3))
}

/// A markdown thematic break: three or more of one of `-`, `*`, `_`, spaces between allowed.
fn is_thematic_break(line: &str) -> bool {
    let marks: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    marks.len() >= 3
        && matches!(marks[0], '-' | '*' | '_')
        && marks.iter().all(|mark| *mark == marks[0])
}

/// `text` within `max` characters: whole if it fits, else its first paragraph, its last one and
/// those between in order while they fit (tables left out), with `…` where some were left out.
/// When no other paragraph fits whole, the opening runs on to a word boundary; a first
/// paragraph longer than `max` is cut at a sentence or word. Markdown headings are demoted and
/// an output style's frames and an opening interjection ("Perfect!") left out.
pub fn cut_reply(text: &str, max: usize) -> String {
    let mut demoted: Vec<String> = Vec::new();
    for line in without_interjection(text.trim())
        .lines()
        .filter(|line| !is_decoration(line))
    {
        // A dropped rule leaves the blank lines around it: one separates paragraphs enough.
        let blank = line.trim().is_empty();
        if blank && demoted.last().is_none_or(|last| last.trim().is_empty()) {
            continue;
        }
        demoted.push(demote(line));
    }
    let joined = demoted.join("\n");
    let text = joined.trim_end();
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let paragraphs: Vec<&str> = text
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let Some((first, rest)) = paragraphs.split_first() else {
        return String::new();
    };
    let first_len = first.chars().count();
    let gap_len = GAP.chars().count();
    if first_len + 1 + gap_len > max {
        return cut_paragraph(first, max);
    }
    // The closing paragraph first (what the reply asks or leaves open), then those that hand
    // on work, then the middle in order, while they fit; tables never.
    let mut budget = max - first_len - 1 - gap_len;
    let mut kept = vec![false; rest.len()];
    let handing_on = (0..rest.len()).filter(|at| hands_on(rest[*at]));
    let order = rest
        .len()
        .checked_sub(1)
        .into_iter()
        .chain(handing_on)
        .chain(0..rest.len());
    for at in order {
        // Its separator, and a gap mark that may come before it.
        let cost = rest[at].chars().count() + 2 + 1 + gap_len;
        if kept[at] || is_table(rest[at]) || cost > budget {
            continue;
        }
        budget -= cost;
        kept[at] = true;
    }
    if !kept.contains(&true) {
        // No other paragraph fits whole: the opening runs on into the next instead.
        let head: String = text.chars().take(max.saturating_sub(1)).collect();
        let cut = head.rfind(char::is_whitespace).unwrap_or(head.len());
        return format!("{}{GAP}", head[..cut].trim_end());
    }
    let mut out = (*first).to_owned();
    let mut gap = false;
    for (paragraph, keep) in rest.iter().zip(kept) {
        if !keep {
            gap = true;
            continue;
        }
        if gap {
            out.push('\n');
            out.push_str(GAP);
            gap = false;
        }
        out.push_str("\n\n");
        out.push_str(paragraph);
    }
    if gap {
        out.push('\n');
        out.push_str(GAP);
    }
    out
}

/// One paragraph cut at a sentence or word within `max` characters.
fn cut_paragraph(text: &str, max: usize) -> String {
    let head: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = head
        .rfind(['.', '!', '?', '。', '\n'])
        .filter(|at| *at > max / 3)
        .map(|at| at + head[at..].chars().next().map_or(1, char::len_utf8))
        .or_else(|| head.rfind(' '))
        .unwrap_or(head.len());
    format!("{}{GAP}", head[..cut].trim_end())
}

/// Whether a paragraph hands on work: what remains, comes next or was skipped.
fn hands_on(paragraph: &str) -> bool {
    let lower = paragraph.to_lowercase();
    HANDS_ON.iter().any(|words| lower.contains(words))
}

/// A Markdown table: every line a row.
fn is_table(paragraph: &str) -> bool {
    paragraph
        .lines()
        .all(|line| line.trim_start().starts_with('|'))
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
    #[case::headings_demoted("## Next steps\nTag it.", 100, "**Next steps**\nTag it.")]
    #[case::a_summary_label_left_out("## Summary\nAll green.", 100, "All green.")]
    #[case::not_a_heading("#hashtag stays", 100, "#hashtag stays")]
    #[case::runs_on_when_nothing_else_fits(
        "All clean. The changes are:\n\n1. **Toggle** moved left, and a long tail",
        44,
        "All clean. The changes are:\n\n1. **Toggle**…"
    )]
    #[case::the_close_is_kept(
        "Did it.\n\nA long middle about details.\n\nMerge?",
        30,
        "Did it.\n…\n\nMerge?"
    )]
    #[case::tables_go_first(
        "Done.\n\n| a | b |\n|---|---|\n\nNext: tag it.",
        30,
        "Done.\n…\n\nNext: tag it."
    )]
    #[case::every_closing_paragraph_that_fits(
        "Done.\n\nmiddle middle middle middle\n\nOne.\n\nTwo.",
        30,
        "Done.\n…\n\nOne.\n\nTwo."
    )]
    #[case::work_handed_on_outranks_the_middle(
        "Committed.\n\n- Renamed the section\n- Merged the blocks\n\n**Remaining for you:** tag v0.5\n\nNot pushed.",
        70,
        "Committed.\n…\n\n**Remaining for you:** tag v0.5\n\nNot pushed."
    )]
    #[case::in_other_languages(
        "Fertig.\n\nDetails zu allem hier.\n\nNächste Schritte: Tests\n\nOk?",
        45,
        "Fertig.\n…\n\nNächste Schritte: Tests\n\nOk?"
    )]
    #[case::an_output_style_frame_is_dropped(
        "`★ Insight ─────────`\n- The hook was a dead dependency.\n`─────────`\n\nCommitted.",
        100,
        "- The hook was a dead dependency.\n\nCommitted."
    )]
    #[case::a_markdown_rule_is_dropped(
        "**Done**\n\n---\n\nAll green.\n\n* * *\n\nCommitted.",
        100,
        "**Done**\n\nAll green.\n\nCommitted."
    )]
    #[case::a_list_item_is_no_rule("- - item\n---x", 100, "- - item\n---x")]
    #[case::a_line_with_words_after_its_rule_stays(
        "Cost ── 3 ms a call.",
        100,
        "Cost ── 3 ms a call."
    )]
    #[case::sentence(
        "One sentence. Another one that runs past the end",
        30,
        "One sentence.…"
    )]
    fn cuts_at_boundaries(#[case] text: &str, #[case] max: usize, #[case] expected: &str) {
        assert_eq!(cut_reply(text, max), expected);
    }

    #[test]
    fn never_exceeds_its_size() {
        let reply = (0..40)
            .map(|i| format!("Paragraph {i} {}", "word ".repeat(i % 7)))
            .collect::<Vec<_>>()
            .join("\n\n");
        for max in [20, 60, 200, 500, 800] {
            let cut = cut_reply(&reply, max);
            assert!(cut.chars().count() <= max, "{max}: {cut}");
            assert!(cut.starts_with("Paragraph 0") && cut.contains('…'), "{cut}");
        }
    }

    #[test]
    fn never_ends_mid_word_when_it_can_help_it() {
        let cut = cut_reply(&"word ".repeat(100), 52);
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= 52);
    }
}
