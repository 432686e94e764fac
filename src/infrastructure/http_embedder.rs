//! An OpenAI-compatible `/v1/embeddings` endpoint (Ollama, LM Studio, llama.cpp server,
//! OpenAI) as the embedder.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use crate::domain::EmbedError;
use crate::domain::ports::Embedder;

/// Embeds through HTTP. Every call is bounded by `timeout` (default 300 ms at session start):
/// an unreachable server costs that, then retrieval falls back to recency.
#[derive(Debug, Clone)]
pub struct HttpEmbedder {
    endpoint: String,
    model: String,
    api_key: Option<String>,
    timeout: Duration,
}

#[derive(Deserialize)]
struct EmbeddingsResponse {
    data: Vec<EmbeddingItem>,
}

#[derive(Deserialize)]
struct EmbeddingItem {
    embedding: Vec<f32>,
    #[serde(default)]
    index: Option<usize>,
}

impl HttpEmbedder {
    /// An embedder at `url` (a base such as `http://127.0.0.1:11434`, or the full
    /// `…/v1/embeddings` address) for `model`.
    pub fn new(url: &str, model: &str, api_key: Option<String>, timeout: Duration) -> Self {
        let base = url.trim_end_matches('/');
        let endpoint = if base.ends_with("/embeddings") {
            base.to_owned()
        } else {
            format!("{base}/v1/embeddings")
        };
        Self {
            endpoint,
            model: model.to_owned(),
            api_key,
            timeout,
        }
    }

    fn unavailable(&self, message: impl Into<String>) -> EmbedError {
        EmbedError::Unavailable {
            endpoint: self.endpoint.clone(),
            message: message.into(),
        }
    }

    fn request(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(self.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let mut request = agent.post(&self.endpoint);
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = request
            .send_json(json!({"model": self.model, "input": texts}))
            .map_err(|error| self.unavailable(error.to_string()))?;
        if !response.status().is_success() {
            return Err(self.unavailable(format!("HTTP {}", response.status())));
        }
        let body: EmbeddingsResponse = response
            .body_mut()
            .read_json()
            .map_err(|error| self.unavailable(format!("unexpected answer: {error}")))?;
        if body.data.len() != texts.len() {
            return Err(self.unavailable(format!(
                "{} vectors for {} texts",
                body.data.len(),
                texts.len()
            )));
        }
        let mut items = body.data;
        if items.iter().all(|item| item.index.is_some()) {
            items.sort_by_key(|item| item.index);
        }
        Ok(items
            .into_iter()
            .map(|item| normalised(item.embedding))
            .collect())
    }
}

/// Unit length, so dot products are cosines whatever the server returns.
fn normalised(mut vector: Vec<f32>) -> Vec<f32> {
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|v| *v /= norm);
    }
    vector
}

#[async_trait::async_trait]
impl Embedder for HttpEmbedder {
    fn model_id(&self) -> String {
        format!("http:{}", self.model)
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        // Nothing secret leaves the machine: learnings, queries and prompts are redacted
        // before they are sent (a secret and its redaction embed almost alike).
        let redacted: Vec<String> = texts
            .iter()
            .map(|text| crate::domain::redaction::redact(text).into_owned())
            .collect();
        self.request(&redacted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::sync::mpsc;

    /// A one-request server on loopback: answers `reply` and hands back the request body.
    fn serve_once(reply: &'static str) -> (String, mpsc::Receiver<(String, String)>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (mut length, mut headers) = (0, String::new());
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap();
                }
                headers.push_str(&line);
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let mut stream = stream;
            write!(stream, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}", reply.len()).unwrap();
            sender
                .send((headers, String::from_utf8(body).unwrap()))
                .unwrap();
        });
        (url, receiver)
    }

    #[test]
    fn posts_the_texts_and_returns_unit_vectors_in_order() {
        let (url, requests) =
            serve_once(r#"{"data":[{"index":1,"embedding":[0,2]},{"index":0,"embedding":[3,4]}]}"#);
        let embedder = HttpEmbedder::new(
            &url,
            "nomic-embed-text",
            Some("sk-test".into()),
            Duration::from_secs(2),
        );
        let vectors =
            pollster::block_on(embedder.embed(&["first".into(), "second".into()])).unwrap();
        assert_eq!(vectors, vec![vec![0.6, 0.8], vec![0.0, 1.0]]);
        let (headers, body) = requests.recv().unwrap();
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body,
            json!({"model": "nomic-embed-text", "input": ["first", "second"]})
        );
        assert!(
            headers
                .to_ascii_lowercase()
                .contains("authorization: bearer sk-test"),
            "{headers}"
        );
        assert_eq!(embedder.model_id(), "http:nomic-embed-text");
    }

    #[test]
    fn a_server_that_is_not_there_is_unavailable_quickly() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let embedder = HttpEmbedder::new(
            &format!("http://127.0.0.1:{port}"),
            "m",
            None,
            Duration::from_millis(300),
        );
        let started = std::time::Instant::now();
        let error = pollster::block_on(embedder.embed(&["x".into()])).unwrap_err();
        assert!(matches!(error, EmbedError::Unavailable { .. }), "{error:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn a_wrong_answer_is_an_error_not_a_panic() {
        let (url, _requests) = serve_once(r#"{"data":[]}"#);
        let embedder = HttpEmbedder::new(&url, "m", None, Duration::from_secs(2));
        assert!(pollster::block_on(embedder.embed(&["x".into()])).is_err());
    }

    #[test]
    fn the_endpoint_is_derived_from_a_base_or_taken_as_given() {
        assert_eq!(
            HttpEmbedder::new("http://h:1/", "m", None, Duration::ZERO).endpoint,
            "http://h:1/v1/embeddings"
        );
        assert_eq!(
            HttpEmbedder::new("http://h:1/v1/embeddings", "m", None, Duration::ZERO).endpoint,
            "http://h:1/v1/embeddings"
        );
    }
}
