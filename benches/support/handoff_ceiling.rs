//! How far a better choice of lines could take a handoff: the gold facts its whole file holds,
//! and those the best choice of lines within the injected share would carry, from the file
//! alone and from the file with every reply of the session. A fact the file lacks is lost to
//! extraction; one the file holds but the share does not is lost to selection.

/// A session's facts recalled by each bound.
#[derive(Default, Clone, Copy)]
pub struct Ceiling {
    /// Facts the whole handoff file holds.
    pub in_file: usize,
    /// Facts the best choice of the file's lines carries within the room.
    pub best_of_file: usize,
    /// Facts the best choice of the file's lines and the replies' sentences carries.
    pub best_with_replies: usize,
}

/// The longest a chosen line may be, as the injected section cuts its lines.
const MAX_LINE: usize = 300;
/// What a line costs beyond its text: its indent, list marker and line break.
const LINE_COST: usize = 5;
/// A reply's sentence shorter than this ("Done.") carries no fact.
const MIN_SENTENCE: usize = 15;

/// The bounds for one session. `facts` are the gold facts' match groups, `document` the
/// handoff file's body, `replies` the session's replies to the user, `room` the characters
/// the injected section has for lines once its heading and pointer are written.
pub fn ceiling(
    facts: &[Vec<Vec<String>>],
    document: &str,
    replies: &[String],
    room: usize,
) -> Ceiling {
    let file_lines = document_lines(document);
    let whole = normalise(document);
    let mut with_replies = file_lines.clone();
    with_replies.extend(replies.iter().flat_map(|reply| sentences(reply)));
    Ceiling {
        in_file: facts
            .iter()
            .filter(|groups| groups.iter().all(|group| matches_group(&whole, group)))
            .count(),
        best_of_file: best_choice(facts, &file_lines, room),
        best_with_replies: best_choice(facts, &with_replies, room),
    }
}

/// The file's list lines, without headings and blank lines, each cut as the section cuts it.
fn document_lines(document: &str) -> Vec<String> {
    document
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.chars().take(MAX_LINE).collect())
        .collect()
}

/// A reply's sentences outside its code blocks, each cut to a line.
fn sentences(reply: &str) -> Vec<String> {
    reply
        .split("```")
        .step_by(2)
        .flat_map(str::lines)
        .flat_map(|line| line.split_inclusive(['.', '!', '?']))
        .map(str::trim)
        .filter(|sentence| sentence.chars().count() >= MIN_SENTENCE)
        .map(|sentence| sentence.chars().take(MAX_LINE).collect())
        .collect()
}

/// Facts recalled by lines chosen greedily, the most facts completed per character first,
/// within `room`. Greedy is not optimal, so the bound is a floor on what a chooser could do.
fn best_choice(facts: &[Vec<Vec<String>>], candidates: &[String], room: usize) -> usize {
    let full: Vec<u64> = facts.iter().map(|groups| (1 << groups.len()) - 1).collect();
    // Which groups of each fact a candidate satisfies on its own.
    let masks: Vec<Vec<u64>> = candidates
        .iter()
        .map(|line| {
            let text = normalise(line);
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
        for (at, line) in candidates.iter().enumerate() {
            let cost = line.chars().count() + LINE_COST;
            if chosen[at] || used + cost > room {
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
            if gain > 0.0 && best.is_none_or(|(score, _)| gain / cost as f64 > score) {
                best = Some((gain / cost as f64, at));
            }
        }
        let Some((_, at)) = best else { break };
        chosen[at] = true;
        used += candidates[at].chars().count() + LINE_COST;
        for (f, mask) in have.iter_mut().enumerate() {
            *mask |= masks[at][f];
        }
    }
    (0..facts.len()).filter(|&f| have[f] == full[f]).count()
}

fn matches_group(haystack: &str, group: &[String]) -> bool {
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
