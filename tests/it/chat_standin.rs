//! A stand-in for the OpenAI Chat Completions API on 127.0.0.1: answers
//! `POST /v1/chat/completions` with a short assistant reply (streamed as SSE when asked, whole
//! otherwise) and records every request body, so a test can assert on what the real Copilot
//! CLI sent to the model in its offline BYOK mode.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::http_standin::{Reply, serve};

/// The reply the model gives every request.
pub const REPLY: &str = "Noted: the retry budget stays below five attempts.";

/// A running stand-in; it stops with the test process.
pub struct ChatStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ChatStandIn {
    pub fn start() -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let port = serve(move |method, path, body| {
            if method != "POST" || !path.ends_with("/chat/completions") {
                return Reply {
                    status: "404 Not Found",
                    content_type: "application/json",
                    body: "{}".to_owned(),
                };
            }
            let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            let streamed = request["stream"] == true;
            recorded.lock().unwrap().push(request);
            match streamed {
                true => Reply::ok("text/event-stream", streamed_reply()),
                false => Reply::ok("application/json", whole_reply().to_string()),
            }
        });
        Self { port, requests }
    }

    /// `COPILOT_PROVIDER_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// The `/v1/chat/completions` bodies received since the last call, serialised.
    pub fn take_requests(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap())
            .into_iter()
            .map(|body| body.to_string())
            .collect()
    }
}

fn usage() -> Value {
    json!({"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110})
}

fn whole_reply() -> Value {
    json!({"id": "chatcmpl-standin", "object": "chat.completion", "created": 1,
        "model": "gpt-4.1", "choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": REPLY}}], "usage": usage()})
}

/// The reply in one delta, then the finish with usage (the client asks for
/// `stream_options.include_usage`), then `[DONE]`.
fn streamed_reply() -> String {
    let chunk = |delta: Value, finish: Value, usage: Value| {
        json!({"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4.1", "choices": [{"index": 0, "delta": delta,
            "finish_reason": finish}], "usage": usage})
    };
    [
        chunk(
            json!({"role": "assistant", "content": REPLY}),
            Value::Null,
            Value::Null,
        ),
        chunk(json!({}), json!("stop"), usage()),
    ]
    .iter()
    .map(|data| format!("data: {data}\n\n"))
    .chain(std::iter::once("data: [DONE]\n\n".to_owned()))
    .collect()
}
