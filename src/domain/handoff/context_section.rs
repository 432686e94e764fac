//! The newest handoff as the session start shows it: compact, within its share of the
//! budget, pointing at the full file.

use std::collections::HashSet;

use crate::domain::context::Section;
use crate::domain::format::{data_line, relative_time};
use crate::domain::seed::Timestamp;

use super::ParsedHandoff;
use super::carry_forward::SINCE;
use super::document::Handoff;
use super::document::{
    SECTION_ACCOMPLISHED, SECTION_DECISIONS, SECTION_FILES, SECTION_GOAL, SECTION_IN_PROGRESS,
    SECTION_LAST_MESSAGE, SECTION_NEXT_STEPS, SECTION_OPEN, SECTION_REQUESTS, SECTION_TURNS,
};
use super::read::read_handoff;

/// The most a handoff may take of the session-start context, whatever the budget: the
/// measured recall on real sessions holds at this size (docs/benchmarks.md).
pub const HANDOFF_MAX_CHARS: usize = 2_500;

const MAX_LINE: usize = 300;
/// A request is shown by its opening: ten of them this short tell more than five whole
/// (docs/benchmarks.md, fourteenth round).
const MAX_REQUEST_LINE: usize = 120;
/// An earlier turn's line may be longer: a short session's handoff widens them to use its room.
const MAX_TURN_LINE: usize = 1_000;
/// Room left for the pointer to the file when a handoff is sized before its path is known.
pub(super) const POINTER_ROOM: usize = 120;
const MAX_LINES_PER_SECTION: usize = 100;

/// Which session a shown handoff comes from, as its heading says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandoffOrigin {
    /// An earlier session of the project.
    Previous,
    /// A session that ended while this one was away (shown to a resumed session).
    EndedMeanwhile,
}

impl HandoffOrigin {
    fn heading(self) -> &'static str {
        match self {
            Self::Previous => "Handoff from the previous session",
            Self::EndedMeanwhile => "Handoff from a session that ended since this one began",
        }
    }
}

/// `Handoff from the previous session (1 day ago, 2026-11-21 18:40 UTC; session 81b8f225,
/// 14 turns):` then each section's lines, cut to `share` characters with a pointer to the
/// file. `written` is the front matter's timestamp, else the file's modification time.
pub fn handoff_section(
    handoff: &ParsedHandoff,
    origin: HandoffOrigin,
    path: &str,
    written: Timestamp,
    now: Timestamp,
    share: usize,
) -> Section {
    let mut facts = vec![format!(
        "{}, {}",
        relative_time(written, now),
        written.human()
    )];
    let mut about = Vec::new();
    if let Some(session) = &handoff.session_id {
        about.push(format!(
            "session {}",
            session.chars().take(8).collect::<String>()
        ));
    }
    if let Some(turns) = handoff.duration_turns {
        about.push(format!("{turns} turns"));
    }
    if let Some(branch) = &handoff.branch {
        about.push(format!("on branch {branch}"));
    }
    if !about.is_empty() {
        facts.push(about.join(", "));
    }
    let mut section = Section::items(format!("{} ({}):", origin.heading(), facts.join("; ")));
    let mut ordered: Vec<(usize, &str, &[String])> = handoff
        .sections
        .iter()
        .filter(|(_, lines)| !lines.is_empty())
        .map(|(heading, lines)| (priority(heading), heading.as_str(), lines.as_slice()))
        .collect();
    let has_file_section = ordered
        .iter()
        .any(|(_, heading, _)| *heading == SECTION_FILES);
    let legacy_files = (!has_file_section && !handoff.files_changed.is_empty())
        .then(|| vec![format!("- {}", handoff.files_changed.join(", "))]);
    if let Some(files) = &legacy_files {
        ordered.push((priority(SECTION_FILES), SECTION_FILES, files.as_slice()));
    }
    // Stable: sections of equal rank keep the file's order. Items drop from the end, so the
    // least important go first when the share is tight.
    ordered.sort_by_key(|(rank, _, _)| *rank);
    let todos_shown = todos_among_threads(handoff);
    for (_, heading, lines) in ordered {
        // The open todos are threads already; listing them again as steps only spends room.
        let lines: Vec<&String> = match heading {
            SECTION_IN_PROGRESS | SECTION_NEXT_STEPS => lines
                .iter()
                .filter(|line| !todos_shown.contains(item_text(line)))
                .collect(),
            _ => lines.iter().collect(),
        };
        if lines.is_empty() {
            continue;
        }
        if !heading.is_empty() {
            section.push_item(format!("{heading}:"));
        }
        let cap = lines_shown(heading);
        // Requests are listed oldest first in the file; the newest matter most here.
        let lines: Box<dyn Iterator<Item = &String>> = match heading == SECTION_REQUESTS {
            true => Box::new(lines.into_iter().rev()),
            false => Box::new(lines.into_iter()),
        };
        let max_line = match heading {
            SECTION_TURNS => MAX_TURN_LINE,
            SECTION_REQUESTS => MAX_REQUEST_LINE,
            _ => MAX_LINE,
        };
        for line in lines.take(cap) {
            section.push_item(format!("  {}", data_line(line, max_line)));
        }
    }
    section.push_footer(format!("Full handoff: {path}"));
    section.shrink_to(share);
    // A heading whose lines were all cut says nothing but its name.
    if section
        .last_item()
        .is_some_and(|item| !item.starts_with(' '))
    {
        section.shrink();
    }
    section
}

