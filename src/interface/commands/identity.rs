//! `carryover identity show|set`: read the identity, or change one field of it.

use serde_json::json;

use crate::application::IdentitySettings;
use crate::domain::seed::IdentityField;
use crate::interface::cli::IdentityCommand;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs `identity show` or `identity set`.
pub fn identity(command: &IdentityCommand, app: &App) -> Result<(), CliError> {
    let service = IdentitySettings::new(app.seeds(COMMAND_LOCK_WAIT));
    match command {
        IdentityCommand::Show { json } => {
            let identity = pollster::block_on(service.show())?;
            let value = |field: IdentityField| field.get(&identity).to_owned();
            if *json {
                crate::say!(
                    "{}",
                    json!({
                        "seed_path": app.seed_path(),
                        "ai_name": value(IdentityField::AiName),
                        "principal": value(IdentityField::Principal),
                        "catchphrase": value(IdentityField::Catchphrase),
                        "style": value(IdentityField::Style),
                        "timezone": value(IdentityField::Timezone),
                        "locale": value(IdentityField::Locale),
                        "voice_id": value(IdentityField::VoiceId),
                    })
                );
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
        IdentityCommand::Set { key, value } => {
            let change = pollster::block_on(service.set(key, value))?;
            let key = change.field.key();
            if change.is_unchanged() {
                crate::say!("{key} is already {}; nothing changed.", change.after);
            } else {
                crate::say!("{key}: {} → {}", change.before, change.after);
            }
        }
    }
    Ok(())
}
