//! A handoff from a session's digest, by rules and without a model: the goal, what got done
//! (commits, pushes, links, the last check, completed todos), what is open, the user's
//! choices, the files, the requests and the last reply, with secrets redacted.

use crate::domain::extraction::candidates_from;
use crate::domain::format::clip;
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{
    RefusedAction, SessionDigest, TodoStatus, implemented_plan, is_read_only_command,
    opens_numbered_answers, plan_request,
};

use super::compact_summary::read_compact_summary;
use super::context_section::{HANDOFF_MAX_CHARS, POINTER_ROOM, injected_chars};
use super::file_groups::{file_groups, relative_path, shown_path};
use super::last_reply::cut_reply;
use super::open_threads::open_threads;
use super::scratch::is_scratch_file;
use super::user_choice::is_user_choice;
use super::{Handoff, ParsedHandoff, carried_threads, link_lines, thread_text};
use crate::domain::transcript::is_decision_file;

const REQUESTS_KEPT: usize = 10;
const MAX_ITEM: usize = 300;
const MAX_GOAL: usize = 400;
/// Lines of links (a repository's issues or pull requests share one).
const MAX_LINK_LINES: usize = 5;
/// How sure the proposal rules must be that a request lays down a standing rule for the
/// handoff to pass it on as a decision (proposals start lower, at 0.65).
const RULE_FLOOR: f64 = 0.8;
/// The newest requests read for such rules (the session end's time stays bounded however
/// long the session ran; session end's proposals read them all)…
const RULES_READ: usize = 60;
/// …and the longest: a longer one is a specification or pasted text.
const MAX_RULE_REQUEST: usize = 600;
const MAX_MESSAGE: usize = 800;
const MAX_TURN_REPLY: usize = 220;
/// Todo items listed per state; a list of 100,000 must not make a megabyte handoff.
const MAX_TODOS_SHOWN: usize = 30;
const MAX_COMMITS_SHOWN: usize = 5;
const MAX_DECISIONS: usize = 6;
/// A check's command is cut to this: a chained shell pipeline says less than its result.
const MAX_CHECK_COMMAND: usize = 80;
/// Answers among the decisions: a stated choice says more than a reply to a question.
const MAX_ANSWERS: usize = 2;
/// Refused tool calls among the decisions, the newest.
const MAX_REFUSALS: usize = 2;
/// A refused command is cut to this, and what the user typed when refusing a call to the
/// next: the line says what was kept from happening and why, not the whole command.
const MAX_REFUSED_COMMAND: usize = 80;
const MAX_REFUSAL_SAID: usize = 160;
const MAX_FILES_GROUPED: usize = 12;

/// Where the handoff is for and what came before it.
#[derive(Debug, Clone, Copy)]
pub struct HandoffScope<'a> {
    /// The session that ends.
    pub session_id: &'a str,
    /// The project's name.
    pub project_name: &'a str,
    /// The project's root, to make paths relative (either separator).
    pub root: &'a str,
    /// The project's previous handoff, whose open threads come along unless resolved.
    pub previous: Option<&'a ParsedHandoff>,
}

