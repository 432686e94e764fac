//! A session's digest, row by row, from Claude Code's transcript rows: requests, replies, tool
//! calls paired with their results (a call that failed did no work), titles, compaction
//! summaries, the agent memory files the session saved (ADR 0014) and how the session ended.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::agent_memory::{MAX_MEMORY_FILE_BYTES, is_agent_memory_path};
use crate::domain::transcript::{
    CheckRun, Commit, Ending, MAX_AGENT_MEMORIES, MAX_TODOS, Merge, NotesChange, NotesKind,
    NumberedLink, Plan, PlanVerdict, RefusedAction, SessionDigest, TodoItem, TodoStatus,
    ahead_of_upstream, check_gist, check_summary, clean_request, command_gist, find_links,
    is_check_command, is_decision_file, is_named, is_plan_file, is_read_only_command,
    is_state_file, merged_pull_request, named_paths, note_headings, parse_commit,
    parse_logged_commit, parse_push, pull_request_suggestion, puts_everything_away, read_status,
    refused, remembered_note, stages_everything, tool_answers, user_shell_input, user_shell_output,
    vulnerability_notice,
};

use super::regular_file::read_regular_utf8_no_follow;

/// Tool calls waiting for their results, at most: a session that never gets results back
/// must not grow without bound.
const MAX_PENDING: usize = 10_000;
/// How much of a command's output is kept to judge it.
const OUTPUT_KEPT: usize = 4 * 1024;

/// Links the digest keeps, the newest.
const MAX_LINKS: usize = 50;

#[derive(Deserialize)]
struct Row<'a> {
    #[serde(rename = "type")]
    kind: Option<&'a str>,
    #[serde(rename = "isSidechain")]
    sidechain: Option<bool>,
    #[serde(rename = "isMeta")]
    meta: Option<bool>,
    #[serde(rename = "isCompactSummary")]
    compact_summary: Option<bool>,
    #[serde(rename = "isApiErrorMessage")]
    api_error: Option<bool>,
    #[serde(borrow)]
    message: Option<Message<'a>>,
    #[serde(rename = "customTitle")]
    custom_title: Option<String>,
    #[serde(rename = "aiTitle")]
    ai_title: Option<String>,
    summary: Option<String>,
    #[serde(borrow)]
    uuid: Option<Cow<'a, str>>,
    #[serde(rename = "leafUuid", borrow)]
    leaf_uuid: Option<Cow<'a, str>>,
    #[serde(rename = "prUrl")]
    pr_url: Option<String>,
    #[serde(rename = "gitBranch")]
    git_branch: Option<&'a str>,
}

#[derive(Deserialize)]
struct Message<'a> {
    model: Option<&'a str>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type")]
    kind: Option<&'a str>,
    text: Option<String>,
    id: Option<String>,
    name: Option<String>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    tool_use_id: Option<String>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct ToolInput {
    file_path: Option<String>,
    notebook_path: Option<String>,
    todos: Option<Vec<TodoInput>>,
    patch: Option<String>,
    input: Option<String>,
    subject: Option<String>,
    command: Option<String>,
    #[serde(rename = "taskId")]
    task_id: Option<serde_json::Value>,
    status: Option<String>,
    plan: Option<String>,
    #[serde(rename = "planFilePath")]
    plan_file_path: Option<String>,
    #[serde(rename = "pullNumber")]
    pull_number: Option<u64>,
}

/// What a GitHub MCP server answers to a merge: `{"sha":"9d16feb…","merged":true,…}`.
#[derive(Deserialize)]
struct MergeResult {
    sha: Option<String>,
    merged: Option<bool>,
}

/// A `Write` call's text, parsed only when it writes an agent memory.
#[derive(Deserialize)]
struct WriteInput {
    content: Option<String>,
}

/// The text a `Write`, `Edit` or `MultiEdit` call puts in a file and the text it replaces,
/// parsed only for a decision log or a state file.
#[derive(Deserialize)]
struct WrittenText {
    content: Option<String>,
    old_string: Option<String>,
    new_string: Option<String>,
    edits: Option<Vec<EditText>>,
}

#[derive(Deserialize)]
struct EditText {
    old_string: Option<String>,
    new_string: Option<String>,
}

/// A write or edit of a document kept for later, until its result says it succeeded.
struct PendingNotes {
    path: String,
    kind: NotesKind,
    /// The headings of the text written…
    added: Vec<String>,
    /// …and of the text it replaced.
    removed: Vec<String>,
    change: NotesChange,
}

