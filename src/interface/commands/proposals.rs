//! `carryover proposals list|show|accept|reject|review|extract`.

use std::io::{BufRead, IsTerminal, Write};

use serde_json::json;

use crate::application::{
    AcceptScope, Decision, Dropped, ProposalOrigin, Review, ReviewOutcome, TranscriptProposals,
};
use crate::domain::format::short_ids;
use crate::domain::seed::Proposal;
use crate::interface::cli::ProposalsCommand;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT, Seeds};
use crate::interface::error::CliError;

/// Runs a `proposals` subcommand.
pub fn proposals(command: &ProposalsCommand, app: &App) -> Result<(), CliError> {
    let review = Review::new(app.seeds(COMMAND_LOCK_WAIT), app.clock.clone(), app.ids())
        .with_catalog(std::sync::Arc::new(app.catalog()));
    match command {
        ProposalsCommand::List {
            all,
            all_projects,
            json,
        } => {
            let here = (!*all_projects).then(|| app.project(&app.cwd(None)));
            let listing = pollster::block_on(review.list(*all, here.as_ref()))?;
            let listed = &listing.shown;
            if *json {
                crate::say!(
                    "{}",
                    serde_json::Value::Array(listed.iter().map(to_json).collect())
                );
            } else if listed.is_empty() {
                crate::say!("No pending proposals{}.", for_here(here.as_ref()));
            } else {
                // Unique over the ones left out too, as `accept` resolves among all.
                let ids: Vec<&str> = listed
                    .iter()
                    .map(|p| p.id.as_str())
                    .chain(listing.elsewhere.iter().map(String::as_str))
                    .collect();
                for (proposal, id) in listed.iter().zip(short_ids(&ids, 5)) {
                    let confidence = proposal
                        .confidence
                        .map_or_else(|| "N/A".to_owned(), |c| format!("{c:.2}"));
                    crate::say!(
                        "{id:<8} {:<14} {:<8} ({confidence}) {}  [{}]",
                        proposal.kind.as_str(),
                        proposal.status.to_string(),
                        proposal.content,
                        scope_label(proposal)
                    );
                }
            }
            if !*json {
                say_elsewhere(listing.elsewhere.len());
            }
        }
        ProposalsCommand::Show { prefix, json } => {
            let proposal = pollster::block_on(review.show(prefix))?;
            if *json {
                crate::say!("{}", to_json(&proposal));
            } else {
                crate::say!(
                    "{}\n{} · {} · proposed {}{}",
                    proposal.content,
                    proposal.id,
                    proposal.kind,
                    proposal.extracted_at.human(),
                    detail(&proposal)
                );
            }
        }
        ProposalsCommand::Accept {
            prefixes,
            global,
            project,
            json,
        } => {
            let scope = if *global {
                AcceptScope::Global
            } else if *project {
                AcceptScope::Project(current_project(app))
            } else {
                AcceptScope::AsProposed
            };
            decide(
                app,
                &review,
                prefixes
                    .iter()
                    .map(|p| (p.clone(), Decision::Accept(scope.clone())))
                    .collect(),
                *json,
            )?;
        }
        ProposalsCommand::Reject { prefixes, json } => decide(
            app,
            &review,
            prefixes
                .iter()
                .map(|p| (p.clone(), Decision::Reject))
                .collect(),
            *json,
        )?,
        ProposalsCommand::Review { all_projects } => interactive(app, &review, *all_projects)?,
        ProposalsCommand::Extract {
            transcript,
            session_id,
            dry_run,
            json,
        } => extract(app, transcript, session_id.as_deref(), *dry_run, *json)?,
    }
    if matches!(
        command,
        ProposalsCommand::Accept { .. }
            | ProposalsCommand::Reject { .. }
            | ProposalsCommand::Review { .. }
    ) {
        // Decisions reach the other machines without waiting for them (`[sync] auto`).
        app.sync_in_background();
    }
    Ok(())
}

