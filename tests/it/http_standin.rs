//! The HTTP/1.1 part of the model-API stand-ins: a server on 127.0.0.1 that reads keep-alive
//! requests with a `content-length` body and answers each with what a handler returns.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

/// A handler's answer to one request.
pub struct Reply {
    /// `200 OK`, `404 Not Found`…
    pub status: &'static str,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    /// `200 OK` with `body` of `content_type`.
    pub fn ok(content_type: &'static str, body: String) -> Self {
        Self {
            status: "200 OK",
            content_type,
            body,
        }
    }
}

/// Starts serving on a free loopback port (until the test process ends) and returns the port;
/// `handler` gets each request's method, path and body.
pub fn serve<H>(handler: H) -> u16
where
    H: Fn(&str, &str, &[u8]) -> Reply + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().unwrap().port();
    let handler = Arc::new(handler);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let handler = Arc::clone(&handler);
            std::thread::spawn(move || connection(stream, handler.as_ref()));
        }
    });
    port
}

/// Serves one keep-alive connection until the client closes it.
fn connection(stream: TcpStream, handler: &(dyn Fn(&str, &str, &[u8]) -> Reply + Send + Sync)) {
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
        let reply = handler(method, path, &body);
        let head = format!(
            "HTTP/1.1 {}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: keep-alive\r\n\r\n",
            reply.status,
            reply.content_type,
            reply.body.len()
        );
        if writer.write_all(head.as_bytes()).is_err()
            || writer.write_all(reply.body.as_bytes()).is_err()
        {
            return;
        }
    }
}