/// Builds the handoff of a session. Every text passes through the redactor first.
pub fn build_handoff(digest: &SessionDigest, scope: HandoffScope<'_>, now: Timestamp) -> Handoff {
    let mut digest = digest.redacted();
    digest
        .files
        .retain(|file| !is_scratch_file(&file.path, scope.root));
    let digest = &digest;
    // A commit after the compaction means its pending work and current work moved on; its
    // decisions still stand.
    let mut summary = digest
        .compact_summary
        .as_deref()
        .map(read_compact_summary)
        .unwrap_or_default();
    if digest.committed_since_compaction {
        summary.pending.clear();
        summary.current_work = None;
    }
    let todos = |status: TodoStatus| -> Vec<String> {
        let all: Vec<&str> = digest
            .todos_in(status)
            .map(|t| t.content.as_str())
            .collect();
        let mut kept: Vec<String> = all
            .iter()
            .take(MAX_TODOS_SHOWN)
            .map(|todo| clip(todo, MAX_ITEM))
            .collect();
        if all.len() > MAX_TODOS_SHOWN {
            kept.push(format!("(+{} more)", all.len() - MAX_TODOS_SHOWN));
        }
        kept
    };
    let mut open = open_threads(digest, &summary, scope.root);
    let done: Vec<String> = digest
        .commits
        .iter()
        .map(|commit| commit.subject.clone())
        .chain(
            digest
                .todos_in(TodoStatus::Completed)
                .map(|t| t.content.clone()),
        )
        .chain(
            digest
                .user_requests
                .first()
                .filter(|_| digest.work_done > 0)
                .and_then(|request| implemented_plan(request)),
        )
        .collect();
    if let Some(previous) = scope.previous {
        for carried in carried_threads(previous, &done) {
            if !open
                .iter()
                .any(|thread| thread_text(thread) == thread_text(&carried))
            {
                open.push(carried);
            }
        }
    }
    let (files, _) = digest.files_shown();
    let replies = distinct_turn_replies(digest);
    let handoff = Handoff {
        session_id: scope.session_id.to_owned(),
        timestamp: now,
        project: scope.project_name.to_owned(),
        duration_turns: digest.user_turns,
        branch: digest.branch.clone(),
        substantive: digest.work_done > 0 || !digest.commits.is_empty() || !digest.todos.is_empty(),
        files_changed: files
            .iter()
            .map(|file| clip(&relative_path(file, scope.root), MAX_ITEM))
            .collect(),
        goal: goal(digest),
        open_threads: open,
        file_groups: file_groups(&digest.files_newest_first(), scope.root, MAX_FILES_GROUPED)
            .into_iter()
            .map(|line| clip(&line, MAX_ITEM))
            .collect(),
        accomplished: accomplished(digest, todos(TodoStatus::Completed)),
        in_progress: todos(TodoStatus::InProgress)
            .into_iter()
            .chain(
                summary
                    .current_work
                    .iter()
                    .map(|work| format!("At the last compaction: {}", clip(work, MAX_ITEM))),
            )
            .collect(),
        decisions: decisions(digest, &summary.decisions, scope.root),
        next_steps: todos(TodoStatus::Pending),
        requests: {
            let quoted = requests_in_goal(&digest.user_requests);
            let later = digest.user_requests.get(quoted..).unwrap_or_default();
            // A request said again ("commit and continue") is listed once, where it was last.
            let mut kept: Vec<&String> = Vec::new();
            for request in later.iter().rev() {
                if kept.len() == REQUESTS_KEPT {
                    break;
                }
                if !kept.contains(&request) {
                    kept.push(request);
                }
            }
            kept.iter().rev().map(|r| clip(r, MAX_ITEM)).collect()
        },
        earlier_turns: replies
            .iter()
            .map(|reply| turn_line(reply, MAX_TURN_REPLY))
            .collect(),
        last_message: digest
            .last_assistant_message
            .as_deref()
            .map(|message| cut_reply(message, MAX_MESSAGE)),
    };
    with_wider_turns(handoff, &replies)
}

/// Widths an earlier turn's reply may grow to, in steps, while the handoff leaves room.
const WIDER_TURN_REPLIES: [usize; 3] = [400, 700, 1_000];

/// A short session's handoff leaves most of its budget unused: its earlier turns then keep
/// more of each reply, the newest first and a step at a time, as long as the whole still fits
/// with its pointer to the file.
fn with_wider_turns(mut handoff: Handoff, replies: &[&str]) -> Handoff {
    let fits = |handoff: &Handoff| {
        injected_chars(handoff).is_some_and(|chars| chars + POINTER_ROOM <= HANDOFF_MAX_CHARS)
    };
    if !fits(&handoff) {
        return handoff;
    }
    // `replies` are what the turns were cut from, in the same order: they line up.
    for width in WIDER_TURN_REPLIES {
        for (at, reply) in replies.iter().enumerate().take(TURNS_WIDENED) {
            let turn = turn_line(reply, width);
            if handoff.earlier_turns.get(at) == Some(&turn) {
                continue;
            }
            let mut candidate = handoff.clone();
            candidate.earlier_turns[at] = turn;
            if fits(&candidate) {
                handoff = candidate;
            }
        }
    }
    handoff
}

/// Earlier turns a session start shows at most, and so the only ones worth widening.
const TURNS_WIDENED: usize = 8;

/// Replies that open alike on this many characters say the same thing (a document written
/// again after a correction): the newest stands for them.
const SAME_OPENING: usize = 150;
/// A reply shorter than this ("Done.") is like no other.
const MIN_OPENING: usize = 20;

/// Words an earlier turn's reply needs outside its code blocks to tell the next session
/// anything ("Applied.", a bare command to run, do not).
const MIN_TURN_WORDS: usize = 5;

/// Whether a reply has words to say outside its code blocks.
fn says_something(reply: &str) -> bool {
    let prose = reply
        .split("```")
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter(|word| word.chars().any(char::is_alphanumeric));
    prose.take(MIN_TURN_WORDS).count() == MIN_TURN_WORDS || reply.chars().any(|c| c as u32 > 0x2E80)
}

/// An earlier turn's reply cut to `width`, on one line.
fn turn_line(reply: &str, width: usize) -> String {
    cut_reply(reply, width)
        .replace("\n\n", " ")
        .replace('\n', " ")
}

