//! The gist of a session: what was asked, what changed, what was committed and checked, what
//! is left, how it ended.

use std::fmt;

use super::answer::{Answer, answers_to};
use super::plan::Plan;
use super::refusal::{Refusal, RefusedAction};
use super::written_notes::{MAX_HEADINGS, MAX_NOTES, NotesChange, NotesKind, WrittenNotes};

/// At most this many changed files are kept (the handoff format's limit).
pub const MAX_FILES_CHANGED: usize = 20;

/// Requests kept from a session's start (its goal is among them)…
const FIRST_REQUESTS: usize = 10;
/// …and from its end: a session of 100,000 messages must cost what one of a few thousand does.
const LAST_REQUESTS: usize = 2_000;
/// Todo items kept of one list.
pub const MAX_TODOS: usize = 200;
/// Replies that closed earlier turns, kept.
pub const TURN_REPLIES_KEPT: usize = 8;
/// Answers to the assistant's questions kept, the newest.
pub const ANSWERS_KEPT: usize = 12;
/// Refused tool calls kept, the newest.
pub const REFUSALS_KEPT: usize = 6;
/// Files tracked at most: a session that rewrites a whole tree must stay cheap.
const MAX_FILES_TRACKED: usize = 2_000;
/// Agent memory files kept of one session: far more than a session saves.
pub const MAX_AGENT_MEMORIES: usize = 50;

/// What a checkpoint or handoff is built from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionDigest {
    /// The user's own requests, oldest first: notifications, interrupts, command echoes and
    /// tool results excluded, slash commands kept with their arguments.
    pub user_requests: Vec<String>,
    /// How many requests the user made.
    pub user_turns: usize,
    /// Files written or edited by tool calls that succeeded, each once, in first-touched order.
    pub files: Vec<ChangedFile>,
    /// The latest todo list.
    pub todos: Vec<TodoItem>,
    /// The assistant's last text reply.
    pub last_assistant_message: Option<String>,
    /// The replies that closed the turns before the last one, oldest first (the last few).
    pub turn_replies: Vec<String>,
    /// The user's short answers to the questions that closed the assistant's replies, oldest
    /// first (the last `ANSWERS_KEPT`): the choices made in conversation.
    pub answers: Vec<Answer>,
    /// The session's title, as the client named it (custom title, then its own summary).
    pub title: Option<String>,
    /// Commits the session made, oldest first.
    pub commits: Vec<Commit>,
    /// Pushes (`main -> main`), oldest first.
    pub pushes: Vec<String>,
    /// Pull request and deploy addresses the session produced, oldest first.
    pub links: Vec<String>,
    /// The last test, build or lint command and how it ended.
    pub last_check: Option<CheckRun>,
    /// The client's latest compaction summary.
    pub compact_summary: Option<String>,
    /// Whether the session committed after its latest compaction (the summary's pending work
    /// is then history, not an open thread).
    pub committed_since_compaction: bool,
    /// How the session ended.
    pub ending: Ending,
    /// Tool calls that changed something and succeeded (edits, commands, commits).
    pub work_done: usize,
    /// Whether any command ran git (an edit after the last commit is then uncommitted).
    pub uses_git: bool,
    /// A counter of the events read, which orders files and commits in time.
    pub clock: u64,
    /// The texts of the agent's memory files the session wrote or edited (Claude Code's
    /// `…/memory/*.md`, ADR 0014), as they stood at its end; at most [`MAX_AGENT_MEMORIES`].
    pub agent_memories: Vec<String>,
    /// The command the session ended on, when its result never came (the session stopped
    /// while it ran, or before its output was recorded).
    pub unfinished: Option<String>,
    /// How far the branch was ahead of its upstream by the last `git status` (`ahead of
    /// 'origin/main' by 2 commits`), unless a push followed: commits not pushed.
    pub unpushed: Option<String>,
    /// What the user asked the client to remember (Claude Code's `#` memory input), oldest
    /// first; at most [`MAX_AGENT_MEMORIES`].
    pub remembered: Vec<String>,
    /// The git branch the session was on at its end, when the client recorded one (a
    /// detached `HEAD` is not a branch).
    pub branch: Option<String>,
    /// The paths the last `git status` listed as changed, staged or untracked (as git printed
    /// them), less those a later commit of the session took: the working tree as last seen.
    pub working_tree: Vec<String>,
    /// The address the last push offered for opening a pull request from the branch it
    /// created, while no pull request was opened since.
    pub pull_request_unopened: Option<String>,
    /// Pull requests the session merged, oldest first.
    pub merges: Vec<Merge>,
    /// The vulnerabilities the last push that reported any said the default branch has.
    pub vulnerabilities: Option<String>,
    /// The plan the session proposed last at plan-mode exit, and what became of it.
    pub plan: Option<Plan>,
    /// Tool calls the user refused when asked (a plan-mode exit aside), oldest first, less
    /// those done after all; at most `REFUSALS_KEPT`.
    pub refusals: Vec<Refusal>,
    /// Decision logs and state files the session wrote, with their informative headings,
    /// oldest first by their last write; at most [`MAX_NOTES`].
    pub notes: Vec<WrittenNotes>,
}

