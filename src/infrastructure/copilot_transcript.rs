//! GitHub Copilot CLI's session events (`$COPILOT_HOME/session-state/<id>/events.jsonl`): one
//! `{"type", "data", "id", "timestamp", "parentId"}` object per line (`session.start`,
//! `session.resume`, `user.message`, `assistant.message` with its `toolRequests`,
//! `tool.execution_complete`, `session.usage_record`, `session.compaction_*`, `hook.*`…),
//! read leniently like the other agents' transcripts: a row that does not parse, or has fields
//! of unexpected types, is skipped. The digest is built by the same builder (ADR 0022).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

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

/// Reads Copilot CLI session events.
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotTranscriptReader;

/// Whether `path` is a Copilot CLI events file: its first row is a `session.start`. Any
/// failure to read says no (another reader then reports it).
pub fn is_copilot_events(path: &Path) -> bool {
    first_row(path).is_some_and(|row| has_type(&row, "session.start"))
}

/// How much of the file's end [`await_hook_row`] reads: the hook's own `hook.start` is among
/// the last rows.
const SETTLE_TAIL_BYTES: u64 = 64 * 1024;

/// How often [`await_hook_row`] looks again.
const SETTLE_POLL: Duration = Duration::from_millis(20);

/// Waits, at most `limit`, until `path` holds the `hook.start` of the hook now running (its
/// `input.timestamp` is the payload's `timestamp`, epoch milliseconds). Copilot CLI 1.0.102
/// writes `events.jsonl` behind a timer (the row showed up some 100 ms after the hook began,
/// and in a short `-p` run the file did not exist yet), so a hook that read it at once would
/// miss the turn it is about; rows are written in order, so once its own row is there, every
/// earlier one is. Returns whether it appeared.
pub fn await_hook_row(path: &Path, timestamp_ms: u64, limit: Duration) -> bool {
    let needle = format!("\"timestamp\":{timestamp_ms}");
    let spaced = format!("\"timestamp\": {timestamp_ms}");
    let finders = [
        memchr::memmem::Finder::new(needle.as_bytes()),
        memchr::memmem::Finder::new(spaced.as_bytes()),
    ];
    let started = Instant::now();
    loop {
        if let Some(tail) = read_tail(path, SETTLE_TAIL_BYTES)
            && finders.iter().any(|f| f.find(&tail).is_some())
        {
            return true;
        }
        if started.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(SETTLE_POLL);
    }
}

fn read_tail(path: &Path, bytes: u64) -> Option<Vec<u8>> {
    let mut file = super::open_regular(path).ok()?;
    let length = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(bytes)))
        .ok()?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).ok()?;
    Some(tail)
}

#[derive(Deserialize)]
struct Row<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    timestamp: Option<String>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

/// Every event's fields carryover reads, each optional: one lenient shape for all kinds.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Data {
    /// `user.message`: what the user typed; `assistant.message`: the reply.
    content: Option<String>,
    tool_requests: Option<Vec<ToolRequest>>,
    /// `tool.execution_complete`.
    tool_call_id: Option<String>,
    success: Option<bool>,
    result: Option<Value>,
    shell_execution: Option<ShellExecution>,
    /// `session.usage_record`.
    usage: Option<Usage>,
    /// `session.compaction_complete`.
    summary_content: Option<String>,
    pre_compaction_tokens: Option<u64>,
    trigger: Option<String>,
    /// `hook.end`.
    hook_type: Option<String>,
    output: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolRequest {
    tool_call_id: Option<String>,
    name: Option<String>,
    arguments: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShellExecution {
    exit_code: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Usage {
    model: Option<String>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
}

impl Row<'_> {
    fn data(&self) -> Data {
        self.data
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or_default()
    }

    fn is(&self, kind: &str) -> bool {
        self.kind.as_deref() == Some(kind)
    }

    fn at(&self) -> Option<Timestamp> {
        self.timestamp
            .as_deref()
            .and_then(|t| Timestamp::parse(t).ok())
    }
}

fn parse(line: &[u8]) -> Option<Row<'_>> {
    serde_json::from_slice(line).ok()
}

