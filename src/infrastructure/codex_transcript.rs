//! Codex CLI's rollout transcripts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
//! `{"timestamp", "type", "payload"}` object per line (`session_meta`, `turn_context`,
//! `response_item`, `event_msg`, `compacted`), read leniently like Claude Code's: a row that
//! does not parse, or has fields of unexpected types, is skipped. The digest is built by the
//! same builder as Claude Code's, so handoffs and proposals read both alike (ADR 0016).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::domain::TranscriptError;
use crate::domain::context::CONTEXT_MARKER;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{
    CompactBoundary, ContextUsage, PriorInjection, SessionDigest, check_output_failed,
    is_check_command,
};

use super::claude_digest::DigestBuilder;
use super::claude_transcript::{BACKWARD_BUDGET, for_each_row, io, open};
use super::codex_code_mode::{Progress, progress, script_commands, script_poll};
use super::first_row::{first_row, has_type};
use super::reverse_lines::ReverseLines;

/// Reads Codex CLI rollouts.
#[derive(Debug, Clone, Copy, Default)]
pub struct CodexTranscriptReader;

/// Whether `path` is a Codex rollout: its first row is a `session_meta`. Any failure to read
/// says no (the other reader then reports it).
pub fn is_codex_rollout(path: &Path) -> bool {
    first_row(path).is_some_and(|row| has_type(&row, "session_meta"))
}

#[derive(Deserialize)]
struct Row<'a> {
    timestamp: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
}

/// Every payload's fields carryover reads, each optional: one lenient shape for all kinds.
#[derive(Deserialize, Default)]
struct Payload {
    #[serde(rename = "type")]
    kind: Option<String>,
    role: Option<String>,
    content: Option<Value>,
    name: Option<String>,
    arguments: Option<String>,
    input: Option<String>,
    call_id: Option<String>,
    output: Option<Value>,
    /// `compacted`: the summary.
    message: Option<String>,
    /// `turn_context`: the model of the turn.
    model: Option<String>,
    /// `token_count`.
    info: Option<TokenInfo>,
    /// `patch_apply_end`: the files the patch changed, whether it applied, what it printed.
    changes: Option<serde_json::Map<String, Value>>,
    success: Option<bool>,
    stdout: Option<String>,
}

#[derive(Deserialize)]
struct TokenInfo {
    last_token_usage: Option<TokenUsage>,
}

#[derive(Deserialize)]
struct TokenUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    total_tokens: Option<u64>,
}

impl Row<'_> {
    fn payload(&self) -> Payload {
        self.payload
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or_default()
    }

    fn is(&self, kind: &str) -> bool {
        self.kind.as_deref() == Some(kind)
    }
}

impl Payload {
    /// The tokens in context at the last model call: what the client itself shows as used.
    fn context_tokens(&self) -> Option<u64> {
        let usage = self.info.as_ref()?.last_token_usage.as_ref()?;
        let tokens = usage
            .total_tokens
            .unwrap_or_else(|| usage.input_tokens.unwrap_or(0) + usage.output_tokens.unwrap_or(0));
        (tokens > 0).then_some(tokens)
    }

