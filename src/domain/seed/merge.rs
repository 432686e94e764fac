//! The three-way merge of two seeds that grew apart from a common one (two machines' data
//! homes), by id rather than by line (ADR 0021). It never loses a learning or a decision:
//! learnings and proposals are unioned, a learning goes only where a tombstone buries it, and
//! where two changes cannot both stand, one is kept and the other is reported (or, for a
//! learning's text, both are kept).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{
    FormatVersion, Identity, Learned, Learning, LearningKind, Proposal, ProposalStatus, Seed,
    SeedState, TOMBSTONES_KEY, Tombstone, normalised_text,
};

/// One side of a merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The seed being merged into (this machine's).
    Ours,
    /// The seed being merged in (the remote's).
    Theirs,
}

/// Two changes that could not both stand: what was kept, and what the other side had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeConflict {
    /// JSON path of what both sides changed (`$.identity.aiName`, a learning's id).
    pub path: String,
    /// What the merged seed holds.
    pub kept: String,
    /// What the other side had, kept elsewhere or only reported.
    pub other: String,
}

/// The merged seed and what could not be decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The result.
    pub seed: Seed,
    /// Changes on both sides that could not both stand.
    pub conflicts: Vec<MergeConflict>,
}

/// Merges `ours` and `theirs`, which both grew from `base` (`None` when they share no
/// history). `newer` is the side changed last: it wins a field both sides changed (the
/// identity's, the preferences', unknown keys), since the seed keeps no time per field.
pub fn merge_seeds(base: Option<&Seed>, ours: &Seed, theirs: &Seed, newer: Side) -> Merged {
    let mut merger = Merger {
        newer,
        conflicts: Vec::new(),
    };
    let tombstones = merge_tombstones(base, ours, theirs);
    let mut seed = Seed {
        version: newest_version(&ours.version, &theirs.version),
        identity: merger.identity(base.map(|b| &b.identity), &ours.identity, &theirs.identity),
        learned: merger.learned(base.map(|b| &b.learned), &ours.learned, &theirs.learned),
        state: merger.state(base.map(|b| &b.state), &ours.state, &theirs.state),
        extra: merger.map("$", base.map(|b| &b.extra), &ours.extra, &theirs.extra),
    };
    for kind in LearningKind::ALL {
        seed.learned
            .of_mut(kind)
            .retain(|learning| !tombstones.iter().any(|t| t.buries(learning)));
        dedupe(seed.learned.of_mut(kind));
    }
    seed.set_tombstones(tombstones);
    Merged {
        seed,
        conflicts: merger.conflicts,
    }
}

/// Every tombstone of either side (and the base), one per id, the latest kept.
fn merge_tombstones(base: Option<&Seed>, ours: &Seed, theirs: &Seed) -> Vec<Tombstone> {
    let mut all: Vec<Tombstone> = Vec::new();
    let sides = base.into_iter().chain([ours, theirs]);
    for tombstone in sides.flat_map(Seed::tombstones) {
        match all.iter_mut().find(|t| t.id == tombstone.id) {
            Some(kept) if kept.forgotten_at < tombstone.forgotten_at => *kept = tombstone,
            Some(_) => {}
            None => all.push(tombstone),
        }
    }
    all
}

/// The same text learned twice (on two machines, under two ids) becomes one learning: the
/// earliest written, with the other's tags and pin and confirmation. Earliest, then smallest
/// id, so that both machines' merges pick the same one.
fn dedupe(list: &mut Vec<Learning>) {
    let mut kept: Vec<Learning> = Vec::with_capacity(list.len());
    let mut by_text: std::collections::HashMap<String, usize> = Default::default();
    for learning in list.drain(..) {
        let text = normalised_text(&learning.content);
        let Some(&at) = by_text.get(&text) else {
            by_text.insert(text, kept.len());
            kept.push(learning);
            continue;
        };
        let other = &mut kept[at];
        let (mut first, second) =
            if (learning.extracted_at, &learning.id) < (other.extracted_at, &other.id) {
                (learning, other.clone())
            } else {
                (other.clone(), learning)
            };
        for tag in second.tags {
            if !first.tags.contains(&tag) {
                first.tags.push(tag);
            }
        }
        first.pinned |= second.pinned;
        if second.confirmed && !first.confirmed {
            first.confirmed = true;
            first.confirmed_at = second.confirmed_at;
        }
        kept[at] = first;
    }
    *list = kept;
}

