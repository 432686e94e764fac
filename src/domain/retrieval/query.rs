//! What a session's project is about right now, as retrieval's query.

/// Handoff lines a query takes from each section: a handoff of 100,000 open items must cost
/// what one of twenty does.
const MAX_LINES: usize = 20;
/// The query's length at most.
const MAX_QUERY_BYTES: usize = 4_096;

/// The project facts the query is built from (ADR 0005): its name, branch, recent commit
/// subjects and the newest handoff's open lines. A path alone says almost nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectQuery {
    /// The project's name.
    pub name: String,
    /// The current git branch, when known.
    pub branch: Option<String>,
    /// Recent commit subjects, newest first.
    pub recent_commits: Vec<String>,
    /// In-progress lines of the newest handoff.
    pub in_progress: Vec<String>,
    /// Next-step lines of the newest handoff.
    pub next_steps: Vec<String>,
}

impl ProjectQuery {
    /// The query text: the branch's words (`feature/order-fetcher-retries` → `feature order
    /// fetcher retries`) with the name, then the commits and handoff lines.
    pub fn text(&self) -> String {
        let mut parts = vec![words(&self.name)];
        if let Some(branch) = self
            .branch
            .as_deref()
            .filter(|b| !matches!(*b, "main" | "master" | "HEAD"))
        {
            parts.push(words(branch));
        }
        parts.extend(self.recent_commits.iter().cloned());
        parts.extend(self.in_progress.iter().take(MAX_LINES).cloned());
        parts.extend(self.next_steps.iter().take(MAX_LINES).cloned());
        parts.retain(|part| !part.trim().is_empty());
        let mut text = parts.join(". ");
        if text.len() > MAX_QUERY_BYTES {
            let mut end = MAX_QUERY_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        text
    }
}

fn words(identifier: &str) -> String {
    identifier
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_name_branch_commits_and_handoff_lines() {
        let query = ProjectQuery {
            name: "shop-api".into(),
            branch: Some("feature/order-fetcher_retries".into()),
            recent_commits: vec!["Add retry budget".into()],
            in_progress: vec!["Timeout test".into()],
            next_steps: vec!["Document the policy".into()],
        };
        assert_eq!(
            query.text(),
            "shop api. feature order fetcher retries. Add retry budget. Timeout test. Document the policy"
        );
    }

    #[test]
    fn the_default_branch_adds_nothing() {
        let query = ProjectQuery {
            name: "notes".into(),
            branch: Some("main".into()),
            ..ProjectQuery::default()
        };
        assert_eq!(query.text(), "notes");
    }
}