/// The replies of earlier turns that say something, newest first, each once.
fn distinct_turn_replies(digest: &SessionDigest) -> Vec<&str> {
    let opening = |text: &str| -> String {
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
            .chars()
            .take(SAME_OPENING)
            .collect()
    };
    let mut seen: Vec<String> = digest
        .last_assistant_message
        .as_deref()
        .map(opening)
        .into_iter()
        .collect();
    digest
        .turn_replies
        .iter()
        .rev()
        .filter(|reply| says_something(reply))
        .filter(|reply| {
            let key = opening(reply);
            let alike = |known: &String| {
                let (short, long) = match known.len() <= key.len() {
                    true => (known, &key),
                    false => (&key, known),
                };
                short.chars().count() >= MIN_OPENING && long.starts_with(short.as_str())
            };
            let fresh = !seen.iter().any(alike);
            seen.push(key);
            fresh
        })
        .map(String::as_str)
        .collect()
}

/// Requests shorter than this (a bare command, "hi") do not state a goal alone.
const TERSE_REQUEST: usize = 24;

/// The client's title, then the first request (with the next one when the first is terse).
fn goal(digest: &SessionDigest) -> Vec<String> {
    let mut goal = Vec::new();
    if let Some(title) = &digest.title {
        goal.push(format!("Title: {}", clip(title, MAX_ITEM)));
    }
    let requests = &digest.user_requests;
    let Some(first) = requests.first() else {
        return goal;
    };
    let quoted = requests_in_goal(requests);
    let text = match quoted {
        1 => plan_request(first).unwrap_or_else(|| first.clone()),
        _ => requests[..quoted]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" → "),
    };
    goal.push(format!("First request: {}", clip(&text, MAX_GOAL)));
    goal
}

/// Terse requests at most that the goal runs on through.
const TERSE_OPENINGS: usize = 3;

/// How many of the first requests the goal quotes: terse openings ("hi", "whoami") run on to
/// the first request that says what is wanted, or to the second when none does soon.
fn requests_in_goal(requests: &[String]) -> usize {
    let opening = requests
        .iter()
        .position(|request| request.chars().count() >= TERSE_REQUEST)
        .filter(|at| *at < TERSE_OPENINGS)
        .unwrap_or(1);
    (opening + 1).min(requests.len())
}

/// Commits (newest first; a subject committed again, after a rebase or an amend, once),
/// pushes, links, the last check when it passed, completed todos.
fn accomplished(digest: &SessionDigest, completed: Vec<String>) -> Vec<String> {
    let mut seen = Vec::new();
    let commits: Vec<_> = digest
        .commits
        .iter()
        .rev()
        .filter(|commit| {
            let fresh = !seen.contains(&commit.subject);
            seen.push(commit.subject.clone());
            fresh
        })
        .collect();
    let mut done: Vec<String> = commits
        .iter()
        .take(MAX_COMMITS_SHOWN)
        .map(|commit| {
            // The heading names the branch the session ended on.
            let same = commit.branch.is_empty()
                || digest.branch.as_deref() == Some(commit.branch.as_str());
            let line = match same {
                true => format!("Committed {}: {}", commit.hash, commit.subject),
                false => format!(
                    "Committed {} on {}: {}",
                    commit.hash, commit.branch, commit.subject
                ),
            };
            clip(&line, MAX_ITEM)
        })
        .collect();
    if commits.len() > MAX_COMMITS_SHOWN {
        let earlier: Vec<&str> = commits[MAX_COMMITS_SHOWN..]
            .iter()
            .map(|commit| commit.hash.as_str())
            .collect();
        done.push(clip(
            &format!("Earlier commits: {}", earlier.join(", ")),
            MAX_ITEM,
        ));
    }
    // `main -> main` and `HEAD -> main` say no more than `main`.
    let mut pushes: Vec<&str> = Vec::new();
    for push in &digest.pushes {
        let pushed = match push.split_once(" -> ") {
            Some((from, to)) if from == to || from == "HEAD" => to,
            _ => push.as_str(),
        };
        if !pushes.contains(&pushed) {
            pushes.push(pushed);
        }
    }
    if !pushes.is_empty() {
        done.push(clip(&format!("Pushed {}", pushes.join(", ")), MAX_ITEM));
    }
    if !digest.merges.is_empty() {
        let merges: Vec<String> = digest.merges.iter().map(ToString::to_string).collect();
        done.push(clip(&format!("Merged {}", merges.join(", ")), MAX_ITEM));
    }
    let links: Vec<&str> = digest.links.iter().rev().map(String::as_str).collect();
    for line in link_lines(&links, MAX_LINK_LINES) {
        done.push(clip(&line, MAX_ITEM));
    }
    if let Some(check) = digest.last_check.as_ref().filter(|check| check.passed) {
        done.push(clip(
            &format!(
                "Last check passed: `{}`: {}",
                clip(&check.command, MAX_CHECK_COMMAND),
                check.summary
            ),
            MAX_ITEM,
        ));
    }
    done.extend(completed);
    done
}

