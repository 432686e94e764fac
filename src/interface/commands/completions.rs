//! `carryover completions SHELL`: the shell's completion script, generated from the command
//! line's own definition so that it never falls behind it.

use std::process::ExitCode;

use clap::CommandFactory;

use crate::interface::cli::{Cli, CompletionsArgs};

/// Prints the completion script for `args.shell`; needs no data home.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "carryover", &mut script);
    crate::say!("{}", String::from_utf8_lossy(&script).trim_end());
    ExitCode::SUCCESS
}
