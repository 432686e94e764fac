//! The user's short answer to a question the assistant ended its reply with: how choices are
//! made in real sessions ("What should auto-commit record?" → "do nothing"), in any language,
//! without the marker phrases of a stated choice.

use crate::domain::format::clip;
use crate::domain::redaction::{REDACTED, redact};

/// A question the assistant asked and what the user answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The assistant's question, one sentence.
    pub question: String,
    /// The user's reply, as typed.
    pub answer: String,
}

/// Replies longer than this are new requests or specifications, not an answer.
const MAX_ANSWER_CHARS: usize = 160;
/// Questions longer than this are cut from their start (the question itself is at the end).
const MAX_QUESTION_CHARS: usize = 200;

/// Words that only approve or wave on ("yes", "ok, go ahead"): they answer "Shall I…?", which
/// records no choice the next session needs.
const APPROVALS: [&str; 28] = [
    "yes",
    "y",
    "yep",
    "yeah",
    "ok",
    "okay",
    "sure",
    "go",
    "go ahead",
    "do it",
    "please",
    "continue",
    "proceed",
    "sounds good",
    "lgtm",
    "great",
    "perfect",
    "thanks",
    "thank you",
    "はい",
    "お願いします",
    "うん",
    "好的",
    "好",
    "可以",
    "ja",
    "bitte",
    "네",
];

/// The answer in `request` to the question that closes `reply`, if it is one: the reply's last
/// paragraph asks something, and the request is short, not a command and more than a bare
/// approval.
pub fn answered_question(reply: &str, request: &str) -> Option<Answer> {
    let answer = request.trim();
    if answer.is_empty()
        || answer.starts_with('/')
        || answer.chars().count() > MAX_ANSWER_CHARS
        || is_bare_approval(answer)
        || is_new_request(answer)
    {
        return None;
    }
    if let Some(picked) = picked_option(reply, answer) {
        return Some(picked);
    }
    let question = closing_question(reply)
        .filter(|question| {
            !is_offer(question) && !is_invitation(question) && !is_status_check(question)
        })
        .map(|question| options_lead(reply, question))?;
    if is_only_secrets(answer) {
        return None;
    }
    Some(Answer {
        question,
        answer: answer.split_whitespace().collect::<Vec<_>>().join(" "),
    })
}

/// The option a bare pick ("2", "option 2.") chooses among the numbered options that close
/// the reply, with the line that introduces them as the question: "2" alone tells the next
/// session nothing.
fn picked_option(reply: &str, answer: &str) -> Option<Answer> {
    let lower = answer.to_lowercase();
    let number: usize = lower
        .strip_prefix("option")
        .unwrap_or(&lower)
        .trim()
        .trim_end_matches(['.', ')'])
        .parse()
        .ok()?;
    let (lead, options) = closing_options(reply)?;
    let (_, option) = options.iter().find(|(n, _)| *n == number)?;
    let option = option.replace("**", "");
    Some(Answer {
        question: clip(&lead, MAX_QUESTION_CHARS),
        answer: clip(&format!("{number}. {}", option.trim()), MAX_ANSWER_CHARS),
    })
}

/// The question a reply's closing options ask: an option that ends on a question mark ("3.
/// Something else entirely?") asks nothing by itself, the line introducing the options does
/// when it asks ("What was the side prompt for? Was it:").
fn options_lead(reply: &str, question: String) -> String {
    let Some((lead, options)) = closing_options(reply) else {
        return question;
    };
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let core = question.trim_start_matches('…');
    let core = numbered_line(core).map_or(core, |(_, rest)| rest);
    let is_an_option = options
        .iter()
        .any(|(_, option)| words(&option.replace("**", "")).contains(core));
    match is_an_option && lead.contains(['?', '？']) {
        true => clip(&lead, MAX_QUESTION_CHARS),
        false => question,
    }
}