/// `proposals extract`: the transcript's proposals, written unless `dry_run`.
fn extract(
    app: &App,
    transcript: &std::path::Path,
    session: Option<&str>,
    dry_run: bool,
    json: bool,
) -> Result<(), CliError> {
    let session = match session {
        Some(id) => crate::domain::session_id::SessionId::parse(id)
            .map_err(|error| CliError::refused(format!("--session-id: {error}"), None))?
            .as_str()
            .to_owned(),
        None => transcript
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_else(|| "transcript".to_owned()),
    };
    let service = app.propose_from_transcript();
    // The transcript's session worked here, as far as carryover can tell: its project-bound
    // proposals belong to the current directory's project.
    let project = app.project(&app.cwd(None));
    let origin = ProposalOrigin {
        session: &session,
        project: &project,
    };
    let TranscriptProposals {
        extraction,
        added,
        ignored,
    } = pollster::block_on(service.run(transcript, origin, app.proposal_settings(), dry_run))?;
    for warning in &extraction.warnings {
        crate::tell!("carryover: {warning}");
    }
    if json {
        let dropped: Vec<_> = extraction
            .dropped
            .iter()
            .map(|(candidate, why)| {
                json!({
                    "type": candidate.kind.as_str(),
                    "content": candidate.text,
                    "confidence": candidate.confidence,
                    "reason": dropped_reason(why),
                })
            })
            .collect();
        crate::say!(
            "{}",
            json!({
                "dry_run": dry_run,
                "proposals": extraction.proposals.iter().map(|proposal| {
                    let mut value = to_json(proposal);
                    // A dry run's ids name nothing that was written, and differ every run.
                    if dry_run {
                        value["id"] = serde_json::Value::Null;
                    }
                    value
                }).collect::<Vec<_>>(),
                "added": added,
                "dropped": dropped,
                "ignored": ignored.iter().map(|ignored| json!({
                    "message": ignored.message,
                    "text": ignored.text,
                    "reason": ignored.reason.as_str(),
                })).collect::<Vec<_>>(),
            })
        );
        return Ok(());
    }
    if extraction.proposals.is_empty() {
        crate::say!("Nothing to propose from {}.", transcript.display());
    }
    for proposal in &extraction.proposals {
        crate::say!(
            "{:<14} ({:.2}) {}  [{}]",
            proposal.kind.as_str(),
            proposal.confidence.unwrap_or_default(),
            proposal.content,
            scope_label(proposal)
        );
    }
    for (candidate, why) in &extraction.dropped {
        crate::say!("  left out ({}): {}", dropped_reason(why), candidate.text);
    }
    for ignored in &ignored {
        crate::say!(
            "  ignored, message {} ({}): {}",
            ignored.message,
            ignored.reason.as_str(),
            ignored.text
        );
    }
    if dry_run {
        crate::say!("Dry run: nothing was written.");
    } else if added > 0 {
        crate::say!("Proposed {added}; review with `carryover proposals review`.");
    }
    Ok(())
}

/// Why deduplication (or the floor, or the cap) left a candidate out, for people.
pub(super) fn dropped_reason(why: &Dropped) -> String {
    match why {
        Dropped::BelowFloor => "below the confidence floor".to_owned(),
        Dropped::SameText(id) => format!("same text as {id}"),
        Dropped::Similar(id, similarity) => format!("similar to {id} ({similarity:.2})"),
        Dropped::OverCap => "over the per-session cap".to_owned(),
    }
}

fn current_project(app: &App) -> String {
    app.project(&app.cwd(None)).id.as_str().to_owned()
}

/// `global`, or `project <short name>`.
fn scope_label(proposal: &Proposal) -> String {
    crate::domain::scope::scope_label(proposal.project.as_deref())
}

fn detail(proposal: &Proposal) -> String {
    let mut parts = vec![format!(" · {}", proposal.status), scope_label(proposal)];
    if let Some(confidence) = proposal.confidence {
        parts.push(format!("confidence {confidence:.2}"));
    }
    if !proposal.source.is_empty() {
        parts.push(format!("from {}", proposal.source));
    }
    parts.join(" · ")
}

/// A proposal as `--json` prints it.
pub(super) fn to_json(proposal: &Proposal) -> serde_json::Value {
    json!({
        "id": proposal.id,
        "type": proposal.kind.as_str(),
        "content": proposal.content,
        "source": proposal.source,
        "status": proposal.status.to_string(),
        "project": crate::domain::scope::scope_project(proposal.project.as_deref()),
        "confidence": proposal.confidence,
        "extracted_at": proposal.extracted_at.to_string(),
    })
}

fn decide(
    app: &App,
    review: &Review<Seeds>,
    decisions: Vec<(String, Decision)>,
    json: bool,
) -> Result<(), CliError> {
    let outcome = pollster::block_on(review.decide(decisions))?;
    if json {
        crate::say!("{}", outcome_json(&outcome));
        refresh_after(app, &outcome);
    } else {
        report(app, &outcome);
    }
    Ok(())
}

/// What the decisions made: the learnings accepted proposals became, and the rejected ids.
fn outcome_json(outcome: &ReviewOutcome) -> serde_json::Value {
    let accepted: Vec<serde_json::Value> = outcome
        .accepted
        .iter()
        .map(|learning| {
            json!({
                "id": learning.id,
                "content": learning.content,
                "source": learning.source,
                "project": crate::domain::scope::scope_project(learning.project.as_deref()),
                "pinned": learning.pinned,
            })
        })
        .collect();
    json!({"accepted": accepted, "rejected": outcome.rejected})
}

fn report(app: &App, outcome: &ReviewOutcome) {
    for learning in &outcome.accepted {
        crate::say!("Accepted as {}: {}", learning.id, learning.content);
    }
    for id in &outcome.rejected {
        crate::say!("Rejected {id}");
    }
    refresh_after(app, outcome);
}

