//! CLI.

/// Runs the CLI.
pub fn run() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
