//! Files the agent wrote outside the project in a temporary directory (Claude Code's
//! per-session `scratchpad`, a probe script under `/tmp`): working notes, not the project's
//! work, so a handoff leaves them out of its files and its uncommitted edits.

/// Temporary directories, with `/` as separator.
const TEMPORARY: [&str; 4] = [
    "/tmp/",
    "/private/tmp/",
    "/var/folders/",
    "/appdata/local/temp/",
];

/// Whether `path` is a scratch file: in a temporary directory or a `scratchpad` folder, and
/// not inside the project's `root` (a project may itself live under `/tmp`).
pub fn is_scratch_file(path: &str, root: &str) -> bool {
    let path = path.replace('\\', "/").to_lowercase();
    let root = root.replace('\\', "/").to_lowercase();
    let root = root.trim_end_matches('/');
    if !root.is_empty() && path.starts_with(&format!("{root}/")) {
        return false;
    }
    path.contains("/scratchpad/")
        || TEMPORARY
            .iter()
            .any(|dir| path.starts_with(dir) || (dir.starts_with("/appdata") && path.contains(dir)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::claude_scratchpad(
        "/private/tmp/claude-501/-Users-a-p/fc71/scratchpad/poll.sh",
        "/Users/a/p",
        true
    )]
    #[case::windows_temp(
        "C:\\Users\\j\\AppData\\Local\\Temp\\claude\\D--posh\\030d\\scratchpad\\cmp.js",
        "D:\\posh",
        true
    )]
    #[case::tmp_probe("/tmp/probe.py", "/home/u/shop", true)]
    #[case::macos_temp("/var/folders/x1/T/check.rs", "/Users/a/p", true)]
    #[case::project_file("/Users/a/p/src/main.rs", "/Users/a/p", false)]
    #[case::project_in_tmp("/tmp/repo/src/lib.rs", "/tmp/repo", false)]
    #[case::sibling_repo("/Users/a/homebrew-tap/Formula/x.rb", "/Users/a/p", false)]
    #[case::home_config("/Users/a/.claude/skills/x/SKILL.md", "/Users/a/p", false)]
    fn tells_scratch_files(#[case] path: &str, #[case] root: &str, #[case] expected: bool) {
        assert_eq!(is_scratch_file(path, root), expected);
    }
}
