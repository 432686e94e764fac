//! A stand-in for the model API on 127.0.0.1: answers `POST /v1/messages` (streamed or not)
//! with a short assistant reply and records every request body, so a test can assert on what
//! the real client sent to the model.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::http_standin::{Reply, serve};

/// Tokens each reply reports as the context it was given (`input_tokens` and cache reads):
/// 72 % of a 1,000,000-token window, so a compaction right after is at the WARNING tier.
pub const CONTEXT_TOKENS: u64 = 720_000;

/// A running stand-in; it stops with the test process.
pub struct ModelStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ModelStandIn {
    pub fn start() -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let port = serve(move |method, path, body| {
            let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            if method == "POST"
                && path.starts_with("/v1/messages")
                && !path.contains("count_tokens")
            {
                let reply = message_reply(&request);
                recorded.lock().unwrap().push(request);
                Reply::ok(reply.0, reply.1)
            } else {
                Reply::ok("application/json", json!({"input_tokens": 100}).to_string())
            }
        });
        Self { port, requests }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The `/v1/messages` bodies received since the last call, serialised.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap())
            .into_iter()
            .map(|body| body.to_string())
            .collect()
    }
}

/// A minimal assistant reply in the shape the request asked for (events when streamed).
fn message_reply(request: &Value) -> (&'static str, String) {
    let model = request["model"].as_str().unwrap_or("claude-opus-5-5");
    let text = "Noted: the retry budget stays below five attempts.";
    let usage = json!({
        "input_tokens": 20_000,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": CONTEXT_TOKENS - 20_000,
        "output_tokens": 12,
    });
    if request["stream"] != json!(true) {
        let message = json!({
            "id": "msg_standin", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "stop_sequence": null, "usage": usage,
        });
        return ("application/json", message.to_string());
    }
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": {
            "id": "msg_standin", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": text}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": null},
            "usage": {"output_tokens": 12}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    let stream = events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect();
    ("text/event-stream", stream)
}