/// The numbered list that closes the reply (at most a closing line after it, such as "What
/// would you like to do?") and the line that introduces it.
fn closing_options(reply: &str) -> Option<(String, Vec<(usize, &str)>)> {
    let lines: Vec<&str> = reply.trim_end().lines().collect();
    let last_item = lines
        .iter()
        .rposition(|line| numbered_line(line).is_some())?;
    let after: Vec<&&str> = lines[last_item + 1..]
        .iter()
        .filter(|line| !line.trim().is_empty())
        .collect();
    if after.len() > 1 {
        return None;
    }
    let mut first_item = last_item;
    while first_item > 0 && numbered_line(lines[first_item - 1]).is_some() {
        first_item -= 1;
    }
    let options: Vec<(usize, &str)> = lines[first_item..=last_item]
        .iter()
        .filter_map(|line| numbered_line(line))
        .collect();
    let numbered_from_one = options
        .iter()
        .enumerate()
        .all(|(at, (number, _))| *number == at + 1);
    let lead = lines[..first_item]
        .iter()
        .rev()
        .map(|line| line.trim().trim_matches(['*', '#', '>', '-', ' ']).trim())
        .find(|line| !line.is_empty())?;
    (numbered_from_one && options.len() >= 2).then(|| (lead.replace("**", ""), options))
}

/// Numbered answers longer than this in all are a document of the user's, not answers.
const MAX_NUMBERED_ANSWERS_CHARS: usize = 2_000;

/// The user's answers in `request` to the questions that close `reply`, in the order asked:
/// when the request answers by number ("1. CPU and CUDA are mandatory … 2. MIT licences where
/// possible"), each numbered answer with the reply's numbered question it answers; otherwise
/// the one answer [`answered_question`] finds.
pub fn answers_to(reply: &str, request: &str) -> Vec<Answer> {
    let items = numbered_items(request.trim());
    // A request that answers one item, or none, is no answer by number; answers by number
    // that match no numbered question answer no single one either.
    if items.len() >= 2 {
        return numbered_answers(reply, request.trim(), items);
    }
    answered_question(reply, request).into_iter().collect()
}

/// Whether `request` opens a list of numbered answers ("1. …", "1) …").
pub fn opens_numbered_answers(request: &str) -> bool {
    opens_item(request.trim_start(), "1")
}

/// Each numbered answer (`items` of `request`) with the numbered question of `reply` it
/// answers.
fn numbered_answers(reply: &str, request: &str, items: Vec<(usize, &str)>) -> Vec<Answer> {
    if request.chars().count() > MAX_NUMBERED_ANSWERS_CHARS || is_only_secrets(request) {
        return Vec::new();
    }
    let questions = numbered_questions(reply);
    // Every number answered must have been asked, or the answers belong to another list
    // (one under an earlier heading) and would be paired with the wrong questions.
    let asked = |number: usize| questions.iter().find(|(asked, _)| *asked == number);
    if items.iter().any(|(number, _)| asked(*number).is_none()) {
        return Vec::new();
    }
    items
        .into_iter()
        .filter_map(|(number, answer)| {
            let (_, question) = asked(number)?;
            let answer = clip(answer.trim(), MAX_ANSWER_CHARS);
            (!answer.is_empty() && !is_offer(question)).then(|| Answer {
                question: question.clone(),
                answer,
            })
        })
        .collect()
}

/// The question items of the reply's last numbered list that asks something, by number: the
/// question sentence of each ("**Backend priority**: Which backends are mandatory?" →
/// "Which backends are mandatory?"). A list of next steps after the questions is passed over.
fn numbered_questions(reply: &str) -> Vec<(usize, String)> {
    let mut lists: Vec<Vec<(usize, &str)>> = Vec::new();
    for line in reply.lines() {
        let Some((number, text)) = numbered_line(line) else {
            continue;
        };
        match lists.last_mut() {
            Some(list) if number > list.last().map_or(0, |(last, _)| *last) => {
                list.push((number, text));
            }
            _ => lists.push(vec![(number, text)]),
        }
    }
    lists
        .into_iter()
        .rev()
        .map(|list| {
            list.into_iter()
                .filter_map(numbered_question)
                .collect::<Vec<_>>()
        })
        .find(|questions| !questions.is_empty())
        .unwrap_or_default()
}

/// The question sentence of one numbered item, if it asks one.
fn numbered_question((number, text): (usize, &str)) -> Option<(usize, String)> {
    let text = text.replace("**", "");
    // The first question after the item's label: an aside such as "(CPU surely?)" follows it.
    let end = text.find(['?', '？'])?;
    let label = text[..end]
        .char_indices()
        .find(|&(_, c)| matches!(c, ':' | '：'))
        .map_or(0, |(colon, c)| colon + c.len_utf8());
    let upto = &text[label..end + text[end..].chars().next()?.len_utf8()];
    let start = sentence_start(&upto[..end - label]);
    let question = clip(upto[start..].trim(), MAX_QUESTION_CHARS);
    (question.chars().count() > 3).then_some((number, question))
}

