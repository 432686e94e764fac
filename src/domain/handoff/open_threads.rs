//! What a session left open, judged from how it ended: an unanswered request, an error, a
//! question to the user, edits not committed, a failed check, open todos, tasks a compaction
//! summary listed as pending.

use crate::domain::format::clip;
use crate::domain::transcript::{
    Ending, NotesKind, PlanVerdict, SessionDigest, TodoStatus, command_gist,
};

use super::compact_summary::CompactSummary;
use super::file_groups::{is_outside, relative_path, shown_path};

const MAX_LINE: usize = 240;
/// The headings of a state file the session wrote are cut to this, each to the second: they
/// orient, the file holds the rest.
const MAX_NOTES_HEADINGS: usize = 100;
const MAX_NOTES_HEADING: usize = 60;
/// How the thread of files left uncommitted opens.
pub const WORKING_TREE_THREAD: &str = "Also uncommitted at the last git status";
/// How the thread of a pushed branch without a pull request opens.
pub const PULL_REQUEST_THREAD: &str = "No pull request opened for the pushed branch yet";
/// How the thread of the vulnerabilities a push reported opens.
pub const VULNERABILITIES_THREAD: &str = "Reported at the last push";
/// How the thread of a state file the session wrote opens.
pub const STATE_NOTES_THREAD: &str = "Where the work stands, as the session noted it in";
/// Threads that tell the state of the repository as last seen: the next session sees it
/// afresh, so they are not carried forward.
pub const SNAPSHOT_THREADS: [&str; 4] = [
    WORKING_TREE_THREAD,
    PULL_REQUEST_THREAD,
    VULNERABILITIES_THREAD,
    STATE_NOTES_THREAD,
];
/// Where a plan's thread names the plan's file: the file's name is no part of the plan's
/// work, so what resolves the thread is judged without it.
pub const PLAN_FILE: &str = " (full plan: ";
/// The request a question to the user answers is quoted up to this.
const MAX_ASKED: usize = 80;
/// A command quoted in a thread is cut to this.
const MAX_COMMAND: usize = 120;
/// Phrases with which a reply hands the next move to the user.
const AWAITING: [&str; 14] = [
    "if you agree",
    "shall i",
    "should i",
    "would you like",
    "want me to",
    "let me know",
    "do you want",
    "which option",
    "which one",
    "your call",
    "approve",
    "confirm",
    "ready to proceed",
    "how would you like",
];

