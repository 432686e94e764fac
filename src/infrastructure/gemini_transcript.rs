//! Gemini CLI's session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`): a header row
//! `{sessionId, projectHash, startTime, …}`, then message rows (`type` `user`, `gemini`,
//! `info`…) and `{"$set": {…}}` rows that update the session's metadata. A `$set` of
//! `messages` replaces the whole history: the client writes one when the session starts and
//! one after each compression. Read leniently like the other agents' transcripts; the digest
//! is built by the same builder, so handoffs and proposals read all alike (ADR 0019).

use std::path::Path;

use serde_json::Value;

use crate::domain::TranscriptError;
use crate::domain::context::CONTEXT_MARKER;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

use super::claude_digest::DigestBuilder;
use super::claude_transcript::{BACKWARD_BUDGET, for_each_row, io, open};
use super::first_row::{first_row, has_keys};
use super::reverse_lines::ReverseLines;

/// Reads Gemini CLI session files.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeminiTranscriptReader;

/// What the client wraps a hook's `additionalContext` in.
const HOOK_CONTEXT_OPEN: &str = "<hook_context>";
const HOOK_CONTEXT_CLOSE: &str = "</hook_context>";

/// Whether `path` is a Gemini CLI session file: its first row has a `projectHash` and a
/// `sessionId` (no Claude Code row or Codex rollout row has the former). Any failure to read
/// says no (another reader then reports it).
pub fn is_gemini_session(path: &Path) -> bool {
    first_row(path).is_some_and(|row| has_keys(&row, &["\"projectHash\"", "\"sessionId\""]))
}

fn parse(line: &[u8]) -> Option<Value> {
    serde_json::from_slice(line).ok()
}

fn kind(row: &Value) -> Option<&str> {
    row.get("type").and_then(Value::as_str)
}

/// The history a `$set` row replaces the session's with, if it is one.
fn replaced_history(row: &Value) -> Option<&Vec<Value>> {
    row.get("$set")?.get("messages")?.as_array()
}

/// Whether a replaced history is a compression's: the one written at the start holds no
/// reply yet.
fn is_compression(history: &[Value]) -> bool {
    history
        .iter()
        .any(|message| kind(message) == Some("gemini"))
}

