//! `carryover identity show|set`: read the identity, or change one field of it.

use std::path::Path;

use serde_json::{Value, json};

use crate::application::IdentitySettings;
use crate::domain::seed::{Identity, IdentityField};
use crate::interface::cli::IdentityCommand;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// The identity as `identity show --json` and `init --json` print it.
pub fn identity_json(seed_path: &Path, identity: &Identity) -> Value {
    let value = |field: IdentityField| field.get(identity).to_owned();
    json!({
        "seed_path": seed_path,
        "ai_name": value(IdentityField::AiName),
        "principal": value(IdentityField::Principal),
        "catchphrase": value(IdentityField::Catchphrase),
        "style": value(IdentityField::Style),
        "timezone": value(IdentityField::Timezone),
        "locale": value(IdentityField::Locale),
        "voice_id": value(IdentityField::VoiceId),
    })
}

/// Runs `identity show` or `identity set`.
pub fn identity(command: &IdentityCommand, app: &App) -> Result<(), CliError> {
    let service = IdentitySettings::new(app.seeds(COMMAND_LOCK_WAIT));
    match command {
        IdentityCommand::Show { json } => {
            let identity = pollster::block_on(service.show())?;
            let value = |field: IdentityField| field.get(&identity).to_owned();
            if *json {
                crate::say!("{}", identity_json(&app.seed_path(), &identity));
            } else {
                let width = IdentityField::ALL
                    .iter()
                    .map(|field| field.key().len())
                    .max()
                    .unwrap_or(0);
                let lines: Vec<String> = IdentityField::ALL
                    .iter()
                    .map(|field| format!("{:width$}  {}", field.key(), value(*field)))
                    .collect();
                crate::say!("{}", lines.join("\n"));
            }
        }
        IdentityCommand::Set { key, value, json } => {
            let change = pollster::block_on(service.set(key, value))?;
            let key = change.field.key();
            if *json {
                crate::say!(
                    "{}",
                    json!({
                        "key": key,
                        "before": change.before,
                        "after": change.after,
                        "changed": !change.is_unchanged(),
                    })
                );
            } else if change.is_unchanged() {
                crate::say!("{key} is already {}; nothing changed.", change.after);
            } else {
                crate::say!("{key}: {} → {}", change.before, change.after);
            }
        }
    }
    Ok(())
}
