//! Where a handoff's facts are lost: the gold facts its whole file holds, and those a greedy
//! choice of lines that knows the gold would carry within the injected share, from the file's
//! lines alone and from those and the sentences of the session's replies. A fact the file
//! lacks is lost to extraction; one the file holds but the share drops is lost to selection.
//! The greedy choice is an estimate, not a bound: greedy is not optimal, and a line's cost
//! leaves out the section headings a real choice would also print.

/// A session's facts recalled by each measure.
#[derive(Default, Clone, Copy)]
pub struct FactLosses {
    /// Facts the whole handoff file holds.
    pub in_file: usize,
    /// Facts a gold-aware greedy choice of the file's lines carries within the room.
    pub chosen_from_file: usize,
    /// Facts a gold-aware greedy choice of the file's lines and the replies' sentences carries.
    pub chosen_with_replies: usize,
}

/// The longest a line is shown, as the injected section cuts it, by the file's section.
fn max_line(heading: &str) -> usize {
    match heading {
        "User Requests" => 120,
        "Earlier Turns" => 1_000,
        _ => 300,
    }
}

/// What a file line costs beyond its text: its indent and its line break (its list marker is
/// in its text already).
const FILE_LINE_COST: usize = 3;
/// What a reply's sentence costs beyond its text: its indent, a list marker and a line break.
const SENTENCE_COST: usize = 5;
/// A reply's sentence shorter than this ("Done.") carries no fact.
const MIN_SENTENCE: usize = 15;
/// Match groups a fact may have: each is a bit of a mask.
const MAX_GROUPS: usize = 64;

/// A line that may be chosen, with what it costs.
struct Candidate {
    text: String,
    cost: usize,
}

/// The measures for one session. `facts` are the gold facts' match groups, `document` the
/// handoff file's body, `replies` the replies the digest keeps, `room` the characters the
/// injected section has for lines once its heading and pointer are written.
pub fn fact_losses(
    facts: &[Vec<Vec<String>>],
    document: &str,
    replies: &[String],
    room: usize,
) -> FactLosses {
    assert!(
        facts.iter().all(|groups| groups.len() < MAX_GROUPS),
        "a fact has {MAX_GROUPS} match groups or more"
    );
    let file_lines = document_lines(document);
    let whole = normalise(document);
    let mut with_replies = document_lines(document);
    with_replies.extend(replies.iter().flat_map(|reply| sentences(reply)));
    FactLosses {
        in_file: facts
            .iter()
            .filter(|groups| groups.iter().all(|group| matches_group(&whole, group)))
            .count(),
        chosen_from_file: greedy_choice(facts, &file_lines, room),
        chosen_with_replies: greedy_choice(facts, &with_replies, room),
    }
}

/// The file's list lines, without headings and blank lines, each cut as its section is.
fn document_lines(document: &str) -> Vec<Candidate> {
    let mut heading = "";
    let mut lines = Vec::new();
    for line in document.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix("## ") {
            heading = name;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let text: String = line.chars().take(max_line(heading)).collect();
        let cost = text.chars().count() + FILE_LINE_COST;
        lines.push(Candidate { text, cost });
    }
    lines
}

/// A reply's sentences outside its code blocks: a sentence ends at `.`, `!` or `?` before
/// whitespace (not inside `Cargo.toml` or `2.1.331`), at `。`, `！` or `？`, or at a line's end.
fn sentences(reply: &str) -> Vec<Candidate> {
    let mut out = Vec::new();
    for line in reply.split("```").step_by(2).flat_map(str::lines) {
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let next_is_space = chars.peek().is_none_or(|(_, next)| next.is_whitespace());
            let ends =
                matches!(c, '。' | '！' | '？') || (matches!(c, '.' | '!' | '?') && next_is_space);
            if ends {
                let end = at + c.len_utf8();
                push_sentence(&mut out, &line[start..end]);
                start = end;
            }
        }
        push_sentence(&mut out, &line[start..]);
    }
    out
}

fn push_sentence(out: &mut Vec<Candidate>, sentence: &str) {
    let sentence = sentence.trim();
    if sentence.chars().count() < MIN_SENTENCE {
        return;
    }
    let text: String = sentence.chars().take(max_line("")).collect();
    let cost = text.chars().count() + SENTENCE_COST;
    out.push(Candidate { text, cost });
}

/// Facts recalled by lines chosen greedily, the most facts completed per character first,
/// within `room`.
fn greedy_choice(facts: &[Vec<Vec<String>>], candidates: &[Candidate], room: usize) -> usize {
    let full: Vec<u64> = facts.iter().map(|groups| (1 << groups.len()) - 1).collect();
    // Which groups of each fact a candidate satisfies on its own.
    let masks: Vec<Vec<u64>> = candidates
        .iter()
        .map(|candidate| {
            let text = normalise(&candidate.text);
            facts
                .iter()
                .map(|groups| {
                    groups
                        .iter()
                        .enumerate()
                        .filter(|(_, group)| matches_group(&text, group))
                        .fold(0, |mask, (at, _)| mask | 1 << at)
                })
                .collect()
        })
        .collect();
    let mut have = vec![0_u64; facts.len()];
    let mut chosen = vec![false; candidates.len()];
    let mut used = 0;
    loop {
        let mut best: Option<(f64, usize)> = None;
        for (at, candidate) in candidates.iter().enumerate() {
            if chosen[at] || used + candidate.cost > room {
                continue;
            }
            let completed = (0..facts.len())
                .filter(|&f| have[f] != full[f] && have[f] | masks[at][f] == full[f])
                .count();
            let groups: u32 = (0..facts.len())
                .map(|f| (masks[at][f] & !have[f]).count_ones())
                .sum();
            // Completing a fact counts most; a new group of a fact still open breaks ties.
            let gain = completed as f64 + 0.01 * f64::from(groups);
            let per_char = gain / candidate.cost as f64;
            if gain > 0.0 && best.is_none_or(|(score, _)| per_char > score) {
                best = Some((per_char, at));
            }
        }
        // Each round chooses a new line or stops, so the loop ends.
        let Some((_, at)) = best else { break };
        chosen[at] = true;
        used += candidates[at].cost;
        for (f, mask) in have.iter_mut().enumerate() {
            *mask |= masks[at][f];
        }
    }
    (0..facts.len()).filter(|&f| have[f] == full[f]).count()
}

/// Whether one alternative of a match group occurs in the normalised `haystack`.
pub fn matches_group(haystack: &str, group: &[String]) -> bool {
    group
        .iter()
        .any(|alternative| haystack.contains(&normalise(alternative)))
}

/// Lowercased with whitespace collapsed, as the gold's matching rule says.
pub fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