#[derive(Deserialize)]
struct TodoInput {
    content: Option<String>,
    subject: Option<String>,
    status: Option<String>,
}

/// A tool call whose effect counts only once its result says it succeeded.
enum Pending {
    Files(Vec<String>),
    /// A write or edit of an agent memory file: the text written, or `None` for an edit (the
    /// file is read when the digest finishes).
    Memory(String, Option<String>),
    Todos(Vec<TodoItem>),
    TaskCreate(String),
    TaskUpdate(usize, TodoStatus),
    Command(String),
    /// A plan proposed at plan-mode exit, waiting for the user's verdict.
    Plan,
    /// A GitHub MCP call that opens a pull request or an issue: its address is in the result.
    Opened,
    /// A GitHub MCP call that merges the pull request of that number.
    Merge(Option<u64>),
    /// The client's question tool: the user's picks are in the result.
    Question,
}

/// Accumulates a digest row by row.
#[derive(Default)]
pub(super) struct DigestBuilder {
    digest: SessionDigest,
    pending: HashMap<String, Pending>,
    custom_title: Option<String>,
    ai_title: Option<String>,
    summary_title: Option<String>,
    /// The rows read so far, by uuid: a summary row names the conversation that ends at its
    /// leaf, which is this session only when the leaf is one of its rows.
    rows_read: HashSet<u128>,
    /// Agent memory files written or edited, in order of their last change: the text written,
    /// or `None` when the file on disk holds the latest text.
    memories: Vec<(String, Option<String>)>,
    /// Writes and edits of decision logs and state files, by tool call id, until their
    /// results arrive.
    notes: HashMap<String, PendingNotes>,
    /// The latest command called since the assistant last replied: if its result never
    /// arrives, the session ended while it ran.
    last_command: Option<(String, String)>,
    /// A command the user ran through the client (`!`), until its output row arrives.
    user_shell: Option<String>,
    /// What the last `git status` showed staged, and the paths `git add` named since (or
    /// that it added everything): what the next commit takes.
    staged: Vec<String>,
    staged_everything: bool,
    /// The plan file written last (`~/.claude/plans/…`): the file of the next plan proposed.
    plan_file: Option<String>,
    /// Calls that only wrote plan files: planning, not work.
    planning: usize,
    /// The work done (less planning) when the last plan got its verdict: more by the end is
    /// work after it.
    work_at_verdict: usize,
}

impl DigestBuilder {
    /// Reads one row (a line of the transcript); rows that do not parse are skipped.
    pub(super) fn add_line(&mut self, line: &[u8]) {
        if let Ok(row) = serde_json::from_slice::<Row>(line) {
            self.add(&row);
        }
    }

    /// A tool result too large to parse (file contents, long command output): only whether
    /// it failed and the end of its output are read.
    pub(super) fn add_bulky_result(&mut self, line: &[u8]) {
        // Its uuid may be a summary's leaf. The client writes a row's uuid before its
        // `toolUseResult`, and the result's text is a JSON string (its quotes escaped), so the
        // first bare `"uuid":"` is the row's own.
        if let Some(uuid) = row_uuid(line) {
            self.rows_read.insert(row_key(uuid));
        }
        let head = &line[..line.len().min(2048)];
        let Some(id) = tool_use_id(head) else { return };
        let is_error = memchr::memmem::find(line, b"\"is_error\":true").is_some();
        let tail = String::from_utf8_lossy(&line[line.len().saturating_sub(OUTPUT_KEPT)..])
            .replace("\\n", "\n");
        self.resolve(&id, is_error, &tail);
    }

    fn add(&mut self, row: &Row<'_>) {
        if row.sidechain == Some(true) {
            return;
        }
        if let Some(uuid) = &row.uuid {
            self.rows_read.insert(row_key(uuid));
        }
        if let Some(branch) = row.git_branch.filter(|b| !b.is_empty() && *b != "HEAD")
            && self.digest.branch.as_deref() != Some(branch)
        {
            self.digest.branch = Some(branch.to_owned());
        }
        match row.kind {
            Some("user") if row.meta != Some(true) => self.user(row),
            Some("assistant") => self.assistant(row),
            Some("custom-title") => self.custom_title.clone_from(&row.custom_title),
            Some("ai-title") => self.ai_title.clone_from(&row.ai_title),
            // Claude Code opens a session's file with the titles of earlier sessions of the
            // project ("API Error: 401 …" among them); only a leaf read here makes it this one's.
            Some("summary")
                if row
                    .leaf_uuid
                    .as_deref()
                    .is_some_and(|leaf| self.rows_read.contains(&row_key(leaf))) =>
            {
                if let Some(summary) = &row.summary {
                    self.summary_title = Some(summary.clone());
                }
            }
            Some("pr-link") => {
                if let Some(url) = &row.pr_url {
                    self.link(url.clone());
                }
            }
            _ => {}
        }
    }

