//! Claude Code's JSONL transcripts: one JSON object per line, read leniently (a row that does
//! not parse, or has fields of unexpected types, is skipped).

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::TranscriptError;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::transcript::{
    CompactBoundary, ContextUsage, SessionDigest, TodoItem, TodoStatus,
};

/// How far from the end the backwards searches look before giving up: the rows they want are
/// among the last few, and this keeps a pathological file (multi-gigabyte lines) cheap.
const BACKWARD_BUDGET: u64 = 32 * 1024 * 1024;

/// Rows at least this long that say `"tool_result"` within their first KiB are tool output
/// (file contents, command output), never the user's words: the digest skips them unparsed.
/// They are most of a real transcript's bytes.
const BULKY_ROW: usize = 16 * 1024;

/// Commands and their echoes that Claude Code records as user rows but the user did not say.
const NOT_REQUESTS: [&str; 5] = [
    "<command-name>",
    "<command-message>",
    "<local-command-",
    "<system-reminder>",
    "Caveat:",
];

/// Reads Claude Code transcripts.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeTranscriptReader;

#[derive(Deserialize)]
struct Row<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    subtype: Option<String>,
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
    #[serde(rename = "compactMetadata")]
    compact: Option<CompactMetadata>,
}

#[derive(Deserialize)]
struct Message<'a> {
    model: Option<String>,
    usage: Option<Usage>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Usage {
    input_tokens: Option<u64>,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CompactMetadata {
    #[serde(rename = "preTokens")]
    pre_tokens: Option<u64>,
    trigger: Option<String>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    text: Option<String>,
    name: Option<String>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ToolInput {
    file_path: Option<String>,
    notebook_path: Option<String>,
    todos: Option<Vec<TodoInput>>,
    patch: Option<String>,
    input: Option<String>,
    subject: Option<String>,
    #[serde(rename = "taskId")]
    task_id: Option<serde_json::Value>,
    status: Option<String>,
}

#[derive(Deserialize)]
struct TodoInput {
    content: Option<String>,
    subject: Option<String>,
    status: Option<String>,
}

impl Row<'_> {
    fn is_main_chain(&self) -> bool {
        self.sidechain != Some(true)
    }

    /// A real assistant reply: main chain, not an API error, not a synthetic placeholder.
    fn is_real_reply(&self) -> bool {
        self.kind.as_deref() == Some("assistant")
            && self.is_main_chain()
            && self.api_error != Some(true)
            && self
                .message
                .as_ref()
                .and_then(|m| m.model.as_deref())
                .is_none_or(|model| model != "<synthetic>")
    }
}

fn open(path: &Path) -> Result<File, TranscriptError> {
    File::open(path).map_err(|source| TranscriptError::Io {
        path: path.to_owned(),
        source,
    })
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> TranscriptError + '_ {
    move |source| TranscriptError::Io {
        path: path.to_owned(),
        source,
    }
}

#[async_trait::async_trait]
impl TranscriptReader for ClaudeTranscriptReader {
    async fn last_usage(&self, path: &Path) -> Result<Option<ContextUsage>, TranscriptError> {
        let mut lines = super::reverse_lines::ReverseLines::new(open(path)?, BACKWARD_BUDGET)
            .map_err(io(path))?;
        let finder = memchr::memmem::Finder::new(b"\"usage\"");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if finder.find(&line).is_none() {
                continue;
            }
            let Ok(row) = serde_json::from_slice::<Row>(&line) else {
                continue;
            };
            if !row.is_real_reply() {
                continue;
            }
            let Some(message) = row.message else { continue };
            let Some(usage) = message.usage else { continue };
            let tokens = usage.input_tokens.unwrap_or(0)
                + usage.cache_creation_input_tokens.unwrap_or(0)
                + usage.cache_read_input_tokens.unwrap_or(0);
            if tokens > 0 {
                return Ok(Some(ContextUsage {
                    tokens,
                    model: message.model,
                }));
            }
        }
        Ok(None)
    }

    async fn last_compaction(
        &self,
        path: &Path,
    ) -> Result<Option<CompactBoundary>, TranscriptError> {
        let mut lines = super::reverse_lines::ReverseLines::new(open(path)?, BACKWARD_BUDGET)
            .map_err(io(path))?;
        let finder = memchr::memmem::Finder::new(b"compact_boundary");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if finder.find(&line).is_none() {
                continue;
            }
            let Ok(row) = serde_json::from_slice::<Row>(&line) else {
                continue;
            };
            if row.subtype.as_deref() != Some("compact_boundary") {
                continue;
            }
            if let Some(pre_tokens) = row.compact.as_ref().and_then(|c| c.pre_tokens) {
                let trigger = row.compact.and_then(|c| c.trigger);
                return Ok(Some(CompactBoundary {
                    pre_tokens,
                    trigger,
                }));
            }
        }
        Ok(None)
    }

    async fn digest(
        &self,
        path: &Path,
        scope: DigestScope,
    ) -> Result<SessionDigest, TranscriptError> {
        let mut file = open(path)?;
        let mut skip_partial_line = false;
        if let DigestScope::Tail(bytes) = scope {
            let length = file.metadata().map_err(io(path))?.len();
            if length > bytes {
                file.seek(SeekFrom::Start(length - bytes))
                    .map_err(io(path))?;
                skip_partial_line = true;
            }
        }
        let mut reader = BufReader::with_capacity(256 * 1024, file);
        let mut line = Vec::with_capacity(64 * 1024);
        let mut digest = DigestBuilder::default();
        if skip_partial_line {
            reader.read_until(b'\n', &mut line).map_err(io(path))?;
        }
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).map_err(io(path))? == 0 {
                break;
            }
            if is_bulky_tool_result(&line) {
                continue;
            }
            if let Ok(row) = serde_json::from_slice::<Row>(&line) {
                digest.add(&row);
            }
        }
        Ok(digest.finish())
    }
}

