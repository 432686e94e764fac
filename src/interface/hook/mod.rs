//! Agent hooks: read the agent's JSON on stdin, print the agent's expected output, always exit
//! 0. Whatever goes wrong is written to stderr and the log, never to stdout.

mod framing;
mod input;
mod payload;
mod pre_compact;
mod prompt;
mod session_end;
mod session_start;
mod statusline;

pub use input::HookInput;
pub use payload::{prompt_payload, session_start_payload, with_system_message};
pub use pre_compact::pre_compact;
pub use prompt::prompt;
pub use session_end::session_end;
pub use session_start::session_start;
pub use statusline::statusline;

use std::io::{IsTerminal, Read, Write};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

pub use framing::{ValueFramer, salvage_fields};

use super::cli::Agent;
use super::composition::App;
use super::environment::Environment;
use crate::domain::session_id::SessionId;

/// The most a hook reads from stdin; real payloads are well under 1 KiB, a pasted prompt a few
/// tens. A longer payload keeps the fields that arrived whole (`salvage_fields`).
const MAX_STDIN_BYTES: usize = 1 << 20;

/// How long a hook waits for its payload: clients write it at once, but may leave the pipe
/// open, and a hook must not wait on it.
const STDIN_DEADLINE: Duration = Duration::from_secs(2);

/// Reads the payload up to the end of the first complete JSON value, at most
/// [`MAX_STDIN_BYTES`] and [`STDIN_DEADLINE`]: whatever arrived by then is the payload. A
/// terminal on stdin (a person trying the command) counts as empty.
fn read_stdin() -> Vec<u8> {
    if std::io::stdin().is_terminal() {
        return Vec::new();
    }
    let received = Arc::new(Mutex::new(Vec::new()));
    let (done, finished) = mpsc::channel();
    let buffer = received.clone();
    // A reader thread, so that a pipe that never closes costs the deadline, not the hook; it
    // is left blocked in `read` when the deadline passes, and ends with the process.
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut framer = ValueFramer::default();
            let mut chunk = [0u8; 64 * 1024];
            let mut stdin = std::io::stdin().lock();
            loop {
                let read = match stdin.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(read) => read,
                };
                let mut bytes = buffer.lock().unwrap_or_else(|p| p.into_inner());
                let room = MAX_STDIN_BYTES - bytes.len();
                let kept = &chunk[..read.min(room)];
                let end = framer.feed(kept);
                bytes.extend_from_slice(kept);
                if let Some(end) = end {
                    bytes.truncate(end);
                    break;
                }
                if bytes.len() >= MAX_STDIN_BYTES {
                    break;
                }
            }
            let _ = done.send(());
        });
    let _ = finished.recv_timeout(STDIN_DEADLINE);
    let bytes = received.lock().unwrap_or_else(|p| p.into_inner());
    bytes.clone()
}

/// How long a hook may take in all before it answers without its work: under the 10 s
/// timeout `install` gives every hook, so the client always gets a valid answer from
/// carryover rather than a killed process.
const HOOK_DEADLINE: Duration = Duration::from_secs(8);

/// Set once the hook (or its watchdog) has answered: only one of them prints.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// Prints the hook's answer on stdout, once; returns false when the watchdog answered first.
/// A closed stdout is ignored: the client that closed it wants no answer.
fn answer(text: Option<&str>) -> bool {
    if ANSWERED.swap(true, Ordering::SeqCst) {
        return false;
    }
    if let Some(text) = text {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{text}");
        let _ = stdout.flush();
    }
    true
}

/// Starts the watchdog: if the hook has not answered by [`HOOK_DEADLINE`], it answers with
/// `fallback` (nothing for hooks that print nothing) and ends the process with 0. Writes in
/// progress are atomic (ADR 0002), so stopping mid-work leaves the old or the new files.
fn start_watchdog(event: &'static str, fallback: Option<String>) {
    let _ = std::thread::Builder::new()
        .name("watchdog".into())
        .spawn(move || {
            std::thread::sleep(HOOK_DEADLINE);
            if answer(fallback.as_deref()) {
                stderr_line(&format!(
                    "carryover {event}: gave up after {} s; answered without its work",
                    HOOK_DEADLINE.as_secs()
                ));
                std::process::exit(0);
            }
        });
}

