//! `carryover learnings list|show|search|forget|scope|pin|unpin`.

use serde_json::json;

use crate::application::{Edited, FoundLearning, Learnings, Listed, ScopeFilter, ScopeTarget};
use crate::domain::format::clip;
use crate::domain::project::Project;
use crate::domain::scope::{scope_label, scope_project};
use crate::interface::cli::{LearningsCommand, ListScope, ScopeArg};
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs a `learnings` subcommand.
pub fn learnings(command: &LearningsCommand, app: &App) -> Result<(), CliError> {
    let service = Learnings::new(
        app.seeds(COMMAND_LOCK_WAIT),
        app.embedder(),
        app.index(),
        app.clock.clone(),
    );
    match command {
        LearningsCommand::List { scope, json } => {
            let listed = pollster::block_on(service.list(&scopes(*scope, app)))?;
            let empty = match (scope.all, scope.global, scope.project) {
                (false, false, true) => "No learnings for this project yet.",
                (false, true, _) => "No global learnings yet.",
                _ => "No confirmed learnings yet.",
            };
            print_all(&listed.found, *json, empty);
            if !*json && !scope.global {
                say_elsewhere(&listed, &current_project(app));
            }
        }
        LearningsCommand::Search {
            query,
            top,
            scope,
            json,
        } => {
            let scopes = scopes(*scope, app);
            let query = query.join(" ");
            let floor = app.retrieval_settings().floor;
            let searched =
                pollster::block_on(service.search(&query, usize::from(*top), &scopes, floor))?;
            let empty = match searched.searched {
                0 => "No confirmed learnings yet.".to_owned(),
                searched => format!(
                    "No learning matches \"{query}\" (searched {searched}; `learnings list` shows \
                     them all)."
                ),
            };
            print_all(&searched.found, *json, &empty);
        }
        LearningsCommand::Show { prefix, json } => {
            let found = pollster::block_on(service.show(prefix))?;
            if *json {
                crate::say!("{}", to_json(&found));
            } else {
                let learning = &found.learning;
                let confirmed = learning.confirmed_at.map_or_else(
                    || "not confirmed".to_owned(),
                    |at| format!("confirmed {}", at.human()),
                );
                let pinned = if learning.pinned { " · pinned" } else { "" };
                crate::say!(
                    "{}\n{} · {} · {}{pinned} · {confirmed} · from {}",
                    learning.content,
                    learning.id,
                    found.kind,
                    scope_label(learning.project.as_deref()),
                    learning.source
                );
                if !learning.tags.is_empty() {
                    crate::say!("tags: {}", learning.tags.join(", "));
                }
            }
        }
        LearningsCommand::Forget {
            prefix,
            purge,
            json,
        } => {
            let (found, rewritten) = if *purge {
                let (found, rewritten) = pollster::block_on(service.forget_and_purge(prefix))?;
                (found, Some(rewritten))
            } else {
                (pollster::block_on(service.forget(prefix))?, None)
            };
            if *json {
                let mut value = to_json(&found);
                value["forgotten"] = true.into();
                value["rewritten_versions"] = rewritten.into();
                crate::say!("{value}");
            } else {
                if let Some(rewritten) = rewritten {
                    crate::say!(
                        "Forgot {} and rewrote {rewritten} version(s) of the seed's git history: \
                         no commit holds its text now. Clones and copies made before still do.",
                        found.learning.id
                    );
                }
                crate::say!(
                    "Forgot {}: {}",
                    found.learning.id,
                    line(&found.learning.content)
                );
            }
            let remote = match purge {
                true => pollster::block_on(app.seed_sync().remote()).ok().flatten(),
                false => None,
            };
            match remote {
                // The remote's history still holds the text: a sync now would merge it back
                // into the history just rewritten (ADR 0020), so none is started.
                Some(url) => {
                    let repository = app.seed_path();
                    let repository = repository.parent().unwrap_or(&repository);
                    let automatic = match app.config.sync.auto {
                        true => " (yours, or the automatic one after the next session or `learn`)",
                        false => "",
                    };
                    crate::tell!(
                        "carryover: the sync remote {url} may still hold it in its history, and the \
                         next sync{automatic} merges that history back into this one.\nhint: purge \
                         it on every machine (with `[sync] auto = false` meanwhile), then replace \
                         the remote's history from one of them (`git -C {} push \
                         --force-with-lease origin HEAD`) before syncing again",
                        repository.display()
                    );
                }
                None => app.sync_in_background(),
            }
            if let Err(error) = super::index::refresh(app, false) {
                crate::tell!(
                    "carryover: forgotten, but the index was not updated: {}",
                    error.message
                );
            }
        }
        LearningsCommand::Scope {
            prefix,
            scope,
            force,
            json,
        } => {
            let target = match scope {
                ScopeArg::Project => ScopeTarget::Project(app.project(&app.cwd(None))),
                ScopeArg::Global => ScopeTarget::Global,
            };
            let edited = pollster::block_on(service.set_scope(prefix, target, *force))?;
            if *json {
                let mut value = edited_json(&edited);
                value["project_before"] = scope_project(edited.before.project.as_deref()).into();
                crate::say!("{value}");
                return Ok(());
            }
            let id = &edited.found.learning.id;
            let placed = |project: Option<&str>| match scope_label(project).as_str() {
                "global" => "global".to_owned(),
                project => format!("in {project}"),
            };
            let now = placed(edited.found.learning.project.as_deref());
            let was = placed(edited.before.project.as_deref());
            let content = line(&edited.found.learning.content);
            if !edited.changed {
                crate::say!("{id} was already {now}: {content}");
            } else if now == was {
                // Global by default (and hidden where its text names another project) is now
                // global on purpose: shown everywhere.
                crate::say!("{id} is now global on purpose, shown in every project: {content}");
            } else if was == "global" {
                crate::say!("{id} is now {now}: {content}");
            } else {
                crate::say!("{id} is now {now}, no longer {was}: {content}");
            }
        }
        LearningsCommand::Pin { prefix, json } => {
            let edited = pollster::block_on(service.set_pinned(prefix, true))?;
            if *json {
                crate::say!("{}", edited_json(&edited));
                return Ok(());
            }
            let already = if edited.changed { "" } else { "Already " };
            let pinned = if edited.changed { "Pinned" } else { "pinned" };
            crate::say!(
                "{already}{pinned} {}: {}",
                edited.found.learning.id,
                line(&edited.found.learning.content)
            );
        }
        LearningsCommand::Unpin { prefix, json } => {
            let edited = pollster::block_on(service.set_pinned(prefix, false))?;
            if *json {
                crate::say!("{}", edited_json(&edited));
                return Ok(());
            }
            let what = if edited.changed {
                "Unpinned"
            } else {
                "Not pinned"
            };
            crate::say!(
                "{what} {}: {}",
                edited.found.learning.id,
                line(&edited.found.learning.content)
            );
        }
    }
    Ok(())
}