/// A line that opens a numbered item ("2. …", "3) …", "**4.** …"): its number and its text.
fn numbered_line(line: &str) -> Option<(usize, &str)> {
    let line = line.trim_start().trim_start_matches("**");
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let number = line
        .get(..digits)?
        .parse()
        .ok()
        .filter(|n| (1..100).contains(n))?;
    let rest = line[digits..].strip_prefix(['.', ')'])?;
    let rest = rest.strip_prefix("**").unwrap_or(rest);
    rest.starts_with(char::is_whitespace)
        .then(|| (number, rest.trim()))
}

/// The numbered answers of a request, in order: "1. yes 2. MIT where possible" or one per
/// line. Numbers must run 1, 2, 3 … so that "3.5 GB" or "v2. " cut nothing, and when the
/// answers stand on lines of their own only a line's start opens one ("1. ab dem 2. März").
fn numbered_items(request: &str) -> Vec<(usize, &str)> {
    let opens = opens_item;
    // Numbered answers open the request; most requests end here.
    if !opens(request, "1") {
        return Vec::new();
    }
    let by_line = request
        .lines()
        .skip(1)
        .any(|line| opens(line.trim_start(), "2"));
    let mut items = Vec::new();
    let mut number = 1;
    let mut marker = number.to_string();
    let mut start: Option<usize> = None;
    let mut at = 0;
    while at < request.len() {
        let before = &request[..at];
        let may_open = at == 0
            || match by_line {
                true => before.trim_end_matches([' ', '\t']).ends_with('\n'),
                false => before.ends_with(char::is_whitespace),
            };
        if may_open && opens(&request[at..], &marker) {
            if let Some(from) = start {
                items.push((number - 1, &request[from..at]));
            }
            at += marker.len() + 1;
            start = Some(at);
            number += 1;
            marker = number.to_string();
            continue;
        }
        at += request[at..].chars().next().map_or(1, char::len_utf8);
    }
    if let Some(from) = start {
        items.push((number - 1, &request[from..]));
    }
    items
}

/// Whether `text` opens with the item marker `number` ("2. ", "2) ").
fn opens_item(text: &str, number: &str) -> bool {
    text.strip_prefix(number)
        .and_then(|rest| rest.strip_prefix(['.', ')']))
        .is_some_and(|rest| rest.starts_with(char::is_whitespace))
}