/// Writes a line to stderr; a closed or broken stderr is ignored, never a panic (a hook's
/// diagnostics are a courtesy, its exit status and payload are the contract).
fn stderr_line(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// Reports diagnostics on stderr and, when the data home is known, in its log.
fn report(app: Option<&App>, event: &str, messages: &[String]) {
    for message in messages {
        stderr_line(&format!("carryover {event}: {message}"));
    }
    let Some(app) = app else { return };
    // A notice the hook already passed on (a repair, also a session start's user message) is
    // told once.
    let notices: Vec<String> = app
        .take_store_notices()
        .into_iter()
        .filter(|notice| !messages.contains(notice))
        .collect();
    for notice in &notices {
        stderr_line(&format!("carryover {event}: {notice}"));
    }
    let all: Vec<String> = messages.iter().chain(&notices).cloned().collect();
    if !all.is_empty() {
        app.log(event, &all);
    }
}

/// Whether the command line runs a hook (`carryover hook …`, `carryover statusline`): those
/// exit 0 even when their arguments are not understood.
pub fn is_hook_invocation(mut args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    args.nth(1)
        .is_some_and(|command| command == "hook" || command == "statusline")
}

/// A hook whose arguments were not understood: says so on stderr and in the log, does
/// nothing, prints no payload (every client reads none as "nothing to add") and exits 0.
pub fn misused(error: &clap::Error, env: Environment) -> ExitCode {
    // `carryover hook` alone is a person asking what there is: the help, on stderr.
    if error.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        stderr_line(error.render().to_string().trim_end());
        return ExitCode::SUCCESS;
    }
    let rendered = error.to_string();
    let said = rendered
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ");
    let message = format!(
        "arguments not understood ({said}); nothing done. Settings written by a newer \
         carryover than this binary? `carryover doctor` checks the wiring"
    );
    report(App::lenient(env).ok().as_ref(), "hook", &[message]);
    ExitCode::SUCCESS
}

/// The session's transcript: the payload's, else, for Copilot CLI (whose sessionStart and
/// sessionEnd payloads name none), `$COPILOT_HOME/session-state/<session id>/events.jsonl`
/// when the id is safe as a path component.
fn transcript_of(app: &App, agent: Agent, input: &HookInput) -> Option<std::path::PathBuf> {
    if input.transcript_path.is_some() || agent != Agent::Copilot {
        return input.transcript_path.clone();
    }
    let session = SessionId::parse(input.session_id.as_deref()?).ok()?;
    Some(app.env.agent_homes()?.copilot_transcript(&session))
}

/// The longest a hook waits for Copilot CLI to write its own `hook.start` row: the client
/// wrote it some 100 ms after starting the hook; a session end without it would miss the turn.
const COPILOT_EVENTS_WAIT: Duration = Duration::from_millis(1_500);

/// For a Copilot CLI native payload (its `timestamp` is a number) whose transcript is about to
/// be read: waits until the client has written the events up to this hook (ADR 0022), and
/// says so in the diagnostics when it did not within [`COPILOT_EVENTS_WAIT`].
fn settle_copilot_events(
    app: &App,
    input: &HookInput,
    transcript: Option<&std::path::Path>,
    diagnostics: &mut Vec<String>,
) {
    let (Some(timestamp), Some(path)) = (input.timestamp_ms, transcript) else {
        return;
    };
    if !app.await_copilot_events(path, timestamp, COPILOT_EVENTS_WAIT) {
        diagnostics.push(format!(
            "{}: Copilot CLI had not written this hook's events after {} ms; read as it was",
            path.display(),
            COPILOT_EVENTS_WAIT.as_millis()
        ));
    }
}

/// Runs a hook that prints nothing: reads the payload, builds the app leniently, hands both to
/// `work` with a list to put diagnostics in, and reports them. A panic is caught and reported.
/// Always exits 0: the agent's session must go on whatever happens here.
fn silent_hook(
    event: &'static str,
    env: Environment,
    work: impl FnOnce(&App, HookInput, &mut Vec<String>),
) -> ExitCode {
    start_watchdog(event, None);
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
        stderr_line(&format!(
            "carryover {event}: internal error; nothing recorded"
        ));
    }
    answer(None);
    ExitCode::SUCCESS
}
