//! A project's git ignore rules: the clone's own `.git/info/exclude`.

use std::path::{Path, PathBuf};

use crate::domain::SettingsError;
use crate::domain::ports::IgnoreList;

use super::git::Git;
use super::write_atomic;

/// The ignore list of the git repository at a project's root, through the `git` command.
#[derive(Debug, Clone, Copy, Default)]
pub struct GitIgnoreList;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SettingsError + '_ {
    move |source| SettingsError::Io {
        path: path.to_owned(),
        source,
    }
}

#[async_trait::async_trait]
impl IgnoreList for GitIgnoreList {
    async fn keep_untracked(
        &self,
        path: &Path,
        root: &Path,
    ) -> Result<Option<PathBuf>, SettingsError> {
        let git = Git::new(root);
        let Ok(relative) = path.strip_prefix(root) else {
            return Ok(None);
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        // Best effort: without git, or in no repository, nothing is committed by mistake.
        let answered = |args: &[&str]| git.succeeds(args).ok();
        if !git.is_repository()
            || answered(&["check-ignore", "-q", "--", &relative]) != Some(false)
            || answered(&["ls-files", "--error-unmatch", "--", &relative]) != Some(false)
        {
            return Ok(None);
        }
        let Ok(exclude) = git.run(&["rev-parse", "--git-path", "info/exclude"]) else {
            return Ok(None);
        };
        let exclude = root.join(exclude.trim());
        let mut text = match std::fs::read_to_string(&exclude) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(error) => return Err(io(&exclude)(error)),
        };
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        // Anchored, so that a folder of the same name deeper in the tree is not caught.
        text.push_str(&format!("/{relative}\n"));
        if let Some(dir) = exclude.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        write_atomic(&exclude, text.as_bytes()).map_err(io(&exclude))?;
        Ok(Some(exclude))
    }
}
