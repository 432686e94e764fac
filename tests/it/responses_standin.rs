//! A stand-in for the OpenAI Responses API on 127.0.0.1: answers `POST /v1/responses` with a
//! short streamed (SSE) assistant message and records every request body, so a test can
//! assert on what the real Codex CLI sent to the model. A request asking to commit (and not
//! yet holding a tool's output) is answered with a call of Codex's `exec_command` tool running
//! [`COMMIT_COMMAND`], so the session does real work in its rollout.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// What the model runs when asked to commit.
pub const COMMIT_COMMAND: &str = "printf 'attempts = 4\\n' > retry.toml && git add retry.toml && git -c user.name=Test -c user.email=test@example.com commit -m 'Cap the retry budget at four attempts'";

/// A running stand-in; it stops with the test process.
pub struct ResponsesStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ResponsesStandIn {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let recorded = Arc::clone(&recorded);
                std::thread::spawn(move || serve(stream, &recorded));
            }
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

/// Serves one keep-alive connection until the client closes it.
fn serve(stream: TcpStream, recorded: &Mutex<Vec<Value>>) {
    let mut writer = stream.try_clone().expect("clone stream");
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let mut parts = request_line.split_whitespace();
        let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let (status, content_type, reply) = if method == "POST" && path.ends_with("/responses") {
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let input = request["input"].to_string();
            let call = input.contains("commit the retry budget")
                && !input.contains("function_call_output");
            recorded.lock().unwrap().push(request);
            ("200 OK", "text/event-stream", streamed_reply(call))
        } else {
            ("404 Not Found", "application/json", "{}".to_owned())
        };
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: keep-alive\r\n\r\n",
            reply.len()
        );
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(reply.as_bytes()).is_err()
        {
            return;
        }
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
