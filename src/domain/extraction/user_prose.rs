//! The parts of a user message that are the user's own words, cut into sentences.

use super::pasted_output::{introduces_paste, is_diagnostic_location, looks_like_output};

/// `message` without fenced code blocks, quoted lines (`> …`) and what looks like pasted
/// output (log lines, stack frames, compiler diagnostics, the block after "here's the log:"):
/// those hold other people's and programs' words, which must not become the user's learnings.
pub fn user_prose(message: &str) -> String {
    // A message that opens on a compiler's or bundler's location line is a pasted error,
    // explanations included ("All exports of the module are statically known …").
    if message
        .lines()
        .find(|line| !line.trim().is_empty())
        .is_some_and(is_diagnostic_location)
    {
        return String::new();
    }
    let lines: Vec<&str> = message.lines().collect();
    let output: Vec<bool> = lines
        .iter()
        .map(|line| looks_like_output(line.trim_start()))
        .collect();
    let mut prose = String::with_capacity(message.len());
    let mut in_fence = false;
    let mut paste = Paste::None;
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            // A fence is the announced paste: what follows it is the user's again.
            paste = Paste::None;
            continue;
        }
        if in_fence {
            continue;
        }
        paste = match (paste, trimmed.is_empty()) {
            (Paste::Announced, true) => continue,
            (Paste::Announced | Paste::Running, false) => Paste::Running,
            _ => Paste::None,
        };
        if paste == Paste::Running
            || trimmed.starts_with('>')
            || output[at]
            || between_output_lines(&output, at)
        {
            continue;
        }
        if introduces_paste(trimmed) {
            paste = Paste::Announced;
        }
        prose.push_str(line);
        prose.push('\n');
    }
    prose
}

/// Where a message stands with respect to a block the user announced as a program's output.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Paste {
    /// No paste announced.
    None,
    /// A line said that output follows; blank lines may come first.
    Announced,
    /// Inside the pasted block, which ends at the next blank line.
    Running,
}

/// A line with a program's line right above and right below it is part of the same paste
/// (a warning's explanation between the warning and its stack frame).
fn between_output_lines(output: &[bool], at: usize) -> bool {
    at > 0 && at + 1 < output.len() && output[at - 1] && output[at + 1]
}

/// Abbreviations whose full stop ends no sentence: "our library vs. the competition".
const ABBREVIATIONS: [&str; 13] = [
    "vs", "e.g", "i.e", "cf", "approx", "incl", "esp", "resp", "w.r.t", "a.k.a", "z.b", "bzw",
    "d.h",
];

/// The sentences of `prose`: cut at `.`, `!` or `?` before a space or the end (but not after
/// an abbreviation), at the CJK marks `。`, `！` and `？` wherever they stand (CJK text puts no
/// space after them), and at line ends; each keeps its final mark so that questions can be
/// told apart.
pub fn sentences(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose.lines() {
        let mut start = 0;
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for (position, &(at, c)) in chars.iter().enumerate() {
            let ends = matches!(c, '。' | '！' | '？')
                || matches!(c, '.' | '!' | '?')
                    && chars
                        .get(position + 1)
                        .is_none_or(|(_, next)| next.is_whitespace())
                    && !(c == '.' && abbreviated(&line[start..at]));
            if ends {
                push_sentence(&mut out, &line[start..at + c.len_utf8()]);
                start = at + c.len_utf8();
            }
        }
        push_sentence(&mut out, &line[start..]);
    }
    out
}

/// Whether `before` (a sentence so far) ends with an abbreviation that a full stop follows.
fn abbreviated(before: &str) -> bool {
    let word = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default()
        .trim_start_matches(['(', '[', '"', '\'', '“']);
    ABBREVIATIONS
        .iter()
        .any(|abbreviation| word.eq_ignore_ascii_case(abbreviation))
}

