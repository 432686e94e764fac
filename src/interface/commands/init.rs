//! `carryover init`: write the identity, asking on a terminal for what flags leave out.

use std::io::IsTerminal;

use crate::application::{IdentitySettings, InitRequest, InitSeed};
use crate::domain::RuleError;
use crate::domain::seed::{
    Identity, IdentityField, LocaleTag, ResponseStyle, TimeZoneName, default_catchphrase,
};
use crate::interface::cli::{InitArgs, StyleArg};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

use super::identity::identity_json;
use super::prompt::ask;

/// Runs `init`.
pub fn init(args: &InitArgs, app: &App) -> Result<(), CliError> {
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let current =
        pollster::block_on(IdentitySettings::new(app.seeds(COMMAND_LOCK_WAIT)).current())?
            .filter(|identity| !identity.is_placeholder());
    // Refused before any question is asked; the service checks again under the seed's lock.
    if current.is_some() && !args.force {
        return Err(RuleError::AlreadyInitialised.into());
    }
    let request = request_from(args, app, current.as_ref(), interactive)?;
    let seed = pollster::block_on(InitSeed::new(app.seeds(COMMAND_LOCK_WAIT)).init(request))?;
    let identity = &seed.identity;
    if args.json {
        crate::say!("{}", identity_json(&app.seed_path(), identity));
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

/// The request from the flags, and on a terminal from answers to what they leave out. Each
/// question offers the seed's current value (`--force`), else the default a new seed gets.
fn request_from(
    args: &InitArgs,
    app: &App,
    current: Option<&Identity>,
    interactive: bool,
) -> Result<InitRequest, CliError> {
    // `$TZ` may name a file (`:/etc/localtime`) or a POSIX rule (`CET-1`): only a zone of the
    // database is taken.
    let fresh_timezone = app
        .env
        .tz
        .as_deref()
        .map(|tz| tz.trim_start_matches(':'))
        .and_then(|tz| TimeZoneName::parse(tz).ok())
        .map(String::from);
    let fresh_locale = app
        .env
        .locale()
        .and_then(|tag| LocaleTag::parse(&tag).ok())
        .map(String::from);
    let mut request = InitRequest {
        ai_name: args.ai_name.clone(),
        principal: args.principal.clone(),
        catchphrase: args.catchphrase.clone(),
        style: args.style.map(style_of),
        timezone: args.timezone.clone(),
        locale: args.locale.clone(),
        fresh_timezone: fresh_timezone.clone(),
        fresh_locale: fresh_locale.clone(),
        force: args.force,
    };
    if !interactive {
        if current.is_none() {
            for (given, flag) in [
                (&request.ai_name, "--ai-name"),
                (&request.principal, "--principal"),
            ] {
                if given.is_none() {
                    return Err(CliError::refused(
                        format!("{flag} is required when there is no terminal to ask on"),
                        Some("carryover init --ai-name Juno --principal Mara"),
                    ));
                }
            }
        }
        return Ok(request);
    }
    let fresh = Identity::default();
    let now = |field: IdentityField| current.map(|identity| field.get(identity).to_owned());
    let mut stdin = std::io::stdin().lock();
    let mut stderr = std::io::stderr();
    let mut answer = |field: IdentityField, question: &str, default: Option<String>| loop {
        let typed = ask(&mut stdin, &mut stderr, question, default.as_deref())
            .map_err(|error| CliError::failed(format!("reading the answer: {error}"), None))?
            .ok_or_else(|| CliError::refused("input ended before every answer was given", None))?;
        // A refused answer is asked again, with what was wrong and the likely value.
        match field.check(&typed) {
            Ok(_) => return Ok::<_, CliError>(Some(typed)),
            Err(error) => {
                let error = CliError::from(error);
                crate::tell!(
                    "  {}",
                    error.message.trim_end_matches("; nothing was written")
                );
                if let Some(hint) = error.hint {
                    crate::tell!("  {hint}");
                }
            }
        }
    };
    if request.ai_name.is_none() {
        request.ai_name = answer(
            IdentityField::AiName,
            "Assistant's name",
            now(IdentityField::AiName),
        )?;
    }
    if request.principal.is_none() {
        request.principal = answer(
            IdentityField::Principal,
            "Your name",
            now(IdentityField::Principal),
        )?;
    }
    if request.catchphrase.is_none() {
        let ai_name = request.ai_name.as_deref().unwrap_or_default();
        // One's own catchphrase is offered as it is; a default one follows the new name.
        let default = match current {
            Some(identity) if identity.catchphrase != default_catchphrase(&identity.ai_name) => {
                identity.catchphrase.clone()
            }
            _ => default_catchphrase(ai_name),
        };
        request.catchphrase = answer(IdentityField::Catchphrase, "Catchphrase", Some(default))?;
    }
    if request.style.is_none() {
        let default = now(IdentityField::Style)
            .unwrap_or_else(|| fresh.preferences.response_style.as_str().to_owned());
        request.style = answer(
            IdentityField::Style,
            "Response style (concise, detailed, adaptive)",
            Some(default),
        )?
        .map(|style| ResponseStyle::from(style.trim().to_owned()));
    }
    if request.timezone.is_none() {
        let default = now(IdentityField::Timezone)
            .or(fresh_timezone)
            .unwrap_or_else(|| fresh.preferences.timezone.clone());
        request.timezone = answer(IdentityField::Timezone, "Time zone", Some(default))?;
    }
    if request.locale.is_none() {
        let default = now(IdentityField::Locale)
            .or(fresh_locale)
            .unwrap_or_else(|| fresh.preferences.locale.clone());
        request.locale = answer(IdentityField::Locale, "Locale", Some(default))?;
    }
    Ok(request)
}

fn style_of(style: StyleArg) -> ResponseStyle {
    match style {
        StyleArg::Concise => ResponseStyle::Concise,
        StyleArg::Detailed => ResponseStyle::Detailed,
        StyleArg::Adaptive => ResponseStyle::Adaptive,
    }
}
