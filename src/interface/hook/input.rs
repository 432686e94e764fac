//! The agent's hook payload, read leniently: field order, unknown fields and wrong types vary
//! between clients and versions, and none of that may stop a session.

use std::path::PathBuf;

use serde_json::Value;

/// What carryover uses of a hook payload; every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookInput {
    /// The agent's session id (not yet validated as a path component).
    pub session_id: Option<String>,
    /// The session's transcript.
    pub transcript_path: Option<PathBuf>,
    /// The working directory of the session.
    pub cwd: Option<PathBuf>,
    /// `SessionStart`, `PreCompact`, `SessionEnd`…
    pub hook_event_name: Option<String>,
    /// How the session started: `startup`, `resume`, `clear`, `compact`.
    pub source: Option<String>,
    /// The model id, when the client sends it.
    pub model: Option<String>,
    /// What started a compaction: `manual` or `auto`.
    pub trigger: Option<String>,
    /// Instructions given to `/compact`.
    pub custom_instructions: Option<String>,
    /// Why the session ended.
    pub reason: Option<String>,
    /// What the user typed (`UserPromptSubmit`, Gemini CLI's `BeforeAgent`).
    pub prompt: Option<String>,
    /// When the client fired the hook, in epoch milliseconds: Copilot CLI's native payloads
    /// send a number (Claude-style ones an ISO 8601 text, not kept).
    pub timestamp_ms: Option<u64>,
}