/// Copilot CLI's compaction trigger in carryover's words: `threshold` is automatic.
fn trigger_name(raw: &str) -> String {
    match raw {
        "threshold" | "auto" => "auto".to_owned(),
        other => other.to_owned(),
    }
}

#[async_trait::async_trait]
impl TranscriptReader for CopilotTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let record = memchr::memmem::Finder::new(b"session.usage_record");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if record.find(&line).is_none() {
                continue;
            }
            // Each model call's prompt is the whole context, and its reply joins it.
            let Some(usage) = parse(&line)
                .filter(|row| row.is("session.usage_record"))
                .and_then(|row| row.data().usage)
            else {
                continue;
            };
            let tokens = usage.input_tokens.unwrap_or(0) + usage.output_tokens.unwrap_or(0);
            if tokens > 0 {
                return Ok(Some(ContextUsage {
                    tokens,
                    model: usage.model,
                }));
            }
        }
        Ok(None)
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let complete = memchr::memmem::Finder::new(b"session.compaction_complete");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if complete.find(&line).is_none() {
                continue;
            }
            let Some(row) = parse(&line).filter(|row| row.is("session.compaction_complete")) else {
                continue;
            };
            let data = row.data();
            if data.success == Some(false) {
                continue;
            }
            if let Some(pre_tokens) = data.pre_compaction_tokens {
                return Ok(Some(CompactBoundary {
                    pre_tokens,
                    trigger: data.trigger.as_deref().map(trigger_name),
                }));
            }
        }
        Ok(None)
    }

    /// carryover's session-start context is recorded as the `hook.end` of a `sessionStart`
    /// hook. Copilot CLI 1.0.102 sends the model only the context of the last sessionStart: a
    /// `--continue` or `--resume` (a `session.resume` row, written before the hook runs)
    /// drops the earlier one, as does a compaction, so either ends the search.
    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let marker = memchr::memmem::Finder::new(CONTEXT_MARKER.as_bytes());
        let boundaries = [
            memchr::memmem::Finder::new(b"session.resume"),
            memchr::memmem::Finder::new(b"session.compaction_complete"),
            memchr::memmem::Finder::new(b"session.start"),
        ];
        while let Some(line) = lines.next_line().map_err(io(path))? {
            let ours = marker.find(&line).is_some();
            let boundary = boundaries.iter().any(|b| b.find(&line).is_some());
            if !ours && !boundary {
                continue;
            }
            let Some(row) = parse(&line) else { continue };
            match row.kind.as_deref() {
                Some("session.resume" | "session.compaction_complete" | "session.start") => {
                    return Ok(PriorInjection::Absent);
                }
                Some("hook.end") if ours => {
                    let data = row.data();
                    let injected = data.hook_type.as_deref() == Some("sessionStart")
                        && data
                            .output
                            .as_ref()
                            .and_then(|output| output["additionalContext"].as_str())
                            .is_some_and(|context| context.contains(CONTEXT_MARKER));
                    if let (true, Some(at)) = (injected, row.at()) {
                        return Ok(PriorInjection::Found(at));
                    }
                }
                _ => {}
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

fn add_row(digest: &mut DigestBuilder, row: &Row<'_>) {
    match row.kind.as_deref() {
        // `content` is what the user typed; the client's additions (the time, carryover's
        // recall) are in `transformedContent`.
        Some("user.message") => {
            if let Some(text) = row.data().content {
                digest.user_text(&text);
            }
        }
        Some("assistant.message") => {
            let data = row.data();
            for request in data.tool_requests.into_iter().flatten() {
                tool_call(digest, request);
            }
            if let Some(text) = data.content {
                digest.reply(&text);
            }
        }
        Some("tool.execution_complete") => {
            let data = row.data();
            let Some(id) = data.tool_call_id else { return };
            let output = data
                .result
                .as_ref()
                .and_then(|result| result["content"].as_str())
                .unwrap_or_default();
            let exit = data.shell_execution.and_then(|shell| shell.exit_code);
            let failed = data.success == Some(false) || exit.is_some_and(|code| code != 0);
            digest.resolve(&id, failed, output);
        }
        Some("session.compaction_complete") => {
            if let Some(summary) = row.data().summary_content.filter(|s| !s.trim().is_empty()) {
                digest.compaction(summary);
            }
        }
        Some("abort") => digest.interrupted(),
        _ => {}
    }
}

/// A tool call: a shell command (`bash`, `powershell`), a file written or edited (`create`,
/// `edit`, `str_replace_editor`) or a patch (`apply_patch`); reads and searches are not work.
fn tool_call(digest: &mut DigestBuilder, request: ToolRequest) {
    let (Some(id), Some(name)) = (request.tool_call_id, request.name.as_deref()) else {
        return;
    };
    let arguments = request.arguments.unwrap_or(Value::Null);
    let text = |key: &str| arguments[key].as_str().map(str::to_owned);
    match name {
        "bash" | "powershell" => {
            if let Some(command) = text("command") {
                digest.command_call(id, command);
            }
        }
        "create" | "edit" | "str_replace_editor" => {
            if let Some(path) = text("path") {
                digest.files_call(id, vec![path]);
            }
        }
        "apply_patch" => {
            if let Some(patch) = text("input").or_else(|| text("patch")) {
                digest.patch_call(id, &patch);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::PathBuf;

    use rstest::rstest;
    use serde_json::json;

    fn fixture(prefix: &str) -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/copilot-cli-1.0.102/transcripts");
        fs_err::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
            .unwrap()
    }

    fn written(lines: &[String]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    fn row(kind: &str, data: Value) -> String {
        json!({"type": kind, "data": data, "id": "e1", "timestamp": "2026-11-23T09:28:01.696Z"})
            .to_string()
    }

    fn start_hook(context: &str) -> String {
        row(
            "hook.end",
            json!({"hookType": "sessionStart", "success": true,
                "output": {"additionalContext": context}}),
        )
    }

    #[test]
    fn the_real_events_are_recognised_and_other_transcripts_are_not() {
        assert!(is_copilot_events(&fixture("prompt-mode-new-resume")));
        assert!(is_copilot_events(&fixture("prompt-mode-tool-call")));
        for other in ["claude-code-2.1.328", "codex-0.169.0"] {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(other)
                .join("transcripts");
            for entry in fs_err::read_dir(dir).unwrap() {
                assert!(!is_copilot_events(&entry.unwrap().path()));
            }
        }
        assert!(!is_copilot_events(Path::new("/nonexistent/events.jsonl")));
    }

    #[test]
    fn the_real_sessions_digest_has_the_requests_the_reply_and_the_compaction() {
        let digest = pollster::block_on(
            CopilotTranscriptReader.digest(&fixture("prompt-mode-new-resume"), DigestScope::Whole),
        )
        .unwrap();
        assert_eq!(
            &digest.user_requests[..2],
            ["first prompt: hello", "second prompt after resume"]
        );
        assert_eq!(
            digest.last_assistant_message.as_deref(),
            Some("standin reply; markers seen: PROMPT,SESSIONSTART")
        );
        assert!(digest.compact_summary.is_some());
    }

    #[test]
    fn the_real_shell_call_counts_as_work_with_its_commit() {
        let digest = pollster::block_on(
            CopilotTranscriptReader.digest(&fixture("prompt-mode-tool-call"), DigestScope::Whole),
        )
        .unwrap();
        assert_eq!(digest.user_requests, ["please commit the retry budget"]);
        assert_eq!(digest.work_done, 1);
        assert_eq!(
            digest.last_assistant_message.as_deref(),
            Some("Noted: the retry budget stays below five attempts.")
        );
    }

    #[test]
    fn the_real_usage_and_compaction() {
        let usage = pollster::block_on(
            CopilotTranscriptReader.last_usage(&fixture("prompt-mode-tool-call")),
        )
        .unwrap();
        assert_eq!(
            usage,
            Some(ContextUsage {
                tokens: 110,
                model: Some("gpt-4.1".into())
            })
        );
        let boundary = pollster::block_on(
            CopilotTranscriptReader.last_compaction(&fixture("prompt-mode-new-resume")),
        )
        .unwrap();
        assert_eq!(
            boundary,
            Some(CompactBoundary {
                pre_tokens: 34_831,
                trigger: Some("auto".into())
            })
        );
    }

    #[rstest]
    #[case::created(
        json!({"toolCallId": "t1", "name": "create", "arguments": {"path": "/p/a.rs", "file_text": "x"}}),
        json!({"toolCallId": "t1", "success": true, "result": {"content": "Created file /p/a.rs"}}),
        1
    )]
    #[case::command_failed(
        json!({"toolCallId": "t1", "name": "bash", "arguments": {"command": "cargo test"}}),
        json!({"toolCallId": "t1", "success": true, "shellExecution": {"exitCode": 101},
            "result": {"content": "error"}}),
        0
    )]
    #[case::refused(
        json!({"toolCallId": "t1", "name": "edit", "arguments": {"path": "/p/a.rs"}}),
        json!({"toolCallId": "t1", "success": false, "result": {"content": "denied"}}),
        0
    )]
    #[case::read_only(
        json!({"toolCallId": "t1", "name": "view", "arguments": {"path": "/p/a.rs"}}),
        json!({"toolCallId": "t1", "success": true, "result": {"content": "fn main() {}"}}),
        0
    )]
    fn tool_calls_count_once_they_succeeded(
        #[case] request: Value,
        #[case] result: Value,
        #[case] work_done: usize,
    ) {
        let file = written(&[
            row("user.message", json!({"content": "add a.rs"})),
            row(
                "assistant.message",
                json!({"content": "", "toolRequests": [request]}),
            ),
            row("tool.execution_complete", result),
        ]);
        let digest =
            pollster::block_on(CopilotTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(digest.work_done, work_done);
    }

    #[test]
    fn waits_for_the_hooks_own_row_only_while_it_is_missing() {
        let file = written(&[row(
            "hook.start",
            json!({"hookType": "sessionEnd", "input": {"timestamp": 1_795_459_318_944_u64}}),
        )]);
        assert!(await_hook_row(
            file.path(),
            1_795_459_318_944,
            Duration::ZERO
        ));
        assert!(!await_hook_row(
            file.path(),
            1_795_459_318_945,
            Duration::ZERO
        ));
        assert!(!await_hook_row(
            Path::new("/nonexistent/events.jsonl"),
            1,
            Duration::ZERO
        ));
    }

    #[rstest]
    #[case::this_run(vec![row("session.start", json!({})), start_hook(&format!("Identity\n\n{CONTEXT_MARKER}"))], true)]
    #[case::dropped_by_a_resume(vec![start_hook(&format!("x {CONTEXT_MARKER}")), row("session.resume", json!({}))], false)]
    #[case::compacted_away(vec![start_hook(&format!("x {CONTEXT_MARKER}")), row("session.compaction_complete", json!({"success": true}))], false)]
    #[case::someone_elses(vec![start_hook("their context")], false)]
    #[case::typed_by_the_user(vec![row("user.message", json!({"content": CONTEXT_MARKER}))], false)]
    fn finds_carryovers_context_while_the_client_still_sends_it(
        #[case] rows: Vec<String>,
        #[case] found: bool,
    ) {
        let file = written(&rows);
        let injection =
            pollster::block_on(CopilotTranscriptReader.last_injection(file.path())).unwrap();
        assert_eq!(matches!(injection, PriorInjection::Found(_)), found);
    }
}
