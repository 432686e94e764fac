//! The notices a session start carries about how the session began.

use crate::domain::context::Section;
use crate::domain::format::{data_line, xml_attr, xml_text};

use super::{Fill, Tier};

/// After a compaction with recorded state: tier, fill, the checkpoint and its summary.
pub fn compaction_notice(
    tier: Tier,
    fill: Fill,
    checkpoint: Option<&str>,
    summary: &[String],
) -> Section {
    let review = checkpoint
        .map(|path| format!(" Review checkpoint at {}.", xml_text(path)))
        .unwrap_or_default();
    let mut section = Section::items(format!(
        "<compaction-notice tier=\"{}\" fill=\"{}\">Context was compacted at {} tier ({} fill).{review} Resume from the last recorded state.</compaction-notice>",
        xml_attr(tier.as_str()),
        fill.attribute(),
        tier.as_str(),
        fill.percent(),
    ));
    if !summary.is_empty() {
        section.push_fixed("Resumption summary from the checkpoint:".to_owned());
        for line in summary {
            // The checkpoint file is read back: what it says is data, one line each.
            let indent = line.len() - line.trim_start().len();
            section.push_item(format!("{}{}", &line[..indent], data_line(line, 400)));
        }
    }
    section
}

/// After a compaction that pre-compact did not record: the figures of the transcript's
/// `compact_boundary` row.
pub fn boundary_notice(tier: Tier, fill: Fill, pre_tokens: u64) -> Section {
    Section::fixed(vec![format!(
        "<compaction-notice tier=\"{}\" fill=\"{}\">Context was compacted at {} tier ({} fill, {} tokens before compaction, as the transcript records). No checkpoint was recorded.</compaction-notice>",
        xml_attr(tier.as_str()),
        fill.attribute(),
        tier.as_str(),
        fill.percent(),
        thousands(pre_tokens),
    )])
}

/// After a compaction nothing recorded.
pub fn bare_compaction_notice() -> Section {
    Section::fixed(vec![
        "<compaction-notice>Context was compacted. No pre-compaction state was recorded.</compaction-notice>"
            .to_owned(),
    ])
}

/// A new or cleared session.
pub fn reset_notice() -> Section {
    Section::fixed(vec![
        "<session-reset>New session started. No prior compaction state detected.</session-reset>"
            .to_owned(),
    ])
}

/// `171243` → `171,243`.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_recorded_notice_names_tier_fill_and_checkpoint() {
        let section = compaction_notice(
            Tier::Critical,
            Fill::from_ratio(0.8351),
            Some("/data/projects/x/checkpoints/a&b.md"),
            &["Last requests:".into(), "  - add retries".into()],
        );
        assert_eq!(
            section.render(),
            "<compaction-notice tier=\"CRITICAL\" fill=\"0.84\">Context was compacted at CRITICAL tier (84% fill). \
             Review checkpoint at /data/projects/x/checkpoints/a&amp;b.md. Resume from the last recorded state.</compaction-notice>\n\
             Resumption summary from the checkpoint:\nLast requests:\n  - add retries"
        );
    }

    #[test]
    fn the_boundary_notice_carries_the_transcript_figures() {
        let text = boundary_notice(Tier::Nominal, Fill::of(171_243, 1_000_000), 171_243).render();
        assert!(
            text.starts_with("<compaction-notice tier=\"NOMINAL\" fill=\"0.17\">"),
            "{text}"
        );
        assert!(text.contains("171,243 tokens before compaction"));
    }

    #[test]
    fn fixed_notices() {
        assert_eq!(
            bare_compaction_notice().render(),
            "<compaction-notice>Context was compacted. No pre-compaction state was recorded.</compaction-notice>"
        );
        assert_eq!(
            reset_notice().render(),
            "<session-reset>New session started. No prior compaction state detected.</session-reset>"
        );
    }

    #[rstest]
    #[case(0, "0")]
    #[case(999, "999")]
    #[case(1_000, "1,000")]
    #[case(171_243, "171,243")]
    #[case(1_000_000, "1,000,000")]
    fn groups_thousands(#[case] value: u64, #[case] text: &str) {
        assert_eq!(thousands(value), text);
    }
}