    fn user(&mut self, row: &Row<'_>) {
        let Some(content) = row.message.as_ref().and_then(|m| m.content) else {
            return;
        };
        let raw = content.get();
        let text = if raw.starts_with('"') {
            serde_json::from_str::<String>(raw).ok()
        } else {
            let Ok(blocks) = serde_json::from_str::<Vec<Block>>(raw) else {
                return;
            };
            let mut texts = Vec::new();
            for block in blocks {
                match block.kind {
                    Some("tool_result") => {
                        if let Some(id) = block.tool_use_id.as_deref() {
                            let output = block.content.map(result_text).unwrap_or_default();
                            self.resolve(id, block.is_error == Some(true), &output);
                        }
                    }
                    Some("text") => texts.extend(block.text),
                    _ => {}
                }
            }
            (!texts.is_empty()).then(|| texts.join("\n"))
        };
        let Some(text) = text else { return };
        if row.compact_summary == Some(true) {
            self.compaction(text);
            return;
        }
        self.user_text(&text);
    }

    /// What the user wrote: a request, an interrupt notice, or the client's own text.
    pub(super) fn user_text(&mut self, text: &str) {
        if text
            .trim_start()
            .starts_with("[Request interrupted by user")
        {
            self.interrupted();
            return;
        }
        if let Some(command) = user_shell_input(text) {
            self.user_shell = Some(command.to_owned());
            return;
        }
        if let Some((output, failed)) = user_shell_output(text) {
            if let Some(command) = self.user_shell.take() {
                self.command(&command, failed, &output);
            }
            return;
        }
        if let Some(note) = remembered_note(text) {
            if self.digest.remembered.len() < MAX_AGENT_MEMORIES {
                self.digest.remembered.push(note.to_owned());
            }
            return;
        }
        if let Some(request) = clean_request(text) {
            self.digest.push_request(request);
        }
    }

    /// The user stopped the last step.
    pub(super) fn interrupted(&mut self) {
        self.digest.ending = Ending::Interrupted;
    }

    /// A compaction's summary: the session so far, as the client condensed it.
    pub(super) fn compaction(&mut self, summary: String) {
        self.digest.compact_summary = Some(summary);
        self.digest.committed_since_compaction = false;
    }

    /// An assistant's reply text (empty text is no reply).
    pub(super) fn reply(&mut self, text: &str) {
        let text = text.trim();
        if !text.is_empty() {
            self.digest.last_assistant_message = Some(text.to_owned());
            self.digest.ending = Ending::Replied;
            self.last_command = None;
        }
    }

    /// A shell command call whose effect counts once its result arrives.
    pub(super) fn command_call(&mut self, id: String, command: String) {
        if self.pending.len() < MAX_PENDING {
            self.last_command = Some((id.clone(), command.clone()));
            self.pending.insert(id, Pending::Command(command));
        }
    }

    /// A patch call (`*** Update File:` lines) whose files count once it succeeded.
    pub(super) fn patch_call(&mut self, id: String, patch: &str) {
        if self.pending.len() < MAX_PENDING {
            self.pending.insert(id, Pending::Files(patch_files(patch)));
        }
    }

    /// A call that writes or edits `paths`, whose files count once it succeeded.
    pub(super) fn files_call(&mut self, id: String, paths: Vec<String>) {
        if self.pending.len() < MAX_PENDING {
            self.pending.insert(id, Pending::Files(paths));
        }
    }

