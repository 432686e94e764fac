//! Codex's code mode (Codex Desktop and CLI 0.144 on): the model calls one `exec` tool with a
//! JavaScript script that calls the real tools (`tools.exec_command({cmd: "…"})`,
//! `tools.apply_patch(patch)`), and the output starts with a status line (`Script completed`,
//! `Script running with cell ID 18`) instead of the command's own. The shell commands are read
//! out of the script's string literals; patches are read from the client's `patch_apply_end`
//! events instead, which name every file whatever the script did to build the patch.

/// The shell commands a code-mode script runs: the literal `cmd` of each
/// `tools.exec_command({…})` call, in order. A command built at run time is not known and is
/// left out.
pub(super) fn script_commands(script: &str) -> Vec<String> {
    calls(script, "exec_command(")
        .filter_map(|arguments| field(arguments, "cmd").and_then(string_literal))
        .collect()
}

/// The command session a code-mode script polls: the literal `session_id` of its
/// `tools.write_stdin({…})` call.
pub(super) fn script_poll(script: &str) -> Option<String> {
    calls(script, "write_stdin(").find_map(|arguments| {
        let value = field(arguments, "session_id")?;
        let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
        (!digits.is_empty()).then_some(digits)
    })
}

/// The text after each call of `function` up to the next one.
fn calls<'a>(script: &'a str, function: &str) -> impl Iterator<Item = &'a str> {
    let starts: Vec<usize> = script
        .match_indices(function)
        .map(|(at, call)| at + call.len())
        .collect();
    (0..starts.len()).map(move |index| {
        let end = starts.get(index + 1).copied().unwrap_or(script.len());
        &script[starts[index]..end]
    })
}

/// The text after `key:` in an object literal (`{cmd: …}`, `{"cmd": …}`), spaces skipped.
fn field<'a>(arguments: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(found) = arguments[from..].find(key) {
        let at = from + found;
        from = at + key.len();
        let before = arguments[..at].chars().next_back();
        if !matches!(before, Some('{' | ',' | '"' | '\'' | ' ' | '\n' | '\t')) {
            continue;
        }
        let after = arguments[from..]
            .trim_start_matches(['"', '\''])
            .trim_start();
        if let Some(value) = after.strip_prefix(':') {
            return Some(value.trim_start());
        }
    }
    None
}

/// The string a JavaScript string literal at the start of `text` spells: double- or
/// single-quoted with their escapes, or a template literal (its `${…}` kept as written).
/// `None` when `text` does not start with a complete literal.
pub(super) fn string_literal(text: &str) -> Option<String> {
    let mut chars = text.chars();
    let quote = chars.next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let mut spelled = String::new();
    while let Some(c) = chars.next() {
        match c {
            c if c == quote => return Some(spelled),
            '\\' => match chars.next()? {
                'n' => spelled.push('\n'),
                'r' => spelled.push('\r'),
                't' => spelled.push('\t'),
                'b' => spelled.push('\u{8}'),
                'f' => spelled.push('\u{c}'),
                'v' => spelled.push('\u{b}'),
                '0' => spelled.push('\0'),
                // A line continuation spells nothing.
                '\n' => {}
                'x' => spelled.push(hex_char(&mut chars, 2)?),
                'u' => spelled.push(unicode_escape(&mut chars)?),
                other => spelled.push(other),
            },
            // A quoted string cannot span lines; a template can.
            '\n' if quote != '`' => return None,
            c => spelled.push(c),
        }
    }
    None
}

/// `\uXXXX`, or `\u{X…}` with up to six digits. A lone surrogate spells U+FFFD.
fn unicode_escape(chars: &mut std::str::Chars<'_>) -> Option<char> {
    if chars.as_str().starts_with('{') {
        chars.next();
        let digits: String = chars.by_ref().take_while(|c| *c != '}').collect();
        let code = u32::from_str_radix(&digits, 16).ok()?;
        return char::from_u32(code);
    }
    hex_char(chars, 4)
}

fn hex_char(chars: &mut std::str::Chars<'_>, digits: usize) -> Option<char> {
    let hex: String = chars.by_ref().take(digits).collect();
    if hex.len() != digits {
        return None;
    }
    let code = u32::from_str_radix(&hex, 16).ok()?;
    Some(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER))
}