/// The session's open threads, the most pressing first.
pub fn open_threads(digest: &SessionDigest, summary: &CompactSummary, root: &str) -> Vec<String> {
    let mut threads = Vec::new();
    let last_request = digest.user_requests.last().map(|r| clip(r, MAX_LINE));
    match (&digest.ending, &last_request) {
        (Ending::ApiError(error), _) => threads.push(format!(
            "The session ended on an API error: {}",
            clip(error, MAX_LINE)
        )),
        (Ending::Unanswered, Some(request)) => {
            threads.push(format!("Last request, not answered: {request}"));
        }
        (Ending::Interrupted, Some(request)) => threads.push(format!(
            "The user interrupted the work on the last request: {request}"
        )),
        _ => {}
    }
    if let Some(check) = digest.last_check.as_ref().filter(|check| !check.passed) {
        threads.push(clip(
            &format!("Last check failed: `{}`: {}", check.command, check.summary),
            MAX_LINE,
        ));
    }
    if digest.ending == Ending::Replied
        && let Some(question) = digest.last_assistant_message.as_deref().and_then(awaiting)
    {
        let to = last_request
            .as_deref()
            .map(|request| format!(" (to “{}”)", clip(request, MAX_ASKED)))
            .unwrap_or_default();
        threads.push(format!("Awaiting the user's answer{to}: {question}"));
    }
    if let Some(plan) = digest.plan.as_ref().filter(|plan| plan.is_open()) {
        let state = match plan.verdict {
            PlanVerdict::Awaiting => "Plan awaiting the user's approval",
            PlanVerdict::Approved => "Plan approved, not yet carried out",
            PlanVerdict::Declined => "Plan proposed, not carried out in this session",
        };
        let file = plan
            .file
            .as_deref()
            .map(|file| format!("{PLAN_FILE}{})", relative_path(file, root)))
            .unwrap_or_default();
        threads.push(format!("{state}: “{}”{file}", plan.title));
    }
    // Files outside the project (the agent's memory, a plan) are in none of its repositories.
    let uncommitted: Vec<String> = digest
        .uncommitted_files()
        .iter()
        .map(|file| relative_path(&file.path, root))
        .filter(|path| !is_outside(path))
        .collect();
    if !uncommitted.is_empty() {
        let names: Vec<String> = uncommitted.iter().take(5).cloned().collect();
        let more = match uncommitted.len().saturating_sub(5) {
            0 => String::new(),
            more => format!(" (+{more} more)"),
        };
        let when = match digest.commits.is_empty() {
            true => "Edits not committed in this session",
            false => "Edited after the last commit",
        };
        threads.push(clip(
            &format!("{when}: {}{more}", names.join(", ")),
            MAX_LINE,
        ));
    }
    let others = digest.changed_by_others();
    if !others.is_empty() {
        let more = match others.len().saturating_sub(5) {
            0 => String::new(),
            more => format!(" (+{more} more)"),
        };
        threads.push(clip(
            &format!(
                "{WORKING_TREE_THREAD}: {}{more}",
                others[..others.len().min(5)].join(", ")
            ),
            MAX_LINE,
        ));
    }
    if let Some(command) = &digest.unfinished {
        threads.push(format!(
            "The session ended before this finished (no result recorded): `{}`",
            clip(&command_gist(command), MAX_COMMAND)
        ));
    }
    if let Some(url) = &digest.pull_request_unopened {
        threads.push(clip(&format!("{PULL_REQUEST_THREAD}: {url}"), MAX_LINE));
    }
    if let Some(ahead) = &digest.unpushed {
        let on = digest.branch.as_deref().unwrap_or("the branch");
        threads.push(clip(&format!("Not pushed: {on} is {ahead}"), MAX_LINE));
    }
    if let Some(notice) = &digest.vulnerabilities {
        threads.push(clip(
            &format!("{VULNERABILITIES_THREAD}: {notice}"),
            MAX_LINE,
        ));
    }
    for status in [TodoStatus::InProgress, TodoStatus::Pending] {
        for todo in digest.todos_in(status).take(6) {
            threads.push(format!(
                "Todo ({status}): {}",
                clip(&todo.content, MAX_LINE)
            ));
        }
    }
    let todos_open = digest
        .todos
        .iter()
        .any(|todo| todo.status != TodoStatus::Completed);
    if !todos_open {
        for task in summary.pending.iter().take(3) {
            threads.push(format!(
                "Pending at the last compaction: {}",
                clip(task, MAX_LINE)
            ));
        }
    }
    // The session's own account of where it stands, for whoever picks the work up: its
    // newest headings orient, the file holds the rest.
    if let Some(notes) = digest
        .notes
        .iter()
        .rev()
        .find(|notes| notes.kind == NotesKind::State)
    {
        let file = shown_path(&notes.path, root);
        let headings: Vec<String> = notes
            .headings
            .iter()
            .rev()
            .map(|heading| clip(heading, MAX_NOTES_HEADING))
            .collect();
        threads.push(clip(
            &match headings.is_empty() {
                true => format!("{STATE_NOTES_THREAD} {file}"),
                false => format!(
                    "{STATE_NOTES_THREAD} {file}: {}",
                    clip(&headings.join("; "), MAX_NOTES_HEADINGS)
                ),
            },
            MAX_LINE,
        ));
    }
    threads
}

/// The last paragraph of a reply when it asks the user something.
fn awaiting(reply: &str) -> Option<String> {
    let last = reply
        .trim()
        .rsplit("\n\n")
        .find(|paragraph| !paragraph.trim().is_empty())?
        .trim();
    let lower = last.to_lowercase();
    let asks = last.ends_with('?')
        || last.ends_with('？')
        || AWAITING.iter().any(|phrase| says(&lower, phrase));
    asks.then(|| clip(last, MAX_LINE))
}