fn newest_version(ours: &str, theirs: &str) -> String {
    let key = |raw: &str| FormatVersion::parse(raw).map(|v| (v.major, v.minor, v.patch));
    if key(theirs) > key(ours) {
        theirs.to_owned()
    } else {
        ours.to_owned()
    }
}

struct Merger {
    newer: Side,
    conflicts: Vec<MergeConflict>,
}

impl Merger {
    /// A value both sides may have changed: the changed side's, else the newer side's (a
    /// conflict when both changed it differently).
    fn pick<T: PartialEq + Clone + serde::Serialize>(
        &mut self,
        path: &str,
        base: Option<&T>,
        ours: &T,
        theirs: &T,
    ) -> T {
        if ours == theirs || base == Some(theirs) {
            return ours.clone();
        }
        if base == Some(ours) {
            return theirs.clone();
        }
        let (kept, other) = match self.newer {
            Side::Ours => (ours, theirs),
            Side::Theirs => (theirs, ours),
        };
        self.conflicts.push(MergeConflict {
            path: path.to_owned(),
            kept: shown(kept),
            other: shown(other),
        });
        kept.clone()
    }

    fn identity(
        &mut self,
        base: Option<&Identity>,
        ours: &Identity,
        theirs: &Identity,
    ) -> Identity {
        let p = |i: &Identity| i.preferences.clone();
        let (bp, op, tp) = (base.map(p), p(ours), p(theirs));
        Identity {
            principal_name: self.pick(
                "$.identity.principalName",
                base.map(|b| &b.principal_name),
                &ours.principal_name,
                &theirs.principal_name,
            ),
            ai_name: self.pick(
                "$.identity.aiName",
                base.map(|b| &b.ai_name),
                &ours.ai_name,
                &theirs.ai_name,
            ),
            catchphrase: self.pick(
                "$.identity.catchphrase",
                base.map(|b| &b.catchphrase),
                &ours.catchphrase,
                &theirs.catchphrase,
            ),
            voice_id: self.pick(
                "$.identity.voiceId",
                base.map(|b| &b.voice_id),
                &ours.voice_id,
                &theirs.voice_id,
            ),
            preferences: super::Preferences {
                response_style: self.pick(
                    "$.identity.preferences.responseStyle",
                    bp.as_ref().map(|b| &b.response_style),
                    &op.response_style,
                    &tp.response_style,
                ),
                timezone: self.pick(
                    "$.identity.preferences.timezone",
                    bp.as_ref().map(|b| &b.timezone),
                    &op.timezone,
                    &tp.timezone,
                ),
                locale: self.pick(
                    "$.identity.preferences.locale",
                    bp.as_ref().map(|b| &b.locale),
                    &op.locale,
                    &tp.locale,
                ),
                extra: self.map(
                    "$.identity.preferences",
                    bp.as_ref().map(|b| &b.extra),
                    &op.extra,
                    &tp.extra,
                ),
            },
            extra: self.map(
                "$.identity",
                base.map(|b| &b.extra),
                &ours.extra,
                &theirs.extra,
            ),
        }
    }