    fn assistant(&mut self, row: &Row<'_>) {
        let Some(content) = row.message.as_ref().and_then(|m| m.content) else {
            return;
        };
        let Ok(blocks) = serde_json::from_str::<Vec<Block>>(content.get()) else {
            return;
        };
        let text = blocks
            .iter()
            .filter(|block| block.kind == Some("text"))
            .filter_map(|block| block.text.as_deref().map(str::trim))
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        let synthetic = row.message.as_ref().and_then(|m| m.model) == Some("<synthetic>");
        if row.api_error == Some(true) {
            if !text.is_empty() {
                self.digest.ending = Ending::ApiError(text);
            }
            return;
        }
        if synthetic {
            return;
        }
        for block in &blocks {
            if block.kind == Some("tool_use") {
                self.tool_use(block);
            }
        }
        self.reply(&text);
    }

    fn tool_use(&mut self, block: &Block<'_>) {
        let (Some(id), Some(name), Some(raw)) =
            (block.id.clone(), block.name.as_deref(), block.input)
        else {
            return;
        };
        if self.pending.len() >= MAX_PENDING {
            return;
        }
        if matches!(name, "apply_patch" | "ApplyPatch") && raw.get().starts_with('"') {
            if let Ok(patch) = serde_json::from_str::<String>(raw.get()) {
                self.pending.insert(id, Pending::Files(patch_files(&patch)));
            }
            return;
        }
        let Ok(input) = serde_json::from_str::<ToolInput>(raw.get()) else {
            return;
        };
        if matches!(name, "Write" | "Edit" | "MultiEdit")
            && self.notes.len() < MAX_PENDING
            && let Some(notes) = input
                .file_path
                .as_deref()
                .and_then(|path| pending_notes(path, name, raw))
        {
            self.notes.insert(id.clone(), notes);
        }
        let pending = match name {
            "Write" | "Edit" | "MultiEdit"
                if input.file_path.as_deref().is_some_and(is_agent_memory_path) =>
            {
                let path = input.file_path.unwrap_or_default();
                let written = (name == "Write")
                    .then(|| serde_json::from_str::<WriteInput>(raw.get()).ok())
                    .flatten()
                    .and_then(|write| write.content)
                    .filter(|text| text.len() as u64 <= MAX_MEMORY_FILE_BYTES);
                Some(Pending::Memory(path, written))
            }
            "Write" | "Edit" | "MultiEdit" => input.file_path.map(|p| Pending::Files(vec![p])),
            "NotebookEdit" => input
                .notebook_path
                .or(input.file_path)
                .map(|p| Pending::Files(vec![p])),
            "apply_patch" | "ApplyPatch" => input
                .patch
                .or(input.input)
                .map(|patch| Pending::Files(patch_files(&patch))),
            "TodoWrite" => input.todos.map(|todos| {
                Pending::Todos(
                    todos
                        .into_iter()
                        .take(MAX_TODOS)
                        .filter_map(|todo| {
                            let content = todo.content.or(todo.subject)?;
                            let status = todo
                                .status
                                .as_deref()
                                .and_then(TodoStatus::parse)
                                .unwrap_or(TodoStatus::Pending);
                            Some(TodoItem { content, status })
                        })
                        .collect(),
                )
            }),
            "TaskCreate" => input.subject.map(Pending::TaskCreate),
            "TaskUpdate" => {
                let index = input.task_id.as_ref().and_then(|id| match id {
                    serde_json::Value::String(s) => s.parse::<usize>().ok(),
                    serde_json::Value::Number(n) => {
                        n.as_u64().and_then(|n| usize::try_from(n).ok())
                    }
                    _ => None,
                });
                let status = input.status.as_deref().and_then(TodoStatus::parse);
                index.zip(status).map(|(i, s)| Pending::TaskUpdate(i, s))
            }
            "Bash" | "PowerShell" | "shell" | "exec_command" | "run_shell_command" => {
                input.command.map(Pending::Command)
            }
            name if is_github_mcp(name, "create_pull_request")
                || is_github_mcp(name, "create_issue") =>
            {
                Some(Pending::Opened)
            }
            name if is_github_mcp(name, "merge_pull_request") => {
                Some(Pending::Merge(input.pull_number))
            }
            "AskUserQuestion" => Some(Pending::Question),
            "ExitPlanMode" => {
                let file = input.plan_file_path.or_else(|| self.plan_file.clone());
                self.digest.plan = input
                    .plan
                    .as_deref()
                    .and_then(|plan| Plan::proposed(plan, file));
                self.digest.plan.is_some().then_some(Pending::Plan)
            }
            _ => None,
        };
        match pending {
            Some(Pending::Command(command)) => self.command_call(id, command),
            Some(pending) => {
                self.pending.insert(id, pending);
            }
            None => {}
        }
    }

