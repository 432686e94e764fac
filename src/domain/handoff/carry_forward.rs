//! Open work that outlives its session: the previous handoff's open threads come along into
//! the next one until the work that resolves them is done.

use std::collections::HashSet;

use super::ParsedHandoff;
use super::document::SECTION_OPEN;
use super::open_threads::{PLAN_FILE, SNAPSHOT_THREADS};

/// Items carried at most, so that stale threads cannot crowd out the new ones.
pub const MAX_CARRIED: usize = 6;
/// Share of an item's words that the session's work must cover to count as resolving it.
const RESOLVED_SHARE: f64 = 0.6;
/// How a carried thread names the session it was first left open in: `… (open since session ab12cd34)`.
pub(super) const SINCE: &str = " (open since session ";

/// The previous handoff's open threads that this session's `done` texts (commit subjects,
/// completed todos) do not resolve, each marked with the session it was first left open in.
pub fn carried_threads(previous: &ParsedHandoff, done: &[String]) -> Vec<String> {
    let Some((_, lines)) = previous
        .sections
        .iter()
        .find(|(heading, _)| heading == SECTION_OPEN)
    else {
        return Vec::new();
    };
    let done_words: HashSet<String> = done.iter().flat_map(|text| words(text)).collect();
    let origin: String = previous
        .session_id
        .as_deref()
        .unwrap_or("unknown")
        .chars()
        .take(8)
        .collect();
    lines
        .iter()
        .filter_map(|line| line.strip_prefix("- "))
        .filter(|item| {
            !SNAPSHOT_THREADS
                .iter()
                .any(|snapshot| item.starts_with(snapshot))
                && !resolved(item, &done_words)
        })
        .map(|item| match item.contains(SINCE) {
            true => item.to_owned(),
            false => format!("{item}{SINCE}{origin})"),
        })
        .take(MAX_CARRIED)
        .collect()
}

/// A thread without the session it has been open since: the same thread carried by two
/// earlier handoffs, or raised again by this session, reads the same.
pub fn thread_text(item: &str) -> &str {
    item.split(SINCE).next().unwrap_or(item).trim_end()
}

fn resolved(item: &str, done: &HashSet<String>) -> bool {
    let text = thread_text(item);
    let text = text.split(PLAN_FILE).next().unwrap_or(text);
    let text = text.split_once(": ").map_or(text, |(_, rest)| rest);
    let wanted: Vec<String> = words(text).collect();
    if wanted.is_empty() {
        return false;
    }
    let covered = wanted.iter().filter(|word| done.contains(*word)).count();
    covered as f64 / wanted.len() as f64 >= RESOLVED_SHARE
}

/// Content words: lowercased, four letters or more (CJK text counts by characters pairs).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= 4 || word.chars().any(|c| c as u32 > 0x2E80))
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::handoff::read_handoff;

    fn previous() -> ParsedHandoff {
        read_handoff(
            "---\nsession_id: 81b8f225-6c82\n---\n## Open Threads\n- Todo (pending): Stub the payment sandbox\n- Last check failed: `cargo test`: 2 failed (open since session 0000aaaa)\n",
        )
        .unwrap()
    }

    #[test]
    fn unresolved_threads_come_along_marked_with_their_origin() {
        let carried = carried_threads(&previous(), &[]);
        assert_eq!(
            carried,
            vec![
                "Todo (pending): Stub the payment sandbox (open since session 81b8f225)",
                "Last check failed: `cargo test`: 2 failed (open since session 0000aaaa)",
            ]
        );
    }

    #[test]
    fn work_that_covers_a_thread_resolves_it() {
        let carried = carried_threads(
            &previous(),
            &["test: stub the payment sandbox in timeouts".to_owned()],
        );
        assert_eq!(carried.len(), 1);
        assert!(carried[0].starts_with("Last check failed"));
    }

    #[test]
    fn carrying_out_a_plan_resolves_its_thread_whatever_its_file_is_called() {
        let previous = read_handoff(
            "## Open Threads\n- Plan proposed, not carried out in this session: “Merge Prompt & Context into Single Section” (full plan: /Users/arvos/.claude/plans/reactive-floating-blum.md)\n",
        )
        .unwrap();
        assert_eq!(carried_threads(&previous, &[]).len(), 1);
        let done = ["Merge Prompt & Context into Single Section".to_owned()];
        assert!(carried_threads(&previous, &done).is_empty());
    }

    #[rstest::rstest]
    #[case::working_tree("Also uncommitted at the last git status: notes/, src/x.rs")]
    #[case::pull_request(
        "No pull request opened for the pushed branch yet: https://github.com/o/r/pull/new/fix"
    )]
    #[case::vulnerabilities(
        "Reported at the last push: GitHub found 2 vulnerabilities on o/r's default branch (1 high)"
    )]
    #[case::state_notes("Where the work stands, as the session noted it in STATE.md: Bug fixed")]
    fn the_repository_as_last_seen_is_not_carried(#[case] thread: &str) {
        let previous = read_handoff(&format!("## Open Threads\n- {thread}\n")).unwrap();
        assert!(carried_threads(&previous, &[]).is_empty());
    }

    #[test]
    fn a_handoff_without_open_threads_carries_nothing() {
        let previous = read_handoff("## What Was Accomplished\n- x\n").unwrap();
        assert!(carried_threads(&previous, &[]).is_empty());
    }
}
