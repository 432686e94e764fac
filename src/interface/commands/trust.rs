//! `carryover trust`: let a project's start-up template reach the model.

use serde_json::json;

use crate::application::Trust;
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
    let (path, sha256) = pollster::block_on(service.trust(&project.root, template))?;
    if args.json {
        crate::say!("{}", json!({"path": path, "sha256": sha256}));
    } else {
        crate::say!(
            "Trusted {} (sha256 {}). It reaches the model at each new session until it changes.",
            path.display(),
            &sha256[..12]
        );
    }
    Ok(())
}
