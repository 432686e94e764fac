//! `carryover install` and `carryover uninstall`: carryover's hooks in an agent's settings.

use std::path::PathBuf;

use serde_json::json;

use crate::application::{Applied, HookAction, HookTarget, SettingsChange, StatusLinePolicy};
use crate::domain::agent_hooks::{AgentKind, InstallScope, StatusLineChange, is_carryover_program};
use crate::interface::cli::{InstallAgent, InstallArgs, Scope, TargetArgs, UninstallArgs};
use crate::interface::composition::App;
use crate::interface::error::CliError;

/// Runs `install`.
pub fn install(args: &InstallArgs, app: &App) -> Result<(), CliError> {
    let binary =
        match &args.binary {
            // The bare name: the hooks run `carryover` as found on PATH.
            Some(path) if path.as_os_str() == BARE => PathBuf::from(BARE),
            Some(path) => runnable(std::path::absolute(path).map_err(|error| {
                CliError::refused(format!("{}: {error}", path.display()), None)
            })?)?,
            // A committed file is read on every teammate's machine: this one's path means nothing
            // there, so the project's hooks run `carryover` from PATH.
            None if args.target.scope == Scope::Project => PathBuf::from(BARE),
            None => runnable(
                std::env::current_exe()
                    .and_then(|exe| exe.canonicalize())
                    .map_err(|error| {
                        CliError::failed(
                            format!("cannot tell where this carryover is: {error}"),
                            Some("pass --binary PATH"),
                        )
                    })?,
            )?,
        };
    let status_line = match (args.statusline, args.no_statusline) {
        (true, _) => StatusLinePolicy::Required,
        (_, true) => StatusLinePolicy::Off,
        _ => StatusLinePolicy::IfAbsent,
    };
    run(
        &args.target,
        HookAction::Install {
            binary,
            status_line,
        },
        app,
    )
}

/// The program name the project's hooks run, found on each machine's PATH.
const BARE: &str = "carryover";

/// `binary` when the hooks can run it and find it again: an executable file named
/// `carryover`. A hook that names a missing file fails in every session, and one named
/// otherwise would not be recognised by the next install or uninstall.
fn runnable(binary: PathBuf) -> Result<PathBuf, CliError> {
    let shown = binary.display();
    match std::fs::metadata(&binary) {
        Err(error) => Err(CliError::refused(
            format!("{shown}: {error}"),
            Some("pass the path of the carryover binary: `command -v carryover` prints it"),
        )),
        Ok(metadata) if !metadata.is_file() || !is_executable(&metadata) => Err(CliError::refused(
            format!("{shown} is not an executable file"),
            None,
        )),
        Ok(_) if !is_carryover_program(&binary) => Err(CliError::refused(
            format!(
                "{shown} is not named carryover: install and uninstall find carryover's hooks \
                 by that name"
            ),
            Some(
                "rename the binary to carryover, or link it under that name and pass the link \
                  with --binary",
            ),
        )),
        Ok(_) => Ok(binary),
    }
}

/// Whether `name` is an executable file in a directory of `PATH`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|dirs| {
        std::env::split_paths(&dirs).any(|dir| {
            std::fs::metadata(dir.join(name)).is_ok_and(|m| m.is_file() && is_executable(&m))
        })
    })
}

fn is_executable(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        true
    }
}

/// Runs `uninstall`.
pub fn uninstall(args: &UninstallArgs, app: &App) -> Result<(), CliError> {
    run(&args.target, HookAction::Uninstall, app)
}

fn run(args: &TargetArgs, action: HookAction, app: &App) -> Result<(), CliError> {
    let agent = match args.agent {
        InstallAgent::Claude => AgentKind::Claude,
        InstallAgent::Codex => AgentKind::Codex,
        InstallAgent::Gemini => AgentKind::Gemini,
        InstallAgent::Copilot => AgentKind::Copilot,
        InstallAgent::Cursor => AgentKind::Cursor,
    };
    let scope = match args.scope {
        Scope::User => InstallScope::User,
        Scope::Project => InstallScope::Project,
        Scope::Local => InstallScope::Local,
    };
    let homes = app.env.agent_homes().ok_or_else(|| {
        CliError::refused(
            "HOME is not set, so the agents' settings cannot be found",
            None,
        )
    })?;
    let cwd = app.project_dir(args.cwd.as_deref())?;
    let project = app.project(&cwd);
    let target = HookTarget {
        agent,
        scope,
        homes,
        project_root: project.root,
        follow_links: args.follow_links,
    };
    let installer = app.hook_installer();
    let change = pollster::block_on(installer.plan(&target, &action))?;
    let applied = if args.dry_run {
        Applied::default()
    } else {
        pollster::block_on(installer.apply(&change))?
    };
    let installing = matches!(action, HookAction::Install { .. });
    let bare = match &action {
        HookAction::Install { binary, .. } if binary.as_os_str() == BARE => Some(on_path(BARE)),
        _ => None,
    };
    if args.json {
        crate::say!(
            "{}",
            json!({
                "agent": agent.cli_name(),
                "agent_name": agent.display_name(),
                "scope": scope.to_string(),
                "path": change.path,
                "changed": change.changes_anything(),
                "written": change.changes_anything() && !args.dry_run,
                "backup": applied.backup,
                "deleted": change.delete && !args.dry_run,
                "removed_backups": applied.removed_backups,
                "git_excluded_in": applied.excluded_in,
                "command_from_path": bare.is_some(),
                "status_line": change.status_line.map(status_line_name),
                "diff": args.dry_run.then(|| diff(&change)),
            })
        );
        return Ok(());
    }
    if args.dry_run {
        if !change.changes_anything() {
            crate::say!("No change to {}.", change.path.display());
        } else if change.delete {
            crate::say!(
                "{} would be deleted: carryover made it and nothing else is in it.",
                change.path.display()
            );
        } else if change.after.is_some() {
            crate::interface::output::say_diff(
                &diff(&change),
                crate::interface::output::colour_on_stdout(),
            );
        }
        for backup in &change.stale_backups {
            crate::say!(
                "{} would be deleted (a backup of carryover's).",
                backup.display()
            );
        }
        return Ok(());
    }
    report(&change, agent, installing, &applied);
    match bare {
        Some(true) => crate::say!(
            "The hooks run `carryover` as found on PATH, not this machine's path, so the \
             committed file works for every teammate who has carryover installed."
        ),
        Some(false) => crate::say!(
            "The hooks run `carryover` as found on PATH, not this machine's path, so the \
             committed file works for every teammate who has carryover installed. It is not \
             on your PATH yet: put it there (or install with --binary PATH) before the next \
             session."
        ),
        None => {}
    }
    Ok(())
}