    /// A tool call's result: its effect counts when it succeeded.
    pub(super) fn resolve(&mut self, id: &str, is_error: bool, output: &str) {
        if let Some(notes) = self.notes.remove(id).filter(|_| !is_error) {
            self.digest.write_notes(
                &notes.path,
                notes.kind,
                notes.change,
                &notes.removed,
                notes.added,
            );
        }
        let Some(pending) = self.pending.remove(id) else {
            return;
        };
        if is_error && let Some(said) = refused(output) {
            let action = match &pending {
                Pending::Command(command) => Some(RefusedAction::Command(command_gist(command))),
                Pending::Files(paths) if !paths.is_empty() => {
                    Some(RefusedAction::Edit(paths.clone()))
                }
                Pending::Memory(path, _) => Some(RefusedAction::Edit(vec![path.clone()])),
                // A plan refused at plan-mode exit is the plan's verdict.
                _ => None,
            };
            if let Some(action) = action {
                self.digest.refuse(action, said);
            }
            if !matches!(pending, Pending::Plan) {
                return;
            }
        }
        if let Pending::Command(command) = &pending {
            self.command(command, is_error, output);
            return;
        }
        if let Pending::Opened | Pending::Merge(_) = pending {
            if !is_error {
                self.published(&pending, output);
            }
            return;
        }
        if let Pending::Plan = pending {
            if let Some(plan) = &mut self.digest.plan {
                plan.verdict = PlanVerdict::from_result(is_error);
                self.work_at_verdict = self.digest.work_done - self.planning;
            }
            return;
        }
        if is_error {
            return;
        }
        match pending {
            Pending::Files(paths) => {
                self.digest.work_done += 1;
                if paths.iter().all(|path| is_plan_file(path)) {
                    self.planning += 1;
                }
                for path in paths {
                    if is_plan_file(&path) {
                        self.plan_file = Some(path.clone());
                    }
                    self.digest.touch_file(&path);
                }
            }
            Pending::Memory(path, written) => {
                self.digest.work_done += 1;
                self.digest.touch_file(&path);
                self.memory(path, written);
            }
            Pending::Todos(todos) => self.digest.todos = todos,
            Pending::TaskCreate(subject) if self.digest.todos.len() < MAX_TODOS => {
                self.digest.todos.push(TodoItem {
                    content: subject,
                    status: TodoStatus::Pending,
                });
            }
            Pending::TaskUpdate(index, status) => {
                if let Some(todo) = index
                    .checked_sub(1)
                    .and_then(|i| self.digest.todos.get_mut(i))
                {
                    todo.status = status;
                }
            }
            Pending::Question => self.digest.record_answers(tool_answers(output)),
            Pending::TaskCreate(_)
            | Pending::Command(_)
            | Pending::Plan
            | Pending::Opened
            | Pending::Merge(_) => {}
        }
    }

    fn command(&mut self, command: &str, is_error: bool, output: &str) {
        let at = self.digest.tick();
        if command.contains("git ") {
            self.digest.uses_git = true;
        }
        // A command sent to the background has no result yet, only the client's notice.
        let backgrounded = output
            .trim_start()
            .starts_with("Command running in background");
        if is_check_command(command) && !backgrounded {
            self.digest.last_check = Some(CheckRun {
                command: check_gist(command),
                passed: !is_error,
                summary: check_summary(output),
            });
        }
        // Run after all, whatever came of it: the user let it run.
        self.digest.ran_after_all(&command_gist(command));
        if is_error {
            return;
        }
        if !is_read_only_command(command) {
            self.digest.work_done += 1;
        }
        // A status printed before a commit in the same command is the tree the commit took
        // from; one printed after it already leaves the commit out.
        if command.contains("status") {
            if let Some(ahead) = ahead_of_upstream(output) {
                self.digest.unpushed = ahead;
            }
            if let Some(tree) = read_status(command, output) {
                self.digest.working_tree = tree.changed;
                self.staged = tree.staged;
                self.staged_everything = false;
            }
        }
        if command.contains("git add") {
            self.staged.extend(named_paths(command));
            self.staged_everything |= stages_everything(command);
        }
        if puts_everything_away(command) {
            self.digest.working_tree.clear();
        }
        let commit = command.contains("commit").then(|| {
            parse_commit(output).or_else(|| {
                let (hash, subject) = parse_logged_commit(command, output)?;
                let branch = self.digest.branch.clone().unwrap_or_default();
                Some((hash, subject, branch))
            })
        });
        if let Some(Some((hash, subject, branch))) = commit
            && !self.digest.commits.iter().any(|c| c.hash == hash)
        {
            self.digest.commits.push(Commit {
                hash,
                subject,
                branch,
                at,
            });
            self.digest.committed_since_compaction = true;
            self.committed(command);
        }
        if command.contains("push") {
            if let Some(url) = pull_request_suggestion(output) {
                self.digest.pull_request_unopened = Some(url);
            }
            if let Some(notice) = vulnerability_notice(output) {
                self.digest.vulnerabilities = Some(notice);
            }
            for push in parse_push(output) {
                self.digest.unpushed = None;
                if !self.digest.pushes.contains(&push) {
                    self.digest.pushes.push(push);
                }
            }
        }

        if command.contains("gh pr merge")
            && let Some(number) = merged_pull_request(output)
        {
            self.merged(Merge {
                number: Some(number),
                commit: None,
            });
        }
        for url in find_links(output) {
            self.link(url);
        }
    }

