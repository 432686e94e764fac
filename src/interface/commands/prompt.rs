//! Asking on a terminal for what flags left out.

use std::io::{BufRead, Write};

/// Asks `question`, showing `default` when there is one; an empty answer takes the default.
/// Returns `None` at end of input.
pub fn ask(
    input: &mut impl BufRead,
    output: &mut impl Write,
    question: &str,
    default: Option<&str>,
) -> std::io::Result<Option<String>> {
    loop {
        match default {
            Some(default) => write!(output, "{question} [{default}]: ")?,
            None => write!(output, "{question}: ")?,
        }
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let answer = line.trim();
        match (answer.is_empty(), default) {
            (false, _) => return Ok(Some(answer.to_owned())),
            (true, Some(default)) => return Ok(Some(default.to_owned())),
            (true, None) => writeln!(output, "  (an answer is needed)")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::answered(b"Juno\n" as &[u8], Some("PAI"), Some("Juno"))]
    #[case::default_taken(b"\n", Some("PAI"), Some("PAI"))]
    #[case::asks_again_without_default(b"\n  \nMara\n", None, Some("Mara"))]
    #[case::end_of_input(b"", None, None)]
    fn takes_the_answer_or_the_default(
        #[case] typed: &[u8],
        #[case] default: Option<&str>,
        #[case] expected: Option<&str>,
    ) {
        let mut shown = Vec::new();
        let answer = ask(&mut &typed[..], &mut shown, "Name", default).unwrap();
        assert_eq!(answer.as_deref(), expected);
        assert!(String::from_utf8(shown).unwrap().starts_with("Name"));
    }
}
