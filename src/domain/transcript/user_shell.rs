//! Commands the user ran through the client (Claude Code's `!` prefix): the client records the
//! command as a `<bash-input>` user row and its output as a `<bash-stdout>` row after it. A
//! user who must sign commits runs `git commit` this way, so these are the session's work too.

use crate::domain::format::xml_unescape;

/// The command in a `<bash-input>…</bash-input>` row, or `None` when the row is not one.
pub fn user_shell_input(text: &str) -> Option<&str> {
    let command = text.trim().strip_prefix("<bash-input>")?;
    let command = command.strip_suffix("</bash-input>").unwrap_or(command);
    Some(command.trim()).filter(|command| !command.is_empty())
}

/// What a user shell command printed, from its `<bash-stdout>…<bash-stderr>…` row: the two
/// streams joined and unescaped, and whether it failed (a `fatal:` or `error:` line), or `None`
/// when the row is not one.
pub fn user_shell_output(text: &str) -> Option<(String, bool)> {
    let text = text.trim();
    if !text.starts_with("<bash-stdout>") {
        return None;
    }
    let stdout = tagged(text, "bash-stdout")?;
    let stderr = tagged(text, "bash-stderr").unwrap_or_default();
    let output = xml_unescape(&format!("{stdout}\n{stderr}"));
    // The client records no exit status: a failure is read from what the command printed.
    let failed = output.lines().map(str::trim_start).any(|line| {
        FAILURE_OPENINGS
            .iter()
            .any(|opening| line.starts_with(opening))
            || line
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|pair| {
                    pair[1].trim_matches(|c: char| !c.is_alphabetic()) == "failed"
                        && pair[0].parse::<u32>().is_ok_and(|n| n > 0)
                })
    });
    Some((output.trim().to_owned(), failed))
}

/// How the lines of a failed git command, test run or build open.
const FAILURE_OPENINGS: [&str; 9] = [
    "fatal:",
    "error:",
    "error[",
    "! [rejected]",
    "FAIL",
    "FAILED",
    "npm ERR!",
    "test result: FAILED",
    "Error:",
];

/// The text between `<tag>` and `</tag>` (to the end when the closing tag is missing).
fn tagged<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let start = text.find(&format!("<{tag}>"))? + tag.len() + 2;
    let rest = &text[start..];
    Some(
        rest.find(&format!("</{tag}>"))
            .map_or(rest, |end| &rest[..end]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::command("<bash-input>git tag v0.16.0</bash-input>", Some("git tag v0.16.0"))]
    #[case::multi_line(
        "<bash-input>git commit -m \"a\" \\\n  -m \"b\"</bash-input>",
        Some("git commit -m \"a\" \\\n  -m \"b\"")
    )]
    #[case::empty("<bash-input></bash-input>", None)]
    #[case::request("run git status", None)]
    #[case::output("<bash-stdout>ok</bash-stdout>", None)]
    fn a_bash_input_row_is_the_users_command(#[case] text: &str, #[case] command: Option<&str>) {
        assert_eq!(user_shell_input(text), command);
    }

    #[rstest]
    #[case::commit(
        "<bash-stdout>[main 62ad1de] chore(release): v0.16.0\n 4 files changed</bash-stdout><bash-stderr></bash-stderr>",
        "[main 62ad1de] chore(release): v0.16.0\n 4 files changed",
        false
    )]
    #[case::push_on_stderr_unescaped(
        "<bash-stdout></bash-stdout><bash-stderr>To github.com:o/r.git\n   2ce9805..5d3d955  main -&gt; main</bash-stderr>",
        "To github.com:o/r.git\n   2ce9805..5d3d955  main -> main",
        false
    )]
    #[case::rejected(
        "<bash-stdout></bash-stdout><bash-stderr> ! [rejected]        main -&gt; main (fetch first)\nerror: failed to push some refs</bash-stderr>",
        "! [rejected]        main -> main (fetch first)\nerror: failed to push some refs",
        true
    )]
    #[case::fatal(
        "<bash-stdout></bash-stdout><bash-stderr>fatal: not a git repository</bash-stderr>",
        "fatal: not a git repository",
        true
    )]
    #[case::no_stderr_tag("<bash-stdout>done", "done", false)]
    #[case::tests_failed(
        "<bash-stdout>=== 2 failed, 3 passed in 0.4s ===</bash-stdout><bash-stderr></bash-stderr>",
        "=== 2 failed, 3 passed in 0.4s ===",
        true
    )]
    #[case::none_failed(
        "<bash-stdout>test result: ok. 3 passed; 0 failed</bash-stdout><bash-stderr></bash-stderr>",
        "test result: ok. 3 passed; 0 failed",
        false
    )]
    #[case::go_fail(
        "<bash-stdout>FAIL\tgithub.com/o/r/pkg 0.2s</bash-stdout>",
        "FAIL\tgithub.com/o/r/pkg 0.2s",
        true
    )]
    fn a_bash_stdout_row_is_its_output(
        #[case] text: &str,
        #[case] output: &str,
        #[case] failed: bool,
    ) {
        assert_eq!(user_shell_output(text), Some((output.to_owned(), failed)));
    }

    #[rstest]
    #[case::request("commit it")]
    #[case::input("<bash-input>ls</bash-input>")]
    #[case::a_request_that_mentions_the_tag("why do transcripts hold <bash-stdout> rows?")]
    fn other_rows_are_no_output(#[case] text: &str) {
        assert_eq!(user_shell_output(text), None);
    }
}