/// Accumulates a digest row by row.
#[derive(Default)]
struct DigestBuilder {
    digest: SessionDigest,
}

impl DigestBuilder {
    fn add(&mut self, row: &Row<'_>) {
        match row.kind.as_deref() {
            Some("user")
                if row.is_main_chain()
                    && row.meta != Some(true)
                    && row.compact_summary != Some(true) =>
            {
                if let Some(request) = row
                    .message
                    .as_ref()
                    .and_then(|m| m.content)
                    .and_then(user_text)
                {
                    self.digest.user_turns += 1;
                    self.digest.user_requests.push(request);
                }
            }
            Some("assistant") if row.is_real_reply() => {
                let Some(content) = row.message.as_ref().and_then(|m| m.content) else {
                    return;
                };
                let Ok(blocks) = serde_json::from_str::<Vec<Block>>(content.get()) else {
                    return;
                };
                let mut text = String::new();
                for block in &blocks {
                    match block.kind.as_deref() {
                        Some("text") => {
                            if let Some(part) = block
                                .text
                                .as_deref()
                                .map(str::trim)
                                .filter(|t| !t.is_empty())
                            {
                                if !text.is_empty() {
                                    text.push('\n');
                                }
                                text.push_str(part);
                            }
                        }
                        Some("tool_use") => self.tool_use(block),
                        _ => {}
                    }
                }
                if !text.is_empty() {
                    self.digest.last_assistant_message = Some(text);
                }
            }
            _ => {}
        }
    }

