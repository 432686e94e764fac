//! The working tree as a session last saw it: what `git status` listed, and what the commands
//! after it staged, committed or put away. A handoff names what was left uncommitted.

/// Headings of `git status`'s long form under which each tab-indented line names a path.
const SECTIONS: [&str; 4] = [
    "Changes to be committed:",
    "Changes not staged for commit:",
    "Untracked files:",
    "Unmerged paths:",
];
const STAGED_SECTION: &str = "Changes to be committed:";

/// Steps that stage every change, whatever follows them (`git commit -a -m …`).
const COMMITS_ALL: [&str; 3] = ["git commit -a", "git commit -am", "git commit --all"];
/// Steps that stage every change when nothing but options follows them (`git add -A`, not
/// `git add -A docs/`).
const ADDS_ALL: [&str; 5] = [
    "git add -A",
    "git add --all",
    "git add .",
    "git add -u",
    "git add :/",
];
/// Steps that put every change away when nothing but options follows them (`git stash -u`,
/// not `git stash list` or `git stash push one/path`).
const STASHES_ALL: [&str; 3] = ["git stash", "git stash push", "git stash save"];
/// Steps that put every change away whatever follows them.
const RESETS_ALL: [&str; 3] = ["git reset --hard", "git checkout -- .", "git restore ."];

/// What a `git status` listed: every changed, staged or untracked path, and the staged ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingTree {
    /// Every path listed, as git printed it (relative to where it ran).
    pub changed: Vec<String>,
    /// The paths already staged: a plain `git commit` takes them.
    pub staged: Vec<String>,
}

/// The working tree a `git status` command printed, or `None` when the command is no status
/// of this repository (`git -C elsewhere status`) or its output says nothing of the tree. The
/// short form of a clean tree prints nothing (or only its `## branch` line): that is a clean
/// tree, not silence.
pub fn read_status(command: &str, output: &str) -> Option<WorkingTree> {
    if !command.contains("git status") || command.contains("git -C") {
        return None;
    }
    let short = ["--short", "--porcelain", " -s", " -sb", " -bs"]
        .iter()
        .any(|flag| command.contains(flag));
    let mut tree = WorkingTree::default();
    let mut recognised = false;
    let mut section: Option<&str> = None;
    for line in output.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("nothing to commit") || trimmed.starts_with("On branch ") {
            recognised = true;
        }
        if let Some(heading) = SECTIONS.iter().find(|heading| **heading == trimmed) {
            (recognised, section) = (true, Some(*heading));
            continue;
        }
        if let Some(heading) = section.filter(|_| line.starts_with('\t')) {
            let entry = trimmed.split_once(":   ").map_or(trimmed, |(_, path)| path);
            let path = entry.rsplit(" -> ").next().unwrap_or(entry).trim();
            push_path(&mut tree.changed, path);
            if heading == STAGED_SECTION {
                push_path(&mut tree.staged, path);
            }
        } else if !line.starts_with("  (") && !trimmed.is_empty() {
            section = None;
        }
        if let Some((staged, path)) = short_status_path(line) {
            recognised = true;
            push_path(&mut tree.changed, path);
            if staged {
                push_path(&mut tree.staged, path);
            }
        }
    }
    let clean_short = short
        && output
            .lines()
            .all(|line| line.trim().is_empty() || line.starts_with("## "));
    (recognised || clean_short).then_some(tree)
}

/// Whether one of the command's steps stages every change before a commit.
pub fn stages_everything(command: &str) -> bool {
    has_step(command, &COMMITS_ALL, false) || has_step(command, &ADDS_ALL, true)
}

/// Whether one of the command's steps puts every change of the tree away.
pub fn puts_everything_away(command: &str) -> bool {
    has_step(command, &STASHES_ALL, true) || has_step(command, &RESETS_ALL, false)
}

