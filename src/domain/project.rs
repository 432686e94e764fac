//! The project a session works in, and the slug that names its data directory.

use std::path::{Path, PathBuf};

/// Longest slug kept verbatim; longer ones are cut and suffixed with a hash so that they stay
/// valid file names (255 bytes on common filesystems) and distinct.
const MAX_SLUG: usize = 160;

/// A project: the working tree a session is in, and the identity that its other worktrees,
/// and its clones elsewhere, share (ADR 0010).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The working tree's top level (a linked worktree's own), else the working directory.
    pub root: PathBuf,
    /// The main worktree's top level: `root` unless the session is in a linked worktree.
    pub main_root: PathBuf,
    /// The project's name: its main worktree's directory name.
    pub name: String,
    /// Who the project is, whatever the path it is checked out at.
    pub id: ProjectId,
    /// Whether a git working tree holds it. Outside git the project is the directory alone:
    /// its subdirectories are projects of their own.
    pub in_git: bool,
}

/// A project's identity: its `origin` remote (`git:github.com/acme/shop-api`), which every
/// clone and worktree shares, else its main worktree's path (`path:/home/u/code/notes`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProjectId(String);

impl ProjectId {
    /// The identity of a repository with this `origin` URL, in any of git's spellings
    /// (`git@github.com:Acme/shop-api.git`, `https://user@github.com/acme/shop-api`), or an
    /// absolute local path (`/srv/git/shop.git`, `file:///srv/git/shop.git`), which every
    /// clone of it on this machine (or this network share) shares.
    pub fn from_remote(url: &str) -> Option<Self> {
        let url = url.trim();
        let local = url.strip_prefix("file://").unwrap_or(url);
        if local.starts_with('/') {
            // A path's case is its own; only a host's is not.
            let path = local.trim_end_matches('/').trim_end_matches(".git");
            let path = path.trim_end_matches('/');
            return (!path.is_empty()).then(|| Self(format!("git:file{path}")));
        }
        if local.starts_with('.') {
            // Relative to a directory this text does not know.
            return None;
        }
        let rest = match url.split_once("://") {
            Some((_, rest)) => rest.to_owned(),
            // scp-like `user@host:path`
            None => url.replacen(':', "/", 1),
        };
        let rest = rest.rsplit_once('@').map_or(rest.as_str(), |(_, r)| r);
        let (host, path) = rest.split_once('/')?;
        let host = host.split(':').next()?.to_ascii_lowercase();
        let path = path
            .trim_matches('/')
            .trim_end_matches(".git")
            .trim_end_matches('/');
        (!host.is_empty() && !path.is_empty())
            .then(|| Self(format!("git:{host}/{}", path.to_ascii_lowercase())))
    }

    /// The identity of a project known only by its path.
    pub fn from_path(root: &Path) -> Self {
        Self(format!("path:{}", root.display()))
    }

    /// Parses a stored identity (`git:…` or `path:…`).
    pub fn parse(raw: &str) -> Option<Self> {
        (raw.starts_with("git:") || raw.starts_with("path:")).then(|| Self(raw.to_owned()))
    }

    /// The identity as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A short name for people: the repository's or directory's last component.
    pub fn short_name(&self) -> &str {
        let place = self
            .0
            .split_once(':')
            .map_or(self.0.as_str(), |(_, place)| place);
        match place.rsplit(['/', '\\']).find(|part| !part.is_empty()) {
            Some(last) => last,
            // The file system's root has no last component.
            None if !place.is_empty() => "/",
            None => &self.0,
        }
    }
}