    /// Unknown keys, key by key: one side's addition or change is taken, a key one side
    /// removed and the other left as it was goes.
    fn map(
        &mut self,
        path: &str,
        base: Option<&Map<String, Value>>,
        ours: &Map<String, Value>,
        theirs: &Map<String, Value>,
    ) -> Map<String, Value> {
        let mut merged = Map::new();
        let keys = ours
            .keys()
            .chain(theirs.keys().filter(|k| !ours.contains_key(*k)));
        for key in keys {
            let was = base.and_then(|b| b.get(key));
            let value = match (ours.get(key), theirs.get(key)) {
                (Some(o), Some(t)) => Some(self.pick(&format!("{path}.{key}"), was, o, t)),
                (Some(one), None) | (None, Some(one)) => (was != Some(one)).then(|| one.clone()),
                (None, None) => None,
            };
            if let Some(value) = value {
                merged.insert(key.clone(), value);
            }
        }
        merged
    }

    fn learned(&mut self, base: Option<&Learned>, ours: &Learned, theirs: &Learned) -> Learned {
        let mut merged = Learned {
            extra: self.map(
                "$.learned",
                base.map(|b| &b.extra),
                &ours.extra,
                &theirs.extra,
            ),
            ..Learned::default()
        };
        // By id through maps: a seed holds thousands of learnings, and a scan per learning
        // made the merge quadratic (0.5 s of a 10,000-learning sync).
        let base_ids = base.map(learnings_by_id).unwrap_or_default();
        let theirs_ids = learnings_by_id(theirs);
        let ours_ids = learnings_by_id(ours);
        for (kind, learning) in ours.iter() {
            match theirs_ids.get(learning.id.as_str()) {
                None => merged.of_mut(kind).push(learning.clone()),
                Some(other) => {
                    let was = base_ids.get(learning.id.as_str()).copied();
                    let both = self.learning(was, learning, other);
                    merged.of_mut(kind).extend(both);
                }
            }
        }
        for (kind, learning) in theirs.iter() {
            if !ours_ids.contains_key(learning.id.as_str()) {
                merged.of_mut(kind).push(learning.clone());
            }
        }
        merged
    }

    /// One learning both sides hold: field by field; two new texts are both kept, the other
    /// side's under a derived id.
    fn learning(
        &mut self,
        base: Option<&Learning>,
        ours: &Learning,
        theirs: &Learning,
    ) -> Vec<Learning> {
        if ours == theirs || base == Some(theirs) {
            return vec![ours.clone()];
        }
        if base == Some(ours) {
            return vec![theirs.clone()];
        }
        let at = |field: &str| format!("{}.{field}", ours.id);
        let mut merged = ours.clone();
        merged.source = self.pick(
            &at("source"),
            base.map(|b| &b.source),
            &ours.source,
            &theirs.source,
        );
        merged.extracted_at = ours.extracted_at.min(theirs.extracted_at);
        merged.confirmed = ours.confirmed || theirs.confirmed;
        merged.confirmed_at = match (ours.confirmed_at, theirs.confirmed_at) {
            (Some(o), Some(t)) => Some(o.min(t)),
            (one, other) => one.or(other),
        };
        merged.tags = ours.tags.clone();
        for tag in &theirs.tags {
            if !merged.tags.contains(tag) {
                merged.tags.push(tag.clone());
            }
        }
        merged.project = self.pick(
            &at("project"),
            base.map(|b| &b.project),
            &ours.project,
            &theirs.project,
        );
        merged.pinned = self.pick(
            &at("pinned"),
            base.map(|b| &b.pinned),
            &ours.pinned,
            &theirs.pinned,
        );
        merged.extra = self.map(&ours.id, base.map(|b| &b.extra), &ours.extra, &theirs.extra);
        let base_text = base.map(|b| &b.content);
        if ours.content == theirs.content || base_text == Some(&theirs.content) {
            return vec![merged];
        }
        if base_text == Some(&ours.content) {
            merged.content = theirs.content.clone();
            return vec![merged];
        }
        // Both rewrote the text: neither is lost.
        let mut other = merged.clone();
        other.id = format!("{}-{}", ours.id, &super::text_hash(&theirs.content)[..6]);
        other.content = theirs.content.clone();
        self.conflicts.push(MergeConflict {
            path: ours.id.clone(),
            kept: ours.content.clone(),
            other: format!("{} (kept as {})", theirs.content, other.id),
        });
        vec![merged, other]
    }