/// The paths a command's `git add` and `git commit` steps name (not their options, nor a
/// commit's message).
pub fn named_paths(command: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for step in steps(command) {
        let Some(rest) = step
            .strip_prefix("git add ")
            .or_else(|| step.strip_prefix("git commit "))
        else {
            continue;
        };
        for word in rest.split_whitespace() {
            if matches!(word, "-m" | "--message" | "-F" | "--file" | "-C" | "-c") {
                // The message and what follows it are no paths.
                break;
            }
            if !word.starts_with('-') && word != "--" {
                paths.push(word.trim_matches(['"', '\'']).to_owned());
            }
        }
    }
    paths
}

/// Whether `path` (as `git status` printed it) is taken by one of the `named` paths: the
/// same path, or a directory holding it.
pub fn is_named(path: &str, named: &[String]) -> bool {
    let path = path.trim_end_matches('/');
    named.iter().any(|name| {
        let name = name.trim_start_matches("./").trim_end_matches('/');
        !name.is_empty() && (path == name || path.starts_with(&format!("{name}/")))
    })
}

/// A shell command's steps, split at `&&`, `;`, `|` and line ends, trimmed.
fn steps(command: &str) -> impl Iterator<Item = &str> {
    command.split(['\n', ';', '&', '|']).map(str::trim)
}

/// Whether a step is one of `known`, followed by anything or, with `options_only`, by nothing
/// but options.
fn has_step(command: &str, known: &[&str], options_only: bool) -> bool {
    steps(command).any(|step| {
        known.iter().any(|known| {
            step.strip_prefix(known).is_some_and(|rest| {
                rest.is_empty()
                    || (rest.starts_with(' ')
                        && (!options_only
                            || rest.split_whitespace().all(|word| word.starts_with('-'))))
            })
        })
    })
}

/// A short-form status line: two status letters (`??` for untracked), a space and the path;
/// whether it is staged (a first letter other than a space or `?`), and the path.
fn short_status_path(line: &str) -> Option<(bool, &str)> {
    let (status, path) = (line.get(..3)?, line.get(3..)?);
    let letter = |c: char| matches!(c, ' ' | 'M' | 'A' | 'D' | 'R' | 'C' | 'U' | 'T');
    let mut letters = status.chars();
    let (x, y, gap) = (letters.next()?, letters.next()?, letters.next()?);
    let tracked = letter(x) && letter(y) && (x, y) != (' ', ' ');
    let shaped = (tracked || (x, y) == ('?', '?')) && gap == ' ' && !path.starts_with(' ');
    let path = path.trim();
    (shaped && !path.is_empty()).then(|| {
        (
            tracked && x != ' ',
            path.rsplit(" -> ").next().unwrap_or(path),
        )
    })
}

/// Adds a path once; git quotes a path with special characters and writes its non-ASCII bytes
/// as octal escapes (`"caf\303\251.md"`), which are undone.
fn push_path(paths: &mut Vec<String>, path: &str) {
    let path = unquote(path);
    if !path.is_empty() && !paths.contains(&path) {
        paths.push(path);
    }
}

