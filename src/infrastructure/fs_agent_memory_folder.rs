//! Claude Code's memory folder on disk, read without following links: the folder belongs to
//! another program, and a memory that is a link to `~/.ssh/id_ed25519` must not become a
//! proposal.

use std::path::Path;

use crate::domain::AgentMemoryError;
use crate::domain::agent_memory::MAX_MEMORY_FILE_BYTES;
use crate::domain::ports::AgentMemoryFolder;

use super::regular_file::read_regular_utf8_no_follow;

/// Entries listed at most: a real folder holds a few dozen memories.
const MAX_ENTRIES: usize = 1_000;

/// Reads memory folders from the filesystem.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsAgentMemoryFolder;

#[async_trait::async_trait]
impl AgentMemoryFolder for FsAgentMemoryFolder {
    async fn list(&self, dir: &Path) -> Result<Vec<String>, AgentMemoryError> {
        let io = |source| AgentMemoryError::Io {
            path: dir.to_path_buf(),
            source,
        };
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(AgentMemoryError::NoFolder {
                    path: dir.to_path_buf(),
                });
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(AgentMemoryError::NoFolder {
                    path: dir.to_path_buf(),
                });
            }
            Err(error) => return Err(io(error)),
        }
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)?.take(MAX_ENTRIES) {
            let entry = entry.map_err(io)?;
            // `file_type` does not follow links: a link is listed, and refused when read.
            if entry.file_type().map_err(io)?.is_dir() {
                continue;
            }
            if let Some(name) = entry.file_name().to_str()
                && name.ends_with(".md")
            {
                names.push(name.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    async fn read(&self, dir: &Path, name: &str) -> Result<String, AgentMemoryError> {
        let path = dir.join(name);
        if name.contains(['/', '\\']) || name == ".." {
            return Err(AgentMemoryError::Refused {
                path,
                reason: "not a file name".into(),
            });
        }
        read_regular_utf8_no_follow(&path, MAX_MEMORY_FILE_BYTES).map_err(|source| {
            let reason = match source.raw_os_error() {
                #[cfg(unix)]
                Some(libc::ELOOP) => Some("a symbolic link; not followed".to_owned()),
                _ => matches!(
                    source.kind(),
                    std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData
                )
                .then(|| source.to_string()),
            };
            match reason {
                Some(reason) => AgentMemoryError::Refused { path, reason },
                None => AgentMemoryError::Io { path, source },
            }
        })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn lists_markdown_files_and_refuses_links_and_large_files() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        fs_err::write(folder.join("MEMORY.md"), "- [a](a.md)\n").unwrap();
        fs_err::write(folder.join("a.md"), "---\ndescription: A\n---\n").unwrap();
        fs_err::write(folder.join("notes.txt"), "not a memory").unwrap();
        fs_err::write(
            folder.join("big.md"),
            "x".repeat(MAX_MEMORY_FILE_BYTES as usize + 1),
        )
        .unwrap();
        fs_err::create_dir(folder.join("old.md")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", folder.join("link.md")).unwrap();
        let names = pollster::block_on(FsAgentMemoryFolder.list(folder)).unwrap();
        assert_eq!(names, ["MEMORY.md", "a.md", "big.md", "link.md"]);
        let read = |name| pollster::block_on(FsAgentMemoryFolder.read(folder, name));
        assert!(read("a.md").unwrap().contains("description: A"));
        assert!(matches!(
            read("link.md"),
            Err(AgentMemoryError::Refused { .. })
        ));
        assert!(matches!(
            read("big.md"),
            Err(AgentMemoryError::Refused { .. })
        ));
        assert!(matches!(
            read("../a.md"),
            Err(AgentMemoryError::Refused { .. })
        ));
    }

    #[test]
    fn a_missing_folder_is_no_folder() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("memory");
        assert!(matches!(
            pollster::block_on(FsAgentMemoryFolder.list(&missing)),
            Err(AgentMemoryError::NoFolder { .. })
        ));
    }
}