/// The characters a handoff takes when injected with room to spare, without its pointer to the
/// file; `None` when its document does not read back.
pub(super) fn injected_chars(handoff: &Handoff) -> Option<usize> {
    let parsed = read_handoff(&handoff.render()).ok()?;
    let section = handoff_section(
        &parsed,
        HandoffOrigin::Previous,
        "",
        handoff.timestamp,
        handoff.timestamp,
        usize::MAX,
    );
    Some(section.render().chars().count())
}

/// The todos among the open threads the section shows, as their text reads in the steps.
fn todos_among_threads(handoff: &ParsedHandoff) -> HashSet<&str> {
    handoff
        .sections
        .iter()
        .filter(|(heading, _)| heading == SECTION_OPEN)
        .flat_map(|(_, lines)| lines.iter().take(lines_shown(SECTION_OPEN)))
        .filter_map(|line| {
            let todo = item_text(line).strip_prefix("Todo (")?;
            let (_, text) = todo.split_once("): ")?;
            // A carried-forward todo says where it comes from; its step (if any) does not.
            Some(text.split(SINCE).next().unwrap_or(text))
        })
        .collect()
}

/// A section line without its list marker.
fn item_text(line: &str) -> &str {
    line.strip_prefix("- ").unwrap_or(line).trim()
}

/// Where a section goes: what the session set out to do and what it left open first, its
/// raw material (files, the last reply, the user's requests, the earlier replies) last.
fn priority(heading: &str) -> usize {
    match heading {
        SECTION_GOAL => 0,
        SECTION_OPEN => 1,
        SECTION_ACCOMPLISHED => 2,
        SECTION_DECISIONS => 3,
        SECTION_IN_PROGRESS => 4,
        SECTION_NEXT_STEPS => 5,
        SECTION_FILES => 6,
        SECTION_LAST_MESSAGE => 7,
        SECTION_REQUESTS => 8,
        SECTION_TURNS => 9,
        _ => 10,
    }
}

