//! `carryover init`: write the identity, asking on a terminal for what flags leave out.

use std::io::IsTerminal;

use serde_json::json;

use crate::application::{InitRequest, InitSeed};
use crate::domain::seed::{Identity, ResponseStyle};
use crate::interface::cli::{InitArgs, StyleArg};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

use super::prompt::ask;

/// Runs `init`.
pub fn init(args: &InitArgs, app: &App) -> Result<(), CliError> {
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let request = request_from(args, app, interactive)?;
    let seed = pollster::block_on(InitSeed::new(app.seeds(COMMAND_LOCK_WAIT)).init(request))?;
    let identity = &seed.identity;
    if args.json {
        crate::say!(
            "{}",
            json!({
                "seed_path": app.seed_path(),
                "ai_name": identity.ai_name,
                "principal": identity.principal_name,
                "catchphrase": identity.catchphrase,
                "style": identity.preferences.response_style.as_str(),
                "timezone": identity.preferences.timezone,
                "locale": identity.preferences.locale,
            })
        );
    } else {
        crate::say!(
            "{} now serves {} (seed: {}).\nTry it: carryover context",
            identity.ai_name,
            identity.principal_name,
            app.seed_path().display()
        );
    }
    Ok(())
}

fn request_from(args: &InitArgs, app: &App, interactive: bool) -> Result<InitRequest, CliError> {
    let defaults = Identity::default();
    let timezone_default = app
        .env
        .tz
        .clone()
        .filter(|tz| tz.contains('/'))
        .unwrap_or(defaults.preferences.timezone);
    let locale_default = app.env.locale().unwrap_or(defaults.preferences.locale);
    let mut stdin = std::io::stdin().lock();
    let mut stderr = std::io::stderr();
    let mut value = |given: &Option<String>, question: &str, flag: &str, default: Option<&str>| {
        if let Some(given) = given {
            return Ok(given.clone());
        }
        if !interactive {
            return match default {
                Some(default) => Ok(default.to_owned()),
                None => Err(CliError::refused(
                    format!("{flag} is required when there is no terminal to ask on"),
                    Some("carryover init --ai-name Juno --principal Mara"),
                )),
            };
        }
        ask(&mut stdin, &mut stderr, question, default)
            .map_err(|error| CliError::failed(format!("reading the answer: {error}"), None))?
            .ok_or_else(|| CliError::refused("input ended before every answer was given", None))
    };
    let ai_name = value(&args.ai_name, "Assistant's name", "--ai-name", None)?;
    let principal = value(&args.principal, "Your name", "--principal", None)?;
    let default_catchphrase = format!("{} here, ready to go.", ai_name.trim());
    let catchphrase = value(
        &args.catchphrase,
        "Catchphrase",
        "--catchphrase",
        Some(&default_catchphrase),
    )?;
    let style_given = args.style.map(|style| style_name(style).to_owned());
    let style = value(
        &style_given,
        "Response style (concise, detailed, adaptive)",
        "--style",
        Some("adaptive"),
    )?;
    let style = ResponseStyle::parse(style.trim()).ok_or_else(|| {
        CliError::refused(
            format!("{style:?} is not a style"),
            Some("choose concise, detailed or adaptive"),
        )
    })?;
    let timezone = value(
        &args.timezone,
        "Time zone",
        "--timezone",
        Some(&timezone_default),
    )?;
    let locale = value(&args.locale, "Locale", "--locale", Some(&locale_default))?;
    Ok(InitRequest {
        ai_name,
        principal,
        catchphrase: Some(catchphrase),
        style,
        timezone,
        locale,
        force: args.force,
    })
}

fn style_name(style: StyleArg) -> &'static str {
    match style {
        StyleArg::Concise => ResponseStyle::Concise.as_str(),
        StyleArg::Detailed => ResponseStyle::Detailed.as_str(),
        StyleArg::Adaptive => ResponseStyle::Adaptive.as_str(),
    }
}
