//! The links a session produced, as a handoff lists them: numbered links of one repository
//! and kind on one line (`Issue #45, Issue #44 (https://github.com/o/r/issues)`), each number
//! once, so that a session that filed a dozen issues does not spend the budget on addresses.

use crate::domain::transcript::NumberedLink;

/// A line of the list: a link of its own, or the numbered links of one repository's list.
enum Line<'a> {
    Plain(&'a str),
    Group(NumberedLink<'a>, Vec<String>),
}

/// One line per repository and kind of numbered link, newest first; other links (deploys)
/// one line each. At most `max` lines.
pub fn link_lines(links_newest_first: &[&str], max: usize) -> Vec<String> {
    let mut lines: Vec<Line<'_>> = Vec::new();
    for link in links_newest_first {
        let Some(numbered) = NumberedLink::parse(link) else {
            lines.push(Line::Plain(link));
            continue;
        };
        let group = lines.iter_mut().find_map(|line| match line {
            Line::Group(first, references)
                if first.kind == numbered.kind && first.list == numbered.list =>
            {
                Some(references)
            }
            _ => None,
        });
        let reference = numbered.label();
        match group {
            Some(references) if !references.contains(&reference) => references.push(reference),
            Some(_) => {}
            None => lines.push(Line::Group(numbered, vec![reference])),
        }
    }
    lines
        .into_iter()
        .take(max)
        .map(|line| match line {
            Line::Plain(link) => link.to_owned(),
            Line::Group(only, references) if references.len() == 1 => {
                format!("{}: {}", references[0], only.address())
            }
            Line::Group(first, references) => {
                format!("{} ({})", references.join(", "), first.list)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_links_of_one_repository_share_a_line() {
        let links = [
            "https://github.com/o/r/issues/45",
            "https://github.com/o/r/issues/44",
            "https://github.com/o/r/pull/46",
            "https://github.com/o/r/issues/6#issuecomment-5040125174",
            "https://github.com/o/r/issues/6",
            "https://shop-abc.vercel.app",
        ];
        assert_eq!(
            link_lines(&links, 5),
            vec![
                "Issue #45, Issue #44, Issue #6 (https://github.com/o/r/issues)",
                "PR #46: https://github.com/o/r/pull/46",
                "https://shop-abc.vercel.app",
            ]
        );
    }

    #[test]
    fn merge_requests_are_grouped_by_their_list() {
        let links = [
            "https://gitlab.com/o/r/-/merge_requests/7",
            "https://gitlab.com/o/r/-/merge_requests/8",
        ];
        assert_eq!(
            link_lines(&links, 5),
            vec!["MR !7, MR !8 (https://gitlab.com/o/r/-/merge_requests)"]
        );
    }

    #[test]
    fn a_single_link_keeps_its_address() {
        assert_eq!(
            link_lines(&["https://gitlab.com/o/r/-/merge_requests/7"], 5),
            vec!["MR !7: https://gitlab.com/o/r/-/merge_requests/7"]
        );
    }

    #[test]
    fn other_repositories_and_the_limit() {
        let links = [
            "https://github.com/a/x/issues/1",
            "https://github.com/b/y/issues/2",
            "https://github.com/a/x/issues/3",
            "https://one.netlify.app",
        ];
        assert_eq!(
            link_lines(&links, 2),
            vec![
                "Issue #1, Issue #3 (https://github.com/a/x/issues)",
                "Issue #2: https://github.com/b/y/issues/2",
            ]
        );
    }
}