/// A file the session changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Its path as the tool call gave it.
    pub path: String,
    /// How many successful edits touched it.
    pub edits: u32,
    /// When it was last touched, on the digest's clock.
    pub last: u64,
}

/// A commit made in the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// The short hash git printed.
    pub hash: String,
    /// Its subject line.
    pub subject: String,
    /// The branch it went on (empty when git did not print it and the client did not record it).
    pub branch: String,
    /// When, on the digest's clock.
    pub at: u64,
}

/// A pull request the session merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    /// Its number, when the merge named it.
    pub number: Option<u64>,
    /// The commit the merge made, when the merge reported it.
    pub commit: Option<String>,
}

impl fmt::Display for Merge {
    /// `PR #35 as 9d16feb`, `PR #7`, `a pull request as 9d16feb`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            Some(number) => write!(f, "PR #{number}")?,
            None => write!(f, "a pull request")?,
        }
        match &self.commit {
            Some(commit) => write!(f, " as {}", commit.get(..7).unwrap_or(commit)),
            None => Ok(()),
        }
    }
}

/// A test, build or lint command and its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRun {
    /// The command as run.
    pub command: String,
    /// Whether it succeeded.
    pub passed: bool,
    /// The most telling line of its output.
    pub summary: String,
}

/// How a session ended, as far as its transcript shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Ending {
    /// The assistant replied to the last request.
    #[default]
    Replied,
    /// The last request got no reply.
    Unanswered,
    /// The client's last row is an API error (a usage limit, an overload).
    ApiError(String),
    /// The user interrupted the last step.
    Interrupted,
}

impl SessionDigest {
    /// Records a request of the user: every one is counted, the first few and the most
    /// recent ones are kept (those in between are dropped in batches, so that keeping the
    /// window costs nothing per message).
    pub fn push_request(&mut self, request: String) {
        if self.ending == Ending::Replied
            && let Some(reply) = &self.last_assistant_message
        {
            let answers = answers_to(reply, &request);
            let reply = reply.clone();
            self.record_answers(answers);
            self.turn_replies.push(reply);
            if self.turn_replies.len() > 2 * TURN_REPLIES_KEPT {
                self.turn_replies.drain(..TURN_REPLIES_KEPT);
            }
        }
        self.user_turns += 1;
        self.user_requests.push(request);
        self.ending = Ending::Unanswered;
        if self.user_requests.len() >= FIRST_REQUESTS + 2 * LAST_REQUESTS {
            let excess = self.user_requests.len() - FIRST_REQUESTS - LAST_REQUESTS;
            self.user_requests
                .drain(FIRST_REQUESTS..FIRST_REQUESTS + excess);
        }
    }

    /// Records the user's answers to the assistant's questions (typed, or picked in the
    /// client's question tool), in the order asked; the newest `ANSWERS_KEPT` are kept once
    /// the session is read.
    pub fn record_answers(&mut self, answers: Vec<Answer>) {
        // The handoff lists answers newest first: those of one turn go in last-asked first,
        // so that the first question asked leads.
        self.answers.extend(answers.into_iter().rev());
        if self.answers.len() > 2 * ANSWERS_KEPT {
            self.answers.drain(..ANSWERS_KEPT);
        }
    }

