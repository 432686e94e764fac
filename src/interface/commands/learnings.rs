//! `carryover learnings list|show|search|forget`.

use serde_json::json;

use crate::application::{FoundLearning, Learnings};
use crate::interface::cli::LearningsCommand;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs a `learnings` subcommand.
pub fn learnings(command: &LearningsCommand, app: &App) -> Result<(), CliError> {
    let service = Learnings::new(app.seeds(COMMAND_LOCK_WAIT), app.embedder(), app.index());
    match command {
        LearningsCommand::List { json } => print_all(&pollster::block_on(service.list())?, *json),
        LearningsCommand::Search { query, top, json } => {
            print_all(
                &pollster::block_on(service.search(&query.join(" "), *top))?,
                *json,
            );
        }
        LearningsCommand::Show { prefix, json } => {
            let found = pollster::block_on(service.show(prefix))?;
            if *json {
                println!("{}", to_json(&found));
            } else {
                let learning = &found.learning;
                let confirmed = learning.confirmed_at.map_or_else(
                    || "not confirmed".to_owned(),
                    |at| format!("confirmed {}", at.human()),
                );
                println!(
                    "{}\n{} · {} · {confirmed} · from {}",
                    learning.content, learning.id, found.kind, learning.source
                );
                if !learning.tags.is_empty() {
                    println!("tags: {}", learning.tags.join(", "));
                }
            }
        }
        LearningsCommand::Forget { prefix } => {
            let found = pollster::block_on(service.forget(prefix))?;
            println!("Forgot {}: {}", found.learning.id, found.learning.content);
            if let Err(error) = super::index::refresh(app, false) {
                eprintln!(
                    "carryover: forgotten, but the index was not updated: {}",
                    error.message
                );
            }
        }
    }
    Ok(())
}

fn print_all(found: &[FoundLearning], as_json: bool) {
    if as_json {
        println!(
            "{}",
            serde_json::Value::Array(found.iter().map(to_json).collect())
        );
        return;
    }
    if found.is_empty() {
        println!("No confirmed learnings yet.");
    }
    for item in found {
        let score = item
            .score
            .map_or_else(String::new, |s| format!("[{s:.2}] "));
        println!(
            "{score}{:<14} {}  {}",
            item.kind.as_str(),
            item.learning.id,
            item.learning.content
        );
    }
}

fn to_json(found: &FoundLearning) -> serde_json::Value {
    json!({
        "id": found.learning.id,
        "type": found.kind.as_str(),
        "content": found.learning.content,
        "source": found.learning.source,
        "confirmed_at": found.learning.confirmed_at.map(|at| at.to_string()),
        "tags": found.learning.tags,
        "score": found.score,
    })
}