/// The last sentence with a question mark in the reply's last paragraph.
fn closing_question(reply: &str) -> Option<String> {
    let last = reply
        .trim_end()
        .rsplit("\n\n")
        .find(|paragraph| !paragraph.trim().is_empty())?;
    let end = last.rfind(['?', '？'])?;
    let upto = &last[..end + last[end..].chars().next()?.len_utf8()];
    let start = sentence_start(&upto[..end]);
    let sentence = upto[start..]
        .trim()
        .trim_start_matches(['*', '-', '#', ' ', '>'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let count = sentence.chars().count();
    match count {
        0..=3 => None,
        _ if count > MAX_QUESTION_CHARS => Some(format!(
            "…{}",
            sentence
                .chars()
                .skip(count - MAX_QUESTION_CHARS + 1)
                .collect::<String>()
        )),
        _ => Some(sentence),
    }
}

/// Where the sentence that ends the text starts: after the last sentence mark followed by
/// white space (a file name's dot is no end), a CJK sentence mark or a line break.
fn sentence_start(text: &str) -> usize {
    let mut start = 0;
    let mut previous: Option<(usize, char)> = None;
    for (at, c) in text.char_indices() {
        if let Some((before, mark)) = previous {
            let ends = matches!(mark, '。' | '！' | '？' | '\n')
                || (matches!(mark, '.' | '!' | '?') && c.is_whitespace());
            if ends {
                start = before + mark.len_utf8();
            }
        }
        previous = Some((at, c));
    }
    if let Some((before, mark @ ('\n' | '。' | '！' | '？'))) = previous {
        start = before + mark.len_utf8();
    }
    start
}

/// Whether the reply asks or requests something new rather than answering: a question, or a
/// request that opens with "can you" and the like.
fn is_new_request(text: &str) -> bool {
    let lower = text.to_lowercase();
    text.contains(['?', '？'])
        || REQUEST_OPENINGS
            .iter()
            .any(|opening| lower.starts_with(opening))
}

/// Whether the question offers to act ("Want me to…?", "Shall I…?"): its answer approves or
/// redirects the work, a request rather than a choice between options.
fn is_offer(question: &str) -> bool {
    let lower = question.to_lowercase();
    OFFERS.iter().any(|offer| lower.starts_with(offer))
}

/// Whether the question only invites the next request ("Is there anything else…?", "What would
/// you like to work on today?"): what the user types next is a new task, not a choice.
fn is_invitation(question: &str) -> bool {
    let lower = question.to_lowercase();
    let asks_what = [
        "what would you like",
        "what do you want",
        "what should we",
        "what else",
    ]
    .iter()
    .any(|opening| lower.starts_with(opening));
    lower.contains("anything else")
        || lower.starts_with("how can i help")
        || lower.starts_with("what's next")
        || (asks_what
            && [
                "work on",
                "to do",
                "me to do",
                "help with",
                "next",
                "today",
                "else",
            ]
            .iter()
            .any(|task| lower.contains(task)))
}

/// Whether the question asks how something went ("Did it succeed?", "Do you see the prompt
/// now?"): its answer reports a result, which the work that follows shows, not a choice.
fn is_status_check(question: &str) -> bool {
    let lower = question.to_lowercase();
    STATUS_CHECKS.iter().any(|check| lower.starts_with(check))
}

/// Openings of a question about how something went.
const STATUS_CHECKS: [&str; 14] = [
    "did ",
    "does it ",
    "does that ",
    "does this ",
    "is it working",
    "is that working",
    "was it ",
    "do you see",
    "can you see",
    "what do you see",
    "what happened",
    "what does it say",
    "any luck",
    "what's the output",
];

/// Openings of an offer to act.
const OFFERS: [&str; 12] = [
    "want me",
    "shall i",
    "should i",
    "do you want me",
    "would you like me",
    "want to",
    "ready to",
    "can you",
    "could you",
    "do you want to",
    "would you like to",
    "need me",
];

/// Openings of a new request or question typed without a question mark.
const REQUEST_OPENINGS: [&str; 12] = [
    "can you",
    "could you",
    "can we",
    "what",
    "why",
    "how",
    "is ",
    "does ",
    "do you",
    "ok so",
    "i want you",
    "please check",
];

/// Whether the text only approves: every word an approval, once punctuation is set aside.
fn is_bare_approval(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = lower
        .trim_matches(|c: char| !c.is_alphanumeric())
        .split([',', '.', '!', '、', '，'])
        .map(|part| {
            part.trim_matches(|c: char| !c.is_alphanumeric() && c != ' ')
                .trim()
        })
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>();
    !words.is_empty() && words.iter().all(|part| APPROVALS.contains(part))
}

/// Whether the text is nothing but secrets (a pasted token or key, asked for by the
/// question): what was answered must not be passed on, and it records no choice.
fn is_only_secrets(text: &str) -> bool {
    redact(text)
        .replace(REDACTED, "")
        .chars()
        .all(|c| !c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const ASKS: &str =
        "I fixed the parser.\n\nShould auto-commit get attribution too, or nothing at all?";

    #[rstest]
    #[case::a_choice(
        ASKS,
        "do nothing",
        Some("Should auto-commit get attribution too, or nothing at all?")
    )]
    #[case::an_answer_in_japanese(
        "確認しました。\n\nダウンロード数も追加しますか？",
        "一旦いいか",
        Some("ダウンロード数も追加しますか？")
    )]
    #[case::the_question_sentence_only(
        "Done. The gist is created. Should gists be public or unlisted?",
        "unlisted only for the MVP",
        Some("Should gists be public or unlisted?")
    )]
    #[case::an_offer_to_act("Done.\n\nWant me to push and open a PR?", "only push", None)]
    #[case::an_invitation_to_go_on(
        "Done.\n\nIs there anything else you'd like me to configure?",
        "push to M-Claude",
        None
    )]
    #[case::an_open_question_about_the_next_task(
        "Hello!\n\nWhat would you like to work on today?",
        "whoami",
        None
    )]
    #[case::a_what_question_that_asks_for_a_value(
        "The file is ready.\n\nWhat would you like to name it?",
        "notes.md",
        Some("What would you like to name it?")
    )]
    #[case::a_check_on_how_it_went(
        "Run `sudo -v` in your terminal.\n\nDid it succeed?",
        "you run it",
        None
    )]
    #[case::a_check_on_what_the_user_sees(
        "Reload the page.\n\nDo you see the banner now?",
        "still the old one",
        None
    )]
    #[case::a_bare_approval(ASKS, "yes", None)]
    #[case::an_approval_with_punctuation(ASKS, "ok, go ahead!", None)]
    #[case::a_slash_command(ASKS, "/commit", None)]
    #[case::no_question("I fixed the parser.\n\nAll tests pass.", "now the lexer", None)]
    #[case::a_file_name_is_no_sentence_end(
        "Done.\n\nName it `session.jsonl`?",
        "the second file",
        Some("Name it `session.jsonl`?")
    )]
    #[case::a_new_question(
        "Done.\n\nWant me to fix this?",
        "does the back end have the email",
        None
    )]
    #[case::a_new_request(ASKS, "can you summarise the issues", None)]
    #[case::a_pasted_token(
        "The bot exists.\n\nWhat is the bot's token?",
        "ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq",
        None
    )]
    #[case::a_secret_named_in_words(
        "The bot exists.\n\nWhich token should it use?",
        "the staging one",
        Some("Which token should it use?")
    )]
    #[case::the_line_that_introduces_the_options(
        "I couldn't find it.\n\nWhat was the side prompt for? Was it:\n1. A test prompt?\n2. Something else entirely?",
        "a test prompt for the export",
        Some("What was the side prompt for? Was it:")
    )]
    #[case::options_led_by_no_question(
        "Two ways.\n\nPlan:\n1. Rebase?\n2. Merge?",
        "merge it",
        Some("Merge?")
    )]
    #[case::options_in_parentheses_spaced_twice(
        "I couldn't find it.\n\nWhat was it for? Was it:\n1) A test  prompt?\n2) Something  else?",
        "a test prompt",
        Some("What was it for? Was it:")
    )]
    #[case::an_offer_among_the_options_is_no_question(
        "Done.\n\nNext steps:\n1. Add tests\n2. Want me to push it?",
        "yes push to main branch",
        None
    )]
    #[case::a_question_earlier_than_the_last_paragraph(
        "Should I go on?\n\nDone.",
        "the lexer",
        None
    )]
    fn finds_answers(#[case] reply: &str, #[case] request: &str, #[case] question: Option<&str>) {
        assert_eq!(
            answered_question(reply, request).map(|found| found.question),
            question.map(str::to_owned)
        );
    }

    const NUMBERED: &str = "The review is solid.\n\n## Questions for You\n\n1. **Backend Priority**: Which backends are mandatory vs optional? (CPU surely?)\n\n2. **Dependencies**: How do you feel about GPL dependencies like FFTW?\n\n3. Shall I draft the CMake super-build?\n\nWhat's your current thinking?";

    #[rstest]
    #[case::answers_by_number(
        NUMBERED,
        "1. CPU and CUDA are mandatory, AMD is high priority. 2. I would much prefer MIT alternatives 3. yes",
        &[
            ("Which backends are mandatory vs optional?", "CPU and CUDA are mandatory, AMD is high priority."),
            ("How do you feel about GPL dependencies like FFTW?", "I would much prefer MIT alternatives"),
        ]
    )]
    #[case::one_per_line(
        NUMBERED,
        "1) CPU only for now\n2) no GPL",
        &[
            ("Which backends are mandatory vs optional?", "CPU only for now"),
            ("How do you feel about GPL dependencies like FFTW?", "no GPL"),
        ]
    )]
    #[case::a_single_item_is_no_numbered_answer(NUMBERED, "1. CPU only for now, and more to come later when the GPU work starts again next month, as planned in the roadmap of the project, which I will share with you and the team soon enough", &[])]
    #[case::a_short_single_item_answers_the_closing_question(
        NUMBERED,
        "1. CPU only",
        &[("What's your current thinking?", "1. CPU only")]
    )]
    #[case::a_number_never_asked(
        "Two things.\n\n### Backends\n1. Which backends are mandatory?\n2. Is ROCm needed?\n\n### Licence\n1. MIT only?",
        "1. CUDA 2. no",
        &[]
    )]
    #[case::next_steps_after_the_questions(
        "Questions:\n1. Which backends are mandatory?\n2. Is ROCm needed?\n\nNext:\n1. Build\n2. Test",
        "1. CUDA 2. no",
        &[("Which backends are mandatory?", "CUDA"), ("Is ROCm needed?", "no")]
    )]
    #[case::a_date_inside_a_line(
        NUMBERED,
        "1. ab dem 2. März\n2. nein",
        &[
            ("Which backends are mandatory vs optional?", "ab dem 2. März"),
            ("How do you feel about GPL dependencies like FFTW?", "nein"),
        ]
    )]
    #[case::a_list_of_its_own(
        "Done.\n\nAll tests pass.",
        "1. add retries 2. add logging",
        &[]
    )]
    #[case::numbers_inside_an_answer_cut_nothing(
        NUMBERED,
        "1. version 3.5 of the CPU backend 2. no",
        &[
            ("Which backends are mandatory vs optional?", "version 3.5 of the CPU backend"),
            ("How do you feel about GPL dependencies like FFTW?", "no"),
        ]
    )]
    #[case::in_chinese_with_a_full_width_colon(
        "看完了。\n\n1. **后端**：哪些后端是必须的？\n2. **许可**：可以用GPL吗？",
        "1. CPU和CUDA 2. 不要GPL",
        &[("哪些后端是必须的？", "CPU和CUDA"), ("可以用GPL吗？", "不要GPL")]
    )]
    #[case::a_request_that_does_not_open_on_one(
        NUMBERED,
        "see above: 1. CPU 2. no GPL",
        &[("What's your current thinking?", "see above: 1. CPU 2. no GPL")]
    )]
    fn finds_numbered_answers(
        #[case] reply: &str,
        #[case] request: &str,
        #[case] expected: &[(&str, &str)],
    ) {
        let found: Vec<(String, String)> = answers_to(reply, request)
            .into_iter()
            .map(|answer| (answer.question, answer.answer))
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(question, answer)| ((*question).to_owned(), (*answer).to_owned()))
            .collect();
        assert_eq!(found, expected);
    }

    const OPTIONS: &str = "Repository cycled.\n\n**Would you like to:**\n1. Continue with slate troubleshooting?\n2. **Proceed with MSYS2 rebase** (close Claude Code)?\n3. Something else?";

    #[rstest]
    #[case::a_bare_number(OPTIONS, "2", Some(("Would you like to:", "2. Proceed with MSYS2 rebase (close Claude Code)?")))]
    #[case::option_and_a_number(OPTIONS, "Option 1.", Some(("Would you like to:", "1. Continue with slate troubleshooting?")))]
    #[case::a_closing_question_after_the_list(
        "Three ways:\n\n1. Rebase\n2. Merge\n\nWhich one?",
        "2",
        Some(("Three ways:", "2. Merge"))
    )]
    #[case::a_number_not_offered(OPTIONS, "5", None)]
    #[case::a_list_not_closing_the_reply(
        "Steps:\n1. Build\n2. Test\n\nThen I ran them.\n\nAll green. Go on?",
        "2",
        None
    )]
    #[case::a_list_from_two("Left:\n2. Lint\n3. Docs\n\nWhich next?", "2", None)]
    fn a_bare_pick_names_the_option_it_picks(
        #[case] reply: &str,
        #[case] request: &str,
        #[case] expected: Option<(&str, &str)>,
    ) {
        let found = picked_option(reply, request);
        assert_eq!(
            found
                .as_ref()
                .map(|answer| (answer.question.as_str(), answer.answer.as_str())),
            expected
        );
    }

    #[test]
    fn a_short_answer_is_found_as_before() {
        assert_eq!(answers_to(ASKS, "do nothing").len(), 1);
    }

    #[test]
    fn a_long_request_is_no_answer() {
        assert_eq!(answered_question(ASKS, &"spec ".repeat(40)), None);
    }

    #[test]
    fn a_long_question_keeps_its_end() {
        let reply = format!("Which {} do you want?", "very ".repeat(60));
        let found = answered_question(&reply, "the second").unwrap();
        assert!(found.question.ends_with("do you want?"));
        assert_eq!(found.question.chars().count(), MAX_QUESTION_CHARS);
    }
}
