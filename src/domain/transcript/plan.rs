//! The plan the assistant proposed last at plan-mode exit (Claude Code's `ExitPlanMode`) and
//! what became of it. A plan the user did not let run in the session, or one approved but not
//! started, is the next session's work: with "clear context", the client ends the session on
//! a rejected plan-mode exit and starts a new one on "Implement the following plan".

use crate::domain::format::clip;

/// A plan's title is cut to this.
const MAX_TITLE: usize = 120;
/// Labels a plan's heading opens with, which say nothing of the plan itself.
const LABELS: [&str; 3] = ["implementation plan:", "plan:", "plan –"];
/// How Claude Code opens the session that carries out a plan approved with "clear context".
const IMPLEMENT: &str = "Implement the following plan:";
/// Where Claude Code keeps plan files, with `/` as separator.
const PLANS_DIR: &str = "/.claude/plans/";

/// The last plan a session proposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Its first heading (or first line), without a "Plan:" label.
    pub title: String,
    /// The file the client keeps it in, when known.
    pub file: Option<String>,
    /// The user's answer to it.
    pub verdict: PlanVerdict,
    /// Whether work was done after the verdict (edits, commands that change something).
    pub followed_by_work: bool,
}

/// The user's answer to a proposed plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanVerdict {
    /// No answer was recorded: the session ended on the question.
    Awaiting,
    /// The user let it run.
    Approved,
    /// The user declined it, kept planning, or took it to a new session.
    Declined,
}

impl Plan {
    /// A plan proposed in `text`, not yet answered; `None` when the text is empty.
    pub fn proposed(text: &str, file: Option<String>) -> Option<Self> {
        Some(Self {
            title: plan_title(text)?,
            file,
            verdict: PlanVerdict::Awaiting,
            followed_by_work: false,
        })
    }

    /// Whether the plan is still to be carried out: nothing was done after the user answered
    /// it (or the answer never came).
    pub fn is_open(&self) -> bool {
        !self.followed_by_work
    }
}

impl PlanVerdict {
    /// The verdict that the result of a plan-mode exit records: a failed call is a plan the
    /// user did not let run.
    pub fn from_result(is_error: bool) -> Self {
        match is_error {
            true => Self::Declined,
            false => Self::Approved,
        }
    }
}

/// The title of the plan a request asks to carry out (Claude Code's "Implement the following
/// plan:" that opens the session after a plan approved with "clear context").
pub fn implemented_plan(request: &str) -> Option<String> {
    plan_title(request.trim_start().strip_prefix(IMPLEMENT)?)
}

/// A request to carry out a plan, told briefly: the plan's title, then its text without its
/// headings ("Implement the plan “Fix the parser”: The parser drops …"); `None` for any other
/// request.
pub fn plan_request(request: &str) -> Option<String> {
    let title = implemented_plan(request)?;
    let plan = request.trim_start().strip_prefix(IMPLEMENT)?;
    let body: Vec<&str> = plan
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    Some(match body.is_empty() {
        true => format!("Implement the plan “{title}”"),
        false => format!("Implement the plan “{title}”: {}", body.join(" ")),
    })
}

/// Whether `path` is a plan file of the client's (`~/.claude/plans/*.md`): writing one is
/// planning, not work on the project.
pub fn is_plan_file(path: &str) -> bool {
    path.replace('\\', "/").contains(PLANS_DIR)
}

