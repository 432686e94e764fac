//! Agent hooks: read the agent's JSON on stdin, print the agent's expected output, always exit
//! 0. Whatever goes wrong is written to stderr and the log, never to stdout.

mod input;
mod payload;
mod pre_compact;
mod session_end;
mod session_start;

pub use input::HookInput;
pub use payload::session_start_payload;
pub use pre_compact::pre_compact;
pub use session_end::session_end;
pub use session_start::session_start;

use std::io::{IsTerminal, Read};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;

use crate::infrastructure::DiagnosticsLog;

use super::composition::App;
use super::environment::Environment;

/// The most a hook reads from stdin; real payloads are well under 1 KiB.
const MAX_STDIN_BYTES: u64 = 1 << 20;

/// Reads the payload; a terminal on stdin (a person trying the command) counts as empty.
fn read_stdin() -> Vec<u8> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Vec::new();
    }
    let mut bytes = Vec::new();
    let _ = stdin.lock().take(MAX_STDIN_BYTES).read_to_end(&mut bytes);
    bytes
}

/// Reports diagnostics on stderr and, when the data home is known, in its log.
fn report(app: Option<&App>, event: &str, messages: &[String]) {
    for message in messages {
        eprintln!("carryover {event}: {message}");
    }
    if let Some(app) = app.filter(|_| !messages.is_empty()) {
        let log = DiagnosticsLog::new(app.data_home.log_path());
        let now = app.clock.now();
        for message in messages {
            log.append(now, event, message);
        }
    }
}

/// Runs a hook that prints nothing: reads the payload, builds the app leniently, hands both to
/// `work` with a list to put diagnostics in, and reports them. A panic is caught and reported.
/// Always exits 0: the agent's session must go on whatever happens here.
fn silent_hook(
    event: &str,
    env: Environment,
    work: impl FnOnce(&App, HookInput, &mut Vec<String>),
) -> ExitCode {
    let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let (input, input_warning) = HookInput::parse(&read_stdin());
        let mut diagnostics: Vec<String> = input_warning.into_iter().collect();
        match App::lenient(env) {
            Ok(app) => {
                diagnostics.extend(app.warnings.iter().cloned());
                work(&app, input, &mut diagnostics);
                report(Some(&app), event, &diagnostics);
            }
            Err(error) => {
                diagnostics.push(error.message);
                report(None, event, &diagnostics);
            }
        }
    }));
    if ran.is_err() {
        eprintln!("carryover {event}: internal error; nothing recorded");
    }
    ExitCode::SUCCESS
}
