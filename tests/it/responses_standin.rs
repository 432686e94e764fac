//! A stand-in for the OpenAI Responses API on 127.0.0.1: answers `POST /v1/responses` with a
//! short streamed (SSE) assistant message and records every request body, so a test can
//! assert on what the real Codex CLI sent to the model. A request asking to commit (and not
//! yet holding a tool's output) is answered with a call of Codex's `exec_command` tool running
//! [`COMMIT_COMMAND`], so the session does real work in its rollout.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::http_standin::{Reply, serve};

/// What the model runs when asked to commit.
pub const COMMIT_COMMAND: &str = "printf 'attempts = 4\\n' > retry.toml && git add retry.toml && git -c user.name=Test -c user.email=test@example.com commit -m 'Cap the retry budget at four attempts'";

/// A running stand-in; it stops with the test process.
pub struct ResponsesStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ResponsesStandIn {
    pub fn start() -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let port = serve(move |method, path, body| {
            if method != "POST" || !path.ends_with("/responses") {
                return Reply {
                    status: "404 Not Found",
                    content_type: "application/json",
                    body: "{}".to_owned(),
                };
            }
            let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            let input = request["input"].to_string();
            let call = input.contains("commit the retry budget")
                && !input.contains("function_call_output");
            recorded.lock().unwrap().push(request);
            Reply::ok("text/event-stream", streamed_reply(call))
        });
        Self { port, requests }
    }

    /// The provider's `base_url`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// The `/v1/responses` bodies received since the last call, serialised.
    pub fn take_requests(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap())
            .into_iter()
            .map(|body| body.to_string())
            .collect()
    }
}

/// The least a Responses stream needs: the response, one finished message item, completion
/// with usage.
fn streamed_reply(call: bool) -> String {
    let item = if call {
        json!({"type": "function_call", "id": "fc_standin", "call_id": "call_standin",
            "name": "exec_command", "arguments": json!({"cmd": COMMIT_COMMAND}).to_string()})
    } else {
        json!({"type": "message", "role": "assistant", "id": "msg_standin",
        "status": "completed", "content": [{"type": "output_text",
        "text": "Noted: the retry budget stays below five attempts.", "annotations": []}]})
    };
    let usage = json!({"input_tokens": 20_000, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 12, "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 20_012});
    [
        (
            "response.created",
            json!({"type": "response.created", "response": {"id": "resp_standin"}}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed",
                "response": {"id": "resp_standin", "usage": usage}}),
        ),
    ]
    .iter()
    .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
    .collect()
}
