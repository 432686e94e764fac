//! Claude Code's JSONL transcripts: one JSON object per line, read leniently (a row that does
//! not parse, or has fields of unexpected types, is skipped).

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;

use crate::domain::TranscriptError;
use crate::domain::context::CONTEXT_MARKER;
use crate::domain::ports::{DigestScope, TranscriptReader};
use crate::domain::seed::Timestamp;
use crate::domain::transcript::{CompactBoundary, ContextUsage, PriorInjection, SessionDigest};

use super::claude_digest::DigestBuilder;

/// How far from the end the backwards searches look before giving up: the rows they want are
/// among the last few, and this keeps a pathological file (multi-gigabyte lines) cheap.
pub(super) const BACKWARD_BUDGET: u64 = 32 * 1024 * 1024;

/// Rows at least this long that say `"tool_result"` within their first KiB are tool output
/// (file contents, command output), never the user's words: the digest skips them unparsed.
/// They are most of a real transcript's bytes.
const BULKY_ROW: usize = 16 * 1024;

/// Reads Claude Code transcripts.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeTranscriptReader;

#[derive(Deserialize)]
struct Row {
    #[serde(rename = "type")]
    kind: Option<String>,
    subtype: Option<String>,
    #[serde(rename = "isSidechain")]
    sidechain: Option<bool>,
    #[serde(rename = "isApiErrorMessage")]
    api_error: Option<bool>,
    message: Option<Message>,
    #[serde(rename = "compactMetadata")]
    compact: Option<CompactMetadata>,
}

/// An `attachment` row: how Claude Code records what a hook added to the context
/// (`{"type":"attachment","attachment":{"type":"hook_additional_context",...},"timestamp":...}`).
#[derive(Deserialize)]
struct AttachmentRow {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "isSidechain")]
    sidechain: Option<bool>,
    timestamp: Option<String>,
    attachment: Option<Attachment>,
}