fn unquote(path: &str) -> String {
    let Some(inner) = path
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return path.to_owned();
    };
    let mut bytes = Vec::with_capacity(inner.len());
    let raw = inner.as_bytes();
    let mut at = 0;
    while at < raw.len() {
        let octal = raw
            .get(at + 1..at + 4)
            .filter(|digits| raw[at] == b'\\' && digits.iter().all(|d| (b'0'..=b'7').contains(d)));
        match (raw[at], octal) {
            (_, Some(digits)) => {
                let value = digits.iter().fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
                bytes.push(u8::try_from(value).unwrap_or(b'?'));
                at += 4;
            }
            (b'\\', None) if at + 1 < raw.len() => {
                bytes.push(match raw[at + 1] {
                    b't' => b'\t',
                    b'n' => b'\n',
                    other => other,
                });
                at += 2;
            }
            (byte, None) => {
                bytes.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const LONG_STATUS: &str = "On branch feat/x\nYour branch is up to date with 'origin/feat/x'.\n\nChanges to be committed:\n  (use \"git restore --staged <file>...\" to unstage)\n\tnew file:   docs/plan.md\n\trenamed:    old.rs -> src/new.rs\n\nChanges not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n\tmodified:   .github/workflows/ci.yml\n\tdeleted:    src/gone.py\n\nUntracked files:\n  (use \"git add <file>...\" and commit them)\n\topenspec/changes/windows-scope/\n\t\"docs/caf\\303\\251.md\"\n\nno changes added to commit (use \"git add\" and/or \"git commit -a\")";

    fn tree(changed: &[&str], staged: &[&str]) -> WorkingTree {
        WorkingTree {
            changed: changed.iter().map(|p| (*p).to_owned()).collect(),
            staged: staged.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[rstest]
    #[case::long_form(
        "git status",
        LONG_STATUS,
        Some(tree(
            &["docs/plan.md", "src/new.rs", ".github/workflows/ci.yml", "src/gone.py", "openspec/changes/windows-scope/", "docs/café.md"],
            &["docs/plan.md", "src/new.rs"]
        ))
    )]
    #[case::clean("git status", "On branch main\nnothing to commit, working tree clean", Some(tree(&[], &[])))]
    #[case::short_form(
        "git status -sb",
        "## main...origin/main [ahead 1]\n M src/lib.rs\nA  src/new.rs\nR  a.rs -> b.rs\n?? notes/\n",
        Some(tree(&["src/lib.rs", "src/new.rs", "b.rs", "notes/"], &["src/new.rs", "b.rs"]))
    )]
    #[case::porcelain_clean("git status --porcelain", "", Some(tree(&[], &[])))]
    #[case::short_clean_with_branch("git status -sb", "## main...origin/main\n", Some(tree(&[], &[])))]
    #[case::long_form_says_nothing("git status", "", None)]
    #[case::another_repository("git -C ../other status", LONG_STATUS, None)]
    #[case::no_status("git log --oneline", "3 files changed", None)]
    #[case::prose_is_no_status("git status && echo done", "All tests pass.\nA good result.", None)]
    fn reads_what_the_working_tree_holds(
        #[case] command: &str,
        #[case] output: &str,
        #[case] expected: Option<WorkingTree>,
    ) {
        assert_eq!(read_status(command, output), expected);
    }

    #[rstest]
    #[case::add_all("git add -A && git commit -m x", true)]
    #[case::add_dot("git add . && git commit -m x", true)]
    #[case::commit_all("git commit -am 'x'", true)]
    #[case::commit_all_later_options("git commit -a -m x", true)]
    #[case::add_all_of_a_dir("git add -A docs/ && git commit -m x", false)]
    #[case::add_named("git add src/a.rs && git commit -m x", false)]
    fn tells_a_commit_of_everything(#[case] command: &str, #[case] expected: bool) {
        assert_eq!(stages_everything(command), expected);
    }

    #[rstest]
    #[case::stash("git stash", true)]
    #[case::stash_untracked("git stash -u", true)]
    #[case::reset_hard("git reset --hard HEAD~1", true)]
    #[case::stash_list("git stash list", false)]
    #[case::stash_pop("git stash pop", false)]
    #[case::stash_one_path("git stash push src/a.rs", false)]
    fn tells_what_puts_everything_away(#[case] command: &str, #[case] expected: bool) {
        assert_eq!(puts_everything_away(command), expected);
    }

    #[rstest]
    #[case::add_then_commit(
        "git add .github/workflows/ci.yml && git commit -m \"docs: mention README\"",
        &[".github/workflows/ci.yml"]
    )]
    #[case::commit_with_paths("git commit src/a.rs -m 'x'", &["src/a.rs"])]
    #[case::options_skipped("git add -p -- src/b.rs", &["src/b.rs"])]
    #[case::none("git push", &[])]
    fn reads_the_paths_a_command_names(#[case] command: &str, #[case] expected: &[&str]) {
        assert_eq!(named_paths(command), expected);
    }

    #[rstest]
    #[case::same("src/a.rs", true)]
    #[case::in_a_named_dir("docs/plan.md", true)]
    #[case::dir_itself("docs/", true)]
    #[case::prefix_is_not_a_dir("docs2/x.md", false)]
    #[case::other("README", false)]
    fn tells_a_named_path(#[case] path: &str, #[case] expected: bool) {
        let named = vec!["src/a.rs".to_owned(), "./docs/".to_owned()];
        assert_eq!(is_named(path, &named), expected);
    }
}