/// Where the learnings a listing left out are: how many other projects hold, and which of
/// them a project of the same name holds, as a clone moved without a remote leaves them.
fn say_elsewhere(listed: &Listed, here: &Project) {
    let left_out = listed.elsewhere.len();
    if left_out == 0 {
        return;
    }
    crate::say!(
        "({left_out} more for other projects: --all shows {})",
        if left_out == 1 { "it" } else { "them" }
    );
    let namesakes = listed.namesakes(here);
    let count: usize = namesakes.iter().map(|(_, n)| n).sum();
    if let [(stored, _)] = namesakes[..] {
        crate::say!(
            "({count} of them {} to {stored}, also named {}: if that was this project before \
             it moved, `carryover learnings scope ID project --force` brings each here)",
            if count == 1 { "belongs" } else { "belong" },
            here.name
        );
    } else if count > 0 {
        crate::say!(
            "({count} of them are for {} other projects also named {}: `learnings list --all` \
             shows where)",
            namesakes.len(),
            here.name
        );
    }
}

/// The scopes a listing or search covers; by default what a session here may be shown, the
/// global learnings and this project's.
fn scopes(scope: ListScope, app: &App) -> Vec<ScopeFilter> {
    if scope.all {
        vec![ScopeFilter::All]
    } else if scope.global {
        vec![ScopeFilter::Global]
    } else if scope.project {
        vec![ScopeFilter::Project(current_project(app))]
    } else {
        vec![
            ScopeFilter::Global,
            ScopeFilter::Project(current_project(app)),
        ]
    }
}

fn current_project(app: &App) -> Project {
    app.project(&app.cwd(None))
}

/// A learning's text in a listing or a confirmation: one line, cut (`learnings show` gives
/// it whole), so that a long one does not flood the terminal.
fn line(content: &str) -> String {
    clip(content, LISTED_CHARS)
}

/// The most of a learning's text a listing or a confirmation shows.
const LISTED_CHARS: usize = 200;

fn print_all(found: &[FoundLearning], as_json: bool, empty: &str) {
    if as_json {
        crate::say!(
            "{}",
            serde_json::Value::Array(found.iter().map(to_json).collect())
        );
        return;
    }
    if found.is_empty() {
        crate::say!("{empty}");
    }
    for item in found {
        let score = item
            .score
            .map_or_else(String::new, |s| format!("[{s:.2}] "));
        let pin = if item.learning.pinned { "pinned" } else { "" };
        let scope = scope_project(item.learning.project.as_deref())
            .map_or_else(String::new, |id| format!("  [{}]", short_project(id)));
        crate::say!(
            "{score}{pin:<6} {:<14} {}  {}{scope}",
            item.kind.as_str(),
            item.learning.id,
            line(&item.learning.content)
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
        "project": scope_project(found.learning.project.as_deref()),
        "pinned": found.learning.pinned,
        "score": found.score,
    })
}

/// A learning as an edit left it, and whether the edit changed it.
fn edited_json(edited: &Edited) -> serde_json::Value {
    let mut value = to_json(&edited.found);
    value["changed"] = edited.changed.into();
    value
}

fn short_project(id: &str) -> String {
    crate::domain::project::ProjectId::parse(id)
        .map_or_else(|| id.to_owned(), |project| project.short_name().to_owned())
}