    /// The text parts of a message (`input_text`, `output_text`).
    fn text(&self) -> String {
        let Some(Value::Array(parts)) = &self.content else {
            return String::new();
        };
        parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn parse(line: &[u8]) -> Option<Row<'_>> {
    serde_json::from_slice(line).ok()
}

#[async_trait::async_trait]
impl TranscriptReader for CodexTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let counts = memchr::memmem::Finder::new(b"token_count");
        let turn = memchr::memmem::Finder::new(b"turn_context");
        let mut tokens = None;
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if tokens.is_none() && counts.find(&line).is_some() {
                tokens = parse(&line)
                    .filter(|row| row.is("event_msg"))
                    .and_then(|row| row.payload().context_tokens());
            } else if tokens.is_some() && turn.find(&line).is_some() {
                // The turn that made the call names the model.
                if let Some(row) = parse(&line).filter(|row| row.is("turn_context")) {
                    let model = row.payload().model;
                    return Ok(tokens.map(|tokens| ContextUsage { tokens, model }));
                }
            }
        }
        Ok(tokens.map(|tokens| ContextUsage {
            tokens,
            model: None,
        }))
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let compacted = memchr::memmem::Finder::new(b"compacted");
        let counts = memchr::memmem::Finder::new(b"token_count");
        let mut found = false;
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if !found {
                found = compacted.find(&line).is_some()
                    && parse(&line).is_some_and(|row| row.is("compacted"));
            } else if counts.find(&line).is_some() {
                // The rollout does not say how full the context was: the last count before
                // the compaction does. Nor does it record the trigger.
                if let Some(pre_tokens) = parse(&line)
                    .filter(|row| row.is("event_msg"))
                    .and_then(|row| row.payload().context_tokens())
                {
                    return Ok(Some(CompactBoundary {
                        pre_tokens,
                        trigger: None,
                    }));
                }
            }
        }
        Ok(None)
    }

    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let marker = memchr::memmem::Finder::new(CONTEXT_MARKER.as_bytes());
        let compacted = memchr::memmem::Finder::new(b"compacted");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            let ours = marker.find(&line).is_some();
            if !ours && compacted.find(&line).is_none() {
                continue;
            }
            let Some(row) = parse(&line) else { continue };
            let at = row
                .timestamp
                .as_deref()
                .and_then(|t| Timestamp::parse(t).ok());
            // A hook's context is recorded as a developer message; a compaction that kept it
            // in its replacement history keeps it before the model.
            let payload = row.payload();
            let injected = row.is("response_item")
                && payload.kind.as_deref() == Some("message")
                && payload.role.as_deref() == Some("developer")
                && payload.text().contains(CONTEXT_MARKER);
            if injected || (row.is("compacted") && ours) {
                if let Some(at) = at {
                    return Ok(PriorInjection::Found(at));
                }
            } else if row.is("compacted") {
                return Ok(PriorInjection::Absent);
            }
        }
        Ok(match lines.reached_start() {
            true => PriorInjection::Absent,
            false => PriorInjection::Unknown,
        })
    }

    async fn digest(
        &self,
        path: &Path,
        scope: DigestScope,
    ) -> Result<SessionDigest, TranscriptError> {
        let mut reading = Reading::default();
        for_each_row(path, scope, |line| {
            if let Some(row) = parse(line) {
                reading.add_row(&row);
            }
        })?;
        Ok(reading.digest.finish())
    }
}

/// User messages the client writes itself: the environment, the project's instructions, a
/// turn it aborted, a shell command the user ran with `!`.
const CLIENT_USER_MESSAGES: [&str; 5] = [
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<turn_aborted>",
    "<user_shell_command>",
];

/// What reading a rollout in order remembers between rows.
#[derive(Default)]
struct Reading {
    digest: DigestBuilder,
    /// The tool calls seen, with the shell command each runs: a patch event for one of them
    /// is counted by the call's output, and a check's output is read for a failure when the
    /// client gives no exit code.
    calls: HashMap<String, Option<String>>,
    /// A command still running, by its session (`exec_command`) or cell (code mode) id: the
    /// call it answers and what it printed so far.
    running: HashMap<String, (String, String)>,
    /// A poll (`write_stdin`, `wait`) by its call id, and the session or cell it polls.
    polls: HashMap<String, String>,
}

impl Reading {
    fn add_row(&mut self, row: &Row<'_>) {
        match row.kind.as_deref() {
            Some("response_item") => {}
            Some("compacted") => {
                if let Some(summary) = row.payload().message.filter(|m| !m.trim().is_empty()) {
                    self.digest.compaction(summary);
                }
                return;
            }
            Some("event_msg") => {
                let event = row.payload();
                match event.kind.as_deref() {
                    Some("turn_aborted") => self.digest.interrupted(),
                    Some("patch_apply_end") => self.patched(event),
                    _ => {}
                }
                return;
            }
            _ => return,
        }
        let item = row.payload();
        match (item.kind.as_deref(), item.role.as_deref()) {
            (Some("message"), Some("user")) => {
                let text = item.text();
                if text.trim_start().starts_with("<turn_aborted>") {
                    self.digest.interrupted();
                } else if !CLIENT_USER_MESSAGES
                    .iter()
                    .any(|prefix| text.trim_start().starts_with(prefix))
                {
                    self.digest.user_text(&text);
                }
            }
            (Some("message"), Some("assistant")) => {
                self.digest.reply(&without_directives(&item.text()));
            }
            (Some("function_call" | "custom_tool_call"), _) => self.tool_call(item),
            (Some("function_call_output" | "custom_tool_call_output"), _) => {
                if let (Some(id), Some(output)) = (item.call_id, item.output) {
                    self.tool_output(id, &output_text(&output));
                }
            }
            _ => {}
        }
    }

