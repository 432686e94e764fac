//! A stand-in for the Gemini API on 127.0.0.1: answers
//! `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with a short streamed (SSE)
//! reply, `:generateContent` with the same reply whole and `:countTokens` with a count, and
//! records every request body, so a test can assert on what the real Gemini CLI sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// The reply the model gives every request.
pub const REPLY: &str = "Noted: the retry budget stays below five attempts.";

/// A running stand-in; it stops with the test process.
pub struct GeminiStandIn {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl GeminiStandIn {
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
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let path = target.split('?').next().unwrap_or("");
        let (status, content_type, reply) = match (method, path.rsplit_once(':')) {
            ("POST", Some((_, "streamGenerateContent"))) => {
                recorded
                    .lock()
                    .unwrap()
                    .push(serde_json::from_slice(&body).unwrap_or(Value::Null));
                (
                    "200 OK",
                    "text/event-stream",
                    format!("data: {}\n\n", reply()),
                )
            }
            ("POST", Some((_, "generateContent"))) => {
                recorded
                    .lock()
                    .unwrap()
                    .push(serde_json::from_slice(&body).unwrap_or(Value::Null));
                ("200 OK", "application/json", reply().to_string())
            }
            ("POST", Some((_, "countTokens"))) => (
                "200 OK",
                "application/json",
                json!({"totalTokens": 100}).to_string(),
            ),
            _ => ("404 Not Found", "application/json", "{}".to_owned()),
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