    fn state(
        &mut self,
        base: Option<&SeedState>,
        ours: &SeedState,
        theirs: &SeedState,
    ) -> SeedState {
        let strip = |map: &Map<String, Value>| {
            let mut map = map.clone();
            map.shift_remove(TOMBSTONES_KEY);
            map
        };
        let (last_session_id, last_session_at) = if theirs.last_session_at > ours.last_session_at {
            (theirs.last_session_id.clone(), theirs.last_session_at)
        } else {
            (ours.last_session_id.clone(), ours.last_session_at)
        };
        let mut active_projects = ours.active_projects.clone();
        for project in &theirs.active_projects {
            if !active_projects.contains(project) {
                active_projects.push(project.clone());
            }
        }
        SeedState {
            last_session_id,
            last_session_at,
            proposals: self.proposals(
                base.map(|b| b.proposals.as_slice()),
                &ours.proposals,
                &theirs.proposals,
            ),
            active_projects,
            checkpoint_ref: self.pick(
                "$.state.checkpointRef",
                base.map(|b| &b.checkpoint_ref),
                &ours.checkpoint_ref,
                &theirs.checkpoint_ref,
            ),
            extraction_stats: self.pick(
                "$.state.extractionStats",
                base.map(|b| &b.extraction_stats),
                &ours.extraction_stats,
                &theirs.extraction_stats,
            ),
            extra: self.map(
                "$.state",
                base.map(|b| strip(&b.extra)).as_ref(),
                &strip(&ours.extra),
                &strip(&theirs.extra),
            ),
        }
    }

    fn proposals(
        &mut self,
        base: Option<&[Proposal]>,
        ours: &[Proposal],
        theirs: &[Proposal],
    ) -> Vec<Proposal> {
        let mut merged: Vec<Proposal> = Vec::with_capacity(ours.len().max(theirs.len()));
        let base_ids = base.map(proposals_by_id).unwrap_or_default();
        let theirs_ids = proposals_by_id(theirs);
        let ours_ids = proposals_by_id(ours);
        for proposal in ours {
            match theirs_ids.get(proposal.id.as_str()) {
                None => merged.push(proposal.clone()),
                Some(other) => {
                    let was = base_ids.get(proposal.id.as_str()).copied();
                    merged.push(self.proposal(was, proposal, other));
                }
            }
        }
        for proposal in theirs {
            if !ours_ids.contains_key(proposal.id.as_str()) {
                merged.push(proposal.clone());
            }
        }
        merged
    }

    /// A decision on either side stands; accepted against rejected keeps the acceptance (its
    /// learning exists, and forgetting it is one command) and says so.
    fn proposal(
        &mut self,
        base: Option<&Proposal>,
        ours: &Proposal,
        theirs: &Proposal,
    ) -> Proposal {
        use ProposalStatus::{Accepted, Pending, Rejected};
        if ours == theirs || base == Some(theirs) {
            return ours.clone();
        }
        if base == Some(ours) {
            return theirs.clone();
        }
        match (ours.status, theirs.status) {
            (Pending, _) => theirs.clone(),
            (_, Pending) => ours.clone(),
            (Accepted, Rejected) | (Rejected, Accepted) => {
                let (accepted, rejected) = if ours.status == Accepted {
                    (ours, theirs)
                } else {
                    (theirs, ours)
                };
                self.conflicts.push(MergeConflict {
                    path: ours.id.clone(),
                    kept: "accepted".to_owned(),
                    other: format!(
                        "rejected{}",
                        rejected
                            .decided_at
                            .map_or_else(String::new, |at| format!(" at {at}"))
                    ),
                });
                accepted.clone()
            }
            _ => match self.newer {
                Side::Ours => ours.clone(),
                Side::Theirs => theirs.clone(),
            },
        }
    }
}

fn learnings_by_id(learned: &Learned) -> HashMap<&str, &Learning> {
    learned.iter().map(|(_, l)| (l.id.as_str(), l)).collect()
}

