//! What a shell command's output says about the work: a commit git made, a push, a pull
//! request or deploy address, a test or build run.

use crate::domain::format::{clip, without_terminal_escapes};

use super::numbered_link::NumberedLink;

/// A commit as `git commit` reports it: `[main 37016ac] Fix the tree view` (also
/// `[main (root-commit) e2aec0d] …` and `[detached HEAD 1a2b3c4] …`).
pub fn parse_commit(output: &str) -> Option<(String, String, String)> {
    output.lines().find_map(|line| {
        let rest = line.trim().strip_prefix('[')?;
        let (inside, subject) = rest.split_once("] ")?;
        let mut words = inside.split_whitespace();
        let hash = words.next_back()?;
        let branch = words.next()?;
        is_commit_hash(hash).then(|| {
            (
                hash.to_owned(),
                subject.trim().to_owned(),
                branch.to_owned(),
            )
        })
    })
}

/// A commit's hash as git prints it: 7 to 40 lower-case hexadecimal digits.
fn is_commit_hash(word: &str) -> bool {
    (7..=40).contains(&word.len())
        && word
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A commit made quietly and then shown by `git log --oneline` in the same command (`git
/// commit -q -m … && git log --oneline -1` prints `87a27bd Fix the tree view`): the newest
/// line of the log, unless the commit found nothing to commit (the log then shows an older
/// one).
pub fn parse_logged_commit(command: &str, output: &str) -> Option<(String, String)> {
    let commit = command.find("commit")?;
    let log = command.rfind("git log")?;
    let shows_oneline = command[log..].contains("--oneline");
    if log < commit || !shows_oneline || output.contains("nothing to commit") {
        return None;
    }
    output.lines().find_map(|line| {
        let (hash, subject) = line.trim().split_once(' ')?;
        let subject = subject.trim();
        (is_commit_hash(hash) && !subject.is_empty()).then(|| (hash.to_owned(), subject.to_owned()))
    })
}

/// A shell command's substance on one line: its steps joined by `; `, without the steps that
/// only set the stage (comments, `cd`, `Set-Location`, `pushd`, a bare environment
/// assignment). A step that sets a variable for its own command (`RUST_LOG=debug cargo run`)
/// stays.
pub fn command_gist(command: &str) -> String {
    let steps: Vec<&str> = without_heredocs(command)
        .into_iter()
        .flat_map(|line| line.split("&&"))
        .flat_map(|step| step.split("; "))
        .map(str::trim)
        .filter(|step| !step.is_empty() && !sets_the_stage(step))
        .collect();
    if steps.is_empty() {
        command.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        steps.join("; ")
    }
}

/// A check's substance on one line: the steps of its gist that run the check, without the
/// greps and banners around them (`echo "=== suite ===" && uv run pytest -q` is `uv run
/// pytest -q`); the whole gist when no single step is a check.
pub fn check_gist(command: &str) -> String {
    let gist = command_gist(command);
    let checks: Vec<&str> = gist
        .split("; ")
        .filter(|step| is_check_command(step))
        .collect();
    match checks.is_empty() {
        true => gist,
        false => checks.join("; "),
    }
}

/// The command's lines without the bodies of its here-documents (`<<'EOF'` … `EOF`): the
/// text a command writes is not what it does.
fn without_heredocs(command: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut ends_at: Option<String> = None;
    for line in command.lines() {
        if let Some(end) = &ends_at {
            if line.trim() == end {
                ends_at = None;
            }
            continue;
        }
        kept.push(line);
        ends_at = heredoc_end(line);
    }
    kept
}

/// The word that ends the here-document a line opens (`<<EOF`, `<<-'EOF'`, `<< "END"`).
fn heredoc_end(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches('-').trim_start();
    if rest.starts_with('<') {
        return None;
    }
    let word: String = rest
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

fn sets_the_stage(step: &str) -> bool {
    let mut words = step.split_whitespace();
    let first = words.next().unwrap_or_default();
    let bare_assignment = words.next().is_none()
        && first.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    step.starts_with('#')
        || matches!(first, "cd" | "Set-Location" | "pushd" | "export" | "set")
        || step.starts_with("$env:")
        || bare_assignment
}

/// What a `git status` says of the branch against its upstream: `Some(Some("ahead of
/// 'origin/main' by 2 commits"))` when it has commits the upstream lacks, `Some(None)` when it
/// reports the branch otherwise (up to date, behind), `None` when the output says nothing of it.
/// Reads the long form and the short one (`## main...origin/main [ahead 2]`).
pub fn ahead_of_upstream(output: &str) -> Option<Option<String>> {
    for line in output.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Your branch is ") {
            return Some(
                rest.strip_prefix("ahead of ")
                    .map(|ahead| format!("ahead of {}", ahead.trim_end_matches(['.', ',']))),
            );
        }
        if let Some(branches) = line.strip_prefix("## ")
            && let Some((_, upstream)) = branches.split_once("...")
        {
            let (upstream, tracking) = upstream.split_once(' ').unwrap_or((upstream, ""));
            let ahead = tracking
                .trim_start_matches('[')
                .strip_prefix("ahead ")
                .and_then(|n| n.split([',', ']']).next())
                .and_then(|n| n.trim().parse::<u32>().ok());
            return Some(ahead.map(|n| {
                let commits = if n == 1 { "commit" } else { "commits" };
                format!("ahead of '{upstream}' by {n} {commits}")
            }));
        }
    }
    None
}