    fn tool_use(&mut self, block: &Block<'_>) {
        let (Some(name), Some(input)) = (block.name.as_deref(), block.input) else {
            return;
        };
        if matches!(name, "apply_patch" | "ApplyPatch") && input.get().starts_with('"') {
            if let Ok(patch) = serde_json::from_str::<String>(input.get()) {
                self.patch(&patch);
            }
            return;
        }
        let Ok(input) = serde_json::from_str::<ToolInput>(input.get()) else {
            return;
        };
        match name {
            "Write" | "Edit" | "MultiEdit" => {
                if let Some(path) = input.file_path.as_deref() {
                    self.digest.touch_file(path);
                }
            }
            "NotebookEdit" => {
                if let Some(path) = input
                    .notebook_path
                    .as_deref()
                    .or(input.file_path.as_deref())
                {
                    self.digest.touch_file(path);
                }
            }
            "apply_patch" | "ApplyPatch" => {
                if let Some(patch) = input.patch.as_deref().or(input.input.as_deref()) {
                    self.patch(patch);
                }
            }
            "TodoWrite" => {
                if let Some(todos) = input.todos {
                    self.digest.todos = todos
                        .into_iter()
                        .filter_map(|todo| {
                            let content = todo.content.or(todo.subject)?;
                            let status = todo
                                .status
                                .as_deref()
                                .and_then(TodoStatus::parse)
                                .unwrap_or(TodoStatus::Pending);
                            Some(TodoItem { content, status })
                        })
                        .collect();
                }
            }
            "TaskCreate" => {
                if let Some(subject) = input.subject {
                    self.digest.todos.push(TodoItem {
                        content: subject,
                        status: TodoStatus::Pending,
                    });
                }
            }
            "TaskUpdate" => {
                let index = input.task_id.as_ref().and_then(|id| match id {
                    serde_json::Value::String(s) => s.parse::<usize>().ok(),
                    serde_json::Value::Number(n) => {
                        n.as_u64().and_then(|n| usize::try_from(n).ok())
                    }
                    _ => None,
                });
                let status = input.status.as_deref().and_then(TodoStatus::parse);
                if let (Some(index), Some(status)) = (index, status)
                    && let Some(todo) = index
                        .checked_sub(1)
                        .and_then(|i| self.digest.todos.get_mut(i))
                {
                    todo.status = status;
                }
            }
            _ => {}
        }
    }

    /// `*** Add File: path`, `*** Update File: path`, `*** Move to: path` lines of a patch.
    fn patch(&mut self, patch: &str) {
        for line in patch.lines() {
            let path = ["*** Add File: ", "*** Update File: ", "*** Move to: "]
                .iter()
                .find_map(|prefix| line.strip_prefix(prefix));
            if let Some(path) = path {
                self.digest.touch_file(path);
            }
        }
    }

    fn finish(self) -> SessionDigest {
        self.digest
    }
}

fn is_bulky_tool_result(line: &[u8]) -> bool {
    line.len() >= BULKY_ROW && memchr::memmem::find(&line[..1024], b"\"tool_result\"").is_some()
}