    /// A commit takes the paths staged for it (shown staged by the last status, named by a
    /// `git add` since or by its own command) out of the working tree as last seen: all of
    /// them when everything was staged.
    fn committed(&mut self, command: &str) {
        let mut taken = std::mem::take(&mut self.staged);
        taken.extend(named_paths(command));
        if std::mem::take(&mut self.staged_everything) || stages_everything(command) {
            self.digest.working_tree.clear();
        } else {
            self.digest
                .working_tree
                .retain(|path| !is_named(path, &taken));
        }
    }

    /// A pull request or issue opened, or a pull request merged, through a GitHub MCP server.
    fn published(&mut self, pending: &Pending, output: &str) {
        self.digest.work_done += 1;
        match pending {
            Pending::Merge(number) => {
                let result = serde_json::from_str::<MergeResult>(output.trim()).ok();
                if result.as_ref().and_then(|r| r.merged) == Some(false) {
                    return;
                }
                self.merged(Merge {
                    number: *number,
                    commit: result.and_then(|r| r.sha),
                });
            }
            _ => {
                for url in find_links(output) {
                    self.link(url);
                }
            }
        }
    }

    /// A pull request merged: it is no longer waiting to be opened either.
    fn merged(&mut self, merge: Merge) {
        self.digest.pull_request_unopened = None;
        if !self.digest.merges.contains(&merge) {
            self.digest.merges.push(merge);
        }
    }

    /// Records a change to a memory file; the latest change of each file counts.
    fn memory(&mut self, path: String, written: Option<String>) {
        if let Some(known) = self.memories.iter().position(|(p, _)| *p == path) {
            self.memories.remove(known);
        } else if self.memories.len() >= MAX_AGENT_MEMORIES {
            return;
        }
        self.memories.push((path, written));
    }

    fn link(&mut self, url: String) {
        if NumberedLink::parse(&url).is_some_and(|link| link.kind.is_change_request()) {
            self.digest.pull_request_unopened = None;
        }
        // The newest count: a link seen again moves to the end, and past the cap the oldest
        // goes, so that what the session ended on is not lost behind a long listing.
        self.digest.links.retain(|seen| *seen != url);
        self.digest.links.push(url);
        if self.digest.links.len() > MAX_LINKS {
            self.digest.links.remove(0);
        }
    }

    /// The digest, its requests trimmed and its title chosen (the user's own title first).
    pub(super) fn finish(mut self) -> SessionDigest {
        self.digest.trim_requests();
        let worked_since = self.digest.work_done - self.planning > self.work_at_verdict;
        if let Some(plan) = &mut self.digest.plan {
            plan.followed_by_work = plan.verdict != PlanVerdict::Awaiting && worked_since;
        }
        self.digest.unfinished = self
            .last_command
            .filter(|(id, _)| self.pending.contains_key(id))
            .map(|(_, command)| command);
        self.digest.title = self
            .custom_title
            .or(self.ai_title)
            .or(self.summary_title)
            .filter(|title| !title.trim().is_empty());
        // An edit's result is only on disk. The path passed `is_agent_memory_path` when it was
        // recorded; the read refuses links, devices and large files all the same.
        self.digest.agent_memories = self
            .memories
            .into_iter()
            .filter_map(|(path, written)| {
                written.or_else(|| {
                    read_regular_utf8_no_follow(Path::new(&path), MAX_MEMORY_FILE_BYTES).ok()
                })
            })
            .collect();
        self.digest
    }
}