/// A plan's title: its first heading, or its first line, without a "Plan:" label.
fn plan_title(text: &str) -> Option<String> {
    let lines = || text.lines().map(str::trim).filter(|line| !line.is_empty());
    let line = lines()
        .find(|line| line.starts_with('#'))
        .or_else(|| lines().next())?;
    let heading = line.trim_start_matches('#').trim();
    // A request flattened to one line runs on into the next heading.
    let heading = heading
        .find(" #")
        .map_or(heading, |end| heading[..end].trim_end());
    let lower = heading.to_lowercase();
    let title = LABELS
        .iter()
        .find_map(|label| {
            lower
                .starts_with(label)
                .then(|| heading.get(label.len()..))
                .flatten()
                .map(str::trim)
        })
        .unwrap_or(heading);
    let title = title.replace("**", "");
    let title = title.trim();
    (!title.is_empty()).then(|| clip(title, MAX_TITLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::labelled(
        "# Plan: Merge Prompt & Context into Single Section\n\n## Context\n…",
        "Merge Prompt & Context into Single Section"
    )]
    #[case::implementation_label(
        "# Implementation Plan: Initial Attribution Calculation\n\n## Goal",
        "Initial Attribution Calculation"
    )]
    #[case::unlabelled(
        "# Split uncommitted work into logical commits\n\n## Context",
        "Split uncommitted work into logical commits"
    )]
    #[case::german(
        "# Plan: PAI Self-Improvement Loop implementieren\n",
        "PAI Self-Improvement Loop implementieren"
    )]
    #[case::heading_after_prose("Some preface\n\n## Plan: Fix the parser", "Fix the parser")]
    #[case::no_heading(
        "\n\n**Fix the parser** first, then the tests",
        "Fix the parser first, then the tests"
    )]
    fn a_title_is_the_first_heading_without_its_label(#[case] text: &str, #[case] title: &str) {
        assert_eq!(plan_title(text).as_deref(), Some(title));
    }

    #[rstest]
    #[case::empty("")]
    #[case::blank("\n  \n")]
    #[case::label_only("# Plan:")]
    fn a_plan_without_words_has_no_title(#[case] text: &str) {
        assert_eq!(Plan::proposed(text, None), None);
    }

    #[rstest]
    #[case::flattened(
        "Implement the following plan: # Plan: Render Markdown in Prompt Section ## Context The Prompt",
        Some("Render Markdown in Prompt Section")
    )]
    #[case::lines(
        "Implement the following plan:\n\n# Plan: Render Markdown\n\n## Context\nThe Prompt",
        Some("Render Markdown")
    )]
    #[case::other_request("Implement the parser", None)]
    #[case::quoted_later("Please read: Implement the following plan: # Plan: X", None)]
    fn a_request_to_implement_a_plan_names_it(#[case] request: &str, #[case] title: Option<&str>) {
        assert_eq!(implemented_plan(request).as_deref(), title);
    }

    #[rstest]
    #[case::with_text(
        "Implement the following plan:\n\n# Plan: Render Markdown\n\n## Context\nThe Prompt section shows raw text.\n\n## Steps\n1. Use glamour",
        Some(
            "Implement the plan “Render Markdown”: The Prompt section shows raw text. 1. Use glamour"
        )
    )]
    #[case::title_only(
        "Implement the following plan: # Plan: Render Markdown",
        Some("Implement the plan “Render Markdown”")
    )]
    #[case::other_request("Render the markdown", None)]
    fn a_plan_request_is_told_by_its_title_and_text(
        #[case] request: &str,
        #[case] expected: Option<&str>,
    ) {
        assert_eq!(plan_request(request).as_deref(), expected);
    }

    #[test]
    fn a_long_title_is_clipped() {
        let text = format!("# Plan: {}", "word ".repeat(60));
        let title = plan_title(&text).unwrap();
        assert_eq!(title.chars().count(), MAX_TITLE, "{title}");
        assert!(title.ends_with('…'), "{title}");
    }

    #[rstest]
    #[case::rejected(true, PlanVerdict::Declined)]
    #[case::approved(false, PlanVerdict::Approved)]
    fn the_result_of_plan_mode_exit_is_the_verdict(
        #[case] is_error: bool,
        #[case] verdict: PlanVerdict,
    ) {
        assert_eq!(PlanVerdict::from_result(is_error), verdict);
    }

    #[rstest]
    #[case::unix("/Users/a/.claude/plans/reactive-floating-blum.md", true)]
    #[case::windows("C:\\Users\\a\\.claude\\plans\\x.md", true)]
    #[case::project_plans_folder("/repo/docs/plans/x.md", false)]
    #[case::project_file("/repo/src/plan.rs", false)]
    fn plan_files_are_the_clients(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_plan_file(path), expected);
    }

    #[test]
    fn a_plan_is_open_until_work_follows_it() {
        let mut plan = Plan::proposed("# Plan: X", None).unwrap();
        assert!(plan.is_open());
        plan.followed_by_work = true;
        assert!(!plan.is_open());
    }
}
