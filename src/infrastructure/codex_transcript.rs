//! Codex CLI's rollout transcripts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
//! `{"timestamp", "type", "payload"}` object per line (`session_meta`, `turn_context`,
//! `response_item`, `event_msg`, `compacted`), read leniently like Claude Code's: a row that
//! does not parse, or has fields of unexpected types, is skipped. The digest is built by the
//! same builder as Claude Code's, so handoffs and proposals read both alike (ADR 0016).

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::domain::TranscriptError;
use crate::domain::context::CONTEXT_MARKER;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

use super::claude_digest::DigestBuilder;
use super::claude_transcript::{BACKWARD_BUDGET, for_each_row, io, open};
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
        let mut digest = DigestBuilder::default();
        for_each_row(path, scope, |line| {
            if let Some(row) = parse(line) {
                add_row(&mut digest, &row);
            }
        })?;
        Ok(digest.finish())
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

fn add_row(digest: &mut DigestBuilder, row: &Row<'_>) {
    match row.kind.as_deref() {
        Some("response_item") => {}
        Some("compacted") => {
            if let Some(summary) = row.payload().message.filter(|m| !m.trim().is_empty()) {
                digest.compaction(summary);
            }
            return;
        }
        Some("event_msg") => {
            if row.payload().kind.as_deref() == Some("turn_aborted") {
                digest.interrupted();
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
                digest.interrupted();
            } else if !CLIENT_USER_MESSAGES
                .iter()
                .any(|prefix| text.trim_start().starts_with(prefix))
            {
                digest.user_text(&text);
            }
        }
        (Some("message"), Some("assistant")) => digest.reply(&item.text()),
        (Some("function_call" | "custom_tool_call"), _) => tool_call(digest, item),
        (Some("function_call_output" | "custom_tool_call_output"), _) => {
            let (Some(id), Some(output)) = (item.call_id, item.output) else {
                return;
            };
            let output = output_text(&output);
            digest.resolve(&id, failed(&output), &output);
        }
        _ => {}
    }
}

/// A tool call: a shell command (`exec_command`, `shell`, `shell_command`, `local_shell`) or a
/// patch (`apply_patch`, freeform or as JSON).
fn tool_call(digest: &mut DigestBuilder, item: Payload) {
    let (Some(id), Some(name)) = (item.call_id, item.name.as_deref()) else {
        return;
    };
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
                digest.patch_call(id, &patch);
            }
        }
        "exec_command" | "shell" | "shell_command" | "local_shell" => {
            let command = match (&arguments["cmd"], &arguments["command"]) {
                (Value::String(cmd), _) | (_, Value::String(cmd)) => Some(cmd.clone()),
                // `["bash", "-lc", "cargo test"]`: the script is the last word.
                (_, Value::Array(words)) => words.last().and_then(Value::as_str).map(str::to_owned),
                _ => None,
            };
            if let Some(command) = command {
                // A patch applied through the shell is a patch all the same.
                if command.contains("*** Begin Patch") {
                    digest.patch_call(id, &command);
                } else {
                    digest.command_call(id, command);
                }
            }
        }
        _ => {}
    }
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

/// Whether a tool's output says it failed: a non-zero exit code (`Process exited with code
/// 1`, `Exit code: 1`, `"exit_code": 1`) or a patch the client refused.
fn failed(output: &str) -> bool {
    let exit_code = ["Process exited with code ", "Exit code: ", "\"exit_code\":"]
        .iter()
        .find_map(|label| {
            let at = output.find(label)? + label.len();
            let digits: String = output[at..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            digits.parse::<i64>().ok()
        });
    match exit_code {
        Some(code) => code != 0,
        None => {
            let start = output.trim_start();
            start.starts_with("apply_patch verification failed")
                || start.starts_with("error")
                || start.starts_with("Error")
        }
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
