//! The HTTP embedder end to end, against a stand-in server on loopback started by the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use predicates::str::contains;

use crate::support::Replay;

/// An OpenAI-compatible `/v1/embeddings` server on 127.0.0.1 whose vectors say whether a text
/// mentions retries or the payment sandbox. It answers until the test process ends.
fn keyword_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let data: Vec<serde_json::Value> = request["input"]
                .as_array()
                .map(|texts| {
                    texts
                        .iter()
                        .enumerate()
                        .map(|(index, text)| {
                            let text = text.as_str().unwrap_or_default().to_lowercase();
                            let vector = [
                                f32::from(u8::from(text.contains("retr"))),
                                f32::from(u8::from(text.contains("sandbox"))),
                                0.05,
                            ];
                            serde_json::json!({"index": index, "embedding": vector})
                        })
                        .collect()
                })
                .unwrap_or_default();
            let reply = serde_json::json!({"data": data}).to_string();
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    url
}

fn configure(replay: &Replay, url: &str) {
    fs_err::write(
        replay.env.data().join("config.toml"),
        format!("[embedder]\nkind = \"http\"\nurl = \"{url}\"\nmodel = \"stand-in\"\ntimeout_ms = 2000\n"),
    )
    .unwrap();
}

#[test]
fn a_configured_server_ranks_the_learnings() {
    let replay = Replay::new("shop-api");
    replay.session_end("sessionend-other-4");
    configure(&replay, &keyword_server());
    replay
        .env
        .carryover()
        .args(["index", "--json"])
        .assert()
        .success()
        .stdout(contains("\"embedded\":13"));
    assert!(replay.env.data().join("index/http_stand-in.idx").exists());
    let context = replay.session_start("sessionstart-startup-2");
    let first = context
        .lines()
        .skip_while(|l| !l.starts_with("Relevant learnings ("))
        .nth(1)
        .unwrap_or_default();
    assert!(first.to_lowercase().contains("retr"), "{context}");
}

#[test]
fn an_unreachable_server_falls_back_to_recent_learnings() {
    let replay = Replay::new("shop-api");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    configure(&replay, &format!("http://127.0.0.1:{port}"));
    let output = replay
        .env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(replay.payload("sessionstart-startup-2"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let (_, context) = crate::support::envelope(&output.stdout);
    assert!(context.contains("Recent learnings (5/13):"), "{context}");
    assert!(String::from_utf8_lossy(&output.stderr).contains(&format!("127.0.0.1:{port}")));
}

#[test]
fn an_http_embedder_without_url_falls_back_to_the_built_in_one_with_a_warning() {
    let replay = Replay::new("shop-api");
    fs_err::write(
        replay.env.data().join("config.toml"),
        "[embedder]\nkind = \"http\"\n",
    )
    .unwrap();
    replay
        .env
        .carryover()
        .arg("context")
        .assert()
        .success()
        .stderr(contains("line 2: `embedder.kind`"))
        .stderr(contains("embedder.url"));
}