    /// A tool call: a shell command (`exec_command`, `shell`, `shell_command`,
    /// `local_shell`), a patch (`apply_patch`, freeform or as JSON), a code-mode script
    /// (`exec`), or a poll of a command still running (`write_stdin`, `wait`).
    fn tool_call(&mut self, item: Payload) {
        let (Some(id), Some(name)) = (item.call_id, item.name.as_deref()) else {
            return;
        };
        self.calls.insert(id.clone(), None);
        let arguments: Value = item
            .arguments
            .as_deref()
            .and_then(|raw| serde_json::from_str(raw).ok())
            .unwrap_or(Value::Null);
        match name {
            "apply_patch" => {
                let patch = item
                    .input
                    .or_else(|| arguments["input"].as_str().map(str::to_owned))
                    .or_else(|| arguments["patch"].as_str().map(str::to_owned));
                if let Some(patch) = patch {
                    self.digest.patch_call(id, &patch);
                }
            }
            "exec_command" | "shell" | "shell_command" | "local_shell" => {
                let command = match (&arguments["cmd"], &arguments["command"]) {
                    (Value::String(cmd), _) | (_, Value::String(cmd)) => Some(cmd.clone()),
                    // `["bash", "-lc", "cargo test"]`: the script is the last word.
                    (_, Value::Array(words)) => {
                        words.last().and_then(Value::as_str).map(str::to_owned)
                    }
                    _ => None,
                };
                if let Some(command) = command {
                    // A patch applied through the shell is a patch all the same.
                    if command.contains("*** Begin Patch") {
                        self.digest.patch_call(id, &command);
                    } else {
                        self.command_call(id, command);
                    }
                }
            }
            "exec" => {
                let script = item.input.as_deref().unwrap_or_default();
                if let Some(session) = script_poll(script) {
                    self.polls.insert(id, format!("session {session}"));
                    return;
                }
                let commands = script_commands(script);
                if !commands.is_empty() {
                    self.command_call(id, commands.join("\n"));
                }
            }
            "write_stdin" => {
                if let Some(session) = scalar(&arguments["session_id"]) {
                    self.polls.insert(id, format!("session {session}"));
                }
            }
            "wait" => {
                if let Some(cell) = scalar(&arguments["cell_id"]) {
                    self.polls.insert(id, format!("cell {cell}"));
                }
            }
            _ => {}
        }
    }

    fn command_call(&mut self, id: String, command: String) {
        self.calls.insert(id.clone(), Some(command.clone()));
        self.digest.command_call(id, command);
    }

    /// A tool's output. A command still running is resolved by the poll that sees it end,
    /// with all it printed, so that what a long push or `gh pr create` printed last counts.
    fn tool_output(&mut self, id: String, output: &str) {
        let (call, before) = match self.polls.remove(&id) {
            Some(polled) => match self.running.remove(&polled) {
                Some(started) => started,
                None => return,
            },
            None => (id, String::new()),
        };
        let joined = |rest: &str| match before.is_empty() {
            true => rest.to_owned(),
            false => format!("{before}\n{rest}"),
        };
        match progress(output) {
            Progress::Running(handle, so_far) => {
                let printed = joined(so_far);
                self.running.insert(handle, (call, printed));
            }
            Progress::Ended(rest) => {
                let printed = joined(rest);
                let is_error = self.failed(&call, &printed);
                self.digest.resolve(
                    &call,
                    is_error,
                    &printed_output(&printed).unwrap_or(printed),
                );
            }
            Progress::Aborted(rest) => self.digest.resolve(&call, true, &joined(rest)),
        }
    }

    /// Whether a call failed: by its exit code, or, where the client gives none (code
    /// mode), by what a check printed.
    fn failed(&self, call: &str, output: &str) -> bool {
        let check = || {
            self.calls
                .get(call)
                .and_then(Option::as_deref)
                .is_some_and(is_check_command)
        };
        failed(output) || (exit_code(output).is_none() && check() && check_output_failed(output))
    }