impl HookInput {
    /// Parses a payload. Empty input is an empty payload; anything that is not a JSON object
    /// is an empty payload plus a warning; an object cut short (by the size bound or a
    /// client that stopped writing) keeps the fields that arrived whole, with a warning.
    pub fn parse(bytes: &[u8]) -> (Self, Option<String>) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return (Self::default(), None);
        }
        let (object, warning) = match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(object)) => (object, None),
            Ok(_) => {
                return (
                    Self::default(),
                    Some("hook input is not a JSON object; ignored".into()),
                );
            }
            Err(error) if error.is_eof() => {
                let fields = super::salvage_fields(bytes);
                let warning = format!(
                    "hook input was cut short after {} bytes; kept {} whole field(s)",
                    bytes.len(),
                    fields.len()
                );
                (fields, Some(warning))
            }
            Err(error) => {
                return (
                    Self::default(),
                    Some(format!("hook input is not JSON ({error}); ignored")),
                );
            }
        };
        // Copilot CLI's native hooks send camelCase keys (`sessionId`, `transcriptPath`);
        // Cursor names a session `conversation_id` on most events and the project by its
        // `workspace_roots`. The first spelling present wins.
        let text = |keys: &[&str]| {
            keys.iter().find_map(|key| {
                object
                    .get(*key)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|value| !value.is_empty())
                    .map(str::to_owned)
            })
        };
        let first_root = object
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|roots| roots.first())
            .and_then(Value::as_str)
            .filter(|root| !root.is_empty())
            .map(PathBuf::from);
        let model = object.get("model").and_then(|model| match model {
            Value::String(id) => Some(id.clone()),
            Value::Object(fields) => fields.get("id").and_then(Value::as_str).map(str::to_owned),
            _ => None,
        });
        let input = Self {
            session_id: text(&["session_id", "sessionId", "conversation_id"]),
            transcript_path: text(&["transcript_path", "transcriptPath"]).map(PathBuf::from),
            cwd: text(&["cwd"]).map(PathBuf::from).or(first_root),
            hook_event_name: text(&["hook_event_name", "hookEventName"]),
            source: text(&["source"]),
            model,
            trigger: text(&["trigger"]),
            custom_instructions: text(&["custom_instructions", "customInstructions"]),
            reason: text(&["reason"]),
            prompt: text(&["prompt"]),
            timestamp_ms: object.get("timestamp").and_then(Value::as_u64),
        };
        (input, warning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn reads_a_real_session_start_payload() {
        let (input, warning) = HookInput::parse(include_bytes!(
            "../../../tests/fixtures/claude-code-2.1.328/hooks/sessionstart-compact-1.json"
        ));
        assert_eq!(warning, None);
        assert_eq!(
            input.session_id.as_deref(),
            Some("2c764cf4-ae92-42d8-88b5-e0f2690d8874")
        );
        assert_eq!(input.source.as_deref(), Some("compact"));
        assert_eq!(input.model.as_deref(), Some("claude-opus-5-5"));
        assert_eq!(input.cwd, Some(PathBuf::from("/home/user/code/notes")));
    }

    /// Every event Codex CLI 0.169.0 sends carryover, as captured from the real client.
    #[rstest]
    #[case::start(
        "sessionstart-startup-1",
        "SessionStart",
        Some("startup"),
        None,
        None,
        None
    )]
    #[case::resume(
        "sessionstart-resume-1",
        "SessionStart",
        Some("resume"),
        None,
        None,
        None
    )]
    #[case::clear(
        "sessionstart-clear-1",
        "SessionStart",
        Some("clear"),
        None,
        None,
        None
    )]
    #[case::after_compaction(
        "sessionstart-compact-1",
        "SessionStart",
        Some("compact"),
        None,
        None,
        None
    )]
    #[case::prompt(
        "userpromptsubmit-1",
        "UserPromptSubmit",
        None,
        Some("first prompt: hello"),
        None,
        None
    )]
    #[case::auto_compaction("precompact-auto-1", "PreCompact", None, None, Some("auto"), None)]
    #[case::manual_compaction(
        "precompact-manual-1",
        "PreCompact",
        None,
        None,
        Some("manual"),
        None
    )]
    #[case::end("sessionend-other-1", "SessionEnd", None, None, None, Some("other"))]
    fn reads_codex_payloads(
        #[case] file: &str,
        #[case] event: &str,
        #[case] source: Option<&str>,
        #[case] prompt: Option<&str>,
        #[case] trigger: Option<&str>,
        #[case] reason: Option<&str>,
    ) {
        let path = format!(
            "{}/tests/fixtures/codex-0.169.0/hooks/{file}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let (input, warning) = HookInput::parse(&fs_err::read(path).unwrap());
        assert_eq!(warning, None);
        assert_eq!(input.hook_event_name.as_deref(), Some(event));
        assert!(input.session_id.as_deref().is_some_and(|id| id.len() == 36));
        assert_eq!(input.cwd, Some(PathBuf::from("/home/user/src/proj-codex")));
        assert!(
            input
                .transcript_path
                .as_ref()
                .is_some_and(|p| p.to_string_lossy().contains("/.codex/sessions/"))
        );
        assert_eq!(input.source.as_deref(), source);
        assert_eq!(input.prompt.as_deref(), prompt);
        assert_eq!(input.trigger.as_deref(), trigger);
        assert_eq!(input.reason.as_deref(), reason);
        if event != "SessionEnd" {
            assert_eq!(input.model.as_deref(), Some("standin-model"));
        }
    }

    /// Every event Copilot CLI 1.0.102 sends carryover, native (camelCase) and Claude-style
    /// (snake_case), as captured from the real client.
    #[rstest]
    #[case::start("sessionstart-new-1", Some("new"), None, None, None, false)]
    #[case::resume("sessionstart-resume-1", Some("resume"), None, None, None, false)]
    #[case::prompt(
        "userpromptsubmitted-1",
        None,
        Some("first prompt: hello"),
        None,
        None,
        false
    )]
    #[case::auto_compaction("precompact-auto-1", None, None, Some("auto"), None, true)]
    #[case::manual_compaction("precompact-manual-1", None, None, Some("manual"), None, true)]
    #[case::end("sessionend-complete-1", None, None, None, Some("complete"), false)]
    #[case::end_at_exit("sessionend-user_exit-1", None, None, None, Some("user_exit"), false)]
    #[case::claude_style_start(
        "pascalcase-config/sessionstart-new-1",
        Some("new"),
        None,
        None,
        None,
        false
    )]
    #[case::claude_style_compaction(
        "pascalcase-config/precompact-auto-1",
        None,
        None,
        Some("auto"),
        None,
        true
    )]
    fn reads_copilot_payloads(
        #[case] file: &str,
        #[case] source: Option<&str>,
        #[case] prompt: Option<&str>,
        #[case] trigger: Option<&str>,
        #[case] reason: Option<&str>,
        #[case] has_transcript: bool,
    ) {
        let path = format!(
            "{}/tests/fixtures/copilot-cli-1.0.102/hooks/{file}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let (input, warning) = HookInput::parse(&fs_err::read(path).unwrap());
        assert_eq!(warning, None);
        assert!(input.session_id.as_deref().is_some_and(|id| id.len() == 36));
        assert_eq!(
            input.cwd,
            Some(PathBuf::from("/home/user/src/proj-copilot"))
        );
        assert_eq!(input.source.as_deref(), source);
        assert_eq!(input.prompt.as_deref(), prompt);
        assert_eq!(input.trigger.as_deref(), trigger);
        assert_eq!(input.reason.as_deref(), reason);
        assert_eq!(input.transcript_path.is_some(), has_transcript);
        assert_eq!(
            input.timestamp_ms.is_some(),
            !file.starts_with("pascalcase")
        );
    }

    /// Cursor's payloads as its hooks documentation describes them (no real client here).
    #[rstest]
    #[case::start(
        r#"{"conversation_id":"c-1","generation_id":"g-1","model":"claude-sonnet-4","hook_event_name":"sessionStart","cursor_version":"2.0.0","workspace_roots":["/home/u/shop"],"user_email":null,"transcript_path":null,"session_id":"s-1","is_background_agent":false,"composer_mode":"agent"}"#,
        "s-1", None
    )]
    #[case::compact(
        r#"{"conversation_id":"c-1","hook_event_name":"preCompact","workspace_roots":["/home/u/shop"],"transcript_path":"/home/u/.cursor/t.jsonl","trigger":"auto","context_usage_percent":85}"#,
        "c-1", Some("/home/u/.cursor/t.jsonl")
    )]
    #[case::end(
        r#"{"conversation_id":"c-1","hook_event_name":"sessionEnd","workspace_roots":["/home/u/shop"],"session_id":"s-1","reason":"completed","duration_ms":4200}"#,
        "s-1", None
    )]
    fn reads_cursor_payloads(
        #[case] payload: &str,
        #[case] session: &str,
        #[case] transcript: Option<&str>,
    ) {
        let (input, warning) = HookInput::parse(payload.as_bytes());
        assert_eq!(warning, None);
        assert_eq!(input.session_id.as_deref(), Some(session));
        assert_eq!(input.cwd, Some(PathBuf::from("/home/u/shop")));
        assert_eq!(input.transcript_path, transcript.map(PathBuf::from));
    }

    #[rstest]
    #[case::empty(b"", false)]
    #[case::whitespace(b" \n", false)]
    #[case::broken(b"{\"session_id\": ", true)]
    #[case::not_an_object(b"[1, 2]", true)]
    fn tolerates_what_is_not_a_payload(#[case] bytes: &[u8], #[case] warns: bool) {
        let (input, warning) = HookInput::parse(bytes);
        assert_eq!(input, HookInput::default());
        assert_eq!(warning.is_some(), warns);
    }

    #[test]
    fn a_payload_cut_short_keeps_the_fields_that_arrived_whole() {
        let mut bytes = br#"{"session_id": "s1", "cwd": "/home/u/p", "prompt": ""#.to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 2 << 20));
        let (input, warning) = HookInput::parse(&bytes[..1 << 20]);
        assert_eq!(input.session_id.as_deref(), Some("s1"));
        assert_eq!(input.cwd, Some(PathBuf::from("/home/u/p")));
        assert!(warning.unwrap().contains("cut short"));
    }

    #[test]
    fn ignores_fields_of_the_wrong_type() {
        let (input, _) =
            HookInput::parse(br#"{"session_id": 42, "source": "startup", "model": {"id": "m"}}"#);
        assert_eq!(input.session_id, None);
        assert_eq!(input.source.as_deref(), Some("startup"));
        assert_eq!(input.model.as_deref(), Some("m"));
    }
}