impl std::fmt::Display for ProjectId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Project {
    /// The project rooted at `root` outside git, known by its path.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let name = directory_name(&root);
        Self {
            id: ProjectId::from_path(&root),
            main_root: root.clone(),
            root,
            name,
            in_git: false,
        }
    }

    /// A project whose working tree is `root`, whose main worktree is `main_root`, known as
    /// `id`.
    pub fn new(root: PathBuf, main_root: PathBuf, id: ProjectId) -> Self {
        Self {
            name: directory_name(&main_root),
            root,
            main_root,
            id,
            in_git: true,
        }
    }

    /// Whether a stored scope (a [`ProjectId`]'s spelling) names this project: its identity,
    /// or the path identity it had before its `origin` remote was added.
    pub fn owns(&self, stored: &str) -> bool {
        stored == self.id.as_str() || stored == ProjectId::from_path(&self.main_root).as_str()
    }

    /// Whether a stored scope names another project that bears this one's name: under a path
    /// identity, most likely this very project before its folder was moved or cloned again
    /// elsewhere, which no identity can tell (a remote-less project is known by its path).
    pub fn namesake(&self, stored: &str) -> bool {
        !self.owns(stored)
            && ProjectId::parse(stored).is_some_and(|other| other.short_name() == self.name)
    }

    /// A stored scope as this project spells it now: its own identity when it [`owns`] it,
    /// so that two texts stored under its old and new spellings count as one project's.
    ///
    /// [`owns`]: Self::owns
    pub fn spelling<'a>(&'a self, stored: &'a str) -> &'a str {
        match self.owns(stored) {
            true => self.id.as_str(),
            false => stored,
        }
    }

    /// The identity this project went by before its `origin` remote was added (its main
    /// worktree's path), when it goes by another now.
    pub fn former_id(&self) -> Option<ProjectId> {
        let by_path = ProjectId::from_path(&self.main_root);
        (by_path != self.id).then_some(by_path)
    }

    /// The slug under the chosen style.
    pub fn slug(&self, style: SlugStyle) -> ProjectSlug {
        match style {
            SlugStyle::Path => ProjectSlug::for_project(self),
            SlugStyle::Basename => ProjectSlug::from_text(&self.name),
        }
    }
}

