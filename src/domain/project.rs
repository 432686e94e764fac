//! The project a session works in, and the slug that names its data directory.

use std::path::{Path, PathBuf};

/// Longest slug kept verbatim; longer ones are cut and suffixed with a hash so that they stay
/// valid file names (255 bytes on common filesystems) and distinct.
const MAX_SLUG: usize = 160;

/// A project: its root directory (git top level, else the working directory) and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The root directory.
    pub root: PathBuf,
    /// The root's last component.
    pub name: String,
}

impl Project {
    /// The project rooted at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let name = root
            .file_name()
            .map_or_else(|| "root".to_owned(), |n| n.to_string_lossy().into_owned());
        Self { root, name }
    }

    /// The slug under the chosen style.
    pub fn slug(&self, style: SlugStyle) -> ProjectSlug {
        match style {
            SlugStyle::Path => ProjectSlug::from_path(&self.root),
            SlugStyle::Basename => ProjectSlug::from_text(&self.name),
        }
    }
}

/// What the repository says the project is doing now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectFacts {
    /// The checked-out branch, when on one.
    pub branch: Option<String>,
    /// Subjects of the newest commits made here, newest first.
    pub recent_commits: Vec<String>,
}

/// How a project's directory under `projects/` is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlugStyle {
    /// The whole root path (`/home/u/code/shop-api` → `-home-u-code-shop-api`): never collides.
    #[default]
    Path,
    /// The directory name only, compatible with `~/.amplifier/projects/<name>/` trees.
    Basename,
}

/// A project's directory name: only `[A-Za-z0-9-]`, never empty, never `.` or `..`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProjectSlug(String);

impl ProjectSlug {
    /// Every character of the path outside `[A-Za-z0-9]` becomes `-`.
    pub fn from_path(path: &Path) -> Self {
        Self::from_text(&path.to_string_lossy())
    }

    /// Every character outside `[A-Za-z0-9]` becomes `-`.
    pub fn from_text(text: &str) -> Self {
        let mut slug: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        if slug.is_empty() {
            slug.push('-');
        }
        if slug.len() > MAX_SLUG {
            let hash = fnv1a(text.as_bytes());
            slug.truncate(MAX_SLUG - 17);
            slug.push_str(&format!("-{hash:016x}"));
        }
        Self(slug)
    }

    /// The slug.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A stable (not randomised) 64-bit hash: the suffix must be the same in every process.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::design_example("/home/user/code/shop-api", "-home-user-code-shop-api")]
    #[case::dots_and_spaces("/tmp/my project.v2", "-tmp-my-project-v2")]
    #[case::traversal("../..", "-----")]
    #[case::unicode("/home/josé", "-home-jos-")]
    fn replaces_everything_but_alphanumerics(#[case] path: &str, #[case] slug: &str) {
        assert_eq!(ProjectSlug::from_path(Path::new(path)).as_str(), slug);
    }

    #[test]
    fn basename_style_uses_the_directory_name() {
        let project = Project::at("/home/user/code/shop-api");
        assert_eq!(project.name, "shop-api");
        assert_eq!(project.slug(SlugStyle::Basename).as_str(), "shop-api");
        assert_eq!(
            project.slug(SlugStyle::Path).as_str(),
            "-home-user-code-shop-api"
        );
    }

    #[test]
    fn long_paths_are_cut_with_a_distinguishing_hash() {
        let a = ProjectSlug::from_text(&format!("/{}/a", "x".repeat(300)));
        let b = ProjectSlug::from_text(&format!("/{}/b", "x".repeat(300)));
        assert!(a.as_str().len() <= MAX_SLUG);
        assert_ne!(a, b);
    }

    proptest::proptest! {
        /// Any path or text gives one safe directory name: nothing that could climb out of
        /// the projects directory or name another one.
        #[test]
        fn a_slug_is_always_one_safe_path_component(text in ".{0,400}") {
            let slug = ProjectSlug::from_text(&text);
            let slug = slug.as_str();
            proptest::prop_assert!(!slug.is_empty() && slug.len() <= MAX_SLUG);
            proptest::prop_assert!(slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            let joined = Path::new("/data/projects").join(slug);
            proptest::prop_assert_eq!(joined.parent(), Some(Path::new("/data/projects")));
        }
    }
}
