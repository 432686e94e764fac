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

/// Whether this process has printed anything on stdout (a report, a listing).
static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether anything was printed on stdout through [`say_line`] or [`say_toned`]: a command
/// that printed its JSON report before failing (`doctor --json` with a failed check) must not
/// get a second document after it.
pub fn said_anything() -> bool {
    SAID.load(std::sync::atomic::Ordering::Relaxed)
}

/// Prints one line on stdout, control sequences shown escaped. A closed pipe (`carryover
/// learnings list | head -1`) ends the command quietly with exit status 0: the reader has
/// what it wanted. Any other write error is ignored the same way, as there is no one left to
/// tell.
pub fn say_line(text: &str) {
    use std::io::Write;
    SAID.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut stdout = std::io::stdout().lock();
    let written = writeln!(stdout, "{}", terminal_safe(text)).and_then(|()| stdout.flush());
    if written.is_err() {
        std::process::exit(0);
    }
}

/// What a line says, for the colour it gets on a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// A line a change adds, or a check that passed.
    Good,
    /// A line a change removes, or a check that failed.
    Bad,
    /// A check that needs a look.
    Warn,
    /// A heading or a diff's hunk header.
    Heading,
}

/// Whether stdout gets colour: it is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
pub fn colour_on_stdout() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
        && std::io::stdout().is_terminal()
}

/// Prints one line through [`say_line`], in `tone`'s colour when `colour` is on; the text is
/// made terminal-safe first, so only carryover's own styling reaches the terminal.
pub fn say_toned(tone: Tone, text: &str, colour: bool) {
    if !colour {
        return say_line(text);
    }
    let style = match tone {
        Tone::Good => anstyle::AnsiColor::Green.on_default(),
        Tone::Bad => anstyle::AnsiColor::Red.on_default(),
        Tone::Warn => anstyle::AnsiColor::Yellow.on_default(),
        Tone::Heading => anstyle::AnsiColor::Cyan.on_default().bold(),
    };
    use std::io::Write;
    SAID.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut stdout = std::io::stdout().lock();
    let written =
        writeln!(stdout, "{style}{}{style:#}", terminal_safe(text)).and_then(|()| stdout.flush());
    if written.is_err() {
        std::process::exit(0);
    }
}

/// Prints a unified diff, its added lines green, removed red and hunk headers cyan when
/// `colour` is on.
pub fn say_diff(diff: &str, colour: bool) {
    for line in diff.trim_end_matches('\n').lines() {
        let tone = if line.starts_with("+++") || line.starts_with("---") || line.starts_with("@@") {
            Some(Tone::Heading)
        } else if line.starts_with('+') {
            Some(Tone::Good)
        } else if line.starts_with('-') {
            Some(Tone::Bad)
        } else {
            None
        };
        match tone {
            Some(tone) => say_toned(tone, line, colour),
            None => say_line(line),
        }
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