/// Accepted learnings are indexed at once, so the next session start need not embed them.
fn refresh_after(app: &App, outcome: &ReviewOutcome) {
    if !outcome.accepted.is_empty()
        && let Err(error) = super::index::refresh(app, false)
    {
        crate::tell!(
            "carryover: accepted, but the index was not updated: {}",
            error.message
        );
    }
}

/// One proposal at a time on the terminal; nothing is written until the end (or `q`).
fn interactive(app: &App, review: &Review<Seeds>, all_projects: bool) -> Result<(), CliError> {
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        // Run by an assistant, the refusal speaks to it: reviewing is the user's decision.
        return Err(match app.env.agent_running.as_deref() {
            Some(agent) => CliError::refused(
                format!(
                    "`proposals review` is for the user, in their own terminal; {agent} should not decide on its own proposals"
                ),
                Some("tell the user that proposed learnings await `carryover proposals review`"),
            ),
            None => CliError::refused(
                "`proposals review` needs a terminal",
                Some("use `carryover proposals accept|reject <id>` in scripts"),
            ),
        });
    }
    let here = app.project(&app.cwd(None));
    let listing = pollster::block_on(review.list(false, (!all_projects).then_some(&here)))?;
    let pending = listing.shown;
    if pending.is_empty() {
        crate::say!(
            "No pending proposals{}.",
            for_here((!all_projects).then_some(&here))
        );
        say_elsewhere(listing.elsewhere.len());
        return Ok(());
    }
    let mut decisions = Vec::new();
    let mut input = std::io::stdin().lock();
    let colour = crate::interface::output::colour_on_stdout();
    for (number, proposal) in pending.iter().enumerate() {
        crate::say!();
        crate::interface::output::say_toned(
            crate::interface::output::Tone::Heading,
            &format!(
                "[{}/{}] {} ({}{})",
                number + 1,
                pending.len(),
                proposal.kind,
                proposal.id,
                detail(proposal)
            ),
            colour,
        );
        crate::say!("  {}", proposal.content);
        // Accepting another project's proposal for this one moves it: the prompt says so.
        let moves = match proposal.project.as_deref() {
            Some(stored)
                if !crate::domain::scope::is_global(Some(stored)) && !here.owns(stored) =>
            {
                format!(", moving it from {}", scope_label(proposal))
            }
            _ => String::new(),
        };
        // The other scopes only: a global proposal is not offered "as global" a second time,
        // nor this project's "for" this project.
        let global = crate::domain::scope::is_global(proposal.project.as_deref());
        let mine = proposal
            .project
            .as_deref()
            .is_some_and(|stored| here.owns(stored));
        let mut options = vec![format!("accept ({})", scope_label(proposal))];
        let mut keys = String::from("a");
        if !global {
            options.push("accept as global".to_owned());
            keys.push_str("/g");
        }
        if !mine {
            options.push(format!("accept for {}{moves}", here.name));
            keys.push_str("/p");
        }
        let choice = loop {
            print!(
                "{}, reject, skip or quit? [{keys}/r/s/q] ",
                options.join(", ")
            );
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            if input.read_line(&mut line).unwrap_or(0) == 0 {
                break 'q';
            }
            match line.trim() {
                "a" | "accept" => break 'a',
                "g" | "global" => break 'g',
                "p" | "project" => break 'p',
                "r" | "reject" => break 'r',
                "s" | "skip" | "" => break 's',
                "q" | "quit" => break 'q',
                _ => crate::say!("  ({}, r, s or q)", keys.replace('/', ", ")),
            }
        };
        match choice {
            'a' => decisions.push((
                proposal.id.clone(),
                Decision::Accept(AcceptScope::AsProposed),
            )),
            'g' => decisions.push((proposal.id.clone(), Decision::Accept(AcceptScope::Global))),
            'p' => decisions.push((
                proposal.id.clone(),
                Decision::Accept(AcceptScope::Project(here.id.as_str().to_owned())),
            )),
            'r' => decisions.push((proposal.id.clone(), Decision::Reject)),
            'q' => break,
            _ => {}
        }
    }
    say_elsewhere(listing.elsewhere.len());
    if decisions.is_empty() {
        crate::say!("Nothing decided.");
        return Ok(());
    }
    decide(app, review, decisions, false)
}

/// ` for <project>` when a listing was for one project.
fn for_here(here: Option<&crate::domain::project::Project>) -> String {
    here.map(|project| format!(" for {}", project.name))
        .unwrap_or_default()
}

/// Says how many proposals a listing for this project left out, and how to see them.
fn say_elsewhere(elsewhere: usize) {
    if elsewhere > 0 {
        crate::say!(
            "({elsewhere} more for other projects: --all-projects shows {})",
            if elsewhere == 1 { "it" } else { "them" }
        );
    }
}
