//! Which prompts are worth recalling for. A slash command is the client's business; an
//! acknowledgement ("thanks", "continue", "ok go ahead") asks for nothing the learnings could
//! inform. A pasted log or file is cut to its head and tail, where people write what they
//! want done with it.

use crate::domain::retrieval::lexical_terms;

/// Content words a prompt needs before anything is recalled for it.
const MIN_CONTENT_WORDS: usize = 3;
/// Characters of a CJK run that make one content word: `谢谢你的帮助` (thanks for your help)
/// stays under the bar, `修复侧边栏下拉菜单的键盘支持` clears it.
const WIDE_CHARS_PER_WORD: usize = 3;
/// The head of a long prompt the query keeps, in bytes.
const HEAD_BYTES: usize = 2_048;
/// The tail it keeps.
const TAIL_BYTES: usize = 1_024;

/// Words of conversation, not of a task: they do not count as content.
const CHATTER: &[&str] = &[
    "again", "ahead", "alright", "awesome", "cheer", "continue", "cool", "do", "done", "fine",
    "go", "going", "good", "great", "hello", "hey", "hi", "just", "keep", "let", "look", "lgtm",
    "nice", "no", "now", "ok", "okay", "perfect", "please", "proceed", "right", "sound", "sure",
    "thank", "thanks", "thx", "ty", "yeah", "yep", "yes",
];

/// Why nothing is recalled for a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// The prompt is empty.
    Empty,
    /// A slash command (`/compact`, `/review`).
    SlashCommand,
    /// Too few content words to say what the prompt is about.
    TooShort,
}

impl Silence {
    /// The reason in a few words, for `recall --json` and the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Empty => "empty prompt",
            Self::SlashCommand => "slash command",
            Self::TooShort => "too few content words",
        }
    }
}

/// A prompt as recall reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptQuery {
    /// The text the learnings are compared with: the prompt, or a long one's head and tail.
    pub text: String,
    /// Its distinct content words (a run of CJK characters counts one per three characters).
    pub content_words: usize,
}

/// The query for `prompt`, or why there is none.
pub fn prompt_query(prompt: &str) -> Result<PromptQuery, Silence> {
    let prompt = prompt.trim();
    if prompt.is_empty() {
        return Err(Silence::Empty);
    }
    if is_slash_command(prompt) {
        return Err(Silence::SlashCommand);
    }
    let text = head_and_tail(prompt);
    let mut terms = lexical_terms(&text);
    terms.sort_unstable();
    terms.dedup();
    let content_words = terms
        .iter()
        .filter(|term| !CHATTER.contains(&term.as_str()))
        .map(|term| {
            let wide = term.chars().filter(|c| is_wide(*c)).count();
            if wide > 0 {
                wide.div_ceil(WIDE_CHARS_PER_WORD)
            } else {
                1
            }
        })
        .sum();
    if content_words < MIN_CONTENT_WORDS {
        return Err(Silence::TooShort);
    }
    Ok(PromptQuery {
        text,
        content_words,
    })
}

/// `/review`, `/compact …`, `/project:deploy`, `/mcp__github__pr`: a slash and a command name
/// (a path such as `/usr/lib …` is not one).
fn is_slash_command(prompt: &str) -> bool {
    let Some(rest) = prompt.strip_prefix('/') else {
        return false;
    };
    let name = rest.split_whitespace().next().unwrap_or("");
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}

/// Scripts whose words are not separated by spaces.
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF // kana
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF // CJK ideographs
        | 0xAC00..=0xD7AF // hangul
    )
}

fn head_and_tail(prompt: &str) -> String {
    if prompt.len() <= HEAD_BYTES + TAIL_BYTES {
        return prompt.to_owned();
    }
    let mut head = HEAD_BYTES;
    while !prompt.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = prompt.len() - TAIL_BYTES;
    while !prompt.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}\n{}", &prompt[..head], &prompt[tail..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::thanks("thanks!", Err(Silence::TooShort))]
    #[case::continue_("continue", Err(Silence::TooShort))]
    #[case::go_ahead("ok, go ahead please", Err(Silence::TooShort))]
    #[case::yes_do_it("yes do it now", Err(Silence::TooShort))]
    #[case::slash_command("/compact keep the migration notes", Err(Silence::SlashCommand))]
    #[case::slash_alone("/review", Err(Silence::SlashCommand))]
    #[case::empty("   ", Err(Silence::Empty))]
    #[case::a_task("fix the flaky payment sandbox test", Ok(4))]
    #[case::a_path_is_not_a_command("/usr/lib is missing the sqlite headers", Ok(5))]
    #[case::german("Behebe den Absturz beim Starten der Anwendung", Ok(7))]
    #[case::chinese("修复侧边栏下拉菜单的键盘支持", Ok(5))]
    #[case::chinese_thanks("谢谢你的帮助", Err(Silence::TooShort))]
    #[case::japanese_thanks("ありがとう", Err(Silence::TooShort))]
    #[case::repeats_count_once("fix fix fix", Err(Silence::TooShort))]
    fn a_prompt_is_worth_recalling_for_when_it_asks_for_something(
        #[case] prompt: &str,
        #[case] expected: Result<usize, Silence>,
    ) {
        assert_eq!(
            prompt_query(prompt).map(|q| q.content_words),
            expected,
            "{prompt}"
        );
    }

    #[test]
    fn a_pasted_20_kb_prompt_is_cut_to_its_head_and_tail() {
        let prompt = format!(
            "Why does this migration fail?\n{}\nIt started after the upgrade.",
            "ERROR relation \"orders\" does not exist at line 12\n".repeat(400)
        );
        assert!(prompt.len() > 20_000);
        let query = prompt_query(&prompt).unwrap();
        assert!(query.text.len() <= HEAD_BYTES + TAIL_BYTES + 1);
        assert!(query.text.starts_with("Why does this migration fail?"));
        assert!(query.text.ends_with("It started after the upgrade."));
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let prompt = "naïve café résumé ".repeat(500);
        let query = prompt_query(&prompt).unwrap();
        assert!(query.text.len() <= HEAD_BYTES + TAIL_BYTES + 4);
        assert!(query.text.starts_with("naïve") && query.text.ends_with("résumé"));
    }
}
