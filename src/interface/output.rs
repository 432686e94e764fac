//! Text shown on a terminal: what came from transcripts and arguments may hold control
//! sequences (an OSC title, a screen clear) that must be shown, never obeyed.

use std::borrow::Cow;

/// `text` with every control character but newline and tab shown as its escape (`\u{1b}`).
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Prints one line on stdout, control sequences shown escaped. A closed pipe (`carryover
/// learnings list | head -1`) ends the command quietly with exit status 0: the reader has
/// what it wanted. Any other write error is ignored the same way, as there is no one left to
/// tell.
pub fn say_line(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let written = writeln!(stdout, "{}", terminal_safe(text)).and_then(|()| stdout.flush());
    if written.is_err() {
        std::process::exit(0);
    }
}

/// `println!` for commands: through [`say_line`].
#[macro_export]
macro_rules! say {
    () => {
        $crate::interface::output::say_line("")
    };
    ($($arg:tt)*) => {
        $crate::interface::output::say_line(&format!($($arg)*))
    };
}

/// Prints one line on stderr, control sequences shown escaped; a closed stderr is ignored
/// (never a panic: the command's result and exit status do not depend on its messages).
pub fn tell_line(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{}", terminal_safe(text));
}

/// `eprintln!` for commands: through [`tell_line`].
#[macro_export]
macro_rules! tell {
    () => {
        $crate::interface::output::tell_line("")
    };
    ($($arg:tt)*) => {
        $crate::interface::output::tell_line(&format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_shown_not_obeyed() {
        assert_eq!(
            terminal_safe("a\u{1b}]0;x\u{7}b\u{1b}[2J"),
            "a\\u{1b}]0;x\\u{7}b\\u{1b}[2J"
        );
        assert_eq!(terminal_safe("plain\nline"), "plain\nline");
    }
}