#[derive(Deserialize)]
struct Attachment {
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Message {
    model: Option<String>,
    usage: Option<Usage>,
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

impl Row {
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

/// Opens a transcript: a regular file only (a FIFO or a device in its place would block or
/// never end), never blocking.
pub(super) fn open(path: &Path) -> Result<File, TranscriptError> {
    super::open_regular(path).map_err(|source| TranscriptError::Io {
        path: path.to_owned(),
        source,
    })
}

pub(super) fn io(path: &Path) -> impl Fn(std::io::Error) -> TranscriptError + '_ {
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

    async fn last_injection(&self, path: &Path) -> Result<PriorInjection, TranscriptError> {
        let mut lines = super::reverse_lines::ReverseLines::new(open(path)?, BACKWARD_BUDGET)
            .map_err(io(path))?;
        let marker = memchr::memmem::Finder::new(CONTEXT_MARKER.as_bytes());
        let hook_context = memchr::memmem::Finder::new(b"hook_additional_context");
        let boundary = memchr::memmem::Finder::new(b"compact_boundary");
        while let Some(line) = lines.next_line().map_err(io(path))? {
            if marker.find(&line).is_some() && hook_context.find(&line).is_some() {
                let Ok(row) = serde_json::from_slice::<AttachmentRow>(&line) else {
                    continue;
                };
                let is_hook_context = row.kind.as_deref() == Some("attachment")
                    && row.sidechain != Some(true)
                    && row.attachment.and_then(|a| a.kind).as_deref()
                        == Some("hook_additional_context");
                let at = row
                    .timestamp
                    .as_deref()
                    .and_then(|t| Timestamp::parse(t).ok());
                if let (true, Some(at)) = (is_hook_context, at) {
                    return Ok(PriorInjection::Found(at));
                }
            } else if boundary.find(&line).is_some()
                && serde_json::from_slice::<Row>(&line)
                    .is_ok_and(|row| row.subtype.as_deref() == Some("compact_boundary"))
            {
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
            if is_bulky_tool_result(line) {
                digest.add_bulky_result(line);
            } else {
                digest.add_line(line);
            }
        })?;
        Ok(digest.finish())
    }
}

/// Feeds the rows of a JSONL transcript that `scope` covers to `row`: all of a small file,
/// the first and last part of a large one, or its tail (the first, cut line dropped). Rows
/// longer than [`MAX_ROW_BYTES`] are skipped unread.
pub(super) fn for_each_row(
    path: &Path,
    scope: DigestScope,
    mut row: impl FnMut(&[u8]),
) -> Result<(), TranscriptError> {
    let file = open(path)?;
    let length = file.metadata().map_err(io(path))?.len();
    let tail = match scope {
        DigestScope::Tail(bytes) => bytes,
        DigestScope::Whole if length <= WHOLE_HEAD_BYTES + WHOLE_TAIL_BYTES => length,
        // A transcript this large is read at its start (the session's goal) and its end
        // (where it stands), so that the cost stays bounded whatever its size.
        DigestScope::Whole => {
            let head = open(path)?.take(WHOLE_HEAD_BYTES);
            scan_rows(head, false, &mut row).map_err(io(path))?;
            WHOLE_TAIL_BYTES
        }
    };
    let mut file = file;
    let skip_partial_line = length > tail;
    if skip_partial_line {
        file.seek(SeekFrom::Start(length - tail))
            .map_err(io(path))?;
    }
    scan_rows(file, skip_partial_line, &mut row).map_err(io(path))
}

/// Feeds every row of `source` to `row`; with `skip_partial_line` the first (cut) line is
/// dropped.
fn scan_rows(
    source: impl Read,
    skip_partial_line: bool,
    row: &mut impl FnMut(&[u8]),
) -> std::io::Result<()> {
    let mut reader = BufReader::with_capacity(256 * 1024, source);
    let mut line = Vec::with_capacity(64 * 1024);
    if skip_partial_line {
        read_line_bounded(&mut reader, &mut line, MAX_ROW_BYTES)?;
    }
    loop {
        line.clear();
        match read_line_bounded(&mut reader, &mut line, MAX_ROW_BYTES)? {
            Line::End => return Ok(()),
            // A row this long is tool output or garbage, never the user's words: it is skipped
            // without being held in memory.
            Line::TooLong => continue,
            Line::Read => {}
        }
        row(&line);
    }
}

/// A whole digest of a transcript larger than these two together reads only its first and
/// its last part.
const WHOLE_HEAD_BYTES: u64 = 16 * 1024 * 1024;
const WHOLE_TAIL_BYTES: u64 = 240 * 1024 * 1024;

/// Rows longer than this are skipped unread: a 2 GB file without a newline must cost a read,
/// not 2 GB of memory.
const MAX_ROW_BYTES: usize = 8 * 1024 * 1024;

/// What [`read_line_bounded`] found.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line (without needing its newline) is in the buffer.
    Read,
    /// A line longer than the bound was consumed and dropped.
    TooLong,
    /// End of file.
    End,
}

/// Reads one line into `line`, keeping at most `max` bytes: a longer line is consumed to its
/// end without being stored.
fn read_line_bounded<R: BufRead>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    let mut seen = false;
    let mut too_long = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(match (seen, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong,
                (true, false) => Line::Read,
            });
        }
        seen = true;
        let (chunk, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (&buffer[..=at], true),
            None => (buffer, false),
        };
        if !too_long && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
            line.clear();
        }
        let used = chunk.len();
        reader.consume(used);
        if done {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

fn is_bulky_tool_result(line: &[u8]) -> bool {
    line.len() >= BULKY_ROW && memchr::memmem::find(&line[..1024], b"\"tool_result\"").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::{
        Ending, Merge, NotesKind, PlanVerdict, Refusal, RefusedAction, TodoStatus,
    };
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

    /// An attachment row as Claude Code 2.1.328 records a SessionStart hook's context.
    fn hook_context(at: &str, text: &str) -> String {
        serde_json::json!({
            "parentUuid": null, "isSidechain": false, "type": "attachment", "timestamp": at,
            "attachment": {"type": "hook_additional_context", "content": [text],
                "hookName": "SessionStart", "toolUseID": "SessionStart", "hookEvent": "SessionStart"},
        })
        .to_string()
    }

    const BOUNDARY: &str = r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":1000}}"#;
    const USER: &str = r#"{"type":"user","message":{"role":"user","content":"hello"}}"#;

    #[test]
    fn finds_carryovers_block_after_the_last_compaction() {
        let ours = hook_context(
            "2026-11-22T10:00:00.000Z",
            "Identity: Juno\n\n[carryover: session context]",
        );
        let theirs = hook_context("2026-11-22T11:00:00.000Z", "another tool's context");
        let cases: [(Vec<&str>, PriorInjection); 5] = [
            (
                vec![&ours, USER, &theirs, USER],
                PriorInjection::Found(Timestamp::parse("2026-11-22T10:00:00Z").unwrap()),
            ),
            (vec![&ours, USER, BOUNDARY, USER], PriorInjection::Absent),
            (vec![USER, &theirs], PriorInjection::Absent),
            (
                vec![BOUNDARY, &ours, USER],
                PriorInjection::Found(Timestamp::parse("2026-11-22T10:00:00Z").unwrap()),
            ),
            (
                vec![
                    &ours,
                    r#"{"type":"user","message":{"content":"I pasted [carryover: session context] with hook_additional_context"}}"#,
                ],
                PriorInjection::Found(Timestamp::parse("2026-11-22T10:00:00Z").unwrap()),
            ),
        ];
        for (lines, expected) in cases {
            let file = written(&lines);
            let found =
                pollster::block_on(ClaudeTranscriptReader.last_injection(file.path())).unwrap();
            assert_eq!(found, expected, "{lines:?}");
        }
    }

    #[test]
    fn a_search_that_runs_out_of_budget_does_not_know() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            file,
            "{}",
            hook_context("2026-11-22T10:00:00Z", "[carryover: session context]")
        )
        .unwrap();
        let filler = format!("{}\n", USER);
        let rows = (BACKWARD_BUDGET as usize / filler.len()) + 10;
        file.write_all(filler.repeat(rows).as_bytes()).unwrap();
        let found = pollster::block_on(ClaudeTranscriptReader.last_injection(file.path())).unwrap();
        assert_eq!(found, PriorInjection::Unknown);
    }

    #[test]
    fn an_overlong_row_is_skipped_without_being_held() {
        let mut text = b"short\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100));
        text.extend(b"\nlast");
        let mut reader = std::io::BufReader::with_capacity(8, &text[..]);
        let mut line = Vec::new();
        let mut seen = Vec::new();
        loop {
            line.clear();
            match read_line_bounded(&mut reader, &mut line, 20).unwrap() {
                Line::End => break,
                Line::TooLong => seen.push("<too long>".to_owned()),
                Line::Read => seen.push(String::from_utf8_lossy(&line).trim().to_owned()),
            }
        }
        assert_eq!(seen, ["short", "<too long>", "last"]);
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
        assert_eq!(paths(&digest), vec!["/home/user/code/shop-api/notes.txt"]);
        assert!(
            digest.todos.is_empty(),
            "the session's TodoWrite call failed (the tool was disabled): no todo list"
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
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"p1","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Update File: src/a.rs\n*** Add File: src/b.rs\n*** End Patch"}}]}}"#,
            &result("p1", false, "ok"),
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"c1","name":"TaskCreate","input":{"subject":"Write docs"}},{"type":"tool_use","id":"c2","name":"TaskCreate","input":{"subject":"Ship"}}]}}"#,
            &result("c1", false, "ok"),
            &result("c2", false, "ok"),
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"u1","name":"TaskUpdate","input":{"taskId":"1","status":"completed"}}]}}"#,
            &result("u1", false, "ok"),
        ]);
        let digest =
            pollster::block_on(ClaudeTranscriptReader.digest(file.path(), DigestScope::Whole))
                .unwrap();
        assert_eq!(paths(&digest), vec!["src/a.rs", "src/b.rs"]);
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

    fn paths(digest: &SessionDigest) -> Vec<&str> {
        digest.files.iter().map(|file| file.path.as_str()).collect()
    }

    /// A user row holding one tool result.
    fn result(id: &str, is_error: bool, output: &str) -> String {
        serde_json::json!({"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": id, "is_error": is_error, "content": output}
        ]}})
        .to_string()
    }

    fn tool_use(id: &str, name: &str, input: serde_json::Value) -> String {
        serde_json::json!({"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": id, "name": name, "input": input}
        ]}})
        .to_string()
    }

    fn digest_of(lines: &[&str]) -> SessionDigest {
        let file = written(lines);
        pollster::block_on(ClaudeTranscriptReader.digest(file.path(), DigestScope::Whole)).unwrap()
    }

    #[test]
    fn failed_tool_calls_are_no_work() {
        let digest = digest_of(&[
            &tool_use("e1", "Edit", serde_json::json!({"file_path": "/p/a.rs"})),
            &result("e1", true, "String to replace not found in file"),
            &tool_use(
                "t1",
                "TodoWrite",
                serde_json::json!({"todos": [{"content": "x", "status": "completed"}]}),
            ),
            &result("t1", true, "InputValidationError"),
            &tool_use("e2", "Write", serde_json::json!({"file_path": "/p/b.rs"})),
            &result("e2", false, "File created"),
        ]);
        assert_eq!(paths(&digest), vec!["/p/b.rs"]);
        assert!(digest.todos.is_empty());
        assert_eq!(digest.work_done, 1);
    }

    const REFUSED: &str = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep my commits";

    #[test]
    fn refused_calls_are_recorded_with_what_the_user_said() {
        let digest = digest_of(&[
            &tool_use(
                "b1",
                "Bash",
                serde_json::json!({"command": "git reset --hard origin/main~15"}),
            ),
            &result("b1", true, REFUSED),
            &tool_use("e1", "Edit", serde_json::json!({"file_path": "/p/a.rs"})),
            &result("e1", true, REFUSED),
            &tool_use("c1", "Bash", serde_json::json!({"command": "cargo test"})),
            &result("c1", true, REFUSED),
        ]);
        assert_eq!(digest.last_check, None, "a refused check ran nothing");
        let [reset, edit, _check] = digest.refusals.as_slice() else {
            panic!("three refusals: {:?}", digest.refusals);
        };
        assert_eq!(
            [reset, edit],
            [
                &Refusal {
                    action: RefusedAction::Command("git reset --hard origin/main~15".into()),
                    said: Some("keep my commits".into()),
                },
                &Refusal {
                    action: RefusedAction::Edit(vec!["/p/a.rs".into()]),
                    said: Some("keep my commits".into()),
                },
            ]
        );
        assert_eq!(digest.work_done, 0, "a refused call did nothing");
    }

    #[test]
    fn a_refused_command_run_after_all_is_no_refusal() {
        let digest = digest_of(&[
            &tool_use("b1", "Bash", serde_json::json!({"command": "git push"})),
            &result("b1", true, REFUSED),
            &tool_use("b2", "Bash", serde_json::json!({"command": "git push"})),
            &result("b2", true, "! [rejected] main -> main (fetch first)"),
        ]);
        assert!(
            digest.refusals.is_empty(),
            "the user let it run, even if the remote refused it"
        );
    }

    /// A plan file written, then proposed at plan-mode exit (without naming its file, as
    /// clients before 2.1.200 do).
    fn planned(title: &str) -> [String; 3] {
        let plan = format!("# Plan: {title}\n\n## Context\nWhy");
        [
            tool_use(
                "w1",
                "Write",
                serde_json::json!({"file_path": "/h/.claude/plans/blum.md", "content": plan}),
            ),
            result("w1", false, "File created"),
            tool_use("x1", "ExitPlanMode", serde_json::json!({"plan": plan})),
        ]
    }

    #[rstest::rstest]
    #[case::rejected_at_exit(
        Some((true, "The user doesn't want to proceed with this tool use.")),
        false,
        Some((PlanVerdict::Declined, false))
    )]
    #[case::kept_planning_then_edited_the_plan(
        Some((true, "User chose to stay in plan mode and continue planning")),
        true,
        Some((PlanVerdict::Declined, false))
    )]
    #[case::approved_not_yet_started(
        Some((false, "User has approved your plan. You can now start coding.")),
        false,
        Some((PlanVerdict::Approved, false))
    )]
    #[case::no_answer(None, false, Some((PlanVerdict::Awaiting, false)))]
    fn the_last_plan_and_its_verdict_are_read(
        #[case] answer: Option<(bool, &str)>,
        #[case] plan_edited_after: bool,
        #[case] expected: Option<(PlanVerdict, bool)>,
    ) {
        let mut lines: Vec<String> = planned("Merge Prompt & Context").to_vec();
        if let Some((is_error, output)) = answer {
            lines.push(result("x1", is_error, output));
        }
        if plan_edited_after {
            lines.push(tool_use(
                "e1",
                "Edit",
                serde_json::json!({"file_path": "/h/.claude/plans/blum.md"}),
            ));
            lines.push(result("e1", false, "updated"));
        }
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let digest = digest_of(&lines);
        let plan = digest.plan.expect("a plan was proposed");
        assert_eq!(plan.title, "Merge Prompt & Context");
        assert_eq!(plan.file.as_deref(), Some("/h/.claude/plans/blum.md"));
        assert_eq!(
            expected,
            Some((plan.verdict, plan.followed_by_work)),
            "planning is not work on the plan"
        );
    }

    #[test]
    fn work_after_an_approved_plan_carries_it_out() {
        let mut lines: Vec<String> = planned("Fix the parser").to_vec();
        lines.push(result("x1", false, "User has approved your plan."));
        lines.push(tool_use(
            "e1",
            "Edit",
            serde_json::json!({"file_path": "/p/src/parser.rs"}),
        ));
        lines.push(result("e1", false, "updated"));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let plan = digest_of(&lines).plan.unwrap();
        assert!(plan.followed_by_work);
        assert!(!plan.is_open());
    }

    #[rstest::rstest]
    #[case::pushed_only(false, Some("https://github.com/o/r/pull/new/fix"))]
    #[case::then_opened(true, None)]
    fn a_pushed_branch_without_a_pull_request_is_noticed(
        #[case] opened: bool,
        #[case] expected: Option<&str>,
    ) {
        let push_output = "remote: Create a pull request for 'fix' on GitHub by visiting:\nremote:      https://github.com/o/r/pull/new/fix\nTo github.com:o/r.git\n * [new branch]      fix -> fix";
        let mut lines = vec![
            tool_use(
                "p1",
                "Bash",
                serde_json::json!({"command": "git push -u origin fix"}),
            ),
            result("p1", false, push_output),
        ];
        if opened {
            lines.push(tool_use(
                "g1",
                "Bash",
                serde_json::json!({"command": "gh pr create --fill"}),
            ));
            lines.push(result("g1", false, "https://github.com/o/r/pull/12"));
        }
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let digest = digest_of(&lines);
        assert_eq!(digest.pull_request_unopened.as_deref(), expected);
    }

    #[test]
    fn pull_requests_opened_and_merged_through_github_mcp_count() {
        let push_output =
            "remote:      https://github.com/o/r/pull/new/fix\n * [new branch]      fix -> fix";
        let digest = digest_of(&[
            &tool_use(
                "p1",
                "Bash",
                serde_json::json!({"command": "git push -u origin fix"}),
            ),
            &result("p1", false, push_output),
            &tool_use(
                "c1",
                "mcp__github__create_pull_request",
                serde_json::json!({"owner": "o", "repo": "r", "title": "Fix"}),
            ),
            &result(
                "c1",
                false,
                r#"{"id":"3339835454","url":"https://github.com/o/r/pull/35"}"#,
            ),
            &tool_use(
                "r1",
                "mcp__plugin_github_github__pull_request_read",
                serde_json::json!({"pullNumber": 12}),
            ),
            &result("r1", false, r#"{"url":"https://github.com/o/r/pull/12"}"#),
            &tool_use(
                "m1",
                "mcp__plugin_github_github__merge_pull_request",
                serde_json::json!({"owner": "o", "repo": "r", "pullNumber": 35, "merge_method": "squash"}),
            ),
            &result(
                "m1",
                false,
                r#"{"sha":"9d16feb6e5b285f0791e1def4c8b80fb6fe0517c","merged":true,"message":"Pull Request successfully merged"}"#,
            ),
        ]);
        assert_eq!(
            digest.links,
            ["https://github.com/o/r/pull/35"],
            "a read is no work"
        );
        assert_eq!(
            digest.merges,
            [Merge {
                number: Some(35),
                commit: Some("9d16feb6e5b285f0791e1def4c8b80fb6fe0517c".into())
            }]
        );
        assert_eq!(digest.pull_request_unopened, None);
    }

    #[test]
    fn the_plan_file_the_client_names_wins() {
        let digest = digest_of(&[&tool_use(
            "x1",
            "ExitPlanMode",
            serde_json::json!({"plan": "# Split the commits", "planFilePath": "/h/.claude/plans/vast.md"}),
        )]);
        let plan = digest.plan.unwrap();
        assert_eq!(plan.title, "Split the commits");
        assert_eq!(plan.file.as_deref(), Some("/h/.claude/plans/vast.md"));
    }

    #[test]
    fn agent_memories_written_or_edited_are_kept_with_their_final_text() {
        let home = tempfile::tempdir().unwrap();
        let folder = home.path().join(".claude/projects/-p/memory");
        fs_err::create_dir_all(&folder).unwrap();
        let path = |name: &str| folder.join(name).to_string_lossy().into_owned();
        fs_err::write(path("edited.md"), "---\ndescription: After the edit\n---\n").unwrap();
        let digest = digest_of(&[
            &tool_use(
                "w1",
                "Write",
                serde_json::json!({"file_path": path("written.md"), "content": "---\ndescription: Written\n---\n"}),
            ),
            &result("w1", false, "File created"),
            &tool_use(
                "w2",
                "Write",
                serde_json::json!({"file_path": path("failed.md"), "content": "never saved"}),
            ),
            &result("w2", true, "Permission denied"),
            &tool_use(
                "e1",
                "Edit",
                serde_json::json!({"file_path": path("edited.md"), "old_string": "a", "new_string": "b"}),
            ),
            &result("e1", false, "The file has been updated"),
            &tool_use(
                "w3",
                "Write",
                serde_json::json!({"file_path": path("MEMORY.md"), "content": "- [Written](written.md)"}),
            ),
            &result("w3", false, "File created"),
            &tool_use(
                "w4",
                "Write",
                serde_json::json!({"file_path": "/p/notes.md", "content": "not a memory"}),
            ),
            &result("w4", false, "File created"),
        ]);
        assert_eq!(
            digest.agent_memories,
            [
                "---\ndescription: Written\n---\n",
                "---\ndescription: After the edit\n---\n"
            ]
        );
        assert_eq!(digest.work_done, 4, "memory writes are work like any other");
    }

    #[test]
    fn decision_logs_and_state_files_keep_the_headings_their_writes_gave_them() {
        let digest = digest_of(&[
            &tool_use(
                "w1",
                "Write",
                serde_json::json!({"file_path": "/p/DECISIONS.md", "content": "# Decisions\n\n## 1. Pin `mcp` to 1.28.x\n\nWhy…"}),
            ),
            &result("w1", false, "File created"),
            &tool_use(
                "e1",
                "MultiEdit",
                serde_json::json!({"file_path": "/p/DECISIONS.md", "edits": [{"old_string": "a", "new_string": "## 2. Single-tenant by design\n"}]}),
            ),
            &result("e1", false, "Applied 1 edit"),
            &tool_use(
                "w2",
                "Write",
                serde_json::json!({"file_path": "/p/docs/STATE.md", "content": "## In flight: the generator fix\n"}),
            ),
            &result("w2", true, "Permission denied"),
            &tool_use(
                "e2",
                "Edit",
                serde_json::json!({"file_path": "/p/README.md", "old_string": "a", "new_string": "## Install it with cargo\n"}),
            ),
            &result("e2", false, "The file has been updated"),
        ]);
        assert_eq!(
            digest.notes.len(),
            1,
            "a failed write and a README are no notes"
        );
        assert_eq!(digest.notes[0].kind, NotesKind::Decisions);
        assert_eq!(
            digest.notes[0].headings,
            ["Pin `mcp` to 1.28.x", "Single-tenant by design"]
        );
    }

    #[test]
    fn commits_pushes_links_and_checks_come_from_command_results() {
        let digest = digest_of(&[
            &tool_use("b1", "Bash", serde_json::json!({"command": "cargo test"})),
            &result(
                "b1",
                true,
                "running 3 tests\ntest result: FAILED. 2 passed; 1 failed",
            ),
            &tool_use(
                "b2",
                "Bash",
                serde_json::json!({"command": "git add -A && git commit -m 'Fix retries'"}),
            ),
            &result("b2", false, "[main 37016ac] Fix retries\n 1 file changed"),
            &tool_use(
                "b3",
                "Bash",
                serde_json::json!({"command": "git push && gh pr create --fill"}),
            ),
            &result(
                "b3",
                false,
                "To github.com:a/b.git\n   1887972..37016ac  main -> main\nhttps://github.com/a/b/pull/9",
            ),
        ]);
        assert_eq!(digest.commits.len(), 1);
        assert_eq!(
            (
                digest.commits[0].hash.as_str(),
                digest.commits[0].subject.as_str()
            ),
            ("37016ac", "Fix retries")
        );
        assert_eq!(digest.pushes, vec!["main -> main"]);
        assert_eq!(digest.links, vec!["https://github.com/a/b/pull/9"]);
        let check = digest.last_check.unwrap();
        assert_eq!(
            (check.command.as_str(), check.passed),
            ("cargo test", false)
        );
        assert_eq!(check.summary, "test result: FAILED. 2 passed; 1 failed");
        assert!(digest.uses_git);
    }

    #[rstest::rstest]
    #[case::replied(&[r#"{"type":"user","message":{"content":"go"}}"#, r#"{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}"#], Ending::Replied)]
    #[case::unanswered(&[r#"{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}"#, r#"{"type":"user","message":{"content":"and now?"}}"#], Ending::Unanswered)]
    #[case::interrupted(&[r#"{"type":"user","message":{"content":"go"}}"#, r#"{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}}"#], Ending::Interrupted)]
    #[case::api_error(&[r#"{"type":"user","message":{"content":"go"}}"#, r#"{"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","content":[{"type":"text","text":"You've hit your session limit"}]}}"#], Ending::ApiError("You've hit your session limit".into()))]
    fn tells_how_the_session_ended(#[case] lines: &[&str], #[case] expected: Ending) {
        assert_eq!(digest_of(lines).ending, expected);
    }

    #[test]
    fn titles_compaction_summaries_and_pr_links_are_read() {
        let digest = digest_of(&[
            r#"{"type":"summary","summary":"Old summary title"}"#,
            r#"{"type":"custom-title","customTitle":"Retry budget"}"#,
            r#"{"type":"user","isCompactSummary":true,"message":{"content":"7. Pending Tasks:\n- ship it"}}"#,
            r#"{"type":"pr-link","prUrl":"https://github.com/a/b/pull/123"}"#,
        ]);
        assert_eq!(digest.title.as_deref(), Some("Retry budget"));
        assert!(digest.compact_summary.unwrap().contains("ship it"));
        assert_eq!(digest.links, vec!["https://github.com/a/b/pull/123"]);
        assert_eq!(digest.user_turns, 0, "a compaction summary is no request");
    }

    const LEAF: &str = r#"{"type":"assistant","uuid":"u-leaf","message":{"content":[{"type":"text","text":"done"}]}}"#;

    #[rstest::rstest]
    #[case::its_own_conversation(&[LEAF, r#"{"type":"summary","summary":"Retry budget","leafUuid":"u-leaf"}"#], Some("Retry budget"))]
    #[case::an_earlier_session(&[r#"{"type":"summary","summary":"Old session","leafUuid":"u-elsewhere"}"#, LEAF], None)]
    #[case::an_error_left_as_a_title(&[r#"{"type":"summary","summary":"API Error: 401 · Please run /login","leafUuid":"u-gone"}"#, LEAF], None)]
    #[case::a_leaf_only_read_later(&[r#"{"type":"summary","summary":"Retry budget","leafUuid":"u-leaf"}"#, LEAF], None)]
    #[case::no_leaf(&[LEAF, r#"{"type":"summary","summary":"Retry budget"}"#], None)]
    #[case::an_escaped_uuid(&[r#"{"type":"assistant","uuid":"u\u002dleaf","message":{"content":[{"type":"text","text":"done"}]}}"#, r#"{"type":"summary","summary":"Retry budget","leafUuid":"u-leaf"}"#], Some("Retry budget"))]
    #[case::a_leaf_without_a_summary_keeps_the_title(&[LEAF, r#"{"type":"summary","summary":"Retry budget","leafUuid":"u-leaf"}"#, r#"{"type":"summary","leafUuid":"u-leaf"}"#], Some("Retry budget"))]
    fn a_summary_titles_the_session_only_when_its_leaf_is_read_here(
        #[case] lines: &[&str],
        #[case] title: Option<&str>,
    ) {
        assert_eq!(digest_of(lines).title.as_deref(), title);
    }

    const ASKED: &str = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"q1","name":"AskUserQuestion","input":{"questions":[{"question":"Public or private?","options":[{"label":"Public"},{"label":"Private"}]}]}}]}}"#;

    #[rstest::rstest]
    #[case::picked(r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"q1","content":"User has answered your questions: \"Public or private?\"=\"Private\". You can now continue with the user's answers in mind."}]}}"#, &[("Public or private?", "Private")])]
    #[case::dismissed(r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"q1","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected."}]}}"#, &[])]
    fn the_question_tools_picks_are_answers(
        #[case] result: &str,
        #[case] expected: &[(&str, &str)],
    ) {
        let answers: Vec<(String, String)> = digest_of(&[ASKED, result])
            .answers
            .into_iter()
            .map(|answer| (answer.question, answer.answer))
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(q, a)| ((*q).to_owned(), (*a).to_owned()))
            .collect();
        assert_eq!(answers, expected);
    }

    #[test]
    fn a_bulky_tool_result_can_be_a_summary_leaf() {
        let result = format!(
            r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"t1","content":"{} \"uuid\":\"u-inner\""}}]}},"uuid":"0b4a7c2e-1f3d-4e5a-9b6c-7d8e9f0a1b2c","toolUseResult":{{"uuid":"u-later"}}}}"#,
            "z".repeat(BULKY_ROW)
        );
        let summary = r#"{"type":"summary","summary":"Retry budget","leafUuid":"0b4a7c2e-1f3d-4e5a-9b6c-7d8e9f0a1b2c"}"#;
        assert!(is_bulky_tool_result(result.as_bytes()));
        assert_eq!(
            digest_of(&[&result, summary]).title.as_deref(),
            Some("Retry budget")
        );
        let inner = r#"{"type":"summary","summary":"Inner","leafUuid":"u-inner"}"#;
        assert_eq!(
            digest_of(&[&result, inner]).title,
            None,
            "a quoted uuid is text"
        );
    }

    const STATUS_AHEAD: &str = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"On branch main\nYour branch is ahead of 'origin/main' by 2 commits."}]}}"#;

    #[rstest::rstest]
    #[case::ends_on_a_call(&[r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t9","name":"PowerShell","input":{"command":"entire session attach 12"}}]}}"#], Some("entire session attach 12"), None)]
    #[case::a_reply_after_it(&[r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t9","name":"Bash","input":{"command":"sleep 9"}}]}}"#, r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Still running; moving on."}]}}"#], None, None)]
    #[case::ahead(&[r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git status"}}]}}"#, STATUS_AHEAD], None, Some("ahead of 'origin/main' by 2 commits"))]
    #[case::pushed_since(&[r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git status"}}]}}"#, STATUS_AHEAD, r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"git push"}}]}}"#, r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"To github.com:a/b.git\n   1a2b3c4..5d6e7f8  main -> main"}]}}"#], None, None)]
    fn tells_what_was_left_half_way(
        #[case] lines: &[&str],
        #[case] unfinished: Option<&str>,
        #[case] unpushed: Option<&str>,
    ) {
        let digest = digest_of(lines);
        assert_eq!(digest.unfinished.as_deref(), unfinished);
        assert_eq!(digest.unpushed.as_deref(), unpushed);
    }

    /// The working tree after a `git status`, then `commands`, the last one a commit.
    fn status_then(commands: &[&str]) -> Vec<String> {
        let status = "On branch feat/x\nChanges not staged for commit:\n\tmodified:   .github/workflows/ci.yml\n\tmodified:   src/ingest.py\n\nUntracked files:\n\tnotes/\n";
        let mut rows = vec![
            serde_json::json!({"type":"assistant","message":{"content":[{"type":"tool_use","id":"t0","name":"Bash","input":{"command":"git status"}}]}}),
            serde_json::json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t0","content":status}]}}),
        ];
        for (at, command) in commands.iter().enumerate() {
            let id = format!("t{}", at + 1);
            let output = match at + 1 == commands.len() {
                true => "[feat/x 02f7733] ci: split jobs\n 1 file changed",
                false => "",
            };
            rows.push(serde_json::json!({"type":"assistant","message":{"content":[{"type":"tool_use","id":id,"name":"Bash","input":{"command":command}}]}}));
            rows.push(serde_json::json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":id,"content":output}]}}));
        }
        let lines: Vec<String> = rows.iter().map(ToString::to_string).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        digest_of(&lines).working_tree
    }

    #[rstest::rstest]
    #[case::named_file_committed(
        &["git add .github/workflows/ci.yml && git commit -m 'ci: split jobs'"],
        &["src/ingest.py", "notes/"]
    )]
    #[case::everything_staged(&["git add -A && git commit -m 'ci: split jobs'"], &[])]
    #[case::staged_before(
        &["git add src/ingest.py", "git commit -m 'ci: split jobs'"],
        &[".github/workflows/ci.yml", "notes/"]
    )]
    #[case::all_staged_before(&["git add .", "git commit -m 'ci: split jobs'"], &[])]
    #[case::commit_all(&["git commit -am 'ci: split jobs'"], &[])]
    #[case::stashed(&["git stash", "git commit -m 'ci: split jobs'"], &[])]
    fn the_working_tree_as_last_seen_loses_what_was_committed(
        #[case] commands: &[&str],
        #[case] expected: &[&str],
    ) {
        assert_eq!(status_then(commands), expected);
    }

    #[test]
    fn a_plain_commit_takes_what_the_last_status_showed_staged() {
        let staged = "On branch main\nChanges to be committed:\n\tmodified:   src/a.rs\n\nChanges not staged for commit:\n\tmodified:   src/b.rs\n";
        let calls = [
            ("git status", staged),
            (
                "git commit -m 'feat: a'",
                "[main 1a2b3c4] feat: a\n 1 file changed",
            ),
        ];
        let mut rows = Vec::new();
        for (at, (command, output)) in calls.iter().enumerate() {
            let id = format!("t{at}");
            rows.push(serde_json::json!({"type":"assistant","message":{"content":[{"type":"tool_use","id":id,"name":"Bash","input":{"command":command}}]}}));
            rows.push(serde_json::json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":id,"content":output}]}}));
        }
        let lines: Vec<String> = rows.iter().map(ToString::to_string).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(digest_of(&lines).working_tree, vec!["src/b.rs"]);
    }

    #[rstest::rstest]
    #[case::sent_to_the_background(
        "cd /repo && cargo test",
        "Command running in background with ID: b1x. Output is being written to: /tmp/o",
        None
    )]
    #[case::finished(
        "cd /repo && cargo test",
        "test result: ok. 3 passed",
        Some("cargo test")
    )]
    #[case::shown_by_its_own_steps(
        "echo \"=== suite ===\" && grep -n retry src/a.rs && cargo test",
        "test result: ok. 3 passed",
        Some("cargo test")
    )]
    fn a_check_is_judged_by_its_result(
        #[case] command: &str,
        #[case] output: &str,
        #[case] expected: Option<&str>,
    ) {
        let rows = [
            serde_json::json!({"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":command}}]}}),
            serde_json::json!({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":output}]}}),
        ];
        let lines: Vec<String> = rows.iter().map(ToString::to_string).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let check = digest_of(&lines).last_check;
        assert_eq!(check.as_ref().map(|c| c.command.as_str()), expected);
    }

    #[test]
    fn a_memory_note_is_remembered_not_requested() {
        let digest = digest_of(&[
            r#"{"type":"user","message":{"content":"<user-memory-input>Use pnpm</user-memory-input>"}}"#,
            r#"{"type":"user","message":{"content":"add the retry budget"}}"#,
        ]);
        assert_eq!(digest.remembered, vec!["Use pnpm"]);
        assert_eq!(digest.user_requests, vec!["add the retry budget"]);
    }

    #[test]
    fn commands_the_user_ran_with_bang_are_work_not_requests() {
        let digest = digest_of(&[
            r#"{"type":"user","message":{"content":"prepare the release commit"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Run it yourself to sign it."}]}}"#,
            r#"{"type":"user","message":{"content":"<bash-input>git commit -S -m \"chore(release): v0.16.0\"</bash-input>"}}"#,
            r#"{"type":"user","message":{"content":"<bash-stdout>[main 62ad1de] chore(release): v0.16.0\n 4 files changed</bash-stdout><bash-stderr></bash-stderr>"}}"#,
            r#"{"type":"user","message":{"content":"<bash-input>git push origin main</bash-input>"}}"#,
            r#"{"type":"user","message":{"content":"<bash-stdout></bash-stdout><bash-stderr> ! [rejected]        main -&gt; main (fetch first)\nerror: failed to push some refs</bash-stderr>"}}"#,
        ]);
        assert_eq!(digest.user_requests, vec!["prepare the release commit"]);
        assert_eq!(digest.ending, Ending::Replied, "a `!` command asks nothing");
        let commits: Vec<(&str, &str)> = digest
            .commits
            .iter()
            .map(|c| (c.hash.as_str(), c.subject.as_str()))
            .collect();
        assert_eq!(commits, vec![("62ad1de", "chore(release): v0.16.0")]);
        assert!(digest.pushes.is_empty(), "a rejected push pushed nothing");
    }

    #[rstest::rstest]
    #[case::the_last_branch(&[r#"{"type":"user","gitBranch":"main","message":{"content":"go"}}"#, r#"{"type":"assistant","gitBranch":"fix/tags","message":{"content":[{"type":"text","text":"ok"}]}}"#], Some("fix/tags"))]
    #[case::detached_is_no_branch(&[r#"{"type":"user","gitBranch":"main","message":{"content":"go"}}"#, r#"{"type":"user","gitBranch":"HEAD","message":{"content":"on"}}"#], Some("main"))]
    #[case::none_recorded(&[r#"{"type":"user","message":{"content":"go"}}"#], None)]
    fn reads_the_branch_the_session_ended_on(
        #[case] lines: &[&str],
        #[case] expected: Option<&str>,
    ) {
        assert_eq!(digest_of(lines).branch.as_deref(), expected);
    }

    #[test]
    fn a_missing_transcript_is_an_error() {
        let error = pollster::block_on(
            ClaudeTranscriptReader.last_usage(Path::new("/nonexistent/t.jsonl")),
        );
        assert!(error.is_err());
    }
}
