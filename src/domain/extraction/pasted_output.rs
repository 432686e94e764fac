//! Lines of a user message that a program wrote and the user pasted: log lines, stack frames,
//! diagnostics, tool prefixes, and the block that follows "here's the log:". A program's
//! advice ("You should always pass a key…") is not the user's rule.

/// Openings of lines that programs print: levels, stack frames, diagnostics, shell prompts,
/// runtimes' and package managers' warnings. In the published sessions every human line that
/// opens with one of these is in a message labelled not durable.
const OUTPUT_OPENINGS: [&str; 24] = [
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
    "Error:",
    "warning:",
    "Warning:",
    "thread '",
    "$ ",
    "panicked at",
    "Caused by:",
    "Uncaught ",
    "npm WARN",
    "npm ERR!",
    "(node:",
    "E   ",
    "FAILED ",
    "Exception in thread",
];

/// Words by which a line ending in a colon says that what follows is a program's output:
/// "I'm getting this in the console:", "here's the log:", "the build prints:". Matched as
/// whole words, case-insensitively. Plain "get" is none: "Before you get started, remember:"
/// opens the user's own rules.
const PASTE_CUES: [&str; 29] = [
    "log",
    "logs",
    "console",
    "output",
    "error",
    "errors",
    "exception",
    "warning",
    "warnings",
    "trace",
    "traceback",
    "terminal",
    "stderr",
    "stdout",
    "says",
    "said",
    "prints",
    "printed",
    "shows",
    "showed",
    "returns",
    "returned",
    "getting",
    "got",
    "seeing",
    "throws",
    "threw",
    "fehler",
    "ausgabe",
];

/// The same cues in scripts without spaces between words, matched anywhere in the line.
const CJK_PASTE_CUES: [&str; 7] = ["エラー", "ログ", "出力", "报错", "错误", "日志", "输出"];

/// Whether `line` (leading whitespace trimmed) is one a program printed.
pub fn looks_like_output(line: &str) -> bool {
    let bytes = line.as_bytes();
    let dated = bytes.len() >= 10
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[7] == b'-';
    dated
        || OUTPUT_OPENINGS
            .iter()
            .any(|opening| line.starts_with(opening))
        || has_tool_tag(line)
}

/// A line that opens with a tool's tag and a space: `[vite] …`, `[11:34:48.865] …`,
/// `[2/10] …`, `[sudo] …`. A checkbox (`[ ]`, `[x]`) or a Markdown link (`[text](…)`) is none.
fn has_tool_tag(line: &str) -> bool {
    line.strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
        .is_some_and(|(tag, _)| tag.chars().count() >= 2 && !tag.chars().any(char::is_whitespace))
}

/// A line that opens with where a diagnostic points (`./src/a.mdx.js:203:1`, `[browser]
/// src/app.ts:12`): a path with a line number.
pub fn is_diagnostic_location(line: &str) -> bool {
    let line = line.trim_start();
    let line = match line.strip_prefix('[') {
        Some(tagged) => tagged.split_once("] ").map_or(line, |(_, rest)| rest),
        None => line,
    };
    let first = line.split_whitespace().next().unwrap_or_default();
    let mut parts = first.split(':');
    let path = parts.next().unwrap_or_default();
    let line_number = parts
        .next()
        .is_some_and(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    line_number && (path.contains('/') || path.contains('.'))
}

/// Whether `line` announces a paste: it ends in a colon and names output ("I'm getting this
/// in the browser console:"). A list of the user's own rules ("Some rules:") names none.
pub fn introduces_paste(line: &str) -> bool {
    let line = line.trim();
    let Some(intro) = line.strip_suffix([':', '：']) else {
        return false;
    };
    let lowered = intro.to_lowercase();
    lowered
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| PASTE_CUES.contains(&word))
        || CJK_PASTE_CUES.iter().any(|cue| intro.contains(cue))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::dated_log("2026-11-20T10:15:03Z ERROR always retry")]
    #[case::level("WARN pool exhausted")]
    #[case::stack_frame("at TodoList (TodoList.jsx:12)")]
    #[case::react_warning("Warning: Each child in a list should have a unique \"key\" prop.")]
    #[case::python_error("Error: No such file or no access: 'Schaefer2018'")]
    #[case::node_warning("(node:1234) Warning: Always handle promise rejections.")]
    #[case::npm("npm WARN deprecated: You must always pin the version.")]
    #[case::vite_tag("[vite] warning: You should never import server code.")]
    #[case::time_tag("[11:34:48.865] [API] GET /api/evaluators")]
    #[case::step_tag("[2/10] Starting local services...")]
    #[case::pytest("E   assert 1 == 2")]
    fn a_programs_line_is_output(#[case] line: &str) {
        assert!(looks_like_output(line));
    }

    #[rstest]
    #[case::prose("Always run the tests before pushing.")]
    #[case::label("Note: always rebase.")]
    #[case::checkbox("[ ] always update the changelog")]
    #[case::ticked("[x] always update the changelog")]
    #[case::link("[the guide](https://example.com) says to use pnpm")]
    #[case::word_at("atomic commits only")]
    fn the_users_line_is_not_output(#[case] line: &str) {
        assert!(!looks_like_output(line));
    }

    #[rstest]
    #[case::console("I'm getting this in the browser console:", true)]
    #[case::log("Here's the log:", true)]
    #[case::build("the build prints:", true)]
    #[case::german("Ich bekomme diesen Fehler:", true)]
    #[case::japanese("このエラーが出ます：", true)]
    #[case::rules("Some rules for this repo:", false)]
    #[case::getting_started("Before you get started, remember:", false)]
    #[case::no_colon("I'm getting this in the console", false)]
    #[case::word_inside("Catalogue conventions:", false)]
    fn a_paste_is_announced_by_a_colon_and_a_word_for_output(
        #[case] line: &str,
        #[case] announces: bool,
    ) {
        assert_eq!(introduces_paste(line), announces);
    }
}
