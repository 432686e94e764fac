//! A stand-in for the Gemini API on 127.0.0.1: answers
//! `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with a short streamed (SSE)
//! reply, `:generateContent` with the same reply whole and `:countTokens` with a count, and
//! records every request body, so a test can assert on what the real Gemini CLI sent.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::http_standin::{Reply, serve};

/// The reply the model gives every request.
pub const REPLY: &str = "Noted: the retry budget stays below five attempts.";

/// A running stand-in; it stops with the test process.
pub struct GeminiStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl GeminiStandIn {
    pub fn start() -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let port = serve(move |method, target, body| {
            let path = target.split('?').next().unwrap_or("");
            let record = || {
                recorded
                    .lock()
                    .unwrap()
                    .push(serde_json::from_slice(body).unwrap_or(Value::Null));
            };
            match (method, path.rsplit_once(':')) {
                ("POST", Some((_, "streamGenerateContent"))) => {
                    record();
                    Reply::ok("text/event-stream", format!("data: {}\n\n", reply()))
                }
                ("POST", Some((_, "generateContent"))) => {
                    record();
                    Reply::ok("application/json", reply().to_string())
                }
                ("POST", Some((_, "countTokens"))) => {
                    Reply::ok("application/json", json!({"totalTokens": 100}).to_string())
                }
                _ => Reply {
                    status: "404 Not Found",
                    content_type: "application/json",
                    body: "{}".to_owned(),
                },
            }
        });
        Self { port, requests }
    }

    /// `GOOGLE_GEMINI_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The `generateContent` bodies (streamed or not) received since the last call,
    /// serialised.
    pub fn take_requests(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap())
            .into_iter()
            .map(|body| body.to_string())
            .collect()
    }
}

/// One finished candidate with usage.
fn reply() -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": REPLY}]},
            "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 10,
            "totalTokenCount": 110},
        "modelVersion": "gemini-2.5-flash"
    })
}