    /// The requests as kept once the session is read: the first few and the last ones.
    pub fn trim_requests(&mut self) {
        let extra = self.answers.len().saturating_sub(ANSWERS_KEPT);
        self.answers.drain(..extra);
        let extra = self.turn_replies.len().saturating_sub(TURN_REPLIES_KEPT);
        self.turn_replies.drain(..extra);
        if self.user_requests.len() > FIRST_REQUESTS + LAST_REQUESTS {
            let excess = self.user_requests.len() - FIRST_REQUESTS - LAST_REQUESTS;
            self.user_requests
                .drain(FIRST_REQUESTS..FIRST_REQUESTS + excess);
        }
    }

    /// Advances the digest's clock by one event and returns the new time.
    pub fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Records a successful edit of a file.
    pub fn touch_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() {
            return;
        }
        let now = self.tick();
        match self.files.iter().position(|known| known.path == path) {
            Some(index) => {
                self.files[index].edits += 1;
                self.files[index].last = now;
            }
            None if self.files.len() < MAX_FILES_TRACKED => self.files.push(ChangedFile {
                path: path.to_owned(),
                edits: 1,
                last: now,
            }),
            None => {}
        }
    }

    /// The changed files, the most recently touched first.
    pub fn files_newest_first(&self) -> Vec<&ChangedFile> {
        let mut files: Vec<&ChangedFile> = self.files.iter().collect();
        files.sort_by_key(|file| std::cmp::Reverse(file.last));
        files
    }

    /// The 20 most recently changed files, newest first, and how many more there were.
    pub fn files_shown(&self) -> (Vec<&str>, usize) {
        let files = self.files_newest_first();
        let shown = files.len().min(MAX_FILES_CHANGED);
        (
            files[..shown].iter().map(|f| f.path.as_str()).collect(),
            files.len() - shown,
        )
    }

    /// Files touched after the last commit (all of them when git ran but nothing was
    /// committed), newest first; empty when the session never ran git.
    pub fn uncommitted_files(&self) -> Vec<&ChangedFile> {
        if !self.uses_git {
            return Vec::new();
        }
        let since = self.commits.last().map_or(0, |commit| commit.at);
        self.files_newest_first()
            .into_iter()
            .filter(|file| file.last > since)
            .collect()
    }

    /// Paths the last `git status` showed changed that the session itself never edited: work
    /// of the user or of another session, left in the tree.
    pub fn changed_by_others(&self) -> Vec<&str> {
        self.working_tree
            .iter()
            .map(String::as_str)
            .filter(|path| {
                let dir = path.ends_with('/');
                !self.files.iter().any(|file| {
                    // Git prints `/` on Windows too; the session's own paths may use `\`.
                    let edited = file.path.replace('\\', "/");
                    edited == *path
                        || edited.ends_with(&format!("/{path}"))
                        || (dir && edited.contains(&format!("/{path}")))
                        || (dir && edited.starts_with(*path))
                })
            })
            .collect()
    }

    /// Todo items in one state.
    pub fn todos_in(&self, status: TodoStatus) -> impl Iterator<Item = &TodoItem> {
        self.todos.iter().filter(move |todo| todo.status == status)
    }

    /// The digest with every secret redacted, before anything cuts its texts to length (a cut
    /// secret's first half would otherwise survive). Everything a checkpoint or a handoff
    /// takes from the transcript goes through here.
    pub fn redacted(&self) -> Self {
        let clean = |text: &String| crate::domain::redaction::redact(text).into_owned();
        Self {
            user_requests: self.user_requests.iter().map(clean).collect(),
            files: self
                .files
                .iter()
                .map(|file| ChangedFile {
                    path: clean(&file.path),
                    ..file.clone()
                })
                .collect(),
            todos: self
                .todos
                .iter()
                .map(|todo| TodoItem {
                    content: clean(&todo.content),
                    status: todo.status,
                })
                .collect(),
            last_assistant_message: self.last_assistant_message.as_ref().map(clean),
            turn_replies: self.turn_replies.iter().map(clean).collect(),
            answers: self
                .answers
                .iter()
                .map(|answer| Answer {
                    question: clean(&answer.question),
                    answer: clean(&answer.answer),
                })
                .collect(),
            title: self.title.as_ref().map(clean),
            commits: self
                .commits
                .iter()
                .map(|commit| Commit {
                    subject: clean(&commit.subject),
                    ..commit.clone()
                })
                .collect(),
            pushes: self.pushes.iter().map(clean).collect(),
            links: self.links.iter().map(clean).collect(),
            last_check: self.last_check.as_ref().map(|check| CheckRun {
                command: clean(&check.command),
                passed: check.passed,
                summary: clean(&check.summary),
            }),
            compact_summary: self.compact_summary.as_ref().map(clean),
            agent_memories: self.agent_memories.iter().map(clean).collect(),
            branch: self.branch.as_ref().map(clean),
            unfinished: self.unfinished.as_ref().map(clean),
            remembered: self.remembered.iter().map(clean).collect(),
            working_tree: self.working_tree.iter().map(clean).collect(),
            pull_request_unopened: self.pull_request_unopened.as_ref().map(clean),
            vulnerabilities: self.vulnerabilities.as_ref().map(clean),
            plan: self.plan.as_ref().map(|plan| Plan {
                title: clean(&plan.title),
                file: plan.file.as_ref().map(clean),
                ..plan.clone()
            }),
            notes: self
                .notes
                .iter()
                .map(|notes| WrittenNotes {
                    path: clean(&notes.path),
                    headings: notes.headings.iter().map(clean).collect(),
                    ..notes.clone()
                })
                .collect(),
            refusals: self
                .refusals
                .iter()
                .map(|refusal| Refusal {
                    action: match &refusal.action {
                        RefusedAction::Command(command) => RefusedAction::Command(clean(command)),
                        RefusedAction::Edit(paths) => {
                            RefusedAction::Edit(paths.iter().map(clean).collect())
                        }
                    },
                    said: refusal.said.as_ref().map(clean),
                })
                .collect(),
            ending: match &self.ending {
                Ending::ApiError(text) => Ending::ApiError(clean(text)),
                other => other.clone(),
            },
            ..self.clone()
        }
    }

    /// Records a change of a document kept for later: a write replaces its headings, an edit
    /// takes the replaced text's and adds the new text's (one added again moves to the end).
    /// The document moves to the newest place.
    pub fn write_notes(
        &mut self,
        path: &str,
        kind: NotesKind,
        change: NotesChange,
        removed: &[String],
        added: Vec<String>,
    ) {
        let path = path.trim();
        let earlier = self
            .notes
            .iter()
            .position(|notes| notes.path == path)
            .map(|at| self.notes.remove(at));
        let mut kept = match (change, earlier) {
            (NotesChange::Edited, Some(earlier)) => earlier.headings,
            _ => Vec::new(),
        };
        kept.retain(|heading| !removed.contains(heading) && !added.contains(heading));
        kept.extend(added);
        if kept.len() > MAX_HEADINGS {
            kept.drain(..kept.len() - MAX_HEADINGS);
        }
        self.notes.push(WrittenNotes {
            path: path.to_owned(),
            kind,
            headings: kept,
        });
        if self.notes.len() > MAX_NOTES {
            self.notes.remove(0);
        }
    }

    /// Records that the user refused `action`, keeping the newest `REFUSALS_KEPT`.
    pub fn refuse(&mut self, action: RefusedAction, said: Option<String>) {
        self.refusals.retain(|refusal| refusal.action != action);
        self.refusals.push(Refusal { action, said });
        if self.refusals.len() > REFUSALS_KEPT {
            self.refusals.remove(0);
        }
    }

    /// Forgets a refusal of `command` (its gist): it ran after all.
    pub fn ran_after_all(&mut self, command: &str) {
        self.refusals.retain(
            |refusal| !matches!(&refusal.action, RefusedAction::Command(c) if c == command),
        );
    }

    /// True when nothing at all was found.
    pub fn is_empty(&self) -> bool {
        self.user_requests.is_empty()
            && self.files.is_empty()
            && self.todos.is_empty()
            && self.last_assistant_message.is_none()
    }
}

