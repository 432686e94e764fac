//! `carryover statusline`: Claude Code's `statusLine` command. Reads the client's status
//! payload on stdin and prints one line; like a hook, it never fails the client.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::Value;

use crate::application::StatusRequest;
use crate::interface::composition::App;
use crate::interface::environment::Environment;

use super::{answer, read_stdin, report, start_watchdog};

const EVENT: &str = "statusline";

/// The status line refreshes often: it waits for a record's lock only briefly.
const STATUS_LOCK_WAIT: Duration = Duration::from_millis(200);

/// Prints the gauge; prints `ctx ?` when nothing can be said. Always exits 0.
pub fn statusline(env: Environment) -> ExitCode {
    start_watchdog(EVENT, Some("ctx ?".to_owned()));
    let line = std::panic::catch_unwind(AssertUnwindSafe(|| gauge(env)))
        .unwrap_or_else(|_| "ctx ?".to_owned());
    answer(Some(&line));
    ExitCode::SUCCESS
}

fn gauge(env: Environment) -> String {
    let payload: Value = serde_json::from_slice(&read_stdin()).unwrap_or(Value::Null);
    let app = match App::lenient(env) {
        Ok(app) => app,
        Err(error) => {
            report(None, EVENT, &[error.message]);
            return "ctx ?".to_owned();
        }
    };
    let request = status_request(&payload, &app);
    let outcome = pollster::block_on(app.status_line(STATUS_LOCK_WAIT).run(request));
    report(Some(&app), EVENT, &outcome.diagnostics);
    outcome.line
}

/// The fields carryover uses of Claude Code's status payload (`session_id`, `cwd`,
/// `workspace.project_dir`, `model.id`, `context_window.{total_input_tokens,
/// context_window_size, current_usage}`), read leniently.
fn status_request(payload: &Value, app: &App) -> StatusRequest {
    let text = |value: &Value| value.as_str().filter(|s| !s.is_empty()).map(str::to_owned);
    let window = &payload["context_window"];
    // Before the first reply the client sends 0 tokens and no current usage: unknown, not 0.
    let tokens = window["total_input_tokens"]
        .as_u64()
        .filter(|_| !window["current_usage"].is_null());
    let dir = text(&payload["workspace"]["project_dir"])
        .or_else(|| text(&payload["cwd"]))
        .map(PathBuf::from);
    StatusRequest {
        session_id: text(&payload["session_id"]),
        cwd: app.cwd(dir.as_deref()),
        tokens,
        window: window["context_window_size"].as_u64().filter(|w| *w > 0),
        model: text(&payload["model"]["id"]).or_else(|| text(&payload["model"])),
    }
}
