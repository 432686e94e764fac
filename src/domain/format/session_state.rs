//! The last session, active projects and checkpoint reference.

use crate::domain::context::Section;
use crate::domain::seed::{SeedState, Timestamp};

use super::{data_line, relative_time};

/// A directory name (a project's) is shown at most this long.
const MAX_NAME_CHARS: usize = 80;

/// `Session state:` with the last session (relative and absolute, or `never`), the active
/// projects when any, and the checkpoint reference when set.
pub fn session_state(state: &SeedState, now: Timestamp) -> Section {
    let last = match state.last_session_at {
        Some(at) => format!("{} ({})", relative_time(at, now), at.human()),
        None => "never".to_owned(),
    };
    let mut lines = vec![
        "Session state:".to_owned(),
        format!("  Last session: {last}"),
    ];
    if !state.active_projects.is_empty() {
        let names: Vec<String> = state
            .active_projects
            .iter()
            .map(|name| data_line(name, MAX_NAME_CHARS))
            .collect();
        lines.push(format!("  Active projects: {}", names.join(", ")));
    }
    if let Some(checkpoint) = state
        .checkpoint_ref
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        lines.push(format!(
            "  Checkpoint: {}",
            data_line(checkpoint, MAX_NAME_CHARS * 2)
        ));
    }
    Section::fixed(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Timestamp {
        Timestamp::parse("2026-11-22T18:40:00Z").unwrap()
    }

    #[test]
    fn a_fresh_state_says_never() {
        assert_eq!(
            session_state(&SeedState::default(), now()).render(),
            "Session state:\n  Last session: never"
        );
    }

    #[test]
    fn shows_last_session_projects_and_checkpoint() {
        let state = SeedState {
            last_session_at: Some(Timestamp::parse("2026-11-21T18:40:00Z").unwrap()),
            active_projects: vec!["shop-api".into(), "notes".into()],
            checkpoint_ref: Some("ckpt_1".into()),
            ..SeedState::default()
        };
        assert_eq!(
            session_state(&state, now()).render(),
            "Session state:\n  Last session: 1 day ago (2026-11-21 18:40 UTC)\n  Active projects: shop-api, notes\n  Checkpoint: ckpt_1"
        );
    }
}
