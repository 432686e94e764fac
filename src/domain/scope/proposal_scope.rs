//! The scope a proposed learning is given when it is extracted (ADR 0010): the project's when
//! it is about the project (names the repository, one of its files or tools, or says "this
//! repo"), global when it is about how the user works. Review shows it and can change it.

use super::names_project;
use crate::domain::extraction::{Candidate, Family};

/// Where a proposal would belong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProposedScope {
    /// Every project: the user's working style.
    Global,
    /// The project of the session it came from.
    Project,
}

/// Phrases that point at the repository at hand, in the languages the extraction reads.
const THIS_PROJECT: &[&str] = &[
    "this repo",
    "this repository",
    "this project",
    "this codebase",
    "this code base",
    "this crate",
    "this package",
    "this monorepo",
    "our repo",
    "our codebase",
    "in the repo",
    "in this app",
    "dieses repo",
    "diesem repo",
    "dieses projekt",
    "diesem projekt",
    "ce dépôt",
    "ce projet",
    "este repo",
    "este proyecto",
    "questo progetto",
    "这个仓库",
    "该仓库",
    "本仓库",
    "这个项目",
    "本项目",
    "このリポジトリ",
    "このプロジェクト",
    "이 저장소",
    "이 프로젝트",
    "이 레포",
];

/// Build, test and package tools: naming one ties a rule to a project's setup.
const TOOLS: &[&str] = &[
    "bazel",
    "bun",
    "bundle",
    "cargo",
    "clippy",
    "cmake",
    "composer",
    "deno",
    "docker",
    "dotnet",
    "eslint",
    "gradle",
    "helm",
    "jest",
    "just",
    "kubectl",
    "make",
    "maven",
    "mix",
    "mvn",
    "mypy",
    "nextest",
    "npm",
    "npx",
    "nx",
    "pip",
    "pnpm",
    "poetry",
    "prettier",
    "pytest",
    "rake",
    "ruff",
    "rustfmt",
    "sqlx",
    "terraform",
    "tox",
    "turbo",
    "uv",
    "vite",
    "vitest",
    "webpack",
    "yarn",
];

/// File extensions that make a word a file name.
const EXTENSIONS: &[&str] = &[
    "c", "cfg", "cpp", "cs", "css", "env", "go", "h", "html", "ini", "java", "js", "json", "jsx",
    "kt", "lock", "md", "php", "py", "rb", "rs", "scss", "sh", "sql", "svelte", "swift", "toml",
    "ts", "tsx", "vue", "yaml", "yml",
];

/// Slashed word pairs of ordinary prose, not paths.
const PROSE_PAIRS: &[&str] = &[
    "and/or",
    "either/or",
    "he/she",
    "his/her",
    "yes/no",
    "on/off",
    "true/false",
    "read/write",
    "input/output",
    "client/server",
    "pros/cons",
    "w/o",
    "n/a",
    "i/o",
    "24/7",
];

/// Files known by name alone.
const FILE_NAMES: &[&str] = &["makefile", "dockerfile", "justfile", "rakefile", "gemfile"];

/// Whether `text` points at the repository at hand ("in this repo", "本项目").
fn says_this_project(text: &str) -> bool {
    let lower = text.to_lowercase();
    THIS_PROJECT.iter().any(|phrase| lower.contains(phrase))
}

/// The scope of a proposal whose text is `text`, extracted in the project called `project`.
pub fn proposed_scope(text: &str, project: &str) -> ProposedScope {
    let lower = text.to_lowercase();
    let about_project = names_project(text, project)
        || says_this_project(text)
        || text.contains('`')
        || lower.split(is_separator).any(is_tool_or_file);
    if about_project {
        ProposedScope::Project
    } else {
        ProposedScope::Global
    }
}

/// The scope of an extracted candidate in the project called `project`: the project's when
/// its family states how the project is (a fact of its environment, where it runs, a "we"
/// convention of the team), when its text is about the project, or when the sentence as said
/// pointed at it ("… in this repo", which the rewrite drops; only that phrase is read there,
/// as the rest of the sentence may be a one-off task naming files).
pub fn candidate_scope(candidate: &Candidate, project: &str) -> ProposedScope {
    // A "we" convention is the team's, so the project's: on the labelled messages it agrees
    // with the label 36 times of 62 with conventions, 32 without (`cargo bench --bench
    // proposals`); a wrongly local rule hides from other projects, a wrongly global one leaks.
    let of_the_project = matches!(
        candidate.family,
        Family::Fact | Family::ProjectFact | Family::Convention
    );
    if of_the_project || says_this_project(&candidate.said) {
        ProposedScope::Project
    } else {
        proposed_scope(&candidate.text, project)
    }
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\'' | '“' | '”')
}