    /// The client's record of a patch applied: in code mode the only one that names the
    /// files, since the script builds the patch however it likes. A patch event for a call
    /// seen is left to the call's output.
    fn patched(&mut self, event: Payload) {
        let Some(id) = event.call_id.filter(|id| !self.calls.contains_key(id)) else {
            return;
        };
        let files: Vec<String> = event
            .changes
            .map(|changes| changes.into_iter().map(|(path, _)| path).collect())
            .unwrap_or_default();
        if files.is_empty() {
            return;
        }
        self.digest.files_call(id.clone(), files);
        let applied = event.success.unwrap_or(false);
        self.digest
            .resolve(&id, !applied, event.stdout.as_deref().unwrap_or_default());
    }
}

/// An assistant message without Codex Desktop's action directives (`::git-commit{cwd="…"}`),
/// which the app turns into buttons and which say nothing to a reader.
fn without_directives(text: &str) -> String {
    let is_directive = |line: &str| {
        let line = line.trim();
        line.strip_prefix("::").is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_lowercase())
                && rest.ends_with('}')
                && rest.split_once('{').is_some_and(|(name, _)| {
                    name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                })
        })
    };
    if !text.lines().any(is_directive) {
        return text.to_owned();
    }
    text.lines()
        .filter(|line| !is_directive(line))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_owned()
}