fn push_sentence(out: &mut Vec<String>, raw: &str) {
    let sentence = raw.trim();
    if !sentence.is_empty() {
        out.push(sentence.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::code_block("Here:\n```rust\n// never use unwrap\n```\nthanks", "Here:\nthanks\n")]
    #[case::quote("> we always squash\nIs that true?", "Is that true?\n")]
    #[case::log_line("2026-11-20T10:15:03Z ERROR always retry\nok", "ok\n")]
    #[case::stack("thread 'main' panicked at x\nat foo (bar.js:1:2)\nsee", "see\n")]
    #[case::prose("I prefer tabs.", "I prefer tabs.\n")]
    #[case::pasted_bundler_error(
        "[browser] ./content/a.mdx.js:203:1\nExport default doesn't exist\n\nAll exports of the module are statically known.",
        ""
    )]
    #[case::pasted_compiler_error("src/main.rs:12:5: unused variable\nAlways prefix it.", "")]
    #[case::a_time_is_no_location("10:30 is when we deploy.", "10:30 is when we deploy.\n")]
    #[case::a_link_is_no_location(
        "https://example.com:8080 is the staging host.",
        "https://example.com:8080 is the staging host.\n"
    )]
    #[case::a_label_is_no_location("Note: always rebase.", "Note: always rebase.\n")]
    #[case::an_announced_paste(
        "I'm getting this in the console:\nWarning: Each child needs a key.\nYou should always pass a key.\n    at List (List.jsx:12)\ncan you fix it?",
        "I'm getting this in the console:\n"
    )]
    #[case::a_paste_after_a_blank_line(
        "Here's the log:\n\n  You should always call close() first.\n  Never reuse a handle.\n\nWhy does it say that?",
        "Here's the log:\n\nWhy does it say that?\n"
    )]
    #[case::a_fenced_paste_ends_the_announcement(
        "The build prints:\n```\nnever do this\n```\nAlways run cargo fmt first.",
        "The build prints:\nAlways run cargo fmt first.\n"
    )]
    #[case::the_users_own_list(
        "Some rules for this repo:\n- always squash\n- never force-push",
        "Some rules for this repo:\n- always squash\n- never force-push\n"
    )]
    #[case::between_a_warning_and_its_frame(
        "Warning: Each child needs a key.\nYou should always pass a key.\n    at List (List.jsx:12)\nfix it",
        "fix it\n"
    )]
    #[case::a_tool_tag(
        "the build prints\n[vite] You should never import server code.\nwhy?",
        "the build prints\nwhy?\n"
    )]
    fn keeps_only_the_users_prose(#[case] message: &str, #[case] prose: &str) {
        assert_eq!(user_prose(message), prose);
    }

    #[test]
    fn cuts_sentences_at_marks_and_line_ends_but_not_inside_names() {
        assert_eq!(
            sentences("Use v1.2 of serde.js. Why? Never force-push\nok!"),
            ["Use v1.2 of serde.js.", "Why?", "Never force-push", "ok!"]
        );
    }

    #[rstest]
    #[case::versus(
        "Run our library vs. the competition on the GPU. Then report.",
        &["Run our library vs. the competition on the GPU.", "Then report."]
    )]
    #[case::for_example(
        "Use a fixture, e.g. the shop-api one. ok",
        &["Use a fixture, e.g. the shop-api one.", "ok"]
    )]
    #[case::german("Nimm z.B. pnpm. Danke", &["Nimm z.B. pnpm.", "Danke"])]
    #[case::in_brackets(
        "Pin tools (e.g. ruff) in mise. ok",
        &["Pin tools (e.g. ruff) in mise.", "ok"]
    )]
    #[case::a_word_ending_like_one("It runs in canvas. Next", &["It runs in canvas.", "Next"])]
    fn a_full_stop_after_an_abbreviation_ends_no_sentence(
        #[case] prose: &str,
        #[case] expected: &[&str],
    ) {
        assert_eq!(sentences(prose), expected);
    }

    #[rstest]
    #[case::chinese("核心代码就一个，就是main.py。我们从这里开始吧", &["核心代码就一个，就是main.py。", "我们从这里开始吧"])]
    #[case::japanese("規約を守るようにして。できる？はい！", &["規約を守るようにして。", "できる？", "はい！"])]
    #[case::mixed("今後は英語で。Use pnpm. ok", &["今後は英語で。", "Use pnpm.", "ok"])]
    fn cuts_cjk_sentences_at_their_own_marks(#[case] prose: &str, #[case] expected: &[&str]) {
        assert_eq!(sentences(prose), expected);
    }
}