/// The refs a `git push` updated (`main -> main`), as git prints them to the user.
pub fn parse_push(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let (left, right) = line.split_once(" -> ")?;
            let from = left.split_whitespace().next_back()?;
            let to = right.split_whitespace().next()?;
            let looks_like_update = left.contains("..")
                || left.contains("[new branch]")
                || left.starts_with('+')
                || left.contains("[new tag]");
            looks_like_update.then(|| format!("{from} -> {to}"))
        })
        .collect()
}

/// Pull request, merge request, issue and deploy addresses in a command's output (not the
/// "create a pull request" suggestion a push prints).
pub fn find_links(output: &str) -> Vec<String> {
    output
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '<' | '>'))
        .filter(|word| word.starts_with("https://") && !word.starts_with("https://api."))
        .map(|word| word.trim_end_matches(['.', ',', ';', ':']))
        .filter(|url| is_pull_request(url) || is_deploy(url))
        .map(numbered_link)
        .fold(Vec::new(), |mut links, url| {
            if !links.contains(&url) {
                links.push(url);
            }
            links
        })
}

/// The address a push prints for opening a pull (or merge) request from the branch it
/// created (`remote:      https://github.com/o/r/pull/new/feature`): the branch has none yet.
pub fn pull_request_suggestion(output: &str) -> Option<String> {
    output
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
        .filter(|word| word.starts_with("https://"))
        .find(|url| url.contains("/pull/new/") || url.contains("/merge_requests/new"))
        .map(str::to_owned)
}

/// The vulnerability count a push to GitHub reports (`GitHub found 19 vulnerabilities on
/// o/r's default branch (2 high, 8 moderate, 9 low).`), as one sentence.
pub fn vulnerability_notice(output: &str) -> Option<String> {
    let start = output.find("GitHub found ")?;
    let line = output[start..].lines().next()?;
    let sentence = line.find(')').map_or(line, |end| &line[..=end]).trim();
    sentence
        .contains("vulnerabilit")
        .then(|| sentence.to_owned())
}