/// A tool output's text: a string, `{"output": …}` (older clients), or text parts.
fn output_text(output: &Value) -> String {
    match output {
        Value::String(text) => text.clone(),
        Value::Object(fields) => fields
            .get("output")
            .or_else(|| fields.get("content"))
            .map(output_text)
            .unwrap_or_default(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The exit code a tool's output reports: `Process exited with code 1`, `Exit code: 1`,
/// `"exit_code": 1`, or `EXIT_CODE=1` as code-mode scripts print it.
fn exit_code(output: &str) -> Option<i64> {
    [
        "Process exited with code ",
        "Exit code: ",
        "\"exit_code\":",
        "EXIT_CODE=",
    ]
    .iter()
    .find_map(|label| {
        let at = output.find(label)? + label.len();
        let digits: String = output[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        digits.parse::<i64>().ok()
    })
}

/// Whether a tool's output says it failed: a non-zero exit code, a patch the client
/// refused, or an output that starts with an error.
fn failed(output: &str) -> bool {
    match exit_code(output) {
        Some(code) => code != 0,
        None => {
            let start = output.trim_start();
            start.starts_with("apply_patch verification failed")
                || start.starts_with("error")
                || start.starts_with("Error")
        }
    }
}

/// The command output a code-mode script printed as JSON
/// (`text(JSON.stringify({exit_code: r.exit_code, output: r.output}))`), unescaped so that
/// its lines read as lines.
fn printed_output(printed: &str) -> Option<String> {
    let value: Value = serde_json::from_str(printed.trim()).ok()?;
    value.get("output")?.as_str().map(str::to_owned)
}

/// A JSON number or string as text (`86237`, `"18"`).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Number(number) => Some(number.to_string()),
        Value::String(text) => Some(text.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::PathBuf;

    use rstest::rstest;
    use serde_json::json;

    fn fixture() -> PathBuf {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex-0.169.0/transcripts");
        fs_err::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .unwrap()
    }

    fn written(lines: &[String]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    fn row(kind: &str, payload: Value) -> String {
        json!({"timestamp": "2026-11-23T09:24:11.712Z", "type": kind, "payload": payload})
            .to_string()
    }

    fn message(role: &str, text: &str) -> String {
        let part = if role == "assistant" {
            "output_text"
        } else {
            "input_text"
        };
        row(
            "response_item",
            json!({"type": "message", "role": role, "content": [{"type": part, "text": text}]}),
        )
    }

    /// A rollout as Codex CLI 0.169.0 writes a call of its `exec_command` tool and its result.
    fn exec(id: &str, cmd: &str, code: i32, output: &str) -> [String; 2] {
        [
            row(
                "response_item",
                json!({"type": "function_call", "name": "exec_command", "call_id": id,
                    "arguments": json!({"cmd": cmd}).to_string()}),
            ),
            row(
                "response_item",
                json!({"type": "function_call_output", "call_id": id, "output": format!(
                    "Chunk ID: a8c9e9\nWall time: 0.0000 seconds\nProcess exited with code {code}\nOriginal token count: 2\nOutput:\n{output}\n")}),
            ),
        ]
    }

    fn patch(id: &str, file: &str, output: &str) -> [String; 2] {
        [
            row(
                "response_item",
                json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": id,
                    "input": format!("*** Begin Patch\n*** Update File: {file}\n@@\n-a\n+b\n*** End Patch")}),
            ),
            row(
                "response_item",
                json!({"type": "custom_tool_call_output", "call_id": id, "output": output}),
            ),
        ]
    }

    /// A code-mode script (Codex 0.144 on) and, when given, its output.
    fn script(id: &str, input: &str, output: Option<&str>) -> Vec<String> {
        let mut rows = vec![row(
            "response_item",
            json!({"type": "custom_tool_call", "name": "exec", "call_id": id, "input": input}),
        )];
        rows.extend(output.map(|output| tool_result("custom_tool_call_output", id, output)));
        rows
    }

    fn tool_result(kind: &str, id: &str, output: &str) -> String {
        row(
            "response_item",
            json!({"type": kind, "call_id": id, "output": [{"type": "input_text", "text": output}]}),
        )
    }

    /// A poll of a command still running (`write_stdin`, `wait`) and its output.
    fn poll(name: &str, id: &str, arguments: Value, output: &str) -> [String; 2] {
        [
            row(
                "response_item",
                json!({"type": "function_call", "name": name, "call_id": id,
                    "arguments": arguments.to_string()}),
            ),
            row(
                "response_item",
                json!({"type": "function_call_output", "call_id": id, "output": output}),
            ),
        ]
    }

    fn completed(output: &str) -> String {
        format!("Script completed\nWall time 0.5 seconds\nOutput:\n{output}")
    }

    fn digest_of(rows: &[String]) -> SessionDigest {
        let file = written(rows);
        pollster::block_on(CodexTranscriptReader.digest(file.path(), DigestScope::Whole)).unwrap()
    }

    const COMMIT_SCRIPT: &str = r#"const r = await tools.exec_command({cmd:"git add src/a.rs\ngit commit -m \"fix: a\"","workdir":"/w"}); text(r.output);"#;
    const COMMITTED: &str = "[fix/a 5a085b9] fix: a\n 1 file changed, 2 insertions(+)";

    #[test]
    fn a_code_mode_scripts_commands_are_read() {
        let digest = digest_of(&script("c1", COMMIT_SCRIPT, Some(&completed(COMMITTED))));
        let commits: Vec<&str> = digest.commits.iter().map(|c| c.hash.as_str()).collect();
        assert_eq!(commits, ["5a085b9"]);
        assert_eq!(digest.work_done, 1);
    }

    #[rstest]
    #[case::a_cell_waited_for([
        script("c1", COMMIT_SCRIPT, Some("Script running with cell ID 18\nWall time 10.0 seconds\nOutput:\n")),
        poll("wait", "w1", json!({"cell_id": "18"}), "Script running with cell ID 18\nWall time 1.0 seconds\nOutput:\n").to_vec(),
        poll("wait", "w2", json!({"cell_id": "18"}), &completed(COMMITTED)).to_vec(),
    ].concat())]
    #[case::a_session_polled_by_a_script([
        script("c1", COMMIT_SCRIPT, Some(&completed("SESSION_ID=75376"))),
        script("c2", r#"const r = await tools.write_stdin({session_id:75376,chars:""}); text(r.output);"#, Some(&completed(COMMITTED))),
    ].concat())]
    #[case::a_session_polled_by_write_stdin([
        exec("c1", "git commit -m 'fix: a'", 0, "").into_iter().take(1).collect::<Vec<_>>(),
        vec![row("response_item", json!({"type": "function_call_output", "call_id": "c1", "output":
            "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 86237\nOriginal token count: 0\nOutput:\n"}))],
        poll("write_stdin", "p1", json!({"session_id": 86237, "chars": ""}),
            &format!("Chunk ID: 2\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\n{COMMITTED}")).to_vec(),
    ].concat())]
    fn a_command_still_running_counts_when_the_poll_sees_it_end(#[case] rows: Vec<String>) {
        let digest = digest_of(&rows);
        let commits: Vec<&str> = digest.commits.iter().map(|c| c.hash.as_str()).collect();
        assert_eq!(commits, ["5a085b9"]);
    }

    #[test]
    fn a_command_never_seen_to_end_does_not_count() {
        let digest = digest_of(&script(
            "c1",
            COMMIT_SCRIPT,
            Some("Script running with cell ID 18\nWall time 10.0 seconds\nOutput:\n"),
        ));
        assert!(digest.commits.is_empty());
        assert_eq!(digest.work_done, 0);
    }

    #[rstest]
    #[case::failing_test(
        "Script completed\nWall time 1.2 seconds\nOutput:\n   Compiling hk v1.50.0\nerror[E0432]: unresolved import `crate::step::X`",
        false
    )]
    #[case::exit_code_printed(
        "Script completed\nWall time 1 seconds\nOutput:\nok\nEXIT_CODE=101",
        false
    )]
    #[case::passing_test(
        "Script completed\nWall time 1 seconds\nOutput:\ntest result: ok. 12 passed; 0 failed",
        true
    )]
    #[case::printed_as_json(
        r#"Script completed