fn directory_name(root: &Path) -> String {
    root.file_name()
        .map_or_else(|| "root".to_owned(), |n| n.to_string_lossy().into_owned())
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
pub struct ProjectSlug {
    name: String,
    /// The name carryover 0.1 gave the same project, whose data is carried over.
    legacy: Option<String>,
    /// The name the project had while known by its path, before it had an `origin` remote
    /// (or before carryover read its remote on disk as one): its data is carried over too.
    by_path: Option<String>,
}

impl ProjectSlug {
    /// A project's slug: its name followed by a hash of its identity, so that two projects
    /// never share a directory and every worktree and clone of one finds the same. Its 0.1
    /// directory, named after its main worktree's path, is carried over.
    pub fn for_project(project: &Project) -> Self {
        Self {
            name: Self::of_identity(&project.id),
            legacy: Some(Self::from_text(&project.main_root.to_string_lossy()).name),
            by_path: project.former_id().map(|id| Self::of_identity(&id)),
        }
    }

    fn of_identity(id: &ProjectId) -> String {
        // Only the identity decides, so that a clone moved to another directory name finds
        // the same directory.
        let readable = Self::from_text(id.short_name()).name;
        let hash = format!("{:08x}", fnv1a(id.as_str().as_bytes()) as u32);
        let keep = MAX_SLUG - hash.len() - 1;
        let mut name: String = readable.chars().take(keep).collect();
        name.push('-');
        name.push_str(&hash);
        name
    }

    /// The name carryover 0.1 gave this project, when it differs: stores carry its data over.
    pub fn legacy(&self) -> Option<&str> {
        self.legacy.as_deref().filter(|old| *old != self.name)
    }

    /// The names whose directories hold this project's data from before, oldest first: its
    /// 0.1 name, then its name while it was known by its path.
    pub fn carried_over(&self) -> impl Iterator<Item = &str> {
        self.legacy().into_iter().chain(
            self.by_path
                .as_deref()
                .filter(|old| *old != self.name && Some(*old) != self.legacy()),
        )
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
        Self {
            name: slug,
            legacy: None,
            by_path: None,
        }
    }

    /// The names a project directory called `dir` may stand for. `shop-api-1a2b3c4d` (a
    /// project's slug) is `shop-api`; a 0.1 directory (`-home-u-code-shop-api`) spelled its
    /// path with dashes, so each tail of it is a candidate (`api`, `shop-api`, …); any other
    /// name (the basename style) is itself.
    pub fn project_names(dir: &str) -> Vec<String> {
        if let Some(path) = dir.strip_prefix('-') {
            let parts: Vec<&str> = path.split('-').filter(|p| !p.is_empty()).collect();
            // Tails of more than three components are a path, not a name anyone writes.
            return (1..=parts.len().min(3))
                .map(|n| parts[parts.len() - n..].join("-"))
                .collect();
        }
        let hashed = dir.rsplit_once('-').filter(|(name, hash)| {
            !name.is_empty() && hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit())
        });
        vec![hashed.map_or(dir, |(name, _)| name).to_owned()]
    }

    /// The slug.
    pub fn as_str(&self) -> &str {
        &self.name
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
    #[case::repository("git:github.com/acme/shop-api", "shop-api")]
    #[case::file_remote("git:file/srv/git/notes", "notes")]
    #[case::directory("path:/home/mara/notes", "notes")]
    #[case::trailing_slash("path:/home/mara/notes/", "notes")]
    #[case::windows_directory("path:C:\\Users\\mara\\notes", "notes")]
    #[case::file_system_root("path:/", "/")]
    fn a_short_name_is_the_last_component(#[case] id: &str, #[case] name: &str) {
        let id = ProjectId::parse(id).unwrap();
        assert_eq!(id.short_name(), name);
    }

    #[rstest]
    #[case::design_example("/home/user/code/shop-api", "shop-api-", "-home-user-code-shop-api")]
    #[case::dots_and_spaces("/tmp/my project.v2", "my-project-v2-", "-tmp-my-project-v2")]
    #[case::traversal("/..", "---", "---")]
    #[case::unicode("/home/josé", "jos--", "-home-jos-")]
    fn is_the_readable_name_then_a_hash(
        #[case] path: &str,
        #[case] readable: &str,
        #[case] legacy: &str,
    ) {
        let slug = Project::at(path).slug(SlugStyle::Path);
        assert!(slug.as_str().starts_with(readable), "{}", slug.as_str());
        assert_eq!(slug.as_str().len(), readable.len() + 8);
        assert_eq!(slug.legacy(), Some(legacy));
    }

    #[rstest]
    #[case::moved_folder("path:/home/u/old/shop-api", true)]
    #[case::same_name_with_a_remote("git:github.com/acme/shop-api", true)]
    #[case::itself("path:/home/u/code/shop-api", false)]
    #[case::another_name("path:/home/u/old/notes", false)]
    #[case::a_name_that_only_ends_alike("path:/home/u/old/my-shop-api", false)]
    #[case::not_an_identity("shop-api", false)]
    fn a_namesake_is_another_project_with_this_ones_name(
        #[case] stored: &str,
        #[case] namesake: bool,
    ) {
        assert_eq!(
            Project::at("/home/u/code/shop-api").namesake(stored),
            namesake
        );
    }

    #[rstest]
    #[case("/home/u/my.app", "/home/u/my_app")]
    #[case("/home/u/a-b/c", "/home/u/a/b-c")]
    fn paths_that_read_alike_get_their_own_slug(#[case] a: &str, #[case] b: &str) {
        let (a, b) = (
            Project::at(a).slug(SlugStyle::Path),
            Project::at(b).slug(SlugStyle::Path),
        );
        assert_ne!(a, b);
        assert_eq!(
            a.legacy(),
            b.legacy(),
            "carryover 0.1 gave them one directory"
        );
    }

    #[test]
    fn basename_style_uses_the_directory_name() {
        let project = Project::at("/home/user/code/shop-api");
        assert_eq!(project.name, "shop-api");
        assert_eq!(project.slug(SlugStyle::Basename).as_str(), "shop-api");
        let slug = project.slug(SlugStyle::Path);
        assert!(slug.as_str().starts_with("shop-api-"), "{}", slug.as_str());
        assert_eq!(slug.legacy(), Some("-home-user-code-shop-api"));
    }

    #[test]
    fn worktrees_and_clones_of_one_repository_share_a_slug() {
        let id = ProjectId::from_remote("git@github.com:Acme/shop-api.git").unwrap();
        let main = Project::new(
            "/home/u/shop-api".into(),
            "/home/u/shop-api".into(),
            id.clone(),
        );
        let worktree = Project::new(
            "/home/u/wt/feature".into(),
            "/home/u/shop-api".into(),
            id.clone(),
        );
        let moved = Project::new("/srv/elsewhere".into(), "/srv/elsewhere".into(), id);
        let slug = main.slug(SlugStyle::Path);
        assert_eq!(worktree.slug(SlugStyle::Path).as_str(), slug.as_str());
        assert_eq!(moved.slug(SlugStyle::Path).as_str(), slug.as_str());
        assert!(slug.as_str().starts_with("shop-api-"));
        assert_eq!(worktree.name, "shop-api");
    }

    #[rstest]
    #[case::its_identity("git:github.com/acme/shop-api", "git:github.com/acme/shop-api")]
    #[case::its_path_before_the_remote("path:/home/u/shop-api", "git:github.com/acme/shop-api")]
    #[case::another_project("path:/home/u/notes", "path:/home/u/notes")]
    #[case::global("*", "*")]
    fn a_stored_scope_is_spelled_as_the_project_goes_now(
        #[case] stored: &str,
        #[case] spelled: &str,
    ) {
        let id = ProjectId::from_remote("git@github.com:acme/shop-api.git").unwrap();
        let project = Project::new("/home/u/wt/x".into(), "/home/u/shop-api".into(), id);
        assert_eq!(project.spelling(stored), spelled);
    }

    #[test]
    fn the_former_identity_is_the_path_only_once_a_remote_names_the_project() {
        let id = ProjectId::from_remote("git@github.com:acme/shop-api.git").unwrap();
        let project = Project::new("/home/u/wt/x".into(), "/home/u/shop-api".into(), id);
        assert_eq!(
            project
                .former_id()
                .map(|id| id.as_str().to_owned())
                .as_deref(),
            Some("path:/home/u/shop-api")
        );
        assert_eq!(Project::at("/home/u/notes").former_id(), None);
    }

    #[rstest]
    #[case("shop-api-1a2b3c4d", &["shop-api"])]
    #[case("-home-u-code-shop-api", &["api", "shop-api", "code-shop-api"])]
    #[case("notes", &["notes"])]
    #[case("release-2024", &["release-2024"])]
    fn a_directory_names_its_project(#[case] dir: &str, #[case] names: &[&str]) {
        assert_eq!(ProjectSlug::project_names(dir), names);
    }

    #[rstest]
    #[case(
        "git@github.com:Acme/shop-api.git",
        Some("git:github.com/acme/shop-api")
    )]
    #[case(
        "https://github.com/acme/shop-api",
        Some("git:github.com/acme/shop-api")
    )]
    #[case(
        "https://user:pw@GitHub.com/acme/shop-api.git/",
        Some("git:github.com/acme/shop-api")
    )]
    #[case(
        "ssh://git@gitlab.example.com:2222/group/sub/app.git",
        Some("git:gitlab.example.com/group/sub/app")
    )]
    #[case("/srv/git/app.git", Some("git:file/srv/git/app"))]
    #[case("file:///srv/git/App.git/", Some("git:file/srv/git/App"))]
    #[case("/", None)]
    #[case("../app.git", None)]
    #[case("", None)]
    fn remotes_in_every_spelling_name_one_project(#[case] url: &str, #[case] id: Option<&str>) {
        assert_eq!(
            ProjectId::from_remote(url).as_ref().map(ProjectId::as_str),
            id
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
            for slug in [ProjectSlug::from_text(&text), Project::at(&text).slug(SlugStyle::Path)] {
            let slug = slug.as_str();
            proptest::prop_assert!(!slug.is_empty() && slug.len() <= MAX_SLUG);
            proptest::prop_assert!(slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            let joined = Path::new("/data/projects").join(slug);
            proptest::prop_assert_eq!(joined.parent(), Some(Path::new("/data/projects")));
            }
        }
    }
}
