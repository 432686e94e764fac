//! The parts of a user message that are the user's own words, cut into sentences.

/// `message` without fenced code blocks, quoted lines (`> …`) and lines that look like pasted
/// output (log lines, stack frames, compiler diagnostics): those hold other people's and
/// programs' words, which must not become the user's learnings.
pub fn user_prose(message: &str) -> String {
    let mut prose = String::with_capacity(message.len());
    let mut in_fence = false;
    for line in message.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.starts_with('>') || looks_like_output(trimmed) {
            continue;
        }
        prose.push_str(line);
        prose.push('\n');
    }
    prose
}

/// Log lines (a timestamp or level first), stack frames, diagnostics, shell prompts.
fn looks_like_output(line: &str) -> bool {
    let bytes = line.as_bytes();
    let dated = bytes.len() >= 10
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[7] == b'-';
    let levels = [
        "ERROR",
        "WARN",
        "INFO",
        "DEBUG",
        "TRACE",
        "FATAL",
        "Traceback",
        "at ",
        "error[",
        "error:",
        "warning:",
        "thread '",
        "$ ",
        "panicked at",
        "Caused by:",
    ];
    dated || levels.iter().any(|prefix| line.starts_with(prefix))
}

/// The sentences of `prose`: cut at `.`, `!` or `?` before a space or the end, at the CJK
/// marks `。`, `！` and `？` wherever they stand (CJK text puts no space after them), and at
/// line ends; each keeps its final mark so that questions can be told apart.
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
                        .is_none_or(|(_, next)| next.is_whitespace());
            if ends {
                push_sentence(&mut out, &line[start..at + c.len_utf8()]);
                start = at + c.len_utf8();
            }
        }
        push_sentence(&mut out, &line[start..]);
    }
    out
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
    #[case::chinese("核心代码就一个，就是main.py。我们从这里开始吧", &["核心代码就一个，就是main.py。", "我们从这里开始吧"])]
    #[case::japanese("規約を守るようにして。できる？はい！", &["規約を守るようにして。", "できる？", "はい！"])]
    #[case::mixed("今後は英語で。Use pnpm. ok", &["今後は英語で。", "Use pnpm.", "ok"])]
    fn cuts_cjk_sentences_at_their_own_marks(#[case] prose: &str, #[case] expected: &[&str]) {
        assert_eq!(sentences(prose), expected);
    }
}
