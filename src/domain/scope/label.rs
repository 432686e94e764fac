//! How a stored scope reads, for people and for scripts.

use crate::domain::project::ProjectId;

/// The scope of a learning made global on purpose (`learnings scope ID global`): shown in
/// every project even when its text names one (ADR 0010). Absent means global by default.
pub const EVERY_PROJECT: &str = "*";

/// Whether a stored scope is global: absent, or [`EVERY_PROJECT`].
pub fn is_global(project: Option<&str>) -> bool {
    project.is_none_or(|stored| stored == EVERY_PROJECT)
}

/// Whether two stored scopes reach a common session: a global one reaches every project, a
/// project's only its own. The same text twice is a duplicate only where both are shown.
pub fn scopes_overlap(a: Option<&str>, b: Option<&str>) -> bool {
    is_global(a) || is_global(b) || a == b
}

/// `global`, or `project <short name>`.
pub fn scope_label(project: Option<&str>) -> String {
    match project.filter(|stored| *stored != EVERY_PROJECT) {
        None => "global".to_owned(),
        Some(stored) => match ProjectId::parse(stored) {
            Some(id) => format!("project {}", id.short_name()),
            None => format!("project {stored}"),
        },
    }
}

/// The project a scope names, for scripts: `None` when global.
pub fn scope_project(project: Option<&str>) -> Option<&str> {
    project.filter(|stored| *stored != EVERY_PROJECT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(None, "global", true)]
    #[case(Some("*"), "global", true)]
    #[case(Some("git:github.com/acme/shop-api"), "project shop-api", false)]
    #[case(Some("path:/home/u/notes"), "project notes", false)]
    fn a_scope_reads_as_global_or_its_project(
        #[case] stored: Option<&str>,
        #[case] label: &str,
        #[case] global: bool,
    ) {
        assert_eq!(scope_label(stored), label);
        assert_eq!(is_global(stored), global);
        assert_eq!(scope_project(stored).is_none(), global);
    }

    #[rstest]
    #[case::both_global(None, Some("*"), true)]
    #[case::global_and_a_project(None, Some("git:github.com/acme/shop-api"), true)]
    #[case::one_project(Some("path:/home/u/notes"), Some("path:/home/u/notes"), true)]
    #[case::two_projects(
        Some("git:github.com/acme/shop-api"),
        Some("path:/home/u/notes"),
        false
    )]
    fn scopes_overlap_unless_they_are_two_projects(
        #[case] a: Option<&str>,
        #[case] b: Option<&str>,
        #[case] overlap: bool,
    ) {
        assert_eq!(scopes_overlap(a, b), overlap);
        assert_eq!(scopes_overlap(b, a), overlap);
    }
}
