//! Changed files as a handoff lists them: relative to the project, grouped by directory,
//! the most often edited first (the file the session worked on), then the most recently,
//! with how many more there were.

use crate::domain::agent_memory::is_in_agent_memory_folder;
use crate::domain::transcript::{ChangedFile, is_plan_file};

/// How the client's own folders are named in a list of files: their full paths say nothing
/// more and cost a line's room. No `<`: the injection escapes what could read as a tag.
const AGENT_MEMORY_DIR: &str = "~/.claude/projects/…/memory/";
const PLANS_DIR: &str = "~/.claude/plans/";

/// A path relative to `root` when it lies inside it, or `../…` when it lies beside it (a
/// worktree next to the checkout); either separator, so a Windows session read elsewhere
/// still shortens.
pub fn relative_path(path: &str, root: &str) -> String {
    let root = root.trim_end_matches(['/', '\\']);
    if root.is_empty() {
        return path.to_owned();
    }
    if let Some(rest) = inside(path, root) {
        return rest;
    }
    match root.rfind(['/', '\\']) {
        Some(at) if at > 1 => {
            inside(path, &root[..at]).map_or_else(|| path.to_owned(), |rest| format!("../{rest}"))
        }
        _ => path.to_owned(),
    }
}

fn inside(path: &str, dir: &str) -> Option<String> {
    let rest = path.strip_prefix(dir)?;
    rest.starts_with(['/', '\\'])
        .then(|| rest[1..].replace('\\', "/"))
}

/// A path as a handoff shows it: relative to the project (see [`relative_path`]), and the
/// client's own memory files (the index too) and plan files under their folders' short names
/// (`~/.claude/plans/x.md`), whose full paths say nothing more and spell out the user's home.
pub fn shown_path(path: &str, root: &str) -> String {
    let client_dir = if is_in_agent_memory_folder(path) {
        Some(AGENT_MEMORY_DIR)
    } else if is_plan_file(path) {
        Some(PLANS_DIR)
    } else {
        None
    };
    match client_dir {
        Some(dir) => {
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
            format!("{dir}{name}")
        }
        None => relative_path(path, root),
    }
}

/// Whether a path, as [`relative_path`] gave it, lies outside the project and beside it: in
/// no repository of the session's, so git cannot have it uncommitted.
pub fn is_outside(relative: &str) -> bool {
    let bytes = relative.as_bytes();
    relative.starts_with(['/', '\\', '~'])
        || (bytes.len() > 2 && bytes[1] == b':' && matches!(bytes[2], b'/' | b'\\'))
}

/// Lines like `src/handoff/: build.rs (3 edits), read.rs` for the `max_files` files edited
/// most often (the newest first among equals), grouped by directory, then `+N more files`
/// when some were left out.
pub fn file_groups(files: &[&ChangedFile], root: &str, max_files: usize) -> Vec<String> {
    let mut ordered: Vec<&ChangedFile> = files.to_vec();
    ordered.sort_by(|a, b| b.edits.cmp(&a.edits).then(b.last.cmp(&a.last)));
    let shown = ordered.len().min(max_files);
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for file in &ordered[..shown] {
        let path = shown_path(&file.path, root);
        let (dir, name) = match path.rfind(['/', '\\']) {
            Some(at) => (path[..=at].to_owned(), path[at + 1..].to_owned()),
            None => (String::new(), path.clone()),
        };
        let name = match file.edits {
            0 | 1 => name,
            edits => format!("{name} ({edits} edits)"),
        };
        match groups.iter_mut().find(|(known, _)| *known == dir) {
            Some((_, names)) => names.push(name),
            None => groups.push((dir, vec![name])),
        }
    }
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|(dir, names)| match dir.is_empty() {
            true => names.join(", "),
            false => format!("{dir}: {}", names.join(", ")),
        })
        .collect();
    if ordered.len() > shown {
        lines.push(format!("+{} more files", ordered.len() - shown));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn file(path: &str, edits: u32, last: u64) -> ChangedFile {
        ChangedFile {
            path: path.into(),
            edits,
            last,
        }
    }

    #[rstest]
    #[case("/p/src/a.rs", "/p", "src/a.rs")]
    #[case("/p/src/a.rs", "/p/", "src/a.rs")]
    #[case("/pp/a.rs", "/p", "/pp/a.rs")]
    #[case(
        "/home/u/worktrees/core/a.md",
        "/home/u/repo",
        "../worktrees/core/a.md"
    )]
    #[case(r"D:\oh-my-posh\src\a.go", r"D:\oh-my-posh", "src/a.go")]
    #[case("/elsewhere/b.rs", "/p", "/elsewhere/b.rs")]
    fn shortens_paths_inside_the_project(
        #[case] path: &str,
        #[case] root: &str,
        #[case] expected: &str,
    ) {
        assert_eq!(relative_path(path, root), expected);
    }

    #[test]
    fn the_clients_folders_go_by_short_names() {
        let files = [
            file(
                r"C:\Users\c\.claude\projects\C--git-car\memory\resume.md",
                5,
                3,
            ),
            file("/Users/a/.claude/plans/reactive-floating-blum.md", 1, 2),
            file("/Users/a/.claude/projects/-p/memory/rules.md", 1, 1),
            file("/Users/a/.claude/projects/-p/memory/MEMORY.md", 2, 0),
        ];
        let refs: Vec<&ChangedFile> = files.iter().collect();
        assert_eq!(
            file_groups(&refs, "/p", 5),
            vec![
                "~/.claude/projects/…/memory/: resume.md (5 edits), MEMORY.md (2 edits), rules.md",
                "~/.claude/plans/: reactive-floating-blum.md",
            ]
        );
    }

    #[test]
    fn the_file_worked_on_most_comes_first_even_when_others_were_touched_since() {
        let files = [
            file("/p/skills/what-happened/SKILL.md", 18, 40),
            file("/p/package.json", 1, 90),
            file("/p/README.md", 2, 80),
            file("/p/GEMINI.md", 1, 95),
        ];
        let refs: Vec<&ChangedFile> = files.iter().collect();
        assert_eq!(
            file_groups(&refs, "/p", 2),
            vec![
                "skills/what-happened/: SKILL.md (18 edits)",
                "README.md (2 edits)",
                "+2 more files"
            ]
        );
    }

    #[rstest]
    #[case::inside("src/a.rs", false)]
    #[case::beside("../gitsync/README.md", false)]
    #[case::elsewhere("/Users/a/.claude/plans/x.md", true)]
    #[case::windows(r"C:\Users\c\x.md", true)]
    #[case::home("~/notes.md", true)]
    fn tells_paths_outside_every_repository(#[case] relative: &str, #[case] outside: bool) {
        assert_eq!(is_outside(relative), outside);
    }

    #[test]
    fn groups_by_directory_newest_first_and_counts_the_rest() {
        let files = [
            file("/p/src/a.rs", 1, 1),
            file("/p/docs/x.md", 1, 2),
            file("/p/src/b.rs", 3, 5),
            file("/p/README.md", 1, 4),
        ];
        let refs: Vec<&ChangedFile> = files.iter().collect();
        assert_eq!(
            file_groups(&refs, "/p", 3),
            vec![
                "src/: b.rs (3 edits)",
                "README.md",
                "docs/: x.md",
                "+1 more files"
            ]
        );
    }
}
