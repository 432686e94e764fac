//! A tool call the user refused when the client asked for permission: Claude Code answers the
//! call with a fixed notice, and with what the user typed instead when they typed something.
//! A refused action is a choice the next session must respect, not work left undone.

/// How the client's answer to a refused call opens.
const REFUSED: [&str; 2] = [
    "The user doesn't want to proceed with this tool use.",
    "The user doesn't want to take this action right now.",
];

/// Where what the user typed instead follows.
const SAID: &str = "the user said:";

/// The user refused a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What was refused.
    pub action: RefusedAction,
    /// What the user typed instead, when they typed something.
    pub said: Option<String>,
}

/// What a refused tool call would have done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefusedAction {
    /// Run this command (its gist).
    Command(String),
    /// Write or edit these files.
    Edit(Vec<String>),
}

/// Whether `output`, a tool call's result, says the user refused the call: `Some` with what
/// they typed instead (`None` when they only refused).
pub fn refused(output: &str) -> Option<Option<String>> {
    let output = output.trim_start();
    if !REFUSED.iter().any(|notice| output.starts_with(notice)) {
        return None;
    }
    let said = output
        .find(SAID)
        .map(|at| output[at + SAID.len()..].trim())
        .filter(|said| !said.is_empty())
        .map(str::to_owned);
    Some(said)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::only_refused(
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        Some(None)
    )]
    #[case::with_what_the_user_said(
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nuse linear comment for the plan",
        Some(Some("use linear comment for the plan"))
    )]
    #[case::a_newer_notice(
        "The user doesn't want to take this action right now. STOP.",
        Some(None)
    )]
    #[case::an_ordinary_error("Exit code 1\nerror: could not compile", None)]
    #[case::the_notice_quoted_later(
        "grep found: The user doesn't want to proceed with this tool use.",
        None
    )]
    fn tells_a_refusal(#[case] output: &str, #[case] expected: Option<Option<&str>>) {
        assert_eq!(
            refused(output),
            expected.map(|said| said.map(str::to_owned))
        );
    }
}
