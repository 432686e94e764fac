//! The command line a hook runs, and recognising carryover's own among the user's hooks.

use std::path::Path;

/// The command an agent runs for a hook: the binary's absolute path (quoted for the shell
/// when it needs to be) followed by the arguments. Agents run hook commands through a shell,
/// so a path with a space or a quote must not split or expand.
pub fn hook_command(binary: &Path, args: &[&str]) -> String {
    let mut command = shell_quote(&binary.to_string_lossy());
    for arg in args {
        command.push(' ');
        command.push_str(&shell_quote(arg));
    }
    command
}

fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%=,".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Whether `command` runs a carryover hook: its program (quoted or not) is a file named
/// `carryover` and its first argument is `hook`. Recognising the program by name, not by
/// full path, lets a new install replace the hooks of a binary that has since moved.
pub fn is_carryover_command(command: &str) -> bool {
    let Some((program, rest)) = first_word(command.trim_start()) else {
        return false;
    };
    let subcommand = rest.split_whitespace().next();
    is_carryover_program(Path::new(&program)) && subcommand == Some("hook")
}

/// Whether `program` is a file named `carryover` (`carryover.exe`): the name by which
/// carryover finds its own hooks and status line again, wherever the binary lives.
pub fn is_carryover_program(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| matches!(name, "carryover" | "carryover.exe"))
}

/// The program a hook command runs (its first shell word, unquoted); `None` for an empty or
/// unterminated command.
pub fn command_program(command: &str) -> Option<String> {
    first_word(command.trim_start()).map(|(program, _)| program)
}

/// The first shell word (single quotes, double quotes and `'\''` joins understood) and the
/// rest of the line.
pub(super) fn first_word(line: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut chars = line.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => return Some((word, &line[at..])),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => {
                if let Some((_, escaped)) = chars.next() {
                    word.push(escaped);
                }
            }
            (Some(open), c) if c == open => quote = None,
            (_, c) => word.push(c),
        }
    }
    (quote.is_none() && !word.is_empty()).then_some((word, ""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(
        "/usr/local/bin/carryover",
        "/usr/local/bin/carryover hook session-start"
    )]
    #[case("/home/a b/carryover", "'/home/a b/carryover' hook session-start")]
    #[case(
        "/home/o'brien/carryover",
        r"'/home/o'\''brien/carryover' hook session-start"
    )]
    #[case("/opt/$HOME/carryover", "'/opt/$HOME/carryover' hook session-start")]
    fn quotes_the_path_only_when_the_shell_would_split_or_expand_it(
        #[case] binary: &str,
        #[case] expected: &str,
    ) {
        let command = hook_command(Path::new(binary), &["hook", "session-start"]);
        assert_eq!(command, expected);
        assert!(is_carryover_command(&command), "recognised again");
    }

    #[rstest]
    #[case::plain("/usr/bin/carryover hook x", Some("/usr/bin/carryover"))]
    #[case::quoted("'/a b/carryover' hook x", Some("/a b/carryover"))]
    #[case::bare(" carryover hook x", Some("carryover"))]
    #[case::unterminated("'/a b/carryover hook", None)]
    fn the_program_is_the_first_word(#[case] command: &str, #[case] program: Option<&str>) {
        assert_eq!(command_program(command).as_deref(), program);
    }

    #[rstest]
    #[case::plain("/usr/bin/carryover hook pre-compact", true)]
    #[case::double_quoted("\"/a b/carryover\" hook session-end", true)]
    #[case::bare_name("carryover hook session-start --agent codex", true)]
    #[case::windows_name("C:/tools/carryover.exe hook session-start", true)]
    #[case::other_subcommand("/usr/bin/carryover context", false)]
    #[case::other_program("/usr/bin/notify-send hook", false)]
    #[case::lookalike("/usr/bin/carryover-helper hook session-start", false)]
    #[case::in_an_argument("echo carryover hook", false)]
    #[case::unterminated_quote("'/usr/bin/carryover hook", false)]
    #[case::empty("", false)]
    fn recognises_carryover_hooks_only(#[case] command: &str, #[case] ours: bool) {
        assert_eq!(is_carryover_command(command), ours);
    }
}
