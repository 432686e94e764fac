//! `carryover flags set|get|unset|list`.

use serde_json::json;

use crate::application::Flags;
use crate::domain::flags::{FlagScope, FlagValue, ResolvedFlags};
use crate::domain::ports::FlagTarget;
use crate::domain::session::Session;
use crate::interface::cli::{FlagsArgs, FlagsCommand};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs a `flags` subcommand.
pub fn flags(args: &FlagsArgs, app: &App) -> Result<(), CliError> {
    let cwd = match &args.command {
        FlagsCommand::Set { cwd, .. }
        | FlagsCommand::Get { cwd, .. }
        | FlagsCommand::Unset { cwd, .. }
        | FlagsCommand::List { cwd, .. } => app.project_dir(cwd.as_deref())?,
    };
    let project = app.project(&cwd);
    let slug = project.slug(app.slug_style());
    let service = Flags::new(app.flag_store(COMMAND_LOCK_WAIT));
    let target = |project_only: bool| {
        if project_only {
            FlagTarget::Project(slug.clone())
        } else {
            FlagTarget::Global
        }
    };
    match &args.command {
        FlagsCommand::Set {
            project: project_only,
            name,
            value,
            json,
            ..
        } => {
            let stored = pollster::block_on(service.set(&target(*project_only), name, value))?;
            let scope = if *project_only {
                format!("for {}", project.root.display())
            } else {
                "globally".to_owned()
            };
            report_change(
                app,
                project,
                *json,
                format!("{name} = {} ({}) {scope}", show(&stored), kind(&stored)),
                json!({"name": name, "value": stored, "scope": scope_of(*project_only).as_str()}),
            );
        }
        FlagsCommand::Unset {
            project: project_only,
            name,
            json,
            ..
        } => {
            if pollster::block_on(service.unset(&target(*project_only), name))? {
                let scope = if *project_only {
                    "for this project"
                } else {
                    "globally"
                };
                report_change(
                    app,
                    project,
                    *json,
                    format!("{name} removed {scope}"),
                    json!({"name": name, "removed": true, "scope": scope_of(*project_only).as_str()}),
                );
            } else {
                // The hint is a courtesy: a config that cannot be read only loses it.
                let resolved = pollster::block_on(service.resolved(&slug)).unwrap_or_default();
                let (place, hint) = match (*project_only, resolved.get_with_scope(name)) {
                    (false, Some((_, FlagScope::Project))) => (
                        "globally",
                        Some("it is set for this project only: add --project"),
                    ),
                    (true, Some((_, FlagScope::Global))) => (
                        "for this project",
                        Some("it is set globally: leave out --project"),
                    ),
                    (false, _) => ("globally", None),
                    (true, _) => ("for this project", None),
                };
                return Err(CliError::refused(
                    format!("{name} is not set {place}; nothing was changed"),
                    hint,
                ));
            }
        }
        FlagsCommand::Get { name, json, .. } => {
            let resolved = pollster::block_on(service.resolved(&slug))?;
            let Some((value, scope)) = resolved.get_with_scope(name) else {
                return Err(CliError::refused(format!("{name} is not set"), None));
            };
            if *json {
                crate::say!(
                    "{}",
                    json!({"name": name, "value": value, "scope": scope.as_str()})
                );
            } else {
                crate::say!("{}", show(value));
            }
        }
        FlagsCommand::List { json, .. } => {
            let resolved = pollster::block_on(service.resolved(&slug))?;
            print_list(&resolved, *json);
        }
    }
    Ok(())
}

fn print_list(resolved: &ResolvedFlags, as_json: bool) {
    if as_json {
        let flags: serde_json::Map<String, serde_json::Value> = resolved
            .iter()
            .map(|(name, value, scope)| {
                (
                    name.to_owned(),
                    json!({"value": value, "scope": scope.as_str()}),
                )
            })
            .collect();
        crate::say!("{}", serde_json::Value::Object(flags));
        return;
    }
    if resolved.iter().next().is_none() {
        crate::say!("No feature flags set.");
    }
    for (name, value, scope) in resolved.iter() {
        crate::say!("{name} = {} ({})", show(value), scope.as_str());
    }
}

/// Where a change was made: the project's own flags, or the global ones.
fn scope_of(project_only: bool) -> FlagScope {
    if project_only {
        FlagScope::Project
    } else {
        FlagScope::Global
    }
}

/// Says what a change did (`said`, or `value` for a script), and whether the start-up
/// instruction now applies to the project, once the listeners know of it.
fn report_change(
    app: &App,
    project: crate::domain::project::Project,
    json: bool,
    said: String,
    mut value: serde_json::Value,
) {
    if !json {
        crate::say!("{said}");
    }
    let applies = report_config_change(app, project);
    if json {
        value["startup_instruction_applies"] = applies.into();
        crate::say!("{value}");
    } else if let Some(applies) = applies {
        let state = if applies { "applies" } else { "does not apply" };
        crate::say!("The start-up instruction now {state} to this project.");
    }
}

/// Tells the session listeners the flags changed; returns whether the start-up instruction
/// now applies to this project, when a listener knows.
pub(super) fn report_config_change(
    app: &App,
    project: crate::domain::project::Project,
) -> Option<bool> {
    let (registry, startup, _queue) = app.listeners(COMMAND_LOCK_WAIT);
    let session = Session {
        id: None,
        source: None,
        project,
    };
    let notes = pollster::block_on(async {
        let mut active = registry.start(session).await;
        active.config_changed().await
    });
    for message in notes.user_messages.iter().chain(&notes.diagnostics) {
        crate::tell!("carryover: {message}");
    }
    startup.report().applies
}

fn show(value: &FlagValue) -> String {
    match value {
        FlagValue::List(items) => format!("[{}]", items.join(", ")),
        other => other.to_string(),
    }
}

fn kind(value: &FlagValue) -> &'static str {
    match value {
        FlagValue::Bool(_) => "bool",
        FlagValue::Text(_) => "text",
        FlagValue::List(_) => "list",
    }
}
