//! `carryover learn`: add a confirmed learning.

use serde_json::json;

use crate::application::Learn;
use crate::domain::seed::LearningKind;
use crate::interface::cli::{KindArg, LearnArgs};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs `learn`.
pub fn learn(args: &LearnArgs, app: &App) -> Result<(), CliError> {
    let kind = match args.kind {
        KindArg::Pattern => LearningKind::Pattern,
        KindArg::Insight => LearningKind::Insight,
        KindArg::SelfKnowledge => LearningKind::SelfKnowledge,
    };
    let service = Learn::new(app.seeds(COMMAND_LOCK_WAIT), app.clock.clone(), app.ids());
    let learning =
        pollster::block_on(service.learn(kind, &args.text.join(" "), args.tags.clone()))?;
    if let Err(error) = super::index::refresh(app, false) {
        eprintln!(
            "carryover: the learning was saved, but the index was not updated: {}",
            error.message
        );
    }
    if args.json {
        println!(
            "{}",
            json!({"id": learning.id, "type": kind.as_str(), "content": learning.content, "tags": learning.tags})
        );
    } else {
        println!("Learned {kind} {}: {}", learning.id, learning.content);
    }
    Ok(())
}