/// A tool's name, a path (`src/db`, `./scripts`) or a file name (`schema.sql`, `Makefile`).
fn is_tool_or_file(word: &str) -> bool {
    let word = word.trim_end_matches(['.', ':', '!', '?']);
    if TOOLS.contains(&word) || FILE_NAMES.contains(&word) {
        return true;
    }
    if word.contains("://") || PROSE_PAIRS.contains(&word) {
        return false;
    }
    let path = word.len() > 2
        && word.contains('/')
        && word.split('/').filter(|part| !part.is_empty()).count() >= 2;
    let file = word.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && EXTENSIONS.contains(&ext) && stem.chars().all(is_file_char)
    });
    path || file
}

fn is_file_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::names_the_repository(
        "shop-api deploys go through staging first",
        ProposedScope::Project
    )]
    #[case::this_repo("In this repo we never squash merges", ProposedScope::Project)]
    #[case::a_file(
        "Migrations must be added to db/migrations and never edited",
        ProposedScope::Project
    )]
    #[case::a_file_name(
        "Keep the version in Cargo.toml in sync with the changelog",
        ProposedScope::Project
    )]
    #[case::a_makefile(
        "The Makefile is the source of truth for CI steps",
        ProposedScope::Project
    )]
    #[case::a_tool("Use pnpm, not npm", ProposedScope::Project)]
    #[case::code_quoted("Run `just check` before every push", ProposedScope::Project)]
    #[case::german_this_project(
        "In diesem Projekt laufen Tests nur mit Docker",
        ProposedScope::Project
    )]
    #[case::chinese_this_repo("这个仓库的提交信息用英文写", ProposedScope::Project)]
    #[case::working_style("Keep summaries to three bullets", ProposedScope::Global)]
    #[case::preference("I prefer small commits with clear messages", ProposedScope::Global)]
    #[case::explain_first(
        "Always explain the plan before editing anything",
        ProposedScope::Global
    )]
    #[case::a_url_is_not_a_path(
        "Read https://example.com/docs before asking",
        ProposedScope::Global
    )]
    #[case::and_or_is_not_a_path(
        "Ask before deleting and/or renaming anything",
        ProposedScope::Global
    )]
    #[case::japanese_style("返事は短くしてください", ProposedScope::Global)]
    fn a_proposal_belongs_where_its_text_points(#[case] text: &str, #[case] scope: ProposedScope) {
        assert_eq!(proposed_scope(text, "shop-api"), scope, "{text}");
    }

    fn candidate(family: Family, text: &str, said: &str) -> Candidate {
        Candidate {
            kind: crate::domain::seed::LearningKind::Pattern,
            text: text.to_owned(),
            confidence: 0.8,
            family,
            said: said.to_owned(),
        }
    }

    #[rstest]
    #[case::a_fact_of_its_environment(
        Family::Fact,
        "Staging is reset every Sunday.",
        "Staging is reset every Sunday.",
        ProposedScope::Project
    )]
    #[case::where_it_runs(
        Family::ProjectFact,
        "We deploy to Fly.io.",
        "we deploy to Fly.io",
        ProposedScope::Project
    )]
    #[case::a_teams_convention(
        Family::Convention,
        "We squash every merge.",
        "We squash every merge.",
        ProposedScope::Project
    )]
    #[case::this_repo_as_said(
        Family::Standing,
        "Commit messages follow Conventional Commits",
        "We use Conventional Commits in this repo.",
        ProposedScope::Project
    )]
    #[case::a_tool_in_the_text(
        Family::Imperative,
        "Always use pnpm.",
        "always use pnpm",
        ProposedScope::Project
    )]
    #[case::working_style(
        Family::Preference,
        "Prefers short answers.",
        "I prefer short answers",
        ProposedScope::Global
    )]
    #[case::a_file_in_the_task_around_the_rule(
        Family::Imperative,
        "Never use more than three bullets in a summary.",
        "Fix the failing test in src/parser.rs, and never use more than three bullets in a summary.",
        ProposedScope::Global
    )]
    #[case::a_standing_rule_of_style(
        Family::Standing,
        "Ask before you commit.",
        "from now on ask before you commit",
        ProposedScope::Global
    )]
    fn a_candidate_is_the_projects_by_family_text_or_what_was_said(
        #[case] family: Family,
        #[case] text: &str,
        #[case] said: &str,
        #[case] scope: ProposedScope,
    ) {
        assert_eq!(
            candidate_scope(&candidate(family, text, said), "shop-api"),
            scope
        );
    }
}