/// The text parts of a message's `content` (a string or `[{text}, …]`).
fn parts(content: Option<&Value>) -> Vec<&str> {
    match content {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a user message carries carryover's context as a hook's (not as typed text).
fn carries_our_context(message: &Value) -> bool {
    kind(message) == Some("user")
        && parts(message.get("content")).iter().any(|text| {
            text.trim_start().starts_with(HOOK_CONTEXT_OPEN) && text.contains(CONTEXT_MARKER)
        })
}

/// What the user typed: `displayContent` when the client kept it apart, else the content
/// without hooks' context; `None` for the client's own setup message.
fn typed_text(message: &Value) -> Option<String> {
    let shown = parts(message.get("displayContent"));
    let texts = match shown.is_empty() {
        false => shown,
        true => parts(message.get("content")),
    };
    let text = texts
        .iter()
        .map(|text| without_hook_context(text))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let client_setup = text.starts_with("<session_context>");
    (!text.is_empty() && !client_setup).then_some(text)
}

/// `text` without the hook context the client puts before (`-p` mode) or after it.
fn without_hook_context(text: &str) -> &str {
    let mut rest = text.trim();
    while let Some(after) = rest.strip_prefix(HOOK_CONTEXT_OPEN) {
        rest = match after.find(HOOK_CONTEXT_CLOSE) {
            Some(end) => after[end + HOOK_CONTEXT_CLOSE.len()..].trim_start(),
            None => "",
        };
    }
    rest.trim_end()
}

/// The tokens in context at a reply: what the client reports as the prompt's size plus the
/// reply.
fn context_tokens(row: &Value) -> Option<u64> {
    let tokens = row.get("tokens")?;
    let field = |name: &str| tokens.get(name).and_then(Value::as_u64);
    let total = field("total")
        .unwrap_or_else(|| field("input").unwrap_or(0) + field("output").unwrap_or(0));
    (total > 0).then_some(total)
}

fn timestamp(row: &Value) -> Option<Timestamp> {
    row.get("timestamp")
        .and_then(Value::as_str)
        .and_then(|t| Timestamp::parse(t).ok())
}

#[async_trait::async_trait]
impl TranscriptReader for GeminiTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let tokens = memchr::memmem::Finder::new(b"\"tokens\"");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if tokens.find(&line).is_none() {
                continue;
            }
            let Some(row) = parse(&line).filter(|row| kind(row) == Some("gemini")) else {
                continue;
            };
            if let Some(tokens) = context_tokens(&row) {
                let model = row.get("model").and_then(Value::as_str).map(str::to_owned);
                return Ok(Some(ContextUsage { tokens, model }));
            }
        }
        Ok(None)
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        let mut lines = ReverseLines::new(open(path)?, BACKWARD_BUDGET).map_err(io(path))?;
        let set = memchr::memmem::Finder::new(b"\"$set\"");
        let tokens = memchr::memmem::Finder::new(b"\"tokens\"");
        let mut found = false;
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if !found {
                found = set.find(&line).is_some()
                    && parse(&line)
                        .as_ref()
                        .and_then(replaced_history)
                        .is_some_and(|history| is_compression(history));
            } else if tokens.find(&line).is_some() {
                // The file records neither how full the context was nor the trigger: the
                // last reply before the compression tells the former.
                if let Some(pre_tokens) = parse(&line)
                    .filter(|row| kind(row) == Some("gemini"))
                    .as_ref()
                    .and_then(context_tokens)
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
        let set = memchr::memmem::Finder::new(b"\"$set\"");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            let ours = marker.find(&line).is_some();
            if !ours && set.find(&line).is_none() {
                continue;
            }
            let Some(row) = parse(&line) else { continue };
            if carries_our_context(&row) {
                if let Some(at) = timestamp(&row) {
                    return Ok(PriorInjection::Found(at));
                }
                continue;
            }
            let Some(history) = replaced_history(&row).filter(|h| is_compression(h)) else {
                continue;
            };
            // A compression that kept carryover's context keeps it before the model.
            return Ok(
                match history.iter().rev().find(|m| carries_our_context(m)) {
                    Some(message) => {
                        timestamp(message).map_or(PriorInjection::Unknown, PriorInjection::Found)
                    }
                    None => PriorInjection::Absent,
                },
            );
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

fn add_row(digest: &mut DigestBuilder, row: &Value) {
    if let Some(history) = replaced_history(row) {
        if is_compression(history)
            && let Some(summary) = history
                .iter()
                .filter(|m| kind(m) == Some("user"))
                .find_map(typed_text)
        {
            digest.compaction(summary);
        }
        return;
    }
    match kind(row) {
        Some("user") => {
            if let Some(text) = typed_text(row) {
                digest.user_text(&text);
            }
        }
        Some("gemini") => {
            if let Some(Value::Array(calls)) = row.get("toolCalls") {
                for call in calls {
                    tool_call(digest, call);
                }
            }
            digest.reply(&parts(row.get("content")).join("\n"));
        }
        _ => {}
    }
}

/// A tool call the file records with its outcome: a shell command (`run_shell_command`) or a
/// file written or edited (`write_file`, `replace`).
fn tool_call(digest: &mut DigestBuilder, call: &Value) {
    let (Some(id), Some(name)) = (
        call.get("id").and_then(Value::as_str),
        call.get("name").and_then(Value::as_str),
    ) else {
        return;
    };
    let args = call.get("args").unwrap_or(&Value::Null);
    match name {
        "run_shell_command" => {
            let Some(command) = args.get("command").and_then(Value::as_str) else {
                return;
            };
            digest.command_call(id.to_owned(), command.to_owned());
        }
        "write_file" | "replace" | "edit" => {
            let Some(file) = args.get("file_path").and_then(Value::as_str) else {
                return;
            };
            digest.files_call(id.to_owned(), vec![file.to_owned()]);
        }
        _ => return,
    }
    let output = call.get("result").map(output_text).unwrap_or_default();
    let succeeded = call.get("status").and_then(Value::as_str) == Some("success");
    digest.resolve(id, !succeeded || failed(&output), &output);
}

/// A tool result's text: the `output` (or `error`) strings of its function responses.
fn output_text(result: &Value) -> String {
    match result {
        Value::String(text) => text.clone(),
        Value::Array(items) => items
            .iter()
            .map(output_text)
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(fields) => ["functionResponse", "response", "output", "error"]
            .iter()
            .filter_map(|key| fields.get(*key))
            .map(output_text)
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Whether a shell command's output says it failed: `Exit Code: N` with N other than 0.
fn failed(output: &str) -> bool {
    const LABEL: &str = "Exit Code: ";
    output.find(LABEL).is_some_and(|at| {
        let digits: String = output[at + LABEL.len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        digits.parse::<i64>().is_ok_and(|code| code != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::PathBuf;

    use rstest::rstest;
    use serde_json::json;

    fn fixture() -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/gemini-cli-0.61.0/transcripts");
        fs_err::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .unwrap()
    }

    fn written(lines: &[Value]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            file,
            "{}",
            json!({"sessionId": "s1", "projectHash": "ab", "startTime": "2026-11-23T09:25:15.294Z"})
        )
        .unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    fn user(text: &str) -> Value {
        json!({"id": "u", "timestamp": "2026-11-23T09:25:22.552Z", "type": "user",
            "content": [{"text": text}]})
    }

    fn reply_calling(call: Value) -> Value {
        json!({"id": "g", "timestamp": "2026-11-23T09:25:22.585Z", "type": "gemini",
            "content": "done", "toolCalls": [call]})
    }

    /// A call as Gemini CLI records it, with its result as function responses.
    fn call(name: &str, args: Value, status: &str, output: &str) -> Value {
        json!({"id": "c1", "name": name, "args": args, "status": status,
            "result": [{"functionResponse": {"id": "c1", "name": name,
                "response": {"output": output}}}]})
    }

    fn read(path: &Path) -> SessionDigest {
        pollster::block_on(GeminiTranscriptReader.digest(path, DigestScope::Whole)).unwrap()
    }

    #[test]
    fn the_real_session_is_recognised_and_other_agents_transcripts_are_not() {
        assert!(is_gemini_session(&fixture()));
        for other in [
            "tests/fixtures/claude-code-2.1.328/transcripts",
            "tests/fixtures/codex-0.169.0/transcripts",
        ] {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(other);
            for entry in fs_err::read_dir(dir).unwrap() {
                assert!(!is_gemini_session(&entry.unwrap().path()));
            }
        }
        assert!(!is_gemini_session(Path::new("/nonexistent/session.jsonl")));
    }

    #[test]
    fn the_real_sessions_digest_has_what_the_user_typed_and_the_last_reply() {
        let digest = read(&fixture());
        assert_eq!(
            digest.user_requests,
            [
                "tui prompt one",
                "tui prompt 2 with a few more words so there is history to compress",
                "tui prompt 3 with a few more words so there is history to compress",
                "tui prompt 4 with a few more words so there is history to compress",
                "tui prompt 5, reply reports a huge prompt size",
                "tui prompt 6, expect automatic compression",
            ]
        );
        assert_eq!(
            digest.last_assistant_message.as_deref(),
            Some("standin reply; markers seen: PROMPT")
        );
        // The stand-in answered the compression request with its usual reply.
        assert_eq!(
            digest.compact_summary.as_deref(),
            Some("standin reply; markers seen: PROMPT,SESSIONSTART")
        );
    }

    #[test]
    fn the_real_sessions_usage_and_compression() {
        let usage = pollster::block_on(GeminiTranscriptReader.last_usage(&fixture())).unwrap();
        assert_eq!(
            usage,
            Some(ContextUsage {
                tokens: 110,
                model: Some("gemini-2.5-flash".into())
            })
        );
        let boundary =
            pollster::block_on(GeminiTranscriptReader.last_compaction(&fixture())).unwrap();
        assert_eq!(
            boundary,
            Some(CompactBoundary {
                pre_tokens: 1_000_010,
                trigger: None
            })
        );
    }

    #[test]
    fn a_session_start_history_is_not_a_compression() {
        let file = written(&[
            json!({"$set": {"messages": [user("<session_context>\nThis is the Gemini CLI.")]}}),
            user("hello"),
        ]);
        let boundary =
            pollster::block_on(GeminiTranscriptReader.last_compaction(file.path())).unwrap();
        assert_eq!(boundary, None);
        let digest = read(file.path());
        assert_eq!(digest.user_requests, ["hello"]);
        assert_eq!(digest.compact_summary, None);
    }

    #[rstest]
    #[case::command_ran(call("run_shell_command", json!({"command": "printf x > notes.txt"}), "success", "Command: printf x > notes.txt\nExit Code: 0"), 1, &[])]
    #[case::command_failed(call("run_shell_command", json!({"command": "false"}), "success", "Command: false\nExit Code: 1"), 0, &[])]
    #[case::command_refused(call("run_shell_command", json!({"command": "rm -r x"}), "cancelled", ""), 0, &[])]
    #[case::read_only(call("run_shell_command", json!({"command": "ls -la"}), "success", "a\nb"), 0, &[])]
    #[case::file_written(call("write_file", json!({"file_path": "src/lib.rs", "content": "x"}), "success", "Successfully created"), 1, &["src/lib.rs"])]
    #[case::file_edited(call("replace", json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b"}), "success", "Successfully modified"), 1, &["src/main.rs"])]
    #[case::edit_failed(call("replace", json!({"file_path": "src/main.rs"}), "error", "could not find the string"), 0, &[])]
    #[case::read(call("read_file", json!({"file_path": "src/main.rs"}), "success", "fn main() {}"), 0, &[])]
    fn tool_calls_count_once_they_succeeded(
        #[case] call: Value,
        #[case] work_done: usize,
        #[case] files: &[&str],
    ) {
        let file = written(&[user("do it"), reply_calling(call)]);
        let digest = read(file.path());
        assert_eq!(digest.work_done, work_done);
        let touched: Vec<&str> = digest.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(touched, files);
    }

    #[rstest]
    #[case::typed_with_recall_after(json!([{"text": "fix the test"}, {"text": "<hook_context>recalled</hook_context>"}]), None, &["fix the test"])]
    #[case::print_mode_context_before(json!([{"text": "<hook_context>identity</hook_context>\n\nfirst prompt: hello"}]), None, &["first prompt: hello"])]
    #[case::display_content_wins(json!([{"text": "x"}]), Some(json!([{"text": "shown"}])), &["shown"])]
    #[case::only_context(json!([{"text": "<hook_context>identity</hook_context>"}]), None, &[])]
    #[case::client_setup(json!([{"text": "<session_context>\nThis is the Gemini CLI."}]), None, &[])]
    fn only_what_the_user_typed_is_a_request(
        #[case] content: Value,
        #[case] display: Option<Value>,
        #[case] requests: &[&str],
    ) {
        let mut message = json!({"type": "user", "content": content});
        if let Some(display) = display {
            message["displayContent"] = display;
        }
        let file = written(&[message]);
        assert_eq!(read(file.path()).user_requests, requests);
    }

    fn ours() -> Value {
        user(&format!(
            "<hook_context>Identity\n\n{CONTEXT_MARKER}</hook_context>"
        ))
    }

    fn compression(kept: Vec<Value>) -> Value {
        let mut history = vec![
            user("summary"),
            json!({"type": "gemini", "content": [{"text": "Got it."}]}),
        ];
        history.extend(kept);
        json!({"$set": {"messages": history}})
    }

    #[rstest]
    #[case::injected(vec![ours(), user("hi")], true)]
    #[case::compressed_away(vec![ours(), compression(vec![user("hi")])], false)]
    #[case::kept_by_the_compression(vec![compression(vec![ours()])], true)]
    #[case::never(vec![user("hi")], false)]
    #[case::typed_by_the_user(vec![user(CONTEXT_MARKER)], false)]
    fn finds_carryovers_context_after_the_last_compression(
        #[case] rows: Vec<Value>,
        #[case] found: bool,
    ) {
        let file = written(&rows);
        let injection = pollster::block_on(GeminiTranscriptReader.last_injection(file.path()));
        assert_eq!(
            matches!(injection.unwrap(), PriorInjection::Found(_)),
            found
        );
    }
}