/// How far a command has got, as its output says.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Progress<'a> {
    /// Still running: a later poll of this handle (`session 86237` for `write_stdin`,
    /// `cell 18` for `wait`) carries the rest. The text is what it printed so far.
    Running(String, &'a str),
    /// Ended; the text is the output below a code-mode status header, or all of it.
    Ended(&'a str),
    /// A code-mode script that neither completed nor is running: it failed before or while
    /// running its commands.
    Aborted(&'a str),
}

/// Reads the status a tool output gives: `Process running with session ID 86237`
/// (`exec_command`), `Script running with cell ID 18`, or `Script completed` with the
/// `SESSION_ID=…` line scripts print when the command they started still runs (code mode).
pub(super) fn progress(output: &str) -> Progress<'_> {
    let Some(status) = output.strip_prefix("Script ") else {
        let session = output
            .lines()
            .take(4)
            .find_map(|line| line.strip_prefix("Process running with session ID "));
        return match session {
            Some(id) => Progress::Running(format!("session {}", id.trim()), output),
            None => Progress::Ended(output),
        };
    };
    let body = status
        .split_once("\nOutput:\n")
        .map_or("", |(_, body)| body);
    if let Some(cell) = status.strip_prefix("running with cell ID ") {
        let id = cell.lines().next().unwrap_or_default().trim();
        return Progress::Running(format!("cell {id}"), body);
    }
    if !status.starts_with("completed") {
        return Progress::Aborted(body);
    }
    // The line scripts print when the command they started still runs.
    match body
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("SESSION_ID="))
    {
        Some(id) => Progress::Running(format!("session {}", id.trim()), body),
        None => Progress::Ended(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::real(
        r#"const r = await tools.exec_command({cmd:"cargo fmt --check\ncargo test step::batching","workdir":"/w/hk","yield_time_ms":30000}); text(r.output);"#,
        &["cargo fmt --check\ncargo test step::batching"]
    )]
    #[case::quoted_key(
        r#"await tools.exec_command({"cmd": 'git commit -m "fix: it"', workdir: "/w"})"#,
        &["git commit -m \"fix: it\""]
    )]
    #[case::template("await tools.exec_command({ cmd: `git push\n`, yield_time_ms: 1000 })", &["git push\n"])]
    #[case::two_calls(
        r#"await tools.exec_command({cmd:"git add -A"}); await tools.exec_command({cmd:"git commit -m x"});"#,
        &["git add -A", "git commit -m x"]
    )]
    #[case::built_at_run_time("await tools.exec_command({cmd: parts.join(' ')})", &[])]
    #[case::a_field_named_like_it(r#"await tools.exec_command({cmdline: "x", cmd: "ls"})"#, &["ls"])]
    #[case::patch_only(r#"const patch = "*** Begin Patch\n*** End Patch"; text(await tools.apply_patch(patch));"#, &[])]
    fn reads_the_commands_a_script_runs(#[case] script: &str, #[case] commands: &[&str]) {
        assert_eq!(script_commands(script), commands);
    }

    #[rstest]
    #[case::real(
        r#"const r = await tools.write_stdin({session_id:75376,chars:"",yield_time_ms:30000}); text(r.output);"#,
        Some("75376")
    )]
    #[case::quoted_key(
        r#"await tools.write_stdin({"session_id": 12, chars: ""})"#,
        Some("12")
    )]
    #[case::a_variable("await tools.write_stdin({session_id: id})", None)]
    #[case::no_poll(r#"await tools.exec_command({cmd: "ls"})"#, None)]
    fn reads_the_session_a_script_polls(#[case] script: &str, #[case] session: Option<&str>) {
        assert_eq!(script_poll(script).as_deref(), session);
    }

    #[rstest]
    #[case::escapes(
        r#""a\tb\\c\"d\u00e9\x41\u{1F600}" rest"#,
        Some("a\tb\\c\"d\u{e9}A\u{1F600}")
    )]
    #[case::single(r"'it\'s' x", Some("it's"))]
    #[case::template("`one\ntwo ${x}`", Some("one\ntwo ${x}"))]
    #[case::line_continuation("\"a\\\nb\"", Some("ab"))]
    #[case::unterminated(r#""abc"#, None)]
    #[case::quoted_across_lines("\"a\nb\"", None)]
    #[case::not_a_literal("name", None)]
    fn spells_string_literals(#[case] text: &str, #[case] spelled: Option<&str>) {
        assert_eq!(string_literal(text).as_deref(), spelled);
    }

    #[rstest]
    #[case::session_running(
        "Chunk ID: fc6466\nWall time: 1.0024 seconds\nProcess running with session ID 86237\nOriginal token count: 0\nOutput:\n",
        Progress::Running("session 86237".into(), "Chunk ID: fc6466\nWall time: 1.0024 seconds\nProcess running with session ID 86237\nOriginal token count: 0\nOutput:\n")
    )]
    #[case::cell_running(
        "Script running with cell ID 18\nWall time 10.0 seconds\nOutput:\n",
        Progress::Running("cell 18".into(), "")
    )]
    #[case::script_left_it_running(
        "Script completed\nWall time 1.0 seconds\nOutput:\n\nrunning 3 tests\nSESSION_ID=44879",
        Progress::Running("session 44879".into(), "\nrunning 3 tests\nSESSION_ID=44879")
    )]
    #[case::completed(
        "Script completed\nWall time 2.7 seconds\nOutput:\n\nhttps://github.com/o/r/pull/1066\n",
        Progress::Ended("\nhttps://github.com/o/r/pull/1066\n")
    )]
    #[case::a_commands_own_output(
        "Chunk ID: 1\nProcess exited with code 0\nOutput:\nSESSION_ID=7",
        Progress::Ended("Chunk ID: 1\nProcess exited with code 0\nOutput:\nSESSION_ID=7")
    )]
    #[case::exited(
        "Chunk ID: 1\nProcess exited with code 0\nOutput:\nok",
        Progress::Ended("Chunk ID: 1\nProcess exited with code 0\nOutput:\nok")
    )]
    #[case::aborted(
        "Script failed\nWall time 0.1 seconds\nOutput:\nTypeError: x",
        Progress::Aborted("TypeError: x")
    )]
    fn reads_how_far_a_command_got(#[case] output: &str, #[case] expected: Progress<'_>) {
        assert_eq!(progress(output), expected);
    }
}