/// The text the user typed in a user row: a string, or the text blocks of a list (tool
/// results are not the user's words). Slash-command echoes and reminders are not requests.
fn user_text(content: &RawValue) -> Option<String> {
    let raw = content.get();
    let text = if raw.starts_with('"') {
        serde_json::from_str::<String>(raw).ok()?
    } else {
        let blocks = serde_json::from_str::<Vec<Block>>(raw).ok()?;
        blocks
            .into_iter()
            .filter(|block| block.kind.as_deref() == Some("text"))
            .filter_map(|block| block.text)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let text = text.trim();
    let is_request =
        !text.is_empty() && !NOT_REQUESTS.iter().any(|prefix| text.starts_with(prefix));
    is_request.then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::PathBuf;

    fn transcript(name: &str) -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude-code-2.1.328/transcripts");
        fs_err::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(name))
            .unwrap()
    }

    fn written(lines: &[&str]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    #[test]
    fn last_usage_of_the_shop_api_session_skips_the_synthetic_reply() {
        let usage =
            pollster::block_on(ClaudeTranscriptReader.last_usage(&transcript("shop-api"))).unwrap();
        assert_eq!(
            usage,
            Some(ContextUsage {
                tokens: 171_203,
                model: Some("claude-opus-5-5".into())
            })
        );
    }

    #[test]
    fn sidechains_and_api_errors_are_not_the_main_context() {
        let file = written(&[
            r#"{"type":"assistant","message":{"model":"m","usage":{"input_tokens":10,"cache_read_input_tokens":5}}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"model":"m","usage":{"input_tokens":999}}}"#,
            r#"{"type":"assistant","isApiErrorMessage":true,"message":{"model":"m","usage":{"input_tokens":777}}}"#,
            r#"{"type":"user","message":{"content":"hi"}}"#,
            r#"not json at all"#,
        ]);
        let usage = pollster::block_on(ClaudeTranscriptReader.last_usage(file.path())).unwrap();
        assert_eq!(usage.map(|u| u.tokens), Some(15));
    }

    #[test]
    fn finds_the_compact_boundary() {
        let boundary =
            pollster::block_on(ClaudeTranscriptReader.last_compaction(&transcript("notes--2c76")))
                .unwrap();
        assert_eq!(
            boundary,
            Some(CompactBoundary {
                pre_tokens: 171_243,
                trigger: Some("manual".into())
            })
        );
        let none =
            pollster::block_on(ClaudeTranscriptReader.last_compaction(&transcript("shop-api")))
                .unwrap();
        assert_eq!(none, None);
    }

    #[test]
    fn digest_of_the_shop_api_session() {
        let digest = pollster::block_on(
            ClaudeTranscriptReader.digest(&transcript("shop-api"), DigestScope::Whole),
        )
        .unwrap();
        assert_eq!(
            digest.user_requests,
            vec![
                "TOOLS please add the retry budget",
                "continue with the tests"
            ]
        );
        assert_eq!(digest.user_turns, 2);
        assert_eq!(
            digest.files_changed,
            vec!["/home/user/code/shop-api/notes.txt"]
        );
        let todos: Vec<(&str, TodoStatus)> = digest
            .todos
            .iter()
            .map(|t| (t.content.as_str(), t.status))
            .collect();
        assert_eq!(
            todos,
            vec![
                ("Add retry budget to the fetcher", TodoStatus::Completed),
                (
                    "Write integration test for timeouts",
                    TodoStatus::InProgress
                ),
                ("Document the retry policy in README", TodoStatus::Pending),
            ]
        );
        assert_eq!(digest.last_assistant_message.as_deref(), Some("OK-FAKE"));
    }

    #[test]
    fn slash_commands_and_compaction_summaries_are_not_requests() {
        let digest = pollster::block_on(
            ClaudeTranscriptReader.digest(&transcript("notes--2c76"), DigestScope::Whole),
        )
        .unwrap();
        assert_eq!(digest.user_requests, vec!["hello there"]);
    }

    #[test]
    fn a_tail_digest_reads_only_the_end() {
        let file = written(&[
            r#"{"type":"user","message":{"content":"early request"}}"#,
            &format!(
                r#"{{"type":"user","message":{{"content":"{}"}}}}"#,
                "x".repeat(5_000)
            ),
            r#"{"type":"user","message":{"content":"late request"}}"#,
        ]);
        let digest =
            pollster::block_on(ClaudeTranscriptReader.digest(file.path(), DigestScope::Tail(100)))
                .unwrap();
        assert_eq!(digest.user_requests, vec!["late request"]);
    }

    #[test]
    fn patches_and_task_tools_are_understood() {
        let file = written(&[
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Update File: src/a.rs\n*** Add File: src/b.rs\n*** End Patch"}}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TaskCreate","input":{"subject":"Write docs"}},{"type":"tool_use","name":"TaskCreate","input":{"subject":"Ship"}}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TaskUpdate","input":{"taskId":"1","status":"completed"}}]}}"#,
        ]);
        let digest =
            pollster::block_on(ClaudeTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(digest.files_changed, vec!["src/a.rs", "src/b.rs"]);
        assert_eq!(digest.todos[0].status, TodoStatus::Completed);
        assert_eq!(digest.todos[1].status, TodoStatus::Pending);
    }

    #[test]
    fn bulky_tool_results_are_skipped_but_requests_are_not() {
        let result = format!(
            r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":"{}"}}]}}}}"#,
            "z".repeat(BULKY_ROW)
        );
        let request = format!(
            r#"{{"type":"user","message":{{"content":"{}"}}}}"#,
            "long request ".repeat(2_000)
        );
        assert!(is_bulky_tool_result(result.as_bytes()));
        assert!(!is_bulky_tool_result(request.as_bytes()));
        let file = written(&[&result, &request]);
        let digest =
            pollster::block_on(ClaudeTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(digest.user_turns, 1);
    }

    #[test]
    fn a_missing_transcript_is_an_error() {
        let error = pollster::block_on(
            ClaudeTranscriptReader.last_usage(Path::new("/nonexistent/t.jsonl")),
        );
        assert!(error.is_err());
    }
}
