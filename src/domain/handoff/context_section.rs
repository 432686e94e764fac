//! The newest handoff as the session start shows it: compact, within its share of the
//! budget, pointing at the full file.

use crate::domain::context::Section;
use crate::domain::format::{clip, relative_time};
use crate::domain::seed::Timestamp;

use super::ParsedHandoff;

const MAX_LINE: usize = 300;

/// `Handoff from the previous session (1 day ago, 2026-11-21 18:40 UTC; session 81b8f225,
/// 14 turns):` then each section's lines, cut to `share` characters with a pointer to the
/// file. `written` is the front matter's timestamp, else the file's modification time.
pub fn handoff_section(
    handoff: &ParsedHandoff,
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
    if !about.is_empty() {
        facts.push(about.join(", "));
    }
    let mut section = Section::items(format!(
        "Handoff from the previous session ({}):",
        facts.join("; ")
    ));
    if !handoff.files_changed.is_empty() {
        let files = clip(&handoff.files_changed.join(", "), MAX_LINE);
        section.push_item(format!("Files changed: {files}"));
    }
    for (heading, lines) in &handoff.sections {
        if lines.is_empty() {
            continue;
        }
        if !heading.is_empty() {
            section.push_item(format!("{heading}:"));
        }
        for line in lines {
            section.push_item(format!("  {}", clip(line, MAX_LINE)));
        }
    }
    section.push_fixed(format!("Full handoff: {path}"));
    section.shrink_to(share);
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::handoff::read_handoff;

    fn fixture() -> ParsedHandoff {
        read_handoff(include_str!("../../../tests/fixtures/handoff/handoff.md")).unwrap()
    }

    fn now() -> Timestamp {
        Timestamp::parse("2026-11-22T18:40:12Z").unwrap()
    }

    #[test]
    fn says_when_and_from_which_session() {
        let handoff = fixture();
        let text = handoff_section(
            &handoff,
            "/p/handoff.md",
            handoff.timestamp.unwrap(),
            now(),
            4_000,
        )
        .render();
        assert!(
            text.starts_with(
                "Handoff from the previous session (1 day ago, 2026-11-21 18:40 UTC; session 81b8f225, 14 turns):\n\
                 Files changed: src/fetcher/retry.rs, tests/fetcher_timeouts.rs\n\
                 What Was Accomplished:\n  - Added a retry budget"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "Suggested Next Steps:\n  - Stub the payment sandbox in the timeout test."
            )
        );
        assert!(text.ends_with("Full handoff: /p/handoff.md"));
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
}
