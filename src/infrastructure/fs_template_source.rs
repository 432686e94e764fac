//! Start-up templates from the filesystem: `<project>/.carryover/_startup.md` and
//! `<data home>/templates/_startup.md`.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::domain::TemplateError;
use crate::domain::ports::{TemplateFile, TemplateSource};

/// Templates larger than this are not read: an instruction is a few lines.
const MAX_TEMPLATE_BYTES: u64 = 64 * 1024;

/// Reads templates without following symbolic links: a repository could otherwise point
/// `.carryover/_startup.md` at any file of the user's and have it injected.
#[derive(Debug, Clone)]
pub struct FsTemplateSource {
    user_template: PathBuf,
}

impl FsTemplateSource {
    /// Templates with the user's own at `user_template`.
    pub fn new(user_template: impl Into<PathBuf>) -> Self {
        Self {
            user_template: user_template.into(),
        }
    }

    /// The path a project's template has.
    pub fn project_path(root: &Path) -> PathBuf {
        root.join(".carryover").join("_startup.md")
    }

    fn read(
        path: &Path,
        components_to_check: &[&Path],
    ) -> Result<Option<TemplateFile>, TemplateError> {
        for component in components_to_check {
            match fs_err::symlink_metadata(component) {
                Ok(metadata) if metadata.file_type().is_symlink() => {
                    return Err(TemplateError::Refused {
                        path: component.to_path_buf(),
                        reason: "a symbolic link",
                    });
                }
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(source) => {
                    return Err(TemplateError::Io {
                        path: component.to_path_buf(),
                        source,
                    });
                }
            }
        }
        let metadata = match fs_err::symlink_metadata(path) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(TemplateError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        if metadata.file_type().is_symlink() {
            return Err(TemplateError::Refused {
                path: path.to_owned(),
                reason: "a symbolic link",
            });
        }
        if !metadata.is_file() {
            return Err(TemplateError::Refused {
                path: path.to_owned(),
                reason: "not a regular file",
            });
        }
        if metadata.len() > MAX_TEMPLATE_BYTES {
            return Err(TemplateError::Refused {
                path: path.to_owned(),
                reason: "larger than 64 KiB",
            });
        }
        let bytes = fs_err::read(path).map_err(|source| TemplateError::Io {
            path: path.to_owned(),
            source,
        })?;
        let sha256 = hex(&Sha256::digest(&bytes));
        let text = String::from_utf8(bytes).map_err(|_| TemplateError::Refused {
            path: path.to_owned(),
            reason: "not UTF-8 text",
        })?;
        Ok(Some(TemplateFile {
            path: path.to_owned(),
            text,
            sha256,
        }))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[async_trait::async_trait]
impl TemplateSource for FsTemplateSource {
    async fn project_template(&self, root: &Path) -> Result<Option<TemplateFile>, TemplateError> {
        let dir = root.join(".carryover");
        Self::read(&Self::project_path(root), &[&dir])
    }

    async fn user_template(&self) -> Result<Option<TemplateFile>, TemplateError> {
        Self::read(&self.user_template, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project_with(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs_err::create_dir_all(dir.path().join(".carryover")).unwrap();
        fs_err::write(FsTemplateSource::project_path(dir.path()), text).unwrap();
        dir
    }

    #[test]
    fn reads_a_project_template_with_its_digest() {
        let dir = project_with("abc");
        let source = FsTemplateSource::new("/nonexistent");
        let file = pollster::block_on(source.project_template(dir.path()))
            .unwrap()
            .unwrap();
        assert_eq!(file.text, "abc");
        assert_eq!(
            file.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_project_without_a_template_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            pollster::block_on(FsTemplateSource::new("/x").project_template(dir.path()))
                .unwrap()
                .is_none()
        );
        assert!(
            pollster::block_on(FsTemplateSource::new("/nonexistent/_startup.md").user_template())
                .unwrap()
                .is_none()
        );
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_not_followed() {
        let secret_dir = tempfile::tempdir().unwrap();
        let secret = secret_dir.path().join("id_rsa");
        fs_err::write(&secret, "PRIVATE").unwrap();
        let file_link = tempfile::tempdir().unwrap();
        fs_err::create_dir_all(file_link.path().join(".carryover")).unwrap();
        std::os::unix::fs::symlink(&secret, FsTemplateSource::project_path(file_link.path()))
            .unwrap();
        let dir_link = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(secret_dir.path(), dir_link.path().join(".carryover")).unwrap();
        fs_err::rename(&secret, secret_dir.path().join("_startup.md")).unwrap();
        for root in [file_link.path(), dir_link.path()] {
            let result = pollster::block_on(FsTemplateSource::new("/x").project_template(root));
            assert!(
                matches!(result, Err(TemplateError::Refused { .. })),
                "{root:?}: {result:?}"
            );
        }
    }

    #[test]
    fn large_templates_are_refused() {
        let dir = project_with(&"x".repeat(70_000));
        let result = pollster::block_on(FsTemplateSource::new("/x").project_template(dir.path()));
        assert!(matches!(result, Err(TemplateError::Refused { .. })));
    }
}
