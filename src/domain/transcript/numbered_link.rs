//! Pull request, merge request and issue addresses taken apart: what kind, which number, and
//! the repository's list they belong to (`https://github.com/o/r/pull/35/files` is PR #35 of
//! `https://github.com/o/r/pull`).

/// What a numbered link points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// A GitHub pull request.
    PullRequest,
    /// A GitLab merge request.
    MergeRequest,
    /// An issue.
    Issue,
}

/// Where the number follows in each kind's address.
const MARKERS: [(&str, LinkKind); 3] = [
    ("/pull/", LinkKind::PullRequest),
    ("/-/merge_requests/", LinkKind::MergeRequest),
    ("/issues/", LinkKind::Issue),
];

impl LinkKind {
    /// How people name one: `PR`, `MR`, `Issue`.
    pub fn name(self) -> &'static str {
        match self {
            Self::PullRequest => "PR",
            Self::MergeRequest => "MR",
            Self::Issue => "Issue",
        }
    }

    /// Whether it proposes a change (a pull or merge request) rather than reports a problem.
    pub fn is_change_request(self) -> bool {
        self != Self::Issue
    }

    /// The sign people write before its number: `#546`, `!12`.
    fn sign(self) -> char {
        match self {
            Self::MergeRequest => '!',
            Self::PullRequest | Self::Issue => '#',
        }
    }
}

/// A pull request, merge request or issue address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberedLink<'a> {
    /// What it points at.
    pub kind: LinkKind,
    /// Its number, digits only.
    pub number: &'a str,
    /// The repository's list of its kind (`https://github.com/o/r/pull`).
    pub list: &'a str,
}

impl<'a> NumberedLink<'a> {
    /// The address taken apart; `None` for any other address (a deploy, `…/pull/new/x`).
    pub fn parse(url: &'a str) -> Option<Self> {
        MARKERS.iter().find_map(|(marker, kind)| {
            let at = url.find(marker)?;
            let rest = &url[at + marker.len()..];
            let number = rest.split(['/', '#', '?']).next()?;
            let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| Self {
                kind: *kind,
                number,
                list: &url[..at + marker.len() - 1],
            })
        })
    }

    /// Its number as people write it: `#546`, `!12`.
    pub fn reference(&self) -> String {
        format!("{}{}", self.kind.sign(), self.number)
    }

    /// How people name it: `PR #546`, `Issue #544`, `MR !12`.
    pub fn label(&self) -> String {
        format!("{} {}", self.kind.name(), self.reference())
    }

    /// Its address cut after the number (`…/pull/35/files` → `…/pull/35`).
    pub fn address(&self) -> String {
        format!("{}/{}", self.list, self.number)
    }
}

/// How people name a numbered link: `PR #546`, `Issue #544`, `MR !12`; `None` for others.
pub fn link_label(url: &str) -> Option<String> {
    NumberedLink::parse(url).map(|link| link.label())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("https://github.com/o/r/pull/546", Some("PR #546"))]
    #[case("https://github.com/o/r/issues/544#issuecomment-1", Some("Issue #544"))]
    #[case("https://gitlab.com/g/p/-/merge_requests/12", Some("MR !12"))]
    #[case("https://github.com/o/r/pull/new/branch", None)]
    #[case("https://app.vercel.app", None)]
    fn names_numbered_links(#[case] url: &str, #[case] label: Option<&str>) {
        assert_eq!(link_label(url).as_deref(), label);
    }

    #[rstest]
    #[case(
        "https://github.com/o/r/pull/35/files",
        "https://github.com/o/r/pull",
        "https://github.com/o/r/pull/35"
    )]
    #[case(
        "https://gitlab.com/g/p/-/merge_requests/12?tab=diffs",
        "https://gitlab.com/g/p/-/merge_requests",
        "https://gitlab.com/g/p/-/merge_requests/12"
    )]
    fn takes_an_address_apart(#[case] url: &str, #[case] list: &str, #[case] address: &str) {
        let link = NumberedLink::parse(url).unwrap();
        assert_eq!((link.list, link.address().as_str()), (list, address));
    }

    #[test]
    fn only_pull_and_merge_requests_propose_changes() {
        assert!(LinkKind::PullRequest.is_change_request());
        assert!(LinkKind::MergeRequest.is_change_request());
        assert!(!LinkKind::Issue.is_change_request());
    }
}