fn proposals_by_id(list: &[Proposal]) -> HashMap<&str, &Proposal> {
    list.iter().map(|p| (p.id.as_str(), p)).collect()
}

/// A value as JSON, for a conflict's report.
fn shown<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{Timestamp, decode_seed, encode_seed};
    use proptest::prelude::*;
    use rstest::rstest;

    const EARLY: &str = "2026-11-01T09:00:00Z";
    const FORGOT: &str = "2026-11-20T10:00:00Z";
    const LATE: &str = "2026-11-22T09:00:00Z";

    fn at(raw: &str) -> Timestamp {
        Timestamp::parse(raw).unwrap()
    }

    fn learning(id: &str, text: &str, when: &str) -> Learning {
        Learning::new(id.into(), text.into(), "test".into(), at(when), true)
    }

    fn proposal(id: &str, status: ProposalStatus) -> Proposal {
        Proposal {
            id: id.into(),
            kind: LearningKind::Pattern,
            content: "Prefers early returns".into(),
            source: "s1".into(),
            extracted_at: at(EARLY),
            status,
            method: Some("rules".into()),
            confidence: Some(0.8),
            decided_at: (status != ProposalStatus::Pending).then(|| at(LATE)),
            project: None,
            extra: Map::new(),
        }
    }

    fn base() -> Seed {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        seed.identity.ai_name = "Juno".into();
        seed.learned
            .insights
            .push(learning("ins_base", "Deploys go out on Tuesdays", EARLY));
        seed.state
            .proposals
            .push(proposal("prp_1", ProposalStatus::Pending));
        seed
    }

    fn add(seed: &mut Seed, id: &str, text: &str, when: &str) {
        seed.learned.insights.push(learning(id, text, when));
    }

    fn forget(seed: &mut Seed, id: &str) {
        let at_ = seed
            .learned
            .insights
            .iter()
            .position(|l| l.id == id)
            .unwrap();
        let gone = seed.learned.insights.remove(at_);
        seed.bury(&gone, at(FORGOT));
    }

    fn ids(seed: &Seed) -> Vec<&str> {
        seed.learned.iter().map(|(_, l)| l.id.as_str()).collect()
    }

    #[rstest]
    #[case::an_add_on_each_side_is_kept(
        |s: &mut Seed| add(s, "ins_a", "Staging resets on Sundays", LATE),
        |s: &mut Seed| add(s, "ins_b", "CI runs on arm64", LATE),
        &["ins_base", "ins_a", "ins_b"]
    )]
    #[case::forgotten_on_one_side_stays_forgotten(
        |s: &mut Seed| forget(s, "ins_base"),
        |_: &mut Seed| {},
        &[]
    )]
    #[case::forgotten_on_one_side_while_the_other_pinned_it(
        |s: &mut Seed| s.learned.insights[0].pinned = true,
        |s: &mut Seed| forget(s, "ins_base"),
        &[]
    )]
    #[case::forgotten_also_under_the_other_machines_id(
        |s: &mut Seed| forget(s, "ins_base"),
        |s: &mut Seed| add(s, "ins_twin", "deploys go out on tuesdays.", EARLY),
        &[]
    )]
    #[case::learned_again_after_it_was_forgotten(
        |s: &mut Seed| forget(s, "ins_base"),
        |s: &mut Seed| add(s, "ins_again", "Deploys go out on Tuesdays", LATE),
        &["ins_again"]
    )]
    #[case::the_same_text_on_two_machines_becomes_one(
        |s: &mut Seed| add(s, "ins_b2", "Staging resets on Sundays", LATE),
        |s: &mut Seed| add(s, "ins_a2", "staging resets on sundays", LATE),
        &["ins_base", "ins_a2"]
    )]
    #[case::removed_without_a_tombstone_is_kept(
        |s: &mut Seed| s.learned.insights.clear(),
        |_: &mut Seed| {},
        &["ins_base"]
    )]
    fn learnings(
        #[case] ours_edit: fn(&mut Seed),
        #[case] theirs_edit: fn(&mut Seed),
        #[case] expected: &[&str],
    ) {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours_edit(&mut ours);
        theirs_edit(&mut theirs);
        for (a, b) in [(&ours, &theirs), (&theirs, &ours)] {
            let merged = merge_seeds(Some(&base), a, b, Side::Ours);
            let mut got = ids(&merged.seed);
            got.sort_unstable();
            let mut want = expected.to_vec();
            want.sort_unstable();
            assert_eq!(got, want, "merging {:?} into {:?}", ids(b), ids(a));
            assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
        }
    }

    #[test]
    fn the_tombstones_of_both_sides_are_kept() {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        add(&mut ours, "ins_o", "One", EARLY);
        forget(&mut ours, "ins_o");
        add(&mut theirs, "ins_t", "Two", EARLY);
        forget(&mut theirs, "ins_t");
        let merged = merge_seeds(Some(&base), &ours, &theirs, Side::Ours).seed;
        let tombstones: Vec<String> = merged.tombstones().into_iter().map(|t| t.id).collect();
        assert_eq!(tombstones, ["ins_o", "ins_t"]);
    }

    #[rstest]
    #[case::accepted_on_one_side(
        ProposalStatus::Pending,
        ProposalStatus::Accepted,
        ProposalStatus::Accepted,
        0
    )]
    #[case::rejected_on_one_side(
        ProposalStatus::Rejected,
        ProposalStatus::Pending,
        ProposalStatus::Rejected,
        0
    )]
    #[case::the_same_decision(
        ProposalStatus::Rejected,
        ProposalStatus::Rejected,
        ProposalStatus::Rejected,
        0
    )]
    #[case::accepted_here_rejected_there(
        ProposalStatus::Accepted,
        ProposalStatus::Rejected,
        ProposalStatus::Accepted,
        1
    )]
    #[case::rejected_here_accepted_there(
        ProposalStatus::Rejected,
        ProposalStatus::Accepted,
        ProposalStatus::Accepted,
        1
    )]
    fn a_decision_on_either_side_stands(
        #[case] ours_status: ProposalStatus,
        #[case] theirs_status: ProposalStatus,
        #[case] expected: ProposalStatus,
        #[case] conflicts: usize,
    ) {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours.state.proposals[0] = proposal("prp_1", ours_status);
        theirs.state.proposals[0] = proposal("prp_1", theirs_status);
        theirs
            .state
            .proposals
            .push(proposal("prp_2", ProposalStatus::Pending));
        let merged = merge_seeds(Some(&base), &ours, &theirs, Side::Theirs);
        let statuses: Vec<_> = merged
            .seed
            .state
            .proposals
            .iter()
            .map(|p| (p.id.as_str(), p.status))
            .collect();
        assert_eq!(
            statuses,
            [("prp_1", expected), ("prp_2", ProposalStatus::Pending)]
        );
        assert_eq!(merged.conflicts.len(), conflicts, "{:?}", merged.conflicts);
        if conflicts > 0 {
            assert_eq!(merged.conflicts[0].path, "prp_1");
            assert!(merged.conflicts[0].other.starts_with("rejected"));
        }
    }

    #[rstest]
    #[case::each_side_changed_another_field(Side::Ours, "Iris", "Juno", "Iris", "Europe/Lisbon", 0)]
    #[case::both_renamed_it_the_newer_wins(
        Side::Theirs,
        "Iris",
        "Nova",
        "Nova",
        "Europe/Lisbon",
        1
    )]
    #[case::both_renamed_it_ours_newer(Side::Ours, "Iris", "Nova", "Iris", "Europe/Lisbon", 1)]
    fn the_identity_takes_the_newer_change_per_field(
        #[case] newer: Side,
        #[case] ours_name: &str,
        #[case] theirs_name: &str,
        #[case] expected_name: &str,
        #[case] expected_zone: &str,
        #[case] conflicts: usize,
    ) {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours.identity.ai_name = ours_name.into();
        theirs.identity.ai_name = theirs_name.into();
        theirs.identity.preferences.timezone = "Europe/Lisbon".into();
        let merged = merge_seeds(Some(&base), &ours, &theirs, newer);
        assert_eq!(merged.seed.identity.ai_name, expected_name);
        assert_eq!(merged.seed.identity.preferences.timezone, expected_zone);
        assert_eq!(merged.conflicts.len(), conflicts, "{:?}", merged.conflicts);
        if conflicts > 0 {
            assert_eq!(merged.conflicts[0].path, "$.identity.aiName");
        }
    }

    #[test]
    fn unknown_keys_of_both_sides_are_kept() {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours.extra.insert("mood".into(), "calm".into());
        theirs.state.extra.insert("streak".into(), 3.into());
        theirs.learned.insights[0]
            .extra
            .insert("weight".into(), 2.into());
        let merged = merge_seeds(Some(&base), &ours, &theirs, Side::Ours).seed;
        assert_eq!(merged.extra["mood"], "calm");
        assert_eq!(merged.state.extra["streak"], 3);
        assert_eq!(merged.learned.insights[0].extra["weight"], 2);
    }

    #[test]
    fn a_text_rewritten_on_both_sides_is_kept_twice_and_reported() {
        let base = base();
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        ours.learned.insights[0].content = "Deploys go out on Wednesdays".into();
        theirs.learned.insights[0].content = "Deploys go out on Thursdays".into();
        let merged = merge_seeds(Some(&base), &ours, &theirs, Side::Ours);
        let texts: Vec<&str> = merged
            .seed
            .learned
            .insights
            .iter()
            .map(|l| l.content.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "Deploys go out on Wednesdays",
                "Deploys go out on Thursdays"
            ]
        );
        assert_eq!(merged.conflicts.len(), 1);
        decode_seed(&encode_seed(&merged.seed)).expect("ids stay unique");
    }

    #[test]
    fn two_seeds_without_a_common_history_are_unioned() {
        let mut ours = base();
        let mut theirs = base();
        theirs.learned.insights.clear();
        add(&mut theirs, "ins_other", "CI runs on arm64", LATE);
        ours.identity.ai_name = "Iris".into();
        let merged = merge_seeds(None, &ours, &theirs, Side::Theirs);
        assert_eq!(ids(&merged.seed), ["ins_base", "ins_other"]);
        assert_eq!(merged.seed.identity.ai_name, "Juno");
        assert_eq!(merged.conflicts.len(), 1);
    }

    #[test]
    fn merging_a_seed_with_itself_changes_nothing() {
        let mut seed = base();
        forget(&mut seed, "ins_base");
        add(&mut seed, "ins_x", "CI runs on arm64", LATE);
        let merged = merge_seeds(Some(&base()), &seed, &seed, Side::Theirs);
        assert_eq!(merged.seed, seed);
        assert!(merged.conflicts.is_empty());
    }

    /// What one machine does to its copy.
    #[derive(Debug, Clone)]
    enum Op {
        Learn(usize),
        Forget(usize),
        Pin(usize),
    }

    const TEXTS: [&str; 6] = [
        "Deploys go out on Tuesdays",
        "deploys go out on tuesdays.",
        "Staging resets on Sundays",
        "CI runs on arm64",
        "Prefers rstest tables",
        "Never commit to main",
    ];

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..TEXTS.len()).prop_map(Op::Learn),
            (0..8usize).prop_map(Op::Forget),
            (0..8usize).prop_map(Op::Pin),
        ]
    }

    fn minutes(n: usize) -> Timestamp {
        Timestamp::new(at(EARLY).instant() + time::Duration::minutes(n as i64))
    }

    fn play(seed: &mut Seed, side: &str, ops: &[Op]) {
        for (step, op) in ops.iter().enumerate() {
            let now = minutes(100 + step);
            let list = &mut seed.learned.insights;
            match op {
                Op::Learn(text) => list.push(Learning::new(
                    format!("ins_{side}{step}"),
                    TEXTS[*text].into(),
                    "test".into(),
                    now,
                    true,
                )),
                Op::Forget(pick) if !list.is_empty() => {
                    let gone = list.remove(pick % list.len());
                    seed.bury(&gone, now);
                }
                Op::Pin(pick) if !list.is_empty() => {
                    let len = list.len();
                    list[pick % len].pinned ^= true;
                }
                _ => {}
            }
        }
    }

    proptest! {
        #[test]
        fn a_merge_loses_no_learning_and_revives_no_forgotten_one(
            start in proptest::collection::vec(0..TEXTS.len(), 0..5),
            ours_ops in proptest::collection::vec(op(), 0..8),
            theirs_ops in proptest::collection::vec(op(), 0..8),
            newer_is_ours in any::<bool>(),
        ) {
            let mut base = Seed::default();
            for (i, text) in start.iter().enumerate() {
                base.learned.insights.push(Learning::new(
                    format!("ins_base{i}"), TEXTS[*text].into(), "test".into(), minutes(i), true,
                ));
            }
            let (mut ours, mut theirs) = (base.clone(), base.clone());
            play(&mut ours, "o", &ours_ops);
            play(&mut theirs, "t", &theirs_ops);
            let newer = if newer_is_ours { Side::Ours } else { Side::Theirs };
            let merged = merge_seeds(Some(&base), &ours, &theirs, newer).seed;
            let tombstones: Vec<Tombstone> =
                ours.tombstones().into_iter().chain(theirs.tombstones()).collect();
            let held = |l: &Learning| {
                merged.learned.insights.iter().any(|m| {
                    m.id == l.id || normalised_text(&m.content) == normalised_text(&l.content)
                })
            };
            for learning in ours.learned.insights.iter().chain(&theirs.learned.insights) {
                let buried = tombstones.iter().any(|t| t.buries(learning));
                prop_assert!(buried || held(learning), "lost {learning:?}");
            }
            for learning in &merged.learned.insights {
                prop_assert!(!tombstones.iter().any(|t| t.buries(learning)), "revived {learning:?}");
            }
            prop_assert!(decode_seed(&encode_seed(&merged)).is_ok());
        }

        #[test]
        fn a_merge_loses_no_decision(
            ours_decisions in proptest::collection::vec(0..3u8, 4),
            theirs_decisions in proptest::collection::vec(0..3u8, 4),
            newer_is_ours in any::<bool>(),
        ) {
            let status = |d: u8| match d {
                0 => ProposalStatus::Pending,
                1 => ProposalStatus::Accepted,
                _ => ProposalStatus::Rejected,
            };
            let mut base = Seed::default();
            for i in 0..4 {
                base.state.proposals.push(proposal(&format!("prp_{i}"), ProposalStatus::Pending));
            }
            let (mut ours, mut theirs) = (base.clone(), base.clone());
            for i in 0..4 {
                ours.state.proposals[i] = proposal(&format!("prp_{i}"), status(ours_decisions[i]));
                theirs.state.proposals[i] = proposal(&format!("prp_{i}"), status(theirs_decisions[i]));
            }
            let newer = if newer_is_ours { Side::Ours } else { Side::Theirs };
            let merged = merge_seeds(Some(&base), &ours, &theirs, newer).seed;
            prop_assert_eq!(merged.state.proposals.len(), 4);
            for (i, p) in merged.state.proposals.iter().enumerate() {
                let sides = [status(ours_decisions[i]), status(theirs_decisions[i])];
                let decided = sides.iter().any(|s| *s != ProposalStatus::Pending);
                prop_assert_eq!(p.status != ProposalStatus::Pending, decided, "{:?}", p);
                if sides.contains(&ProposalStatus::Accepted) {
                    prop_assert_eq!(p.status, ProposalStatus::Accepted);
                }
            }
        }
    }
}
