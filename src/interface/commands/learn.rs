//! `carryover learn`: add a confirmed learning.

use serde_json::json;

use crate::application::{Learn, LearnOptions};
use crate::domain::scope::{EVERY_PROJECT, scope_label, scope_project};
use crate::domain::seed::LearningKind;
use crate::interface::cli::{KindArg, LearnArgs};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Longer than this, a learning is more than the one sentence it should be: `learn` says so,
/// and prints only this much of it.
const LONG_CHARS: usize = 400;

/// Runs `learn`.
pub fn learn(args: &LearnArgs, app: &App) -> Result<(), CliError> {
    let kind = match args.kind {
        KindArg::Pattern => LearningKind::Pattern,
        KindArg::Insight => LearningKind::Insight,
        KindArg::SelfKnowledge => LearningKind::SelfKnowledge,
    };
    let service = Learn::new(app.seeds(COMMAND_LOCK_WAIT), app.clock.clone(), app.ids());
    let here = args.project.then(|| app.project(&app.cwd(None)));
    // Outside git the project is the directory alone, which `/` or a home rarely means.
    let outside_git = here
        .as_ref()
        .filter(|here| !here.in_git)
        .map(|here| here.root.clone());
    let project = if let Some(here) = &here {
        Some(here.id.as_str().to_owned())
    } else if args.global {
        // Global on purpose: shown everywhere even if it names a project (ADR 0010).
        Some(EVERY_PROJECT.to_owned())
    } else {
        None
    };
    let options = LearnOptions {
        tags: args.tags.clone(),
        former_project: here
            .and_then(|here| here.former_id())
            .map(|id| id.as_str().to_owned()),
        project,
        pinned: args.pin,
    };
    let text = args.text.join(" ");
    // The built-in model whatever `[embedder]` says: the threshold is measured on it, and a
    // warning is not worth sending every learning to an HTTP embedder.
    let near = pollster::block_on(service.near(
        &app.builtin_embedder(),
        &text,
        app.proposal_settings().duplicate_similarity,
    ))
    .unwrap_or(None);
    let learning = pollster::block_on(service.learn(kind, &text, options))?;
    if let Some(here) = outside_git {
        crate::tell!(
            "carryover: {} is not in a git repository, so this learning belongs to that directory \
             alone: sessions started in its subdirectories or elsewhere do not see it",
            here.display()
        );
    }
    if let Some(near) = &near {
        crate::tell!(
            "carryover: {} is close to {} (similarity {:.2}): {}",
            learning.id,
            near.id,
            near.similarity,
            near.content
        );
        crate::tell!(
            "hint: both are kept; `carryover learnings forget {}` drops one",
            learning.id
        );
    }
    let length = learning.content.chars().count();
    if length > LONG_CHARS {
        crate::tell!(
            "carryover: {} is {length} characters long: every session start spends its budget on \
             it, and listings show only its start",
            learning.id
        );
        crate::tell!(
            "hint: a learning serves best as one sentence; `carryover learnings forget {}` and \
             learn the rule it holds",
            learning.id
        );
    }
    if let Err(error) = super::index::refresh(app, false) {
        crate::tell!(
            "carryover: the learning was saved, but the index was not updated: {}",
            error.message
        );
    }
    app.sync_in_background();
    if args.json {
        crate::say!(
            "{}",
            json!({
                "id": learning.id,
                "type": kind.as_str(),
                "content": learning.content,
                "source": learning.source,
                "confirmed_at": learning.confirmed_at.map(|at| at.to_string()),
                "tags": learning.tags,
                "project": scope_project(learning.project.as_deref()),
                "pinned": learning.pinned,
                "near": near.map(|n| json!({
                    "id": n.id,
                    "content": n.content,
                    "similarity": (f64::from(n.similarity) * 100.0).round() / 100.0,
                })),
            })
        );
    } else {
        let scope = scope_label(learning.project.as_deref());
        let pinned = if learning.pinned { ", pinned" } else { "" };
        crate::say!(
            "Learned {kind} {} ({scope}{pinned}): {}",
            learning.id,
            crate::domain::format::clip(&learning.content, LONG_CHARS)
        );
    }
    Ok(())
}