/// Whether `text` holds `phrase` as whole words: "confirm" asks, "confirmed" reports.
fn says(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::{CheckRun, Commit, NotesChange, Plan, TodoItem};
    use rstest::rstest;

    fn digest(ending: Ending) -> SessionDigest {
        SessionDigest {
            user_requests: vec!["add retries".into(), "and a timeout test".into()],
            user_turns: 2,
            ending,
            ..SessionDigest::default()
        }
    }

    #[rstest]
    #[case::unanswered(
        Ending::Unanswered,
        Some("Last request, not answered: and a timeout test")
    )]
    #[case::api_error(
        Ending::ApiError("You've hit your session limit".into()),
        Some("The session ended on an API error: You've hit your session limit")
    )]
    #[case::interrupted(
        Ending::Interrupted,
        Some("The user interrupted the work on the last request: and a timeout test")
    )]
    #[case::replied(Ending::Replied, None)]
    fn judges_the_end(#[case] ending: Ending, #[case] expected: Option<&str>) {
        let threads = open_threads(&digest(ending), &CompactSummary::default(), "/p");
        assert_eq!(threads.first().map(String::as_str), expected);
    }

    #[rstest]
    #[case::unpushed(
        |d: &mut SessionDigest| {
            d.branch = Some("main".into());
            d.unpushed = Some("ahead of 'origin/main' by 2 commits".into());
        },
        "Not pushed: main is ahead of 'origin/main' by 2 commits"
    )]
    #[case::unpushed_on_an_unknown_branch(
        |d: &mut SessionDigest| d.unpushed = Some("ahead of 'origin/x' by 1 commit".into()),
        "Not pushed: the branch is ahead of 'origin/x' by 1 commit"
    )]
    #[case::pull_request_unopened(
        |d: &mut SessionDigest| d.pull_request_unopened = Some("https://github.com/o/r/pull/new/fix".into()),
        "No pull request opened for the pushed branch yet: https://github.com/o/r/pull/new/fix"
    )]
    #[case::vulnerabilities(
        |d: &mut SessionDigest| d.vulnerabilities = Some("GitHub found 2 vulnerabilities on o/r's default branch (1 high, 1 moderate)".into()),
        "Reported at the last push: GitHub found 2 vulnerabilities on o/r's default branch (1 high, 1 moderate)"
    )]
    #[case::unfinished(
        |d: &mut SessionDigest| d.unfinished = Some("git commit -m 'x'\necho done".into()),
        "The session ended before this finished (no result recorded): `git commit -m 'x'; echo done`"
    )]
    fn names_work_left_half_way(#[case] set: fn(&mut SessionDigest), #[case] expected: &str) {
        let mut digest = digest(Ending::Replied);
        set(&mut digest);
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert!(threads.iter().any(|t| t == expected), "{threads:?}");
    }

    #[rstest]
    #[case::question("Done.\n\nShould I also update the docs?", true)]
    #[case::if_you_agree("Plan below.\n\nIf you agree, I will start with step 1.", true)]
    #[case::full_width_question("完了しました。\n\n次に進みますか？", true)]
    #[case::statement("All tests pass.", false)]
    #[case::asks_to_confirm("Pushed.\n\nPlease confirm the deploy went through.", true)]
    #[case::reports_a_confirmation("Pushed.\n\nFive failures are now confirmed unfixable.", false)]
    #[case::reports_an_approval("Merged.\n\nThe PR was approved by both reviewers.", false)]
    fn notices_a_question_to_the_user(#[case] reply: &str, #[case] expected: bool) {
        let mut digest = digest(Ending::Replied);
        digest.last_assistant_message = Some(reply.into());
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(
            threads
                .iter()
                .any(|t| t.starts_with("Awaiting the user's answer")),
            expected,
            "{threads:?}"
        );
    }

    #[test]
    fn a_question_names_the_request_it_answers() {
        let mut digest = digest(Ending::Replied);
        digest.last_assistant_message =
            Some("The working tree is clean. Did you have a change in mind?".into());
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(
            threads,
            vec![
                "Awaiting the user's answer (to “and a timeout test”): The working tree is clean. Did you have a change in mind?"
            ]
        );
    }

    #[rstest]
    #[case::declined(
        PlanVerdict::Declined,
        false,
        Some(
            "Plan proposed, not carried out in this session: “Merge Prompt & Context” (full plan: /h/.claude/plans/blum.md)"
        )
    )]
    #[case::awaiting(
        PlanVerdict::Awaiting,
        false,
        Some(
            "Plan awaiting the user's approval: “Merge Prompt & Context” (full plan: /h/.claude/plans/blum.md)"
        )
    )]
    #[case::approved_not_started(
        PlanVerdict::Approved,
        false,
        Some(
            "Plan approved, not yet carried out: “Merge Prompt & Context” (full plan: /h/.claude/plans/blum.md)"
        )
    )]
    #[case::carried_out(PlanVerdict::Approved, true, None)]
    #[case::superseded_by_other_work(PlanVerdict::Declined, true, None)]
    fn a_plan_not_carried_out_is_open(
        #[case] verdict: PlanVerdict,
        #[case] followed_by_work: bool,
        #[case] expected: Option<&str>,
    ) {
        let mut digest = digest(Ending::Replied);
        digest.plan = Some(Plan {
            title: "Merge Prompt & Context".into(),
            file: Some("/h/.claude/plans/blum.md".into()),
            verdict,
            followed_by_work,
        });
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        let found = threads
            .iter()
            .find(|t| t.starts_with("Plan "))
            .map(String::as_str);
        assert_eq!(found, expected, "{threads:?}");
    }

    #[test]
    fn a_plan_without_a_known_file_is_named_alone() {
        let mut digest = digest(Ending::Replied);
        digest.plan = Plan::proposed("# Plan: Fix the parser", None);
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(
            threads,
            vec!["Plan awaiting the user's approval: “Fix the parser”"]
        );
    }

    #[rstest]
    #[case::others_only(
        &["src/ci.yml", "src/ingest.py", "notes/"],
        &["/p/src/ci.yml"],
        Some("Also uncommitted at the last git status: src/ingest.py, notes/")
    )]
    #[case::inside_an_edited_dir(&["docs/"], &["/p/docs/plan.md"], None)]
    #[case::all_the_sessions_own(&["src/a.rs"], &["/p/src/a.rs"], None)]
    #[case::windows_paths(&["render/render.go"], &["D:\\posh\\src\\render\\render.go"], None)]
    #[case::clean(&[], &["/p/src/a.rs"], None)]
    #[case::many(
        &["a", "b", "c", "d", "e", "f", "g"],
        &[],
        Some("Also uncommitted at the last git status: a, b, c, d, e (+2 more)")
    )]
    fn changes_left_by_others_are_open(
        #[case] tree: &[&str],
        #[case] edited: &[&str],
        #[case] expected: Option<&str>,
    ) {
        let mut digest = digest(Ending::Replied);
        digest.working_tree = tree.iter().map(|p| (*p).to_owned()).collect();
        for path in edited {
            digest.touch_file(path);
        }
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        let found = threads
            .iter()
            .find(|t| t.starts_with("Also uncommitted"))
            .map(String::as_str);
        assert_eq!(found, expected, "{threads:?}");
    }

    #[rstest]
    #[case::newest_headings_first(
        &["Reimplement the server", "Pin `mcp` to 1.28.x"],
        "HANDOFF.md: Pin `mcp` to 1.28.x; Reimplement the server"
    )]
    #[case::without_headings_the_file(&[], "HANDOFF.md")]
    fn the_newest_state_file_tells_where_the_work_stands(
        #[case] headings: &[&str],
        #[case] expected: &str,
    ) {
        let mut digest = digest(Ending::Replied);
        let list = |list: &[&str]| list.iter().map(|h| (*h).to_owned()).collect();
        let written = NotesChange::Written;
        digest.write_notes(
            "/p/STATE.md",
            NotesKind::State,
            written,
            &[],
            list(&["Old one"]),
        );
        digest.write_notes(
            "/p/HANDOFF.md",
            NotesKind::State,
            written,
            &[],
            list(headings),
        );
        digest.write_notes(
            "/p/ADR.md",
            NotesKind::Decisions,
            written,
            &[],
            list(&["Use X"]),
        );
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(threads, [format!("{STATE_NOTES_THREAD} {expected}")]);
    }

    #[test]
    fn edits_after_the_last_commit_are_open() {
        let mut digest = digest(Ending::Replied);
        digest.uses_git = true;
        digest.touch_file("/p/src/a.rs");
        let at = digest.tick();
        digest.commits.push(Commit {
            hash: "abc1234".into(),
            subject: "x".into(),
            branch: "main".into(),
            at,
        });
        digest.touch_file("/p/src/b.rs");
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(threads, vec!["Edited after the last commit: src/b.rs"]);
    }

    #[test]
    fn edits_outside_the_project_are_not_uncommitted() {
        let mut digest = digest(Ending::Replied);
        digest.uses_git = true;
        digest.touch_file("/home/u/.claude/projects/-p/memory/resume.md");
        digest.touch_file("/home/u/.claude/plans/blum.md");
        digest.touch_file("/p/src/a.rs");
        let threads = open_threads(&digest, &CompactSummary::default(), "/p");
        assert_eq!(
            threads,
            vec!["Edits not committed in this session: src/a.rs"]
        );
    }

    #[test]
    fn without_git_edits_are_not_judged() {
        let mut digest = digest(Ending::Replied);
        digest.touch_file("/p/src/a.rs");
        assert!(open_threads(&digest, &CompactSummary::default(), "/p").is_empty());
    }

    #[test]
    fn failed_checks_open_todos_and_compaction_tasks() {
        let mut digest = digest(Ending::Replied);
        digest.last_check = Some(CheckRun {
            command: "npm run build".into(),
            passed: false,
            summary: "TypeError: generate is not a function".into(),
        });
        let summary = CompactSummary {
            pending: vec!["Fix the duplicate keys".into()],
            ..CompactSummary::default()
        };
        let threads = open_threads(&digest, &summary, "/p");
        assert_eq!(
            threads,
            vec![
                "Last check failed: `npm run build`: TypeError: generate is not a function",
                "Pending at the last compaction: Fix the duplicate keys"
            ]
        );
        digest.todos.push(TodoItem {
            content: "Write the docs".into(),
            status: TodoStatus::Pending,
        });
        let threads = open_threads(&digest, &summary, "/p");
        assert_eq!(threads[1], "Todo (pending): Write the docs");
        assert_eq!(
            threads.len(),
            2,
            "open todos supersede the compaction's list"
        );
    }
}
