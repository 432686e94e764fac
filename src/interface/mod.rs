//! The command-line interface and the composition root.

pub mod cli;
pub mod commands;
pub mod composition;
pub mod environment;
pub mod error;
pub mod hook;
pub mod output;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command, HookCommand};
use composition::App;
use environment::Environment;
use error::CliError;

/// Parses the command line, runs the command and turns its outcome into an exit code.
pub fn run() -> ExitCode {
    let cli = match parse(std::env::args_os().collect()) {
        Ok(cli) => cli,
        // A hook must exit 0 whatever it is given: to Claude Code and Gemini CLI, exit 2 blocks
        // (a prompt hook would erase the user's prompt), and settings written by a newer
        // carryover may name an event or flag an older binary on PATH does not know.
        Err(error) if error.use_stderr() && hook::is_hook_invocation(std::env::args_os()) => {
            return hook::misused(&error, Environment::from_process());
        }
        Err(error) => error.exit(),
    };
    let env = Environment::from_process();
    match &cli.command {
        Command::Hook(HookCommand::SessionStart(args)) => return hook::session_start(args, env),
        Command::Hook(HookCommand::Prompt(args)) => return hook::prompt(args, env),
        Command::Hook(HookCommand::PreCompact) => return hook::pre_compact(env),
        Command::Hook(HookCommand::SessionEnd(args)) => return hook::session_end(args, env),
        Command::Statusline => return hook::statusline(env),
        Command::Completions(args) => return commands::completions(args),
        _ => {}
    }
    match run_command(&cli.command, env) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            if error::asks_for_json(std::env::args_os()) && !output::said_anything() {
                output::say_line(&error.to_json().to_string());
            }
            error.report()
        }
    }
}

/// The command line as clap reads it, but for a `--` between two words of a learning's text:
/// that one is text ("Use -- to end options"), where clap takes it for the end of the options
/// and drops it.
fn parse(raw: Vec<std::ffi::OsString>) -> Result<Cli, clap::Error> {
    let mut cli = Cli::try_parse_from(&raw)?;
    if let Command::Learn(args) = &mut cli.command {
        keep_inner_dashes(&mut args.text, &raw);
    }
    Ok(cli)
}

/// Puts back the `--` clap dropped from `text` when a word of the text came just before it;
/// a `--` after an option (`--tag ci -- --locked`) or before all the text stays an end of
/// options.
fn keep_inner_dashes(text: &mut Vec<String>, raw: &[std::ffi::OsString]) {
    let Some(at) = raw.iter().position(|arg| arg == "--") else {
        return;
    };
    let after = raw.len() - at - 1;
    let Some(before) = text.len().checked_sub(after).filter(|&n| n > 0) else {
        return;
    };
    // The word before the `--` is text only when no option took it as its value.
    let taken_as_value = at >= 2 && raw[at - 2] == "--tag";
    if raw[at - 1] == text[before - 1].as_str() && !taken_as_value {
        text.insert(before, "--".to_owned());
    }
}

fn run_command(command: &Command, env: Environment) -> Result<(), CliError> {
    // `doctor` reports a broken configuration rather than stopping at it.
    let app = match command {
        Command::Doctor(_) | Command::MergeDriver(_) => App::lenient(env)?,
        _ => App::strict(env)?,
    };
    for warning in &app.warnings {
        crate::tell!("carryover: {warning}");
    }
    if !matches!(command, Command::Doctor(_)) {
        for problem in &app.config_problems {
            crate::tell!("carryover: warning: {problem}");
        }
    }
    let result = dispatch(command, &app);
    for notice in app.take_store_notices() {
        let _ = writeln!(std::io::stderr().lock(), "carryover: {notice}");
    }
    result
}

fn dispatch(command: &Command, app: &App) -> Result<(), CliError> {
    match command {
        Command::Hook(_) | Command::Statusline | Command::Completions(_) => Ok(()),
        Command::Context(args) => commands::context(args, app),
        Command::Recall(args) => commands::recall(args, app),
        Command::Init(args) => commands::init(args, app),
        Command::Identity(command) => commands::identity(command, app),
        Command::Status(args) => commands::status(args, app),
        Command::Doctor(args) => commands::doctor(args, app),
        Command::Learn(args) => commands::learn(args, app),
        Command::Handoff(args) => commands::handoff(args, app),
        Command::Flags(args) => commands::flags(args, app),
        Command::Trust(args) => commands::trust(args, app),
        Command::Index(args) => commands::index(args, app),
        Command::Proposals(command) => commands::proposals(command, app),
        Command::Learnings(command) => commands::learnings(command, app),
        Command::Import(command) => commands::import(command, app),
        Command::Install(args) => commands::install(args, app),
        Command::Uninstall(args) => commands::uninstall(args, app),
        Command::Sync(args) => commands::sync(args, app),
        Command::MergeDriver(args) => commands::merge_driver(args, app),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::inside_the_text("learn pattern Use -- to end options", "Use -- to end options")]
    #[case::before_the_text("learn pattern --pin -- Build with --locked", "Build with --locked")]
    #[case::after_an_option("learn insight Foo --tag x -- bar", "Foo bar")]
    #[case::after_an_option_equal_to_a_word(
        "learn insight deploy --tag deploy -- friday",
        "deploy friday"
    )]
    #[case::after_a_flag("learn insight Gamma --project -- delta", "Gamma delta")]
    #[case::twice("learn insight Alpha -- -- beta", "Alpha -- -- beta")]
    #[case::none("learn insight plain words", "plain words")]
    fn a_double_dash_inside_a_learning_is_text(#[case] line: &str, #[case] text: &str) {
        let raw = std::iter::once("carryover")
            .chain(line.split(' '))
            .map(std::ffi::OsString::from)
            .collect();
        let Command::Learn(args) = parse(raw).unwrap().command else {
            panic!("not learn");
        };
        assert_eq!(args.text.join(" "), text);
    }
}