Wall time 1 seconds
Output:
{"exit_code":1,"output":"test result: FAILED. 1 passed; 1 failed"}"#,
        false
    )]
    fn a_code_mode_check_is_judged_by_what_it_printed(#[case] output: &str, #[case] passed: bool) {
        let test =
            r#"const r = await tools.exec_command({cmd:"cargo test --locked"}); text(r.output);"#;
        let digest = digest_of(&script("c1", test, Some(output)));
        let check = digest.last_check.expect("a check ran");
        assert_eq!(check.passed, passed, "{}", check.summary);
    }

    #[test]
    fn output_printed_as_json_is_read_line_by_line() {
        let push = r#"const r = await tools.exec_command({cmd:"git push"}); text(JSON.stringify({exit_code: r.exit_code, output: r.output}));"#;
        let printed = json!({"exit_code": 0, "output":
            "To https://github.com/o/r.git\n   c3f454e..65a63ba  fix/a -> fix/a\n"})
        .to_string();
        let digest = digest_of(&script("c1", push, Some(&completed(&printed))));
        assert_eq!(digest.pushes, ["fix/a -> fix/a"]);
    }

    #[test]
    fn code_mode_patches_are_read_from_the_clients_patch_events() {
        let patch_event = |id: &str, file: &str| {
            row(
                "event_msg",
                json!({"type": "patch_apply_end", "call_id": id, "success": true,
                    "stdout": format!("Success. Updated the following files:\nM {file}\n"),
                    "changes": {file: {"type": "update", "unified_diff": "@@"}}}),
            )
        };
        let mut rows = script(
            "c1",
            r#"const patch = "*** Begin Patch\n*** Update File: src/a.rs\n*** End Patch"; text(await tools.apply_patch(patch));"#,
            None,
        );
        rows.push(patch_event("exec-1", "src/a.rs"));
        rows.push(tool_result(
            "custom_tool_call_output",
            "c1",
            &completed("{}"),
        ));
        // A patch the model called directly is counted by its own output, once.
        rows.extend(patch(
            "c2",
            "src/b.rs",
            "Success. Updated the following files:\nM src/b.rs",
        ));
        rows.push(patch_event("c2", "src/b.rs"));
        let digest = digest_of(&rows);
        let touched: Vec<&str> = digest.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(touched, ["src/a.rs", "src/b.rs"]);
        assert_eq!(digest.work_done, 2);
    }

    #[test]
    fn codex_desktops_action_directives_are_left_out_of_replies() {
        let digest = digest_of(&[message(
            "assistant",
            "PR #1067 is ready.\n\n::git-stage{cwd=\"/w/hk\"}\n::git-push{cwd=\"/w/hk\" branch=\"codex/x\"}",
        )]);
        assert_eq!(
            digest.last_assistant_message.as_deref(),
            Some("PR #1067 is ready.")
        );
    }

    #[test]
    fn the_real_rollout_is_recognised_and_a_claude_transcript_is_not() {
        assert!(is_codex_rollout(&fixture()));
        let claude = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude-code-2.1.328/transcripts");
        for entry in fs_err::read_dir(claude).unwrap() {
            assert!(!is_codex_rollout(&entry.unwrap().path()));
        }
        assert!(!is_codex_rollout(Path::new("/nonexistent/rollout.jsonl")));
    }

    #[test]
    fn the_real_rollouts_digest_has_the_requests_and_the_last_reply() {
        let digest =
            pollster::block_on(CodexTranscriptReader.digest(&fixture(), DigestScope::Whole))
                .unwrap();
        assert_eq!(
            digest.user_requests,
            [
                "first prompt: hello",
                "second prompt after resume",
                "third prompt, context over the limit"
            ]
        );
        assert_eq!(
            digest.last_assistant_message.as_deref(),
            Some("standin reply; markers seen: PROMPT,SESSIONSTART")
        );
        assert!(
            digest
                .compact_summary
                .as_deref()
                .is_some_and(|s| s.starts_with("Another language model"))
        );
    }

    #[test]
    fn the_real_rollouts_usage_and_compaction() {
        let usage = pollster::block_on(CodexTranscriptReader.last_usage(&fixture())).unwrap();
        assert_eq!(
            usage,
            Some(ContextUsage {
                tokens: 110,
                model: Some("standin-model".into())
            })
        );
        let boundary =
            pollster::block_on(CodexTranscriptReader.last_compaction(&fixture())).unwrap();
        assert_eq!(
            boundary,
            Some(CompactBoundary {
                pre_tokens: 110,
                trigger: None
            })
        );
    }

    #[rstest]
    #[case::ran_and_succeeded(exec("c1", "printf x > notes.txt", 0, "").to_vec(), 1, &[])]
    #[case::failed(exec("c1", "false", 1, "").to_vec(), 0, &[])]
    #[case::read_only(exec("c1", "ls -la", 0, "a\nb").to_vec(), 0, &[])]
    #[case::patched(patch("c1", "src/lib.rs", "Success. Updated the following files:\nM src/lib.rs").to_vec(), 1, &["src/lib.rs"])]
    #[case::patch_refused(patch("c1", "src/lib.rs", "apply_patch verification failed: no such file").to_vec(), 0, &[])]
    #[case::no_result_yet(patch("c1", "src/lib.rs", "").into_iter().take(1).collect(), 0, &[])]
    fn tool_calls_count_once_they_succeeded(
        #[case] rows: Vec<String>,
        #[case] work_done: usize,
        #[case] files: &[&str],
    ) {
        let file = written(&rows);
        let digest =
            pollster::block_on(CodexTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(digest.work_done, work_done);
        let touched: Vec<&str> = digest.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(touched, files);
    }

    #[rstest]
    #[case::environment("<environment_context>\n  <cwd>/p</cwd>\n</environment_context>", &[])]
    #[case::agents_md("# AGENTS.md instructions for /p\n\nbe brief", &[])]
    #[case::typed("fix the flaky retry test", &["fix the flaky retry test"])]
    fn only_what_the_user_typed_is_a_request(#[case] text: &str, #[case] requests: &[&str]) {
        let file = written(&[
            message("developer", "Identity: Juno"),
            message("user", text),
        ]);
        let digest =
            pollster::block_on(CodexTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(digest.user_requests, requests);
    }

    #[rstest]
    #[case::kept(vec![message("developer", &format!("Identity\n\n{CONTEXT_MARKER}")), message("user", "hi")], true)]
    #[case::compacted_away(vec![message("developer", &format!("x {CONTEXT_MARKER}")), row("compacted", json!({"message": "summary"}))], false)]
    #[case::never(vec![message("user", "hi")], false)]
    #[case::typed_by_the_user(vec![message("user", CONTEXT_MARKER)], false)]
    fn finds_carryovers_context_after_the_last_compaction(
        #[case] rows: Vec<String>,
        #[case] found: bool,
    ) {
        let file = written(&rows);
        let injection = pollster::block_on(CodexTranscriptReader.last_injection(file.path()));
        assert_eq!(
            matches!(injection.unwrap(), PriorInjection::Found(_)),
            found
        );
    }

    #[rstest]
    #[case("Process exited with code 0\nOutput:\nerror: none", false)]
    #[case("Process exited with code 101\nOutput:\n", true)]
    #[case(r#"{"output":"ok","metadata":{"exit_code": 2}}"#, true)]
    #[case("Exit code: 0\nWall time: 1s", false)]
    #[case("Success. Updated the following files:\nM a.rs", false)]
    #[case("apply_patch verification failed: x", true)]
    fn outputs_say_whether_the_call_failed(#[case] output: &str, #[case] fails: bool) {
        assert_eq!(failed(output), fails);
    }
}