fn report(change: &SettingsChange, agent: AgentKind, installing: bool, applied: &Applied) {
    let name = agent.display_name();
    let path = change.path.display();
    // Wiring the status line changes the file, so it is listed with the hooks.
    let status_line_wired = matches!(
        change.status_line,
        Some(StatusLineChange::Added | StatusLineChange::Updated)
    );
    match (installing, change.after.is_some()) {
        (true, true) => {
            crate::say!("carryover's hooks are wired into {name}: {path}");
            for spec in agent.hooks() {
                let matcher = spec.matcher.map(|m| format!(" ({m})")).unwrap_or_default();
                crate::say!(
                    "  {}{matcher}: carryover {}",
                    spec.event,
                    spec.args.join(" ")
                );
            }
            if status_line_wired {
                crate::say!("  statusLine: carryover statusline (context fill, tier, proposals)");
            }
            if agent == AgentKind::Codex {
                crate::say!(
                    "Codex CLI runs a new or changed hook only once you trust it: open /hooks in codex and trust carryover's (a project's hooks also need the project trusted)."
                );
            }
            let in_repository = change
                .path
                .components()
                .any(|part| part.as_os_str() == ".github");
            if agent == AgentKind::Copilot && in_repository {
                crate::say!(
                    "Copilot CLI runs a project's hooks (.github/hooks/) only in a folder you trust: it asks when it first opens the folder interactively; `copilot -p` does not ask."
                );
            }
            if agent == AgentKind::Cursor {
                crate::say!(
                    "Cursor's hooks are wired from its documentation; carryover has not been tested against the real client."
                );
            }
            crate::say!("They take effect at the next session.");
        }
        (true, false) => crate::say!("carryover's hooks are already wired into {name}: {path}"),
        (false, true) if applied.deleted => crate::say!(
            "carryover's hooks are removed from {name}; {path} held nothing else, so it is deleted."
        ),
        (false, true) => crate::say!("carryover's hooks are removed from {name}: {path}"),
        (false, false) => crate::say!("{path} holds no carryover hook; nothing changed."),
    }
    match change.status_line {
        Some(StatusLineChange::KeptTheirs) => crate::say!(
            "Your own status line is kept; `carryover statusline` can be called from it to show the gauge."
        ),
        Some(StatusLineChange::Removed) => crate::say!("carryover's status line is removed."),
        _ => {}
    }
    if let Some(exclude) = &applied.excluded_in {
        crate::say!(
            "git leaves {path} untracked: it names this machine's binary, so it is listed in {} \
             (this clone's own ignore list, never committed).",
            exclude.display()
        );
    }
    if let Some(backup) = &applied.backup {
        crate::say!("The previous file is kept as {}", backup.display());
    }
    for backup in &applied.removed_backups {
        crate::say!(
            "{} held nothing the file lacks now, so it is deleted.",
            backup.display()
        );
    }
}

fn status_line_name(change: StatusLineChange) -> &'static str {
    match change {
        StatusLineChange::Added => "added",
        StatusLineChange::Updated => "updated",
        StatusLineChange::Unchanged => "unchanged",
        StatusLineChange::KeptTheirs => "kept_theirs",
        StatusLineChange::Removed => "removed",
        StatusLineChange::Absent => "absent",
    }
}

/// A unified diff of the change, headed by the file's path.
fn diff(change: &SettingsChange) -> String {
    let before = change.before.as_deref().unwrap_or("");
    let Some(after) = change.after.as_deref() else {
        return String::new();
    };
    let path = change.path.display().to_string();
    let old = if change.before.is_some() {
        path.as_str()
    } else {
        "/dev/null"
    };
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(old, &path)
        .to_string()
}