/// The number of the pull request `gh pr merge` says it merged (`✓ Squashed and merged pull
/// request o/r#35 (Fix x)`).
pub fn merged_pull_request(output: &str) -> Option<u64> {
    let line = output
        .lines()
        .find(|line| line.to_lowercase().contains("merged pull request"))?;
    let hash = line.find('#')?;
    let digits: String = line[hash + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// A numbered link cut after its number (`…/pull/35/files` → `…/pull/35`); others whole.
fn numbered_link(url: &str) -> String {
    NumberedLink::parse(url).map_or_else(|| url.to_owned(), |link| link.address())
}

fn is_pull_request(url: &str) -> bool {
    NumberedLink::parse(url).is_some_and(|link| !is_placeholder(link.list))
}

/// A documentation example's repository (`https://github.com/org/repo/pull/123`,
/// `owner/repo`), which no session opened.
fn is_placeholder(list: &str) -> bool {
    let mut parts = list.trim_start_matches("https://").split('/').skip(1);
    let (Some(owner), Some(repository)) = (parts.next(), parts.next()) else {
        return false;
    };
    let owner = owner.to_ascii_lowercase();
    let repository = repository.to_ascii_lowercase();
    [
        "owner",
        "org",
        "user",
        "username",
        "your-org",
        "your-username",
        "example",
    ]
    .contains(&owner.as_str())
        && ["repo", "repository", "your-repo", "example"].contains(&repository.as_str())
}

/// An address on a hosting service's domain, but not a section of one of its pages
/// (`…/index.html#lint`): compilers and linters print those as documentation
/// (`https://rust-lang.github.io/rust-clippy/…#collapsible_if`). A single-page app's route
/// (`https://app.vercel.app/#/login`) still counts.
fn is_deploy(url: &str) -> bool {
    let rest = url.trim_start_matches("https://");
    if let Some((before, _)) = rest.split_once('#')
        && before
            .split_once('/')
            .is_some_and(|(_, path)| !path.is_empty())
    {
        return false;
    }
    let host = url
        .trim_start_matches("https://")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    [
        ".vercel.app",
        ".netlify.app",
        ".onrender.com",
        ".pages.dev",
        ".fly.dev",
        ".herokuapp.com",
        ".github.io",
        ".workers.dev",
        ".web.app",
    ]
    .iter()
    .any(|suffix| host.ends_with(suffix))
}

/// Words that make a command a test, build, lint or type check.
const CHECK_WORDS: [&str; 17] = [
    "test",
    "compile",
    "credo",
    "dialyzer",
    "tests",
    "build",
    "lint",
    "check",
    "clippy",
    "typecheck",
    "type-check",
    "tsc",
    "pytest",
    "jest",
    "vitest",
    "rspec",
    "ci",
];
/// Tools after which `CHECK_WORDS` count (`npm run build`, `cargo test`, `mise run lint`).
const RUNNERS: [&str; 27] = [
    "cargo",
    "mix",
    "deno",
    "flutter",
    "dart",
    "bundle",
    "rake",
    "composer",
    "poetry",
    "ruff",
    "bazel",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "go",
    "make",
    "mise",
    "just",
    "gradle",
    "./gradlew",
    "mvn",
    "dotnet",
    "swift",
    "python",
    "uv",
];

/// Programs that run the command after them (`corepack pnpm run lint`, `env CI=1 cargo test`).
const COMMAND_WRAPPERS: [&str; 6] = ["corepack", "env", "time", "nice", "command", "exec"];

/// `NAME=value`, as a shell sets a variable for one command.
fn sets_a_variable(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether a shell command runs tests, a build, a linter or a type checker (a here-document's
/// body is text, not commands: a Markdown table in a `gh issue comment` names test files).
/// Lines are not split apart: a quoted argument or a continued line spans several.
pub fn is_check_command(command: &str) -> bool {
    without_heredocs(command)
        .join("\n")
        .split(['&', ';', '|'])
        .map(str::split_whitespace)
        .any(|mut words| {
            // A wrapper or a variable set for the command runs the program after it.
            let Some(program) = words
                .by_ref()
                .find(|word| !COMMAND_WRAPPERS.contains(word) && !sets_a_variable(word))
            else {
                return false;
            };
            let first = program.rsplit('/').next().unwrap_or(program);
            if program.contains('/') && names_tests(first) {
                return true;
            }
            if matches!(
                first,
                "pytest"
                    | "jest"
                    | "vitest"
                    | "tsc"
                    | "rspec"
                    | "phpunit"
                    | "eslint"
                    | "mypy"
                    | "tox"
                    | "ctest"
            ) {
                return true;
            }
            RUNNERS.contains(&first)
                && words.take(4).any(|word| {
                    CHECK_WORDS
                        .iter()
                        .any(|check| word == *check || word.starts_with(&format!("{check}:")))
                })
        })
}

/// Whether a program's file name says it runs tests (`backend_tests`, `run_tests.sh`,
/// `test-all`): a suite built or written by the project itself, run by its path.
fn names_tests(file_name: &str) -> bool {
    file_name
        .split(['_', '-', '.'])
        .any(|part| matches!(part, "test" | "tests" | "unittest" | "unittests"))
}

/// Markers of the line that sums a run up.
const SUMMARY_MARKERS: [&str; 10] = [
    "passed",
    "failed",
    "error",
    "passing",
    "failing",
    "test result",
    "✓",
    "✗",
    "finished",
    "built",
];

/// The line of a check's output that says how it went: the last one naming passes,
/// failures or errors, else the last non-empty line.
pub fn check_summary(output: &str) -> String {
    let plain = without_terminal_escapes(output);
    let lines: Vec<&str> = plain
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("…[trimmed"))
        .collect();
    let telling = lines.iter().rev().find(|line| {
        let lower = line.to_lowercase();
        SUMMARY_MARKERS.iter().any(|marker| lower.contains(marker))
    });
    clip(telling.or(lines.last()).copied().unwrap_or_default(), 160)
}

/// Lines that open a failure report in a check's output: compilers, runners, git.
const FAILURE_LINE_STARTS: [&str; 9] = [
    "error[E",
    "error:",
    "Error:",
    "FAILED",
    "FAIL ",
    "npm ERR!",
    "Traceback (most recent call last)",
    "fatal:",
    "not ok ",
];

/// Whether a check's output says it failed, for a client that does not report the exit
/// code (Codex's code mode): a line that opens a compiler's, runner's or git's failure
/// report, cargo's `test result: FAILED`, or a count of failures or errors above zero
/// (`1 failed, 20 passed`, `Tests  2 failed | 9 passed`, `10 tests, 1 failure`).
pub fn check_output_failed(output: &str) -> bool {
    let plain = without_terminal_escapes(output);
    plain.lines().map(str::trim).any(|line| {
        FAILURE_LINE_STARTS
            .iter()
            .any(|start| line.starts_with(start))
            || line.contains("test result: FAILED")
            || counts_failures(line)
    })
}

/// `N failed`, `N failing`, `N failures`, `N errors` with N above zero.
fn counts_failures(line: &str) -> bool {
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '(' | ')' | ':'))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.windows(2).any(|pair| {
        let counted = pair[0].parse::<u64>().is_ok_and(|count| count > 0);
        counted
            && ["fail", "error"]
                .iter()
                .any(|word| pair[1].starts_with(word))
    })
}

/// Shell commands that only look (`ls`, `git status`): running them is not work done.
pub fn is_read_only_command(command: &str) -> bool {
    let command = command.trim_start();
    let first = command.split_whitespace().next().unwrap_or_default();
    let looking = [
        "ls", "cat", "head", "tail", "pwd", "echo", "find", "grep", "rg", "which", "wc", "tree",
        "stat", "file", "du", "df", "env", "printenv", "whoami", "date", "sleep",
    ];
    if looking.contains(&first) {
        return true;
    }
    let git = [
        "git status",
        "git log",
        "git diff",
        "git show",
        "git branch",
        "git remote",
    ];
    git.iter().any(|prefix| command.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::squashed("✓ Squashed and merged pull request o/r#35 (Fix x)", Some(35))]
    #[case::merged("✓ Merged pull request #7 (Add y)\n✓ Deleted branch y", Some(7))]
    #[case::not_merged("X Pull request #7 is not mergeable", None)]
    fn reads_the_pull_request_gh_merged(#[case] output: &str, #[case] expected: Option<u64>) {
        assert_eq!(merged_pull_request(output), expected);
    }

    #[rstest]
    #[case::counted(
        "remote: \nremote: GitHub found 19 vulnerabilities on o/r's default branch (2 high, 8 moderate, 9 low). To find out more, visit:        \nremote:      https://github.com/o/r/security/dependabot        \n",
        Some(
            "GitHub found 19 vulnerabilities on o/r's default branch (2 high, 8 moderate, 9 low)"
        )
    )]
    #[case::one(
        "remote: GitHub found 1 vulnerability on o/r's default branch (1 high).",
        Some("GitHub found 1 vulnerability on o/r's default branch (1 high)")
    )]
    #[case::none("To github.com:o/r.git\n   1a2b3c4..5d6e7f8  main -> main", None)]
    fn a_push_reports_vulnerabilities(#[case] output: &str, #[case] expected: Option<&str>) {
        assert_eq!(vulnerability_notice(output).as_deref(), expected);
    }

    #[rstest]
    #[case::github(
        "remote: \nremote: Create a pull request for 'spotter-gqc' on GitHub by visiting:\nremote:      https://github.com/marot/spotter/pull/new/spotter-gqc        \nremote: \n",
        Some("https://github.com/marot/spotter/pull/new/spotter-gqc")
    )]
    #[case::gitlab(
        "remote:   https://gitlab.com/o/r/-/merge_requests/new?merge_request%5Bsource_branch%5D=fix\n",
        Some("https://gitlab.com/o/r/-/merge_requests/new?merge_request%5Bsource_branch%5D=fix")
    )]
    #[case::an_opened_one("https://github.com/o/r/pull/12", None)]
    #[case::a_plain_push("To github.com:o/r.git\n   1a2b3c4..5d6e7f8  main -> main", None)]
    fn a_push_suggests_a_pull_request_for_a_new_branch(
        #[case] output: &str,
        #[case] expected: Option<&str>,
    ) {
        assert_eq!(pull_request_suggestion(output).as_deref(), expected);
    }

    #[rstest]
    #[case::quiet_then_log(
        "git add -A && git commit -q -F - <<'EOF'\nauthcode: immutable\nEOF\ngit log --oneline -1",
        "87a27bd authcode: make the first callback result immutable",
        Some(("87a27bd", "authcode: make the first callback result immutable"))
    )]
    #[case::after_other_output(
        "go test ./... && git commit -q -m x && git log --oneline -2",
        "ok  \tgithub.com/a/b\t0.06s\n9675287 authcode: record the outcome\n87a27bd earlier",
        Some(("9675287", "authcode: record the outcome"))
    )]
    #[case::nothing_to_commit(
        "git commit -q -m x; git log --oneline -1",
        "nothing to commit, working tree clean\n87a27bd an older commit",
        None
    )]
    #[case::log_before_the_commit(
        "git log --oneline -1 && git commit -q -m x",
        "87a27bd an older commit",
        None
    )]
    #[case::log_not_oneline("git commit -q -m x && git log -1 --format=%B", "feat: x", None)]
    #[case::warnings_only(
        "git commit -q -m x && git log --oneline -1",
        "warning: in the working copy of 'a.md', LF will be replaced by CRLF",
        None
    )]
    #[case::upper_case_is_no_hash(
        "git commit -q -m x && git log --oneline -1",
        "DEADBEEF not a hash",
        None
    )]
    fn a_quiet_commit_is_read_from_the_log_after_it(
        #[case] command: &str,
        #[case] output: &str,
        #[case] expected: Option<(&str, &str)>,
    ) {
        let found = parse_logged_commit(command, output);
        assert_eq!(
            found.as_ref().map(|(h, s)| (h.as_str(), s.as_str())),
            expected
        );
    }

    #[rstest]
    #[case::plain("[main 37016ac] Fix tree view\n 3 files changed", Some(("37016ac", "Fix tree view", "main")))]
    #[case::root("[main (root-commit) e2aec0d] Initial commit", Some(("e2aec0d", "Initial commit", "main")))]
    #[case::detached("[detached HEAD 1a2b3c4d] wip", Some(("1a2b3c4d", "wip", "detached")))]
    #[case::hook_output_first("gitleaks.....Passed\n[feat/x 9759adb] chore: ignore", Some(("9759adb", "chore: ignore", "feat/x")))]
    #[case::nothing("nothing to commit, working tree clean", None)]
    #[case::not_a_hash("[main notahash] x", None)]
    fn parses_commits(#[case] output: &str, #[case] expected: Option<(&str, &str, &str)>) {
        let parsed = parse_commit(output);
        assert_eq!(
            parsed
                .as_ref()
                .map(|(h, s, b)| (h.as_str(), s.as_str(), b.as_str())),
            expected
        );
    }

    #[rstest]
    #[case::fast_forward("To github.com:a/b.git\n   1887972..df4989c  main -> main", vec!["main -> main"])]
    #[case::new_branch(" * [new branch]      feat/x -> feat/x", vec!["feat/x -> feat/x"])]
    #[case::forced(" + 94ef59c...fb2a14b main -> main (forced update)", vec!["main -> main"])]
    #[case::up_to_date("Everything up-to-date", vec![])]
    fn parses_pushes(#[case] output: &str, #[case] expected: Vec<&str>) {
        assert_eq!(parse_push(output), expected);
    }

    #[rstest]
    #[case::pull_request("https://github.com/a/b/pull/123", vec!["https://github.com/a/b/pull/123"])]
    #[case::suggestion("remote: https://github.com/a/b/pull/new/feat", vec![])]
    #[case::merge_request("see https://gitlab.com/a/b/-/merge_requests/7.", vec!["https://gitlab.com/a/b/-/merge_requests/7"])]
    #[case::deploy("Deployed to https://shop-abc.vercel.app", vec!["https://shop-abc.vercel.app"])]
    #[case::other("https://docs.rs/serde", vec![])]
    #[case::documentation_on_a_hosting_domain(
        "= help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.96.0/index.html#collapsible_if",
        vec![]
    )]
    #[case::pages_site("Published to https://octo.github.io/site/", vec!["https://octo.github.io/site/"])]
    #[case::a_single_page_apps_route("Live at https://app.vercel.app/#/login", vec!["https://app.vercel.app/#/login"])]
    #[case::issue("https://github.com/a/b/issues/2", vec!["https://github.com/a/b/issues/2"])]
    #[case::issue_list("https://github.com/a/b/issues", vec![])]
    #[case::a_documentation_example("e.g. https://github.com/org/repo/pull/123", vec![])]
    #[case::another_example("https://github.com/OWNER/REPO/issues/1", vec![])]
    #[case::a_real_repository_of_an_org("https://github.com/org/shop/pull/9", vec!["https://github.com/org/shop/pull/9"])]
    #[case::api_address(
        r#"{"issue_url":"https://api.github.com/repos/a/b/issues/35"}"#,
        vec![]
    )]
    #[case::cut_after_the_number(
        "https://github.com/a/b/pull/35/files https://github.com/a/b/issues/6#issuecomment-1 https://github.com/a/b/pull/35",
        vec!["https://github.com/a/b/pull/35", "https://github.com/a/b/issues/6"]
    )]
    fn finds_links(#[case] output: &str, #[case] expected: Vec<&str>) {
        assert_eq!(find_links(output), expected);
    }

    #[rstest]
    #[case("cargo test --locked", true)]
    #[case("cd web && npm run build", true)]
    #[case("mise run lint", true)]
    #[case("pnpm test:unit", true)]
    #[case("pytest -q tests/", true)]
    #[case("/usr/bin/tsc --noEmit", true)]
    #[case("go test ./...", true)]
    #[case("mix test 2>&1 | tail -5", true)]
    #[case("mix credo --strict", true)]
    #[case("mix compile --warnings-as-errors", true)]
    #[case("bundle exec rspec", true)]
    #[case("flutter test", true)]
    #[case("ruff check .", true)]
    #[case("eslint src", true)]
    #[case("mix deps.get", false)]
    #[case("ruff format .", false)]
    #[case("npm install", false)]
    #[case("git commit -m 'test'", false)]
    #[case("echo build", false)]
    #[case::built_suite("./tests/backend_tests", true)]
    #[case::script("cd build && ./run_tests.sh 2>&1 | tail", true)]
    #[case::nested("build/bin/test-all --verbose", true)]
    #[case::not_by_path("backend_tests", false)]
    #[case::a_word_inside("./scripts/latest_build.sh", false)]
    #[case::test_data("./tests/fixtures/gen.sh", false)]
    #[case::a_heredoc_body_is_text(
        "gh issue comment 1 --body \"$(cat <<'EOF'\n| E2E tests | `tests/e2e/test_sync.py` |\nEOF\n)\"",
        false
    )]
    #[case::a_continued_line("cargo \\\n  test --workspace", true)]
    #[case::through_corepack("corepack pnpm run typecheck", true)]
    #[case::with_a_variable("CI=1 RUST_LOG=debug cargo test", true)]
    #[case::through_env("env NODE_ENV=test npx vitest run", true)]
    #[case::a_wrapper_alone("corepack enable", false)]
    #[case::a_quoted_message_over_lines(
        "git commit -m \"Fix parser\n\ncargo test passes now\"",
        false
    )]
    fn recognises_checks(#[case] command: &str, #[case] expected: bool) {
        assert_eq!(is_check_command(command), expected, "{command}");
    }

    #[rstest]
    #[case(
        "running 12 tests\n....\ntest result: ok. 12 passed; 0 failed\n\nDoc-tests",
        "test result: ok. 12 passed; 0 failed"
    )]
    #[case(
        "compiled\nTypeError: generate is not a function\n",
        "TypeError: generate is not a function"
    )]
    #[case("done in 2s\n", "done in 2s")]
    #[case("", "")]
    #[case::coloured(
        "\u{1b}[0;32m✓ \u{1b}[0m Build complete: entire-local\n",
        "✓ Build complete: entire-local"
    )]
    fn sums_up_checks(#[case] output: &str, #[case] expected: &str) {
        assert_eq!(check_summary(output), expected);
    }

    #[rstest]
    #[case("ls -la", true)]
    #[case("git status --short", true)]
    #[case("git commit -m x", false)]
    #[case("npm install", false)]
    fn tells_looking_from_doing(#[case] command: &str, #[case] expected: bool) {
        assert_eq!(is_read_only_command(command), expected);
    }

    #[rstest]
    #[case::ahead(
        "On branch main\nYour branch is ahead of 'origin/main' by 2 commits.\n  (use \"git push\" to publish your local commits)\n",
        Some(Some("ahead of 'origin/main' by 2 commits"))
    )]
    #[case::up_to_date(
        "On branch main\nYour branch is up to date with 'origin/main'.\n",
        Some(None)
    )]
    #[case::diverged("Your branch and 'origin/main' have diverged,\n", None)]
    #[case::short_ahead(
        "## main...origin/main [ahead 1]\n M a.rs\n",
        Some(Some("ahead of 'origin/main' by 1 commit"))
    )]
    #[case::short_ahead_and_behind(
        "## fix...origin/fix [ahead 3, behind 1]\n",
        Some(Some("ahead of 'origin/fix' by 3 commits"))
    )]
    #[case::short_even("## main...origin/main\n", Some(None))]
    #[case::no_status("3 files changed", None)]
    fn reads_how_far_the_branch_is_ahead(
        #[case] output: &str,
        #[case] expected: Option<Option<&str>>,
    ) {
        assert_eq!(
            ahead_of_upstream(output),
            expected.map(|ahead| ahead.map(str::to_owned))
        );
    }

    #[rstest]
    #[case::plain("cargo test", "cargo test")]
    #[case::stage_set_first(
        "$env:Path += \";C:\\bin\"; Set-Location \"C:\\repo\"\nentire session attach 12 2>&1",
        "entire session attach 12 2>&1"
    )]
    #[case::cd_and_comment("# Move it\ncd /repo && git mv a b", "git mv a b")]
    #[case::env_for_its_command(
        "cd /repo && RUST_LOG=debug cargo run && git status",
        "RUST_LOG=debug cargo run; git status"
    )]
    #[case::bare_assignment("DIR=/tmp/x\nls $DIR", "ls $DIR")]
    #[case::only_stage("cd /repo", "cd /repo")]
    #[case::heredoc_body_left_out(
        "cat >> docs/log.md <<'EOF'\n| When | Friction |\n|---|---|\nEOF\ngit add docs/log.md",
        "cat >> docs/log.md <<'EOF'; git add docs/log.md"
    )]
    #[case::commit_message_left_out(
        "git commit -q -F - <<\"END\"\nfix: x\n\nbody\nEND",
        "git commit -q -F - <<\"END\""
    )]
    #[case::unterminated_heredoc("cat > a <<EOF\nline", "cat > a <<EOF")]
    #[case::here_string_is_kept("grep x <<< \"$a\"\nls", "grep x <<< \"$a\"; ls")]
    fn gives_a_commands_substance(#[case] command: &str, #[case] gist: &str) {
        assert_eq!(command_gist(command), gist);
    }

    #[rstest]
    #[case::plain("cargo test", "cargo test")]
    #[case::banners_and_greps_around(
        "echo \"=== flags ===\" && grep -n x src/app.py\necho \"=== suite ===\" && uv run python -m pytest tests/ -q 2>&1 | tail -4",
        "uv run python -m pytest tests/ -q 2>&1 | tail -4"
    )]
    #[case::two_checks("cd web && npm run lint && npm test", "npm run lint; npm test")]
    #[case::no_single_step_is_one("make all", "make all")]
    fn gives_a_checks_substance(#[case] command: &str, #[case] gist: &str) {
        assert_eq!(check_gist(command), gist);
    }

    #[rstest]
    #[case::rustc(
        "   Compiling hk v1.50.0\nerror[E0432]: unresolved import `crate::step::X`",
        true
    )]
    #[case::cargo_test("test result: FAILED. 10 passed; 1 failed; 0 ignored", true)]
    #[case::cargo_passed("test result: ok. 12 passed; 0 failed; 0 ignored", false)]
    #[case::pytest("===== 1 failed, 20 passed in 0.31s =====", true)]
    #[case::pytest_passed("===== 21 passed in 0.31s =====", false)]
    #[case::vitest(" Tests  2 failed | 9 passed (11)", true)]
    #[case::bats("ok 1 a\nnot ok 2 b\n2 tests, 1 failure", true)]
    #[case::bats_passed("ok 1 a\nok 2 b\n2 tests, 0 failures", false)]
    #[case::npm("npm ERR! code ELIFECYCLE", true)]
    #[case::python("Traceback (most recent call last):\n  File \"x.py\"", true)]
    #[case::clean_build("    Finished `test` profile [unoptimized] target(s) in 1.32s", false)]
    #[case::an_error_word_in_a_passing_line("ok 3 reports errors clearly", false)]
    fn a_check_output_says_whether_it_failed(#[case] output: &str, #[case] failed: bool) {
        assert_eq!(check_output_failed(output), failed);
    }
}
