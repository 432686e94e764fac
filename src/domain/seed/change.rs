//! What an update did to the seed, so a store with history commits only what is worth a
//! commit: every session end moves the last-session bookkeeping, and a commit for each would
//! bury the seed's real changes under timestamp bumps.

use super::Seed;

/// How a new seed differs from the one it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedChange {
    /// The two are equal: nothing to write.
    Unchanged,
    /// Only the last-session bookkeeping moved (`state.lastSessionId`, `state.lastSessionAt`,
    /// `state.activeProjects`): worth saving, not worth a commit of its own.
    Bookkeeping,
    /// Anything else changed, or there was no seed before.
    Content,
}

impl SeedChange {
    /// Classifies replacing `before` (`None`: no seed yet) with `after`.
    pub fn between(before: Option<&Seed>, after: &Seed) -> Self {
        let Some(before) = before else {
            return Self::Content;
        };
        if before == after {
            return Self::Unchanged;
        }
        // `before` with `after`'s bookkeeping: equal exactly when nothing else differs, and
        // fields added to the seed later count as content without being listed here.
        let mut rebased = before.clone();
        rebased
            .state
            .last_session_id
            .clone_from(&after.state.last_session_id);
        rebased.state.last_session_at = after.state.last_session_at;
        rebased
            .state
            .active_projects
            .clone_from(&after.state.active_projects);
        if rebased == *after {
            Self::Bookkeeping
        } else {
            Self::Content
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{Learning, LearningKind, Proposal, ProposalStatus, Timestamp};
    use rstest::rstest;

    fn at(raw: &str) -> Timestamp {
        Timestamp::parse(raw).unwrap()
    }

    fn seed() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        seed.identity.ai_name = "Juno".into();
        seed.state.last_session_id = Some("s1".into());
        seed.state.last_session_at = Some(at("2026-11-21T09:00:00Z"));
        seed.state.active_projects = vec!["notes".into(), "shop-api".into()];
        seed
    }

    fn session_end(seed: &mut Seed) {
        seed.state.last_session_id = Some("s2".into());
        seed.state.last_session_at = Some(at("2026-11-22T18:40:00Z"));
        seed.state.active_projects = vec!["shop-api".into(), "notes".into()];
    }

    fn propose(seed: &mut Seed) {
        seed.state.proposals.push(Proposal {
            id: "prp_Q4mZ8xWc2Lna".into(),
            kind: LearningKind::Pattern,
            content: "Prefers early returns".into(),
            source: "s2".into(),
            extracted_at: at("2026-11-22T18:40:00Z"),
            status: ProposalStatus::Pending,
            method: Some("rules".into()),
            confidence: Some(0.85),
            decided_at: None,
            project: None,
            extra: Default::default(),
        });
    }

    #[rstest]
    #[case::nothing_changed(|_: &mut Seed| {}, SeedChange::Unchanged)]
    #[case::the_same_session_ended_again(
        |s: &mut Seed| s.state.last_session_at = Some(at("2026-11-21T09:00:00Z")),
        SeedChange::Unchanged
    )]
    #[case::a_session_ended(session_end, SeedChange::Bookkeeping)]
    #[case::only_the_session_id(
        |s: &mut Seed| s.state.last_session_id = Some("s2".into()),
        SeedChange::Bookkeeping
    )]
    #[case::only_the_time(
        |s: &mut Seed| s.state.last_session_at = Some(at("2026-11-22T18:40:00Z")),
        SeedChange::Bookkeeping
    )]
    #[case::only_the_project_order(
        |s: &mut Seed| s.state.active_projects.reverse(),
        SeedChange::Bookkeeping
    )]
    #[case::the_bookkeeping_cleared(
        |s: &mut Seed| {
            s.state.last_session_id = None;
            s.state.last_session_at = None;
            s.state.active_projects.clear();
        },
        SeedChange::Bookkeeping
    )]
    #[case::a_session_ended_with_a_proposal(
        |s: &mut Seed| { session_end(s); propose(s); },
        SeedChange::Content
    )]
    #[case::a_proposal_alone(propose, SeedChange::Content)]
    #[case::a_learning(
        |s: &mut Seed| s.learned.patterns.push(Learning {
            id: "pat_1".into(),
            content: "Prefers rstest tables".into(),
            source: String::new(),
            extracted_at: at("2026-11-22T18:40:00Z"),
            confirmed_at: None,
            confirmed: true,
            tags: Vec::new(),
            project: None,
            pinned: false,
            extra: Default::default(),
        }),
        SeedChange::Content
    )]
    #[case::the_identity(|s: &mut Seed| s.identity.ai_name = "Iris".into(), SeedChange::Content)]
    #[case::the_checkpoint(
        |s: &mut Seed| s.state.checkpoint_ref = Some("cp-1".into()),
        SeedChange::Content
    )]
    #[case::an_unknown_state_key(
        |s: &mut Seed| { s.state.extra.insert("mood".into(), "calm".into()); },
        SeedChange::Content
    )]
    #[case::the_version(|s: &mut Seed| s.version = "1.1.0".into(), SeedChange::Content)]
    fn classifies_what_an_update_changed(
        #[case] edit: fn(&mut Seed),
        #[case] expected: SeedChange,
    ) {
        let before = seed();
        let mut after = before.clone();
        edit(&mut after);
        assert_eq!(SeedChange::between(Some(&before), &after), expected);
    }

    #[test]
    fn a_first_seed_is_content() {
        assert_eq!(SeedChange::between(None, &seed()), SeedChange::Content);
    }
}
