//! The links a session produced, as a handoff lists them: numbered links of one repository
//! and kind on one line ("Issue #45, Issue #44 (https://github.com/o/r/issues)"), each number
//! once, so that a session that filed a dozen issues does not spend the budget on addresses.

use crate::domain::transcript::link_label;

/// Where the number of a pull request, merge request or issue follows in its address.
const MARKERS: [&str; 3] = ["/pull/", "/-/merge_requests/", "/issues/"];

/// One line per repository and kind of numbered link, newest first; other links (deploys)
/// one line each. At most `max` lines.
pub fn link_lines(links_newest_first: &[&str], max: usize) -> Vec<String> {
    // (label kind, repository address, numbers, the address of the only one)
    let mut groups: Vec<(String, String, Vec<String>, String)> = Vec::new();
    let mut lines_order: Vec<Line> = Vec::new();
    for link in links_newest_first {
        let Some((kind, number, base)) = numbered(link) else {
            lines_order.push(Line::Plain((*link).to_owned()));
            continue;
        };
        match groups
            .iter_mut()
            .position(|(k, b, _, _)| *k == kind && *b == base)
        {
            Some(at) => {
                let numbers = &mut groups[at].2;
                if !numbers.contains(&number) {
                    numbers.push(number);
                }
            }
            None => {
                lines_order.push(Line::Group(groups.len()));
                groups.push((kind, base, vec![number], (*link).to_owned()));
            }
        }
    }
    lines_order
        .into_iter()
        .take(max)
        .map(|line| match line {
            Line::Plain(link) => link,
            Line::Group(at) => {
                let (kind, base, numbers, only) = &groups[at];
                match numbers.as_slice() {
                    [number] => format!("{kind} {number}: {only}"),
                    _ => {
                        let named: Vec<String> =
                            numbers.iter().map(|n| format!("{kind} {n}")).collect();
                        format!("{} ({base})", named.join(", "))
                    }
                }
            }
        })
        .collect()
}

enum Line {
    Plain(String),
    Group(usize),
}

/// A numbered link's kind (`PR`, `Issue`, `MR`), its number as people write it (`#12`,
/// `!7`) and the address of its repository's list (`https://github.com/o/r/pull`).
fn numbered(link: &str) -> Option<(String, String, String)> {
    let label = link_label(link)?;
    let (kind, number) = label.split_once(' ')?;
    let end = MARKERS
        .iter()
        .find_map(|marker| link.find(marker).map(|at| at + marker.len() - 1))?;
    Some((kind.to_owned(), number.to_owned(), link[..end].to_owned()))
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
