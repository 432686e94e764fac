//! A project's directory under the projects tree, carried over from the name carryover 0.1
//! gave it (slugs were not injective then: `my.app` and `my_app` shared one).

use std::path::{Path, PathBuf};

use crate::domain::project::ProjectSlug;

/// `<projects_dir>/<slug>`. When it does not exist yet and a directory the project had before
/// does (a real directory, not a link: its 0.1 one, or the one it had while known by its
/// path), that one is renamed to it first: the project keeps its handoffs, state and records.
/// Two projects that shared a 0.1 directory: the first to run takes it, as it held their
/// mixed data anyway.
pub fn project_dir(projects_dir: &Path, slug: &ProjectSlug) -> PathBuf {
    let dir = projects_dir.join(slug.as_str());
    for before in slug.carried_over() {
        let old = projects_dir.join(before);
        let carry_over =
            !dir.exists() && std::fs::symlink_metadata(&old).is_ok_and(|m| m.file_type().is_dir());
        if carry_over {
            let _ = std::fs::rename(&old, &dir);
        }
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_01_directory_is_carried_over_once() {
        let dir = tempfile::tempdir().unwrap();
        let slug = crate::domain::project::Project::at("/home/u/shop-api")
            .slug(crate::domain::project::SlugStyle::Path);
        let old = dir.path().join(slug.legacy().unwrap());
        fs_err::create_dir_all(old.join("sessions/s0")).unwrap();
        fs_err::write(old.join("sessions/s0/handoff.md"), "## Notes\n- kept\n").unwrap();
        let new = project_dir(dir.path(), &slug);
        assert!(new.join("sessions/s0/handoff.md").is_file());
        assert!(!old.exists());
        fs_err::create_dir_all(&old).unwrap();
        project_dir(dir.path(), &slug);
        assert!(old.exists(), "only when the new one does not exist yet");
    }

    #[test]
    fn a_projects_directory_from_before_its_remote_is_carried_over() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::path::PathBuf::from("/home/u/shop-api");
        let by_path = crate::domain::project::Project::at(&root)
            .slug(crate::domain::project::SlugStyle::Path);
        fs_err::create_dir_all(dir.path().join(by_path.as_str()).join("sessions")).unwrap();
        let id = crate::domain::project::ProjectId::from_remote("/srv/git/shop-api.git").unwrap();
        let with_remote = crate::domain::project::Project::new(root.clone(), root, id)
            .slug(crate::domain::project::SlugStyle::Path);
        let new = project_dir(dir.path(), &with_remote);
        assert!(new.join("sessions").is_dir());
        assert!(!dir.path().join(by_path.as_str()).exists());
    }
}
