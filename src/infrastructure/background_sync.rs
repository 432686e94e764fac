//! Starting `carryover sync --background` and not waiting for it (ADR 0020): a hook or a
//! command that changed the seed must never wait on the network.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts `program sync --background` in its own process group with no standard streams, so
/// that the caller exits at once: an agent waits for its hook's output pipes to close, which
/// a child holding them would delay, and a terminal's Ctrl-C must not reach it.
pub fn spawn_background_sync(program: &Path) -> std::io::Result<()> {
    Command::new(program)
        .args(["sync", "--background"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map(drop)
}