/// Lines shown of a section at most, whatever the share.
fn lines_shown(heading: &str) -> usize {
    match heading {
        SECTION_GOAL => 2,
        SECTION_OPEN => 8,
        SECTION_ACCOMPLISHED => 10,
        SECTION_DECISIONS | SECTION_IN_PROGRESS | SECTION_NEXT_STEPS => 5,
        SECTION_FILES => 4,
        SECTION_LAST_MESSAGE => 14,
        SECTION_REQUESTS => 10,
        SECTION_TURNS => 8,
        _ => MAX_LINES_PER_SECTION,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::handoff::read_handoff;
    use rstest::rstest;

    fn fixture() -> ParsedHandoff {
        read_handoff(include_str!("../../../tests/fixtures/handoff/handoff.md")).unwrap()
    }

    /// The section of a handoff written just now, with room to spare.
    fn shown_now(markdown: &str) -> String {
        shown(markdown, 4_000)
    }

    /// The section of a handoff written just now, cut to `share`.
    fn shown(markdown: &str, share: usize) -> String {
        let handoff = read_handoff(markdown).unwrap();
        handoff_section(
            &handoff,
            HandoffOrigin::Previous,
            "/p/h.md",
            now(),
            now(),
            share,
        )
        .render()
    }

    fn now() -> Timestamp {
        Timestamp::parse("2026-11-22T18:40:12Z").unwrap()
    }

    #[test]
    fn names_the_branch_the_session_ended_on() {
        let text = shown_now(
            "---\nsession_id: s1\nduration_turns: 2\nbranch: fix/tags\n---\n## Goal\n- ship\n",
        );
        assert!(
            text.starts_with("Handoff from the previous session (just now, 2026-11-22 18:40 UTC; session s1, 2 turns, on branch fix/tags):"),
            "{text}"
        );
    }

    #[test]
    fn says_when_and_from_which_session() {
        let handoff = fixture();
        let text = handoff_section(
            &handoff,
            HandoffOrigin::Previous,
            "/p/handoff.md",
            handoff.timestamp.unwrap(),
            now(),
            4_000,
        )
        .render();
        assert!(
            text.starts_with(
                "Handoff from the previous session (1 day ago, 2026-11-21 18:40 UTC; session 81b8f225, 14 turns):\n\
                 What Was Accomplished:\n  - Added a retry budget"
            ),
            "{text}"
        );
        assert!(
            text.contains("Files Changed:\n  - src/fetcher/retry.rs, tests/fetcher_timeouts.rs"),
            "an older handoff's front-matter files are listed too:\n{text}"
        );
        assert!(
            text.contains(
                "Suggested Next Steps:\n  - Stub the payment sandbox in the timeout test."
            )
        );
        assert!(text.ends_with("Full handoff: /p/handoff.md"));
    }

    #[test]
    fn the_goal_and_open_threads_lead_and_the_newest_requests_come_first() {
        let text = shown_now(
            "---\nsession_id: s1\n---\n## User Requests\n- older\n- newest\n\n## What Was Accomplished\n- Committed abc1234 on main: x\n\n## Open Threads\n- Last request, not answered: newest\n\n## Goal\n- First request: build it\n",
        );
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            vec![
                "Goal:",
                "  - First request: build it",
                "Open Threads:",
                "  - Last request, not answered: newest",
                "What Was Accomplished:",
                "  - Committed abc1234 on main: x",
                "User Requests:",
                "  - newest",
                "  - older",
                "Full handoff: /p/h.md",
            ]
        );
    }

    #[test]
    fn the_requests_come_before_the_earlier_turns_which_a_tight_share_cuts_first() {
        let markdown = "---\nsession_id: s1\n---\n## Earlier Turns\n- the reply of an earlier turn, long enough to take the room that is left\n\n## User Requests\n- fix the login redirect\n";
        let full = shown_now(markdown);
        let requests = full.find("User Requests:").expect("requests shown");
        let turns = full.find("Earlier Turns:").expect("turns shown");
        assert!(requests < turns, "{full}");
        let cut = shown(markdown, full.chars().count() - 20);
        assert!(cut.contains("  - fix the login redirect"), "{cut}");
        assert!(!cut.contains("Earlier Turns:"), "{cut}");
    }

    #[rstest]
    #[case::the_newest_ten_of_twelve(12, 10, 3)]
    #[case::all_of_a_few(3, 3, 1)]
    fn the_newest_ten_requests_are_shown_each_by_its_opening(
        #[case] written: usize,
        #[case] expected: usize,
        #[case] oldest_shown: usize,
    ) {
        let requests: String = (1..=written)
            .map(|n| format!("- request {n:02} {}\n", "word ".repeat(60)))
            .collect();
        let text = shown(
            &format!("---\nsession_id: s1\n---\n## User Requests\n{requests}"),
            100_000,
        );
        let shown_requests: Vec<&str> = text
            .lines()
            .filter(|line| line.starts_with("  - request"))
            .collect();
        assert_eq!(shown_requests.len(), expected, "{text}");
        assert!(
            shown_requests[0].starts_with(&format!("  - request {written:02}")),
            "{text}"
        );
        assert!(
            shown_requests[expected - 1].starts_with(&format!("  - request {oldest_shown:02}")),
            "{text}"
        );
        // Each is cut to the line's width, its list marker included, and says it was cut.
        for line in &shown_requests {
            let item = line.trim_start();
            assert_eq!(item.chars().count(), MAX_REQUEST_LINE, "{line}");
            assert!(item.ends_with('…'), "{line}");
        }
    }

    #[test]
    fn a_handoff_that_ended_meanwhile_says_so() {
        let handoff = fixture();
        let text = handoff_section(
            &handoff,
            HandoffOrigin::EndedMeanwhile,
            "/p/handoff.md",
            handoff.timestamp.unwrap(),
            now(),
            4_000,
        )
        .render();
        assert!(
            text.starts_with("Handoff from a session that ended since this one began (1 day ago"),
            "{text}"
        );
    }

    #[test]
    fn is_cut_to_its_share_and_keeps_the_pointer() {
        let mut handoff = fixture();
        handoff.sections.push((
            "Notes".into(),
            (0..500).map(|n| format!("- note {n}")).collect(),
        ));
        let section = handoff_section(
            &handoff,
            HandoffOrigin::Previous,
            "/p/handoff.md",
            handoff.timestamp.unwrap(),
            now(),
            600,
        );
        let text = section.render();
        assert!(text.chars().count() <= 600, "{}", text.chars().count());
        assert!(text.contains("Full handoff: /p/handoff.md"));
        assert!(text.contains("more not shown"));
    }

    #[test]
    fn a_heading_left_without_its_lines_goes_too() {
        let markdown = "---\nsession_id: s1\n---\n## Goal\n- First request: build it\n\n## Earlier Turns\n- a turn long enough not to fit in the share that is left for it here\n";
        let full = shown_now(markdown);
        assert!(full.contains("Earlier Turns:"), "{full}");
        let cut = shown(markdown, full.chars().count() - 20);
        assert!(!cut.contains("Earlier Turns:"), "{cut}");
        assert!(cut.contains("  - First request: build it"), "{cut}");
        assert!(cut.contains("(+2 more not shown)"), "{cut}");
    }

    #[rstest]
    #[case::a_todo_thread_is_not_a_step_again(
        "- Todo (pending): Deploy it\n- Todo (in progress): Test it",
        "- Test it",
        "- Deploy it",
        false,
        false
    )]
    #[case::a_step_no_thread_names_stays(
        "- Todo (pending): Deploy it",
        "- Test it",
        "- Write docs",
        true,
        true
    )]
    #[case::a_carried_todo_is_matched_without_its_origin(
        "- Todo (pending): Deploy it (open since session 0000aaaa)",
        "- Test it",
        "- Deploy it",
        true,
        false
    )]
    fn open_todos_are_not_listed_again_as_steps(
        #[case] threads: &str,
        #[case] in_progress: &str,
        #[case] next: &str,
        #[case] progress_shown: bool,
        #[case] next_shown: bool,
    ) {
        let text = shown_now(&format!(
            "---\nsession_id: s1\n---\n## Open Threads\n{threads}\n\n## What's In Progress\n{in_progress}\n\n## Suggested Next Steps\n{next}\n"
        ));
        assert_eq!(
            text.contains("What's In Progress:"),
            progress_shown,
            "{text}"
        );
        assert_eq!(text.contains("Suggested Next Steps:"), next_shown, "{text}");
        assert!(text.contains("Todo (pending): Deploy it"), "{text}");
    }

    #[test]
    fn a_todo_the_threads_cap_hides_is_still_a_step() {
        let threads: String = (0..9)
            .map(|n| format!("- Todo (pending): step {n}\n"))
            .collect();
        let text = shown_now(&format!(
            "---\nsession_id: s1\n---\n## Open Threads\n{threads}\n## Suggested Next Steps\n- step 8\n"
        ));
        assert!(text.contains("Suggested Next Steps:\n  - step 8"), "{text}");
    }
}
