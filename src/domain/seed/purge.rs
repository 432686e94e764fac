//! Taking a forgotten learning out of a stored version of the seed, for a history rewrite
//! (`learnings forget --purge`): the learning by id, any proposal with the same text (the one
//! it was accepted from), and, as a last resort, the text wherever else it still stands.

use super::{decode_seed, encode_seed};

/// What stands in for the text where it was part of something else.
pub const PURGED: &str = "[forgotten]";

/// `text` (one version of the seed file) without the learning `id` and without `content`;
/// `None` when that version holds neither, so that it stays byte for byte as it was. A
/// version that decodes is re-encoded (it stays a valid seed); one that does not has the
/// text replaced where it stands, inside its JSON string.
pub fn purge_version(text: &str, id: &str, content: &str) -> Option<String> {
    let escaped = json_escaped(content);
    let names_id = text.contains(&json_escaped(id));
    if !names_id && !text.contains(&escaped) {
        return None;
    }
    let mut purged = match decode_seed(text) {
        Ok(mut seed) => {
            let wanted = normalised(content);
            for kind in super::LearningKind::ALL {
                seed.learned
                    .of_mut(kind)
                    .retain(|l| l.id != id && normalised(&l.content) != wanted);
            }
            seed.state
                .proposals
                .retain(|p| normalised(&p.content) != wanted);
            encode_seed(&seed)
        }
        Err(_) => text.to_owned(),
    };
    if !escaped.is_empty() && purged.contains(&escaped) {
        purged = purged.replace(&escaped, PURGED);
    }
    (purged != text).then_some(purged)
}

/// `text` as it stands inside a JSON string (without the quotes).
fn json_escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or_default()
        .to_owned()
}

fn normalised(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::seed::{Learning, Proposal, Seed, Timestamp, decode_seed, encode_seed};

    const SECRET: &str = "the staging root password is hunter2-\"quoted\"";

    fn seed_holding(secret_learning: bool, secret_proposal: bool) -> String {
        let mut seed = Seed::default();
        seed.identity.principal_name = "Mara".into();
        let at = Timestamp::parse("2026-11-01T10:00:00Z").unwrap();
        seed.learned.insights.push(Learning::new(
            "ins_keep".into(),
            "Deploys go out on Tuesdays".into(),
            "carryover learn".into(),
            at,
            true,
        ));
        if secret_learning {
            seed.learned.insights.push(Learning::new(
                "ins_gone".into(),
                SECRET.into(),
                "carryover learn".into(),
                at,
                true,
            ));
        }
        if secret_proposal {
            let text = encode_seed(&seed);
            let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
            value["state"]["proposals"] = serde_json::json!([{
                "id": "prop_1", "type": "insight", "content": SECRET,
                "source": "session", "extractedAt": "2026-11-01T10:00:00Z", "status": "accepted"
            }]);
            let seed: Seed = serde_json::from_value(value).unwrap();
            let _: &Vec<Proposal> = &seed.state.proposals;
            return encode_seed(&seed);
        }
        encode_seed(&seed)
    }

    #[rstest::rstest]
    #[case::a_version_without_it_is_left_as_it_is(false, false, false)]
    #[case::the_learning_is_removed(true, false, true)]
    #[case::the_proposal_it_came_from_too(true, true, true)]
    fn purges_one_version(#[case] learning: bool, #[case] proposal: bool, #[case] changed: bool) {
        let text = seed_holding(learning, proposal);
        let purged = purge_version(&text, "ins_gone", SECRET);
        assert_eq!(purged.is_some(), changed);
        if let Some(purged) = purged {
            assert!(!purged.contains("hunter2"), "{purged}");
            let seed = decode_seed(&purged).expect("still a valid seed");
            assert_eq!(seed.learned.insights.len(), 1);
            assert_eq!(seed.learned.insights[0].id, "ins_keep");
        }
    }

    #[test]
    fn a_version_that_does_not_decode_has_the_text_replaced_in_place() {
        let text = format!(
            "{{\"version\": \"0.1\", \"note\": {}}}",
            serde_json::json!(SECRET)
        );
        let purged = purge_version(&text, "ins_gone", SECRET).unwrap();
        assert_eq!(purged, "{\"version\": \"0.1\", \"note\": \"[forgotten]\"}");
        serde_json::from_str::<serde_json::Value>(&purged).unwrap();
    }
}
