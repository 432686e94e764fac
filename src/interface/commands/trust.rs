//! `carryover trust`: let a project's start-up template reach the model.

use serde_json::json;

use std::io::IsTerminal;

use crate::application::{Trust, TrustView};
use crate::interface::cli::TrustArgs;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs `trust`, `trust --revoke` or `trust --list`.
pub fn trust(args: &TrustArgs, app: &App) -> Result<(), CliError> {
    let service = Trust::new(
        app.templates(),
        app.trust_store(COMMAND_LOCK_WAIT),
        app.clock.clone(),
    );
    if args.list {
        let entries = pollster::block_on(service.list())?;
        if args.json {
            let rows: Vec<_> = entries
                .iter()
                .map(|e| json!({"path": e.path, "sha256": e.sha256, "trusted_at": e.trusted_at.to_string()}))
                .collect();
            crate::say!("{}", serde_json::Value::Array(rows));
        } else if entries.is_empty() {
            crate::say!("No project template is trusted.");
        } else {
            for entry in entries {
                crate::say!(
                    "{}  {}  {}",
                    entry.trusted_at.human(),
                    &entry.sha256[..12.min(entry.sha256.len())],
                    entry.path.display()
                );
            }
        }
        return Ok(());
    }
    let cwd = app.project_dir(args.cwd.as_deref())?;
    let project = app.project(&cwd);
    let template = app.project_template_path(&project.root);
    if args.revoke {
        let was = pollster::block_on(service.revoke(&template))?;
        if args.json {
            crate::say!("{}", json!({"path": template, "revoked": was}));
        } else if was {
            crate::say!("No longer trusted: {}", template.display());
        } else {
            crate::say!("{} was not trusted.", template.display());
        }
        return Ok(());
    }
    let preview = pollster::block_on(service.preview(&project.root, template))?;
    let (path, sha256) = (&preview.file.path, &preview.file.sha256);
    let view = preview.view();
    if !args.json {
        match &view {
            TrustView::Unchanged => {
                crate::say!(
                    "{} is trusted already, exactly as it is (sha256 {}).",
                    path.display(),
                    &sha256[..12.min(sha256.len())]
                );
                return Ok(());
            }
            TrustView::Whole(text) => {
                crate::say!(
                    "{} — it would reach the model at each new session:",
                    path.display()
                );
                crate::say!("{}", text.trim_end());
            }
            TrustView::Diff(diff) => {
                crate::say!("{} changed since you trusted it:", path.display());
                crate::interface::output::say_diff(
                    diff,
                    crate::interface::output::colour_on_stdout(),
                );
            }
        }
    }
    if !args.yes && view != TrustView::Unchanged {
        let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        if !terminal {
            return Err(CliError::refused(
                "trusting needs a confirmation and there is no terminal to ask on; nothing was trusted",
                Some("read the template above, then run `carryover trust --yes`"),
            ));
        }
        if !confirm()? {
            crate::say!("Nothing was trusted.");
            return Ok(());
        }
    }
    if view != TrustView::Unchanged {
        pollster::block_on(service.record(&preview))?;
    }
    // Trusted is not shown: its `requires-<flag>` front matter may not hold here.
    let applies = super::flags::report_config_change(app, project);
    if args.json {
        let (shown, kind) = match &view {
            TrustView::Unchanged => (None, "unchanged"),
            TrustView::Whole(text) => (Some(text.as_str()), "template"),
            TrustView::Diff(diff) => (Some(diff.as_str()), "diff"),
        };
        crate::say!(
            "{}",
            json!({
                "path": path,
                "sha256": sha256,
                "shown": kind,
                "text": shown,
                "startup_instruction_applies": applies,
            })
        );
    } else {
        let reach = match applies {
            Some(false) => {
                "It does not reach the model now: its requires- lines do not hold with this \
                 project's flags (`carryover flags list`; `carryover flags set NAME VALUE`)."
            }
            _ => "It reaches the model at each new session until it changes.",
        };
        crate::say!(
            "Trusted {} (sha256 {}). {reach}",
            path.display(),
            &sha256[..12.min(sha256.len())]
        );
    }
    Ok(())
}

/// Asks on the terminal (stderr, so stdout stays the template) whether to trust.
fn confirm() -> Result<bool, CliError> {
    let stdin = std::io::stdin();
    let answer = super::prompt::ask(
        &mut stdin.lock(),
        &mut std::io::stderr(),
        "Trust this template? (y/n)",
        Some("n"),
    )
    .map_err(|error| CliError::failed(format!("cannot read the answer: {error}"), None))?;
    Ok(answer.is_some_and(|a| matches!(a.to_lowercase().as_str(), "y" | "yes")))
}
