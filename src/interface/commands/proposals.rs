//! `carryover proposals list|show|accept|reject|review|extract`.

use std::io::{BufRead, IsTerminal, Write};

use serde_json::json;

use crate::application::{Decision, Dropped, ProposeFromTranscript, Review, ReviewOutcome};
use crate::domain::format::short_ids;
use crate::domain::seed::Proposal;
use crate::infrastructure::ClaudeTranscriptReader;
use crate::interface::cli::ProposalsCommand;
use crate::interface::composition::{App, COMMAND_LOCK_WAIT};
use crate::interface::error::CliError;

/// Runs a `proposals` subcommand.
pub fn proposals(command: &ProposalsCommand, app: &App) -> Result<(), CliError> {
    let review = Review::new(app.seeds(COMMAND_LOCK_WAIT), app.clock.clone(), app.ids());
    match command {
        ProposalsCommand::List { all, json } => {
            let listed = pollster::block_on(review.list(*all))?;
            if *json {
                println!(
                    "{}",
                    serde_json::Value::Array(listed.iter().map(to_json).collect())
                );
            } else if listed.is_empty() {
                println!("No pending proposals.");
            } else {
                let ids: Vec<&str> = listed.iter().map(|p| p.id.as_str()).collect();
                for (proposal, id) in listed.iter().zip(short_ids(&ids, 5)) {
                    let confidence = proposal
                        .confidence
                        .map_or_else(|| "N/A".to_owned(), |c| format!("{c:.2}"));
                    println!(
                        "{id:<8} {:<14} {:<8} ({confidence}) {}",
                        proposal.kind.as_str(),
                        proposal.status.to_string(),
                        proposal.content
                    );
                }
            }
        }
        ProposalsCommand::Show { prefix, json } => {
            let proposal = pollster::block_on(review.show(prefix))?;
            if *json {
                println!("{}", to_json(&proposal));
            } else {
                println!(
                    "{}\n{} · {} · proposed {}{}",
                    proposal.content,
                    proposal.id,
                    proposal.kind,
                    proposal.extracted_at.human(),
                    detail(&proposal)
                );
            }
        }
        ProposalsCommand::Accept { prefixes } => decide(
            app,
            &review,
            prefixes
                .iter()
                .map(|p| (p.clone(), Decision::Accept))
                .collect(),
        )?,
        ProposalsCommand::Reject { prefixes } => decide(
            app,
            &review,
            prefixes
                .iter()
                .map(|p| (p.clone(), Decision::Reject))
                .collect(),
        )?,
        ProposalsCommand::Review => interactive(app, &review)?,
        ProposalsCommand::Extract {
            transcript,
            session_id,
            dry_run,
            json,
        } => extract(app, transcript, session_id.as_deref(), *dry_run, *json)?,
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
    let service = ProposeFromTranscript::new(
        ClaudeTranscriptReader,
        app.seeds(COMMAND_LOCK_WAIT),
        app.learning_proposals(),
    );
    let (extraction, added) =
        pollster::block_on(service.run(transcript, &session, app.proposal_settings(), dry_run))?;
    for warning in &extraction.warnings {
        eprintln!("carryover: {warning}");
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
        println!(
            "{}",
            json!({
                "dry_run": dry_run,
                "proposals": extraction.proposals.iter().map(to_json).collect::<Vec<_>>(),
                "added": added,
                "dropped": dropped,
            })
        );
        return Ok(());
    }
    if extraction.proposals.is_empty() {
        println!("Nothing to propose from {}.", transcript.display());
    }
    for proposal in &extraction.proposals {
        println!(
            "{:<14} ({:.2}) {}",
            proposal.kind.as_str(),
            proposal.confidence.unwrap_or_default(),
            proposal.content
        );
    }
    for (candidate, why) in &extraction.dropped {
        println!("  left out ({}): {}", dropped_reason(why), candidate.text);
    }
    if dry_run {
        println!("Dry run: nothing was written.");
    } else if added > 0 {
        println!("Proposed {added}; review with `carryover proposals review`.");
    }
    Ok(())
}

fn dropped_reason(why: &Dropped) -> String {
    match why {
        Dropped::BelowFloor => "below the confidence floor".to_owned(),
        Dropped::SameText(id) => format!("same text as {id}"),
        Dropped::Similar(id, similarity) => format!("similar to {id} ({similarity:.2})"),
        Dropped::OverCap => "over the per-session cap".to_owned(),
    }
}

fn detail(proposal: &Proposal) -> String {
    let mut parts = vec![format!(" · {}", proposal.status)];
    if let Some(confidence) = proposal.confidence {
        parts.push(format!("confidence {confidence:.2}"));
    }
    if !proposal.source.is_empty() {
        parts.push(format!("from {}", proposal.source));
    }
    parts.join(" · ")
}

fn to_json(proposal: &Proposal) -> serde_json::Value {
    json!({
        "id": proposal.id,
        "type": proposal.kind.as_str(),
        "content": proposal.content,
        "source": proposal.source,
        "status": proposal.status.to_string(),
        "confidence": proposal.confidence,
        "extracted_at": proposal.extracted_at.to_string(),
    })
}

fn decide(
    app: &App,
    review: &Review<crate::infrastructure::GitSeedRepository>,
    decisions: Vec<(String, Decision)>,
) -> Result<(), CliError> {
    let outcome = pollster::block_on(review.decide(decisions))?;
    report(app, &outcome);
    Ok(())
}

fn report(app: &App, outcome: &ReviewOutcome) {
    for learning in &outcome.accepted {
        println!("Accepted as {}: {}", learning.id, learning.content);
    }
    for id in &outcome.rejected {
        println!("Rejected {id}");
    }
    if !outcome.accepted.is_empty()
        && let Err(error) = super::index::refresh(app, false)
    {
        eprintln!(
            "carryover: accepted, but the index was not updated: {}",
            error.message
        );
    }
}

/// One proposal at a time on the terminal; nothing is written until the end (or `q`).
fn interactive(
    app: &App,
    review: &Review<crate::infrastructure::GitSeedRepository>,
) -> Result<(), CliError> {
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return Err(CliError::refused(
            "`proposals review` needs a terminal",
            Some("use `carryover proposals accept|reject <id>` in scripts"),
        ));
    }
    let pending = pollster::block_on(review.list(false))?;
    if pending.is_empty() {
        println!("No pending proposals.");
        return Ok(());
    }
    let mut decisions = Vec::new();
    let mut input = std::io::stdin().lock();
    for (number, proposal) in pending.iter().enumerate() {
        println!(
            "\n[{}/{}] {} ({}{})",
            number + 1,
            pending.len(),
            proposal.kind,
            proposal.id,
            detail(proposal)
        );
        println!("  {}", proposal.content);
        let choice = loop {
            print!("accept, reject, skip or quit? [a/r/s/q] ");
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            if input.read_line(&mut line).unwrap_or(0) == 0 {
                break 'q';
            }
            match line.trim() {
                "a" | "accept" => break 'a',
                "r" | "reject" => break 'r',
                "s" | "skip" | "" => break 's',
                "q" | "quit" => break 'q',
                _ => println!("  (a, r, s or q)"),
            }
        };
        match choice {
            'a' => decisions.push((proposal.id.clone(), Decision::Accept)),
            'r' => decisions.push((proposal.id.clone(), Decision::Reject)),
            'q' => break,
            _ => {}
        }
    }
    if decisions.is_empty() {
        println!("Nothing decided.");
        return Ok(());
    }
    decide(app, review, decisions)
}
