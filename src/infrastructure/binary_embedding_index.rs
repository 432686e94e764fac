//! Stored learning vectors, one file per embedding model: `<data home>/index/<model>.idx`.

use std::path::PathBuf;

use crate::domain::IndexError;
use crate::domain::ports::EmbeddingIndex;
use crate::domain::retrieval::StoredVectors;

use super::write_atomic;

/// An index larger than this is not carryover's (10^6 learnings at 256 dimensions are 270 MB).
const MAX_INDEX_BYTES: u64 = 1 << 30;

/// One file per model holding [`StoredVectors`]' layout as it is: loading is one read and
/// one check (1,000 learnings at 256 dimensions are 270 KB), with no per-vector allocation.
#[derive(Debug, Clone)]
pub struct BinaryEmbeddingIndex {
    root: PathBuf,
    dir: PathBuf,
}

impl BinaryEmbeddingIndex {
    /// The index of the data home `root`: `<root>/index/`, which must be a real directory
    /// (a link planted there is refused, not written through).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        Self {
            dir: root.join("index"),
            root,
        }
    }

    /// The file of a model.
    pub fn path(&self, model_id: &str) -> PathBuf {
        let name: String = model_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{name}.idx"))
    }
}

#[async_trait::async_trait]
impl EmbeddingIndex for BinaryEmbeddingIndex {
    async fn load(&self, model_id: &str) -> Result<StoredVectors, IndexError> {
        let path = self.path(model_id);
        let bytes = match super::read_regular(&path, MAX_INDEX_BYTES) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(StoredVectors::default());
            }
            Err(source) => return Err(IndexError::Io { path, source }),
        };
        StoredVectors::from_bytes(bytes).map_err(|reason| IndexError::Corrupt { path, reason })
    }

    async fn save(&self, model_id: &str, vectors: &StoredVectors) -> Result<(), IndexError> {
        let path = self.path(model_id);
        super::private_dir_within(&self.root, &self.dir).map_err(|source| IndexError::Io {
            path: self.dir.clone(),
            source,
        })?;
        write_atomic(&path, vectors.as_bytes()).map_err(|source| IndexError::Io { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors() -> StoredVectors {
        let mut builder = StoredVectors::builder();
        builder
            .insert("pat_1", 7, &[0.6, -0.8])
            .insert("ins_2", 9, &[1.0, 0.0]);
        builder.finish()
    }

    #[test]
    fn save_then_load_is_the_identity_per_model() {
        let dir = tempfile::tempdir().unwrap();
        let index = BinaryEmbeddingIndex::new(dir.path());
        pollster::block_on(index.save("builtin:minilm-static-v1:256d", &vectors())).unwrap();
        assert_eq!(
            pollster::block_on(index.load("builtin:minilm-static-v1:256d")).unwrap(),
            vectors()
        );
        assert!(
            pollster::block_on(index.load("http:other"))
                .unwrap()
                .is_empty()
        );
        assert!(index.path("http://x/y").ends_with("http___x_y.idx"));
    }

    #[test]
    fn a_damaged_file_is_reported_as_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let index = BinaryEmbeddingIndex::new(dir.path());
        pollster::block_on(index.save("m", &vectors())).unwrap();
        let path = index.path("m");
        let bytes = fs_err::read(&path).unwrap();
        fs_err::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(matches!(
            pollster::block_on(index.load("m")),
            Err(IndexError::Corrupt { .. })
        ));
    }
}