/// The headings a write or edit gives `path` and takes from it, when it is a decision log
/// or a state file.
fn pending_notes(path: &str, tool: &str, input: &RawValue) -> Option<PendingNotes> {
    let kind = if is_decision_file(path) {
        NotesKind::Decisions
    } else if is_state_file(path) {
        NotesKind::State
    } else {
        return None;
    };
    let written = serde_json::from_str::<WrittenText>(input.get()).ok()?;
    let (mut added, mut removed) = (
        written.content.or(written.new_string).unwrap_or_default(),
        written.old_string.unwrap_or_default(),
    );
    for edit in written.edits.unwrap_or_default() {
        added.push('\n');
        added.push_str(&edit.new_string.unwrap_or_default());
        removed.push('\n');
        removed.push_str(&edit.old_string.unwrap_or_default());
    }
    Some(PendingNotes {
        path: path.trim().to_owned(),
        kind,
        added: note_headings(&added),
        removed: note_headings(&removed),
        change: match tool {
            "Write" => NotesChange::Written,
            _ => NotesChange::Edited,
        },
    })
}

/// Whether a tool is a GitHub MCP server's (`mcp__github__…`, `mcp__plugin_github_github__…`)
/// `action`.
fn is_github_mcp(name: &str, action: &str) -> bool {
    name.starts_with("mcp__") && name.contains("github") && name.ends_with(action)
}

/// `*** Add File: path`, `*** Update File: path`, `*** Move to: path` lines of a patch.
fn patch_files(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|line| {
            ["*** Add File: ", "*** Update File: ", "*** Move to: "]
                .iter()
                .find_map(|prefix| line.strip_prefix(prefix))
        })
        .map(str::to_owned)
        .collect()
}

/// A tool result's text: a string, or its text blocks; only its end is kept.
fn result_text(content: &RawValue) -> String {
    let raw = content.get();
    let text = if raw.starts_with('"') {
        serde_json::from_str::<String>(raw).unwrap_or_default()
    } else {
        serde_json::from_str::<Vec<Block>>(raw)
            .map(|blocks| {
                blocks
                    .into_iter()
                    .filter_map(|block| block.text)
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default()
    };
    if text.len() <= OUTPUT_KEPT {
        return text;
    }
    let mut start = text.len() - OUTPUT_KEPT;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    // A commit's line comes first in its output: the head is kept beside the tail.
    let mut head_end = OUTPUT_KEPT / 4;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    format!("{}\n{}", &text[..head_end], &text[start..])
}

/// The `tool_use_id` in the first bytes of a tool-result row.
fn tool_use_id(head: &[u8]) -> Option<String> {
    let key = b"\"tool_use_id\":\"";
    let start = memchr::memmem::find(head, key)? + key.len();
    let end = memchr::memchr(b'"', &head[start..])? + start;
    String::from_utf8(head[start..end].to_vec()).ok()
}

/// A row's uuid as a set key: its 128 bits when it is a uuid, else a hash of it, so that the
/// rows of a 200 MB transcript cost a few megabytes to remember.
fn row_key(uuid: &str) -> u128 {
    let mut key: u128 = 0;
    let mut digits = 0;
    for digit in uuid.chars().filter(|c| *c != '-').map(|c| c.to_digit(16)) {
        match digit {
            Some(value) if digits < 32 => {
                key = key << 4 | u128::from(value);
                digits += 1;
            }
            _ => {
                digits = 0;
                break;
            }
        }
    }
    if digits == 32 {
        return key;
    }
    let mut hasher = DefaultHasher::new();
    uuid.hash(&mut hasher);
    u128::from(hasher.finish())
}

/// The uuid of a row too large to parse, from its first `"uuid":"…"`.
fn row_uuid(line: &[u8]) -> Option<&str> {
    const KEY: &[u8] = b"\"uuid\":\"";
    let start = memchr::memmem::find(line, KEY)? + KEY.len();
    let length = memchr::memchr(b'"', line.get(start..)?)?;
    std::str::from_utf8(&line[start..start + length]).ok()
}