/// The headings the session gave the document at `path`, newest first.
fn notes_headings<'a>(digest: &'a SessionDigest, path: &str) -> Vec<&'a str> {
    digest
        .notes
        .iter()
        .find(|notes| notes.path == path)
        .map(|notes| notes.headings.iter().rev().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Decision files written, the choices the user stated, the tool calls they refused and their
/// answers to the assistant's questions (newest first), a compaction's decisions.
fn decisions(digest: &SessionDigest, from_summary: &[String], root: &str) -> Vec<String> {
    // A decision log's headings name its decisions ("Pin `mcp` to 1.28.x"): the file alone
    // says only where they are.
    let files = digest
        .files_newest_first()
        .into_iter()
        .filter(|file| is_decision_file(&file.path))
        .map(|file| {
            let place = format!("Recorded in {}", relative_path(&file.path, root));
            let headings = notes_headings(digest, &file.path);
            clip(
                &match headings.is_empty() {
                    true => place,
                    false => format!("{place}: {}", headings.join("; ")),
                },
                MAX_ITEM,
            )
        });
    let answers = digest.answers.iter().rev().map(|answer| {
        clip(
            &format!("Asked “{}” — the user: {}", answer.question, answer.answer),
            MAX_ITEM,
        )
    });
    let choices = digest
        .user_requests
        .iter()
        .rev()
        .filter(|request| is_user_choice(request))
        .filter(|request| {
            // A request that was an answer (whole, or numbered answers holding it) is shown as
            // the answer, with its question. A short answer ("no") inside another request
            // does not make that request an answer.
            let request = request.split_whitespace().collect::<Vec<_>>().join(" ");
            let numbered = opens_numbered_answers(&request);
            !digest.answers.iter().any(|answer| {
                answer.answer == request
                    || (numbered && request.contains(answer.answer.trim_end_matches('…')))
            })
        })
        .map(|request| format!("The user: {}", clip(request, MAX_ITEM)));
    // A standing rule or a fact the user laid down binds the next session as much as a
    // choice; said twice, it is passed on once.
    let mut rules: Vec<String> = Vec::new();
    let recent = digest.user_requests.iter().rev().take(RULES_READ);
    for request in recent.filter(|request| request.len() <= MAX_RULE_REQUEST) {
        if is_user_choice(request) {
            continue;
        }
        let stated = candidates_from(std::slice::from_ref(request))
            .into_iter()
            .find(|rule| rule.confidence >= RULE_FLOOR);
        if let Some(rule) = stated.filter(|rule| !rules.contains(&rule.text)) {
            rules.push(rule.text);
        }
    }
    let rules = rules
        .into_iter()
        .map(|rule| format!("The user: {}", clip(&rule, MAX_ITEM)));
    // A refusal binds when the user said why or what instead, or when it kept something from
    // changing; a look refused (`ls`, `echo $VAR`) or an edit refused without a word says
    // nothing the next session must heed.
    let refusals = digest.refusals.iter().rev().filter(|refusal| {
        refusal.said.is_some()
            || matches!(&refusal.action, RefusedAction::Command(command) if !is_read_only_command(command))
    });
    let refusals = refusals.map(|refusal| {
        let action = match &refusal.action {
            RefusedAction::Command(command) => {
                format!("`{}`", clip(command, MAX_REFUSED_COMMAND))
            }
            RefusedAction::Edit(paths) => {
                let paths: Vec<String> = paths.iter().map(|p| shown_path(p, root)).collect();
                format!("an edit of {}", paths.join(", "))
            }
        };
        let line = match &refusal.said {
            Some(said) => format!(
                "The user rejected {action}, saying: {}",
                clip(said, MAX_REFUSAL_SAID)
            ),
            None => format!("The user rejected {action}"),
        };
        clip(&line, MAX_ITEM)
    });
    let summary = from_summary.iter().map(|line| clip(line, MAX_ITEM));
    files
        .chain(choices)
        .chain(rules)
        .chain(refusals.take(MAX_REFUSALS))
        .chain(answers.take(MAX_ANSWERS))
        .chain(summary)
        .take(MAX_DECISIONS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::{
        Answer, CheckRun, Commit, Ending, NotesChange, NotesKind, TodoItem,
    };
    use rstest::rstest;

    #[rstest]
    #[case::a_request_that_says_it(&["Fix the flaky login test on CI"], 1)]
    #[case::terse_openings_run_on(&["hi", "whoami", "ssh into slate and uninstall the cloud services", "go"], 3)]
    #[case::a_terse_one_then_anything(&["hi", "fix the login test please, it flakes"], 2)]
    #[case::only_terse_ones(&["hi", "ls", "pwd", "go on"], 2)]
    #[case::a_single_terse_one(&["hi"], 1)]
    fn the_goal_quotes_the_requests_that_state_it(
        #[case] requests: &[&str],
        #[case] quoted: usize,
    ) {
        let requests: Vec<String> = requests.iter().map(|r| (*r).to_owned()).collect();
        assert_eq!(requests_in_goal(&requests), quoted);
    }

    fn digest() -> SessionDigest {
        let mut digest = SessionDigest {
            user_requests: vec![
                "please add the retry budget".into(),
                "use key sk-abcdefghijklmnopqrstu".into(),
                "let's go with exponential backoff instead of fixed delays".into(),
            ],
            user_turns: 3,
            todos: vec![
                TodoItem {
                    content: "Add retry budget".into(),
                    status: TodoStatus::Completed,
                },
                TodoItem {
                    content: "Write timeout test".into(),
                    status: TodoStatus::InProgress,
                },
                TodoItem {
                    content: "Document the policy".into(),
                    status: TodoStatus::Pending,
                },
            ],
            last_assistant_message: Some(
                "## Done\nwrote notes.txt. token ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ".into(),
            ),
            title: Some("Retry budget".into()),
            work_done: 2,
            ending: Ending::Replied,
            ..SessionDigest::default()
        };
        digest.touch_file("/home/u/shop-api/notes.txt");
        let at = digest.tick();
        digest.commits.push(Commit {
            hash: "37016ac".into(),
            subject: "Add a retry budget".into(),
            branch: "main".into(),
            at,
        });
        digest.pushes.push("main -> main".into());
        digest.last_check = Some(CheckRun {
            command: "cargo test".into(),
            passed: true,
            summary: "test result: ok. 12 passed".into(),
        });
        digest
    }

    fn scope(previous: Option<&ParsedHandoff>) -> HandoffScope<'_> {
        HandoffScope {
            session_id: "s1",
            project_name: "shop-api",
            root: "/home/u/shop-api",
            previous,
        }
    }

    fn now() -> Timestamp {
        Timestamp::parse("2026-11-22T18:40:00Z").unwrap()
    }

    #[test]
    fn states_the_goal_the_work_the_choices_and_what_is_open() {
        let handoff = build_handoff(&digest(), scope(None), now());
        assert_eq!(
            handoff.goal,
            vec![
                "Title: Retry budget",
                "First request: please add the retry budget"
            ]
        );
        assert_eq!(
            handoff.accomplished,
            vec![
                "Committed 37016ac on main: Add a retry budget",
                "Pushed main",
                "Last check passed: `cargo test`: test result: ok. 12 passed",
                "Add retry budget",
            ]
        );
        assert_eq!(
            handoff.decisions,
            vec!["The user: let's go with exponential backoff instead of fixed delays"]
        );
        assert_eq!(
            handoff.open_threads,
            vec![
                "Todo (in progress): Write timeout test",
                "Todo (pending): Document the policy"
            ]
        );
        assert_eq!(handoff.in_progress, vec!["Write timeout test"]);
        assert_eq!(handoff.next_steps, vec!["Document the policy"]);
        assert_eq!(handoff.files_changed, vec!["notes.txt"]);
        assert!(handoff.substantive);
    }

    #[test]
    fn requests_after_the_first_are_kept_and_redacted() {
        let handoff = build_handoff(&digest(), scope(None), now());
        assert_eq!(handoff.requests[0], "use key [REDACTED]");
        assert_eq!(handoff.requests.len(), 2, "the first request is the goal");
    }

    #[test]
    fn a_rule_the_user_laid_down_is_passed_on_once() {
        let rule = "Standing Orders: Never commit to main, code ends on main via PR only.";
        let digest = SessionDigest {
            user_requests: vec![rule.into(), "fix the login form".into(), rule.into()],
            user_turns: 3,
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.decisions,
            vec!["The user: Never commit to main, code ends on main via PR only."]
        );
    }

    #[rstest]
    #[case::a_command_that_changes(
        RefusedAction::Command("git reset --hard origin/main~15".into()),
        None,
        Some("The user rejected `git reset --hard origin/main~15`")
    )]
    #[case::with_what_the_user_said(
        RefusedAction::Command("mkdir -p docs/plans".into()),
        Some("use a linear comment for the plan"),
        Some("The user rejected `mkdir -p docs/plans`, saying: use a linear comment for the plan")
    )]
    #[case::a_look_refused_says_nothing(RefusedAction::Command("ls -la".into()), None, None)]
    #[case::an_edit_refused_without_a_word(
        RefusedAction::Edit(vec!["/home/u/shop-api/src/a.rs".into()]),
        None,
        None
    )]
    #[case::a_plan_file_by_its_folders_short_name(
        RefusedAction::Edit(vec!["/home/alice/.claude/plans/quiet-fox.md".into()]),
        Some("not yet"),
        Some("The user rejected an edit of ~/.claude/plans/quiet-fox.md, saying: not yet")
    )]
    #[case::a_secret_in_what_the_user_said(
        RefusedAction::Command("git push".into()),
        Some("use ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq instead"),
        Some("The user rejected `git push`, saying: use [REDACTED] instead")
    )]
    #[case::an_edit_refused_with_a_reason(
        RefusedAction::Edit(vec!["/home/u/shop-api/src/a.rs".into()]),
        Some("keep the old name"),
        Some("The user rejected an edit of src/a.rs, saying: keep the old name")
    )]
    fn a_refused_call_is_a_decision_when_it_binds(
        #[case] action: RefusedAction,
        #[case] said: Option<&str>,
        #[case] expected: Option<&str>,
    ) {
        let mut digest = SessionDigest {
            user_requests: vec!["clean up the history".into()],
            user_turns: 1,
            ..SessionDigest::default()
        };
        digest.refuse(action, said.map(str::to_owned));
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.decisions,
            expected.map(str::to_owned).into_iter().collect::<Vec<_>>()
        );
    }

    #[rstest]
    #[case::named_by_its_headings(
        &["Pin `mcp` to 1.28.x", "Single-tenant by design"],
        "Recorded in DECISIONS.md: Single-tenant by design; Pin `mcp` to 1.28.x"
    )]
    #[case::without_headings_only_the_file(&[], "Recorded in DECISIONS.md")]
    fn a_decision_log_is_named_with_the_headings_the_session_gave_it(
        #[case] headings: &[&str],
        #[case] expected: &str,
    ) {
        let mut digest = SessionDigest {
            user_requests: vec!["record the decisions".into()],
            user_turns: 1,
            ..SessionDigest::default()
        };
        let path = "/home/u/shop-api/DECISIONS.md";
        digest.touch_file(path);
        let headings = headings.iter().map(|h| (*h).to_owned()).collect();
        digest.write_notes(
            path,
            NotesKind::Decisions,
            NotesChange::Written,
            &[],
            headings,
        );
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(handoff.decisions, [expected]);
    }

    #[test]
    fn a_secret_in_a_heading_is_redacted() {
        let mut digest = SessionDigest {
            user_requests: vec!["record the decisions".into()],
            user_turns: 1,
            ..SessionDigest::default()
        };
        let path = "/home/u/shop-api/docs/STATE.md";
        let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
        let heading = format!("Rotate {token} now");
        digest.write_notes(
            path,
            NotesKind::State,
            NotesChange::Written,
            &[],
            vec![heading],
        );
        let handoff = build_handoff(&digest, scope(None), now());
        let thread = handoff
            .open_threads
            .iter()
            .find(|t| t.contains("docs/STATE.md"))
            .expect("the state file's thread");
        assert!(!thread.contains("ghp_a1B2"), "{thread}");
    }

    #[test]
    fn a_short_answer_inside_a_later_choice_leaves_the_choice_shown() {
        let digest = SessionDigest {
            user_requests: vec![
                "add retries".into(),
                "let's go with no retries instead of backoff".into(),
            ],
            user_turns: 2,
            answers: vec![Answer {
                question: "Retry on 429 too?".into(),
                answer: "no".into(),
            }],
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.decisions,
            vec![
                "The user: let's go with no retries instead of backoff",
                "Asked “Retry on 429 too?” — the user: no",
            ]
        );
    }

    #[test]
    fn numbered_answers_lead_with_the_first_question() {
        let mut digest = SessionDigest {
            last_assistant_message: Some(
                "Questions:\n1. Which backends are mandatory?\n2. May we use GPL code?\n3. Which C standard?".into(),
            ),
            ending: Ending::Replied,
            ..SessionDigest::default()
        };
        digest.push_request("1. CPU and CUDA 2. no GPL 3. C17".into());
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.decisions,
            vec![
                "Asked “Which backends are mandatory?” — the user: CPU and CUDA",
                "Asked “May we use GPL code?” — the user: no GPL",
            ]
        );
    }

    #[test]
    fn a_plan_to_carry_out_opens_the_goal_by_its_title() {
        let digest = SessionDigest {
            user_requests: vec![
                "Implement the following plan:\n\n# Plan: Tree View\n\n## Context\nThe tab lists files flat.".into(),
            ],
            user_turns: 1,
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.goal,
            vec!["First request: Implement the plan “Tree View”: The tab lists files flat."]
        );
    }

    #[test]
    fn the_last_reply_is_redacted_and_its_headings_demoted() {
        let handoff = build_handoff(&digest(), scope(None), now());
        assert_eq!(
            handoff.last_message.as_deref(),
            Some("**Done**\nwrote notes.txt. token [REDACTED]")
        );
    }

    #[rstest::rstest]
    #[case::the_sessions_branch(Some("main"), "Committed 37016ac: Add a retry budget")]
    #[case::another_branch(Some("fix/x"), "Committed 37016ac on main: Add a retry budget")]
    #[case::branch_unknown(None, "Committed 37016ac on main: Add a retry budget")]
    fn a_commit_names_its_branch_unless_the_heading_does(
        #[case] branch: Option<&str>,
        #[case] expected: &str,
    ) {
        let mut digest = digest();
        digest.branch = branch.map(str::to_owned);
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(handoff.accomplished[0], expected);
    }

    #[test]
    fn scratch_files_are_no_project_work() {
        let mut digest = digest();
        digest.touch_file("/private/tmp/claude-501/-home-u-shop-api/s1/scratchpad/probe.sh");
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(handoff.files_changed, vec!["notes.txt"]);
    }

    #[test]
    fn a_reply_written_again_is_an_earlier_turn_once() {
        let draft = "**Shadow branches** Problem: ghost files are left in the shadow tree, content is \
                     corrupted across sessions and attribution is computed on mixed data. Solution: \
                     suffixes";
        let summary = "I've completed the implementation. Here's a summary of the changes: ";
        let digest = SessionDigest {
            turn_replies: vec![
                format!("{draft}, first draft."),
                format!("{summary}the parser now reads tabs."),
                format!("{summary}the writer keeps comments."),
                "Git has no hook for restore.".into(),
                format!("{draft}, second draft."),
            ],
            last_assistant_message: Some("Git has no hook for restore.\n\nDone.".into()),
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.earlier_turns.len(),
            3,
            "the newest of two drafts, both summaries, none like the last reply: {:?}",
            handoff.earlier_turns
        );
        assert!(handoff.earlier_turns[0].contains("second draft"));
    }

    /// A reply of `paragraphs` paragraphs, each naming its number, of about 100 characters.
    fn long_reply(turn: usize, paragraphs: usize) -> String {
        (0..paragraphs)
            .map(|n| format!("Turn {turn} finding {n}: the router's DNS option was a single value and is now a list."))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    #[test]
    fn a_short_session_keeps_more_of_each_earlier_reply() {
        let digest = SessionDigest {
            user_requests: vec!["fix the router's DNS".into()],
            turn_replies: vec![long_reply(1, 6), long_reply(2, 6)],
            last_assistant_message: Some("Done.".into()),
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert!(
            handoff
                .earlier_turns
                .iter()
                .all(|turn| turn.contains("finding 3")),
            "with room to spare, the middle of each reply is kept: {:?}",
            handoff.earlier_turns
        );
        let injected = injected_chars(&handoff).unwrap();
        assert!(injected + POINTER_ROOM <= HANDOFF_MAX_CHARS, "{injected}");
    }

    #[test]
    fn a_long_session_keeps_its_earlier_replies_short() {
        let digest = SessionDigest {
            user_requests: (0..12).map(|turn| long_reply(turn, 3)).collect(),
            turn_replies: (0..12).map(|turn| long_reply(turn, 8)).collect(),
            last_assistant_message: Some(long_reply(99, 12)),
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.earlier_turns.len(),
            12,
            "{:?}",
            handoff.earlier_turns
        );
        let widest = handoff
            .earlier_turns
            .iter()
            .map(|turn| turn.chars().count())
            .max();
        assert!(
            widest.is_some_and(|widest| widest <= MAX_TURN_REPLY),
            "{:?}",
            handoff.earlier_turns
        );
    }

    #[rstest::rstest]
    #[case::a_word("Applied.", false)]
    #[case::a_command_alone("```\nopen -a \"Brave Browser\" demo.gif\n```", false)]
    #[case::a_command_and_a_word("Run:\n```\nmake demo\n```", false)]
    #[case::a_sentence("The tapes now navigate with j and Enter.", true)]
    #[case::chinese("已修复。", true)]
    fn an_earlier_turn_is_shown_when_it_says_something(#[case] reply: &str, #[case] shown: bool) {
        let digest = SessionDigest {
            turn_replies: vec![reply.into()],
            last_assistant_message: Some("Last.".into()),
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(!handoff.earlier_turns.is_empty(), shown, "{reply}");
    }

    #[test]
    fn a_session_that_only_talked_is_not_substantive() {
        let digest = SessionDigest {
            user_requests: vec!["what is a monad?".into()],
            user_turns: 1,
            last_assistant_message: Some("A monoid in the category of endofunctors.".into()),
            ..SessionDigest::default()
        };
        assert!(!build_handoff(&digest, scope(None), now()).substantive);
    }

    #[test]
    fn a_thread_carried_twice_is_listed_once() {
        // A forked session's handoff holds the thread it raised and the one it carried.
        let previous = crate::domain::handoff::read_handoff(
            "---\nsession_id: 3333cccc-1\n---\n## Open Threads\n- Awaiting the user's answer: Should the log path be configurable? (open since session 1111aaaa)\n- Awaiting the user's answer: Should the log path be configurable?\n- Todo (pending): Add a retry budget\n",
        )
        .unwrap();
        let digest = SessionDigest {
            user_requests: vec!["look at the logs".into()],
            user_turns: 1,
            ..SessionDigest::default()
        };
        let handoff = build_handoff(&digest, scope(Some(&previous)), now());
        let asked: Vec<&String> = handoff
            .open_threads
            .iter()
            .filter(|t| t.contains("log path"))
            .collect();
        assert_eq!(
            asked,
            [
                "Awaiting the user's answer: Should the log path be configurable? (open since session 1111aaaa)"
            ],
            "{:?}",
            handoff.open_threads
        );
        assert!(
            handoff
                .open_threads
                .iter()
                .any(|t| t.contains("retry budget"))
        );
    }

    #[test]
    fn open_threads_of_the_previous_handoff_come_along_unless_resolved() {
        let previous = crate::domain::handoff::read_handoff(
            "---\nsession_id: 0000aaaa-1\n---\n## Open Threads\n- Todo (pending): Deploy the staging stack\n- Todo (pending): Add a retry budget\n",
        )
        .unwrap();
        let handoff = build_handoff(&digest(), scope(Some(&previous)), now());
        assert!(
            handoff.open_threads.contains(
                &"Todo (pending): Deploy the staging stack (open since session 0000aaaa)"
                    .to_owned()
            ),
            "{:?}",
            handoff.open_threads
        );
        assert!(
            !handoff
                .open_threads
                .iter()
                .any(|t| t.contains("Add a retry budget")),
            "the commit resolved it"
        );
    }

    #[test]
    fn the_branch_and_numbered_links_come_through() {
        let mut digest = digest();
        digest.branch = Some("fix/retry".into());
        digest.links = vec!["https://github.com/a/b/pull/546".into()];
        let handoff = build_handoff(&digest, scope(None), now());
        assert!(
            handoff
                .accomplished
                .contains(&"PR #546: https://github.com/a/b/pull/546".to_owned()),
            "{:?}",
            handoff.accomplished
        );
        let read = crate::domain::handoff::read_handoff(&handoff.render()).unwrap();
        assert_eq!(read.branch.as_deref(), Some("fix/retry"));
    }

    #[test]
    fn a_request_said_again_is_listed_once_where_it_was_last() {
        let mut digest = digest();
        digest.user_requests = [
            "fix the parser",
            "commit and continue",
            "add a test",
            "commit and continue",
        ]
        .map(str::to_owned)
        .to_vec();
        let handoff = build_handoff(&digest, scope(None), now());
        assert_eq!(
            handoff.requests,
            ["add a test", "commit and continue"],
            "the first request is the goal's"
        );
    }

    #[rstest]
    #[case::same_branch(&["main -> main"], "Pushed main")]
    #[case::head_to_a_branch(&["HEAD -> fix/retry", "fix/retry -> fix/retry"], "Pushed fix/retry")]
    #[case::another_branch(&["wip -> main"], "Pushed wip -> main")]
    fn a_push_names_the_branch_it_updated(#[case] pushes: &[&str], #[case] line: &str) {
        let mut digest = digest();
        digest.pushes = pushes.iter().map(|push| (*push).to_owned()).collect();
        let handoff = build_handoff(&digest, scope(None), now());
        assert!(
            handoff.accomplished.contains(&line.to_owned()),
            "{:?}",
            handoff.accomplished
        );
    }

    #[test]
    fn renders_the_compatible_format() {
        let text = build_handoff(&digest(), scope(None), now()).render();
        assert!(text.starts_with("---\nsession_id: s1\ntimestamp: 2026-11-22T18:40:00+00:00\nproject: shop-api\nduration_turns: 3\nsubstantive: true\nfiles_changed:\n  - notes.txt\n---\n"), "{text}");
        for heading in [
            "## Goal",
            "## Open Threads",
            "## What Was Accomplished",
            "## What's In Progress",
            "## Key Decisions Made",
            "## Suggested Next Steps",
            "## Files Changed",
            "## User Requests",
            "## Last Assistant Message",
        ] {
            assert!(text.contains(heading), "{heading} missing:\n{text}");
        }
        let read = crate::domain::handoff::read_handoff(&text).unwrap();
        assert!(
            read.sections.iter().all(|(heading, _)| heading != "Done"),
            "the reply's heading is no section"
        );
    }
}