/// One todo item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TodoItem {
    /// What it says.
    pub content: String,
    /// Where it stands.
    pub status: TodoStatus,
}

/// A todo item's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
}

impl TodoStatus {
    /// Parses the todo tools' spelling (`in_progress`, `completed`, …).
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" | "todo" | "open" => Some(Self::Pending),
            "in_progress" | "in-progress" | "active" => Some(Self::InProgress),
            "completed" | "done" | "complete" => Some(Self::Completed),
            _ => None,
        }
    }
}

impl fmt::Display for TodoStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pending => "pending",
            Self::InProgress => "in progress",
            Self::Completed => "completed",
        })
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    fn a_huge_session_keeps_its_first_and_last_requests() {
        let mut digest = SessionDigest::default();
        for n in 0..100_000 {
            digest.push_request(n.to_string());
        }
        digest.trim_requests();
        assert_eq!(digest.user_turns, 100_000);
        assert_eq!(digest.user_requests.len(), FIRST_REQUESTS + LAST_REQUESTS);
        assert_eq!(digest.user_requests[0], "0");
        assert_eq!(digest.user_requests.last().unwrap(), "99999");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_refusals_each_once() {
        let mut digest = SessionDigest::default();
        for n in 0..8 {
            digest.refuse(RefusedAction::Command(format!("rm {n}")), None);
        }
        digest.refuse(RefusedAction::Command("rm 3".into()), Some("never".into()));
        digest.ran_after_all("rm 7");
        let kept: Vec<String> = digest
            .refusals
            .iter()
            .map(|refusal| match &refusal.action {
                RefusedAction::Command(command) => command.clone(),
                RefusedAction::Edit(paths) => paths.join(","),
            })
            .collect();
        assert_eq!(kept, ["rm 2", "rm 4", "rm 5", "rm 6", "rm 3"]);
        assert_eq!(digest.refusals[4].said.as_deref(), Some("never"));
    }

    #[test]
    fn a_write_replaces_a_documents_headings_and_an_edit_replaces_some() {
        let mut digest = SessionDigest::default();
        let list = |list: &[&str]| list.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>();
        let (state, decisions) = (NotesKind::State, NotesKind::Decisions);
        let (written, edited) = (NotesChange::Written, NotesChange::Edited);
        digest.write_notes("STATE.md", state, written, &[], list(&["Old plan here"]));
        digest.write_notes("ADR.md", decisions, written, &[], list(&["Use Postgres"]));
        digest.write_notes(
            "STATE.md",
            state,
            written,
            &[],
            list(&["New plan", "Open bug"]),
        );
        digest.write_notes(
            " STATE.md",
            state,
            edited,
            &list(&["Open bug"]),
            list(&["Bug fixed", "New plan"]),
        );
        assert_eq!(digest.notes.len(), 2);
        assert_eq!(digest.notes[1].path, "STATE.md", "the newest write last");
        assert_eq!(
            digest.notes[1].headings,
            ["Bug fixed", "New plan"],
            "the replaced heading gone, the one added again moved to the end"
        );
        for n in 0..20 {
            digest.write_notes(
                "STATE.md",
                state,
                edited,
                &[],
                list(&[&format!("Step {n}")]),
            );
        }
        assert_eq!(
            digest.notes[1].headings.len(),
            MAX_HEADINGS,
            "the newest kept"
        );
        assert_eq!(digest.notes[1].headings.last().unwrap(), "Step 19");
        for n in 0..20 {
            digest.write_notes(&format!("{n}.md"), state, written, &[], Vec::new());
        }
        assert_eq!(digest.notes.len(), MAX_NOTES);
        assert_eq!(digest.notes.last().unwrap().path, "19.md");
    }

    #[test]
    fn keeps_each_file_once_and_counts_past_the_limit() {
        let mut digest = SessionDigest::default();
        for n in 0..25 {
            digest.touch_file(&format!("f{n}"));
            digest.touch_file(&format!("f{n}"));
        }
        assert_eq!(digest.files.len(), 25);
        assert_eq!(digest.files[0].edits, 2);
        let (shown, more) = digest.files_shown();
        assert_eq!((shown.len(), more), (MAX_FILES_CHANGED, 5));
        assert_eq!(shown[0], "f24", "newest first");
    }
}
