//! Stored learning vectors, one file per embedding model: `<data home>/index/<model>.idx`.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::domain::IndexError;
use crate::domain::ports::{EmbeddingIndex, IndexedVector};

use super::write_atomic;

const MAGIC: &[u8; 8] = b"CRYIDX01";

/// A little-endian binary file per model: magic, dims, count, then for each learning its id
/// (u16 length + UTF-8), content hash (u64) and vector (dims × f32). Read whole: 1,000
/// learnings at 256 dimensions are 1 MB, parsed in well under a millisecond.
#[derive(Debug, Clone)]
pub struct BinaryEmbeddingIndex {
    dir: PathBuf,
}

impl BinaryEmbeddingIndex {
    /// An index in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
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

fn parse(bytes: &[u8]) -> Result<HashMap<String, IndexedVector>, String> {
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let slice = bytes.get(at..at + n).ok_or("truncated")?;
        at += n;
        Ok(slice)
    };
    if take(8)? != MAGIC {
        return Err("wrong magic".into());
    }
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let dims = word(take(4)?);
    let count = word(take(4)?);
    let mut vectors = HashMap::with_capacity(count);
    for _ in 0..count {
        let length = take(2)?;
        let length = u16::from_le_bytes([length[0], length[1]]) as usize;
        let id = std::str::from_utf8(take(length)?)
            .map_err(|_| "an id is not UTF-8")?
            .to_owned();
        let hash = take(8)?;
        let content_hash = u64::from_le_bytes(hash.try_into().map_err(|_| "truncated")?);
        let raw = take(4 * dims)?;
        let vector = raw
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        vectors.insert(
            id,
            IndexedVector {
                content_hash,
                vector,
            },
        );
    }
    if at != bytes.len() {
        return Err("trailing bytes".into());
    }
    Ok(vectors)
}

fn encode(vectors: &HashMap<String, IndexedVector>) -> Vec<u8> {
    let dims = vectors.values().next().map_or(0, |v| v.vector.len());
    let mut ids: Vec<&String> = vectors
        .keys()
        .filter(|id| id.len() <= usize::from(u16::MAX))
        .collect();
    ids.sort();
    let mut out = Vec::with_capacity(16 + ids.len() * (24 + 4 * dims));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(dims as u32).to_le_bytes());
    let kept: Vec<&String> = ids
        .into_iter()
        .filter(|id| vectors[*id].vector.len() == dims)
        .collect();
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for id in kept {
        let entry = &vectors[id];
        out.extend_from_slice(&(id.len() as u16).to_le_bytes());
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(&entry.content_hash.to_le_bytes());
        for value in &entry.vector {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    out
}

#[async_trait::async_trait]
impl EmbeddingIndex for BinaryEmbeddingIndex {
    async fn load(&self, model_id: &str) -> Result<HashMap<String, IndexedVector>, IndexError> {
        let path = self.path(model_id);
        let bytes = match fs_err::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
            Err(source) => return Err(IndexError::Io { path, source }),
        };
        parse(&bytes).map_err(|reason| IndexError::Corrupt { path, reason })
    }

    async fn save(
        &self,
        model_id: &str,
        vectors: &HashMap<String, IndexedVector>,
    ) -> Result<(), IndexError> {
        let path = self.path(model_id);
        write_atomic(&path, &encode(vectors)).map_err(|source| IndexError::Io { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors() -> HashMap<String, IndexedVector> {
        HashMap::from([
            (
                "pat_1".to_owned(),
                IndexedVector {
                    content_hash: 7,
                    vector: vec![0.5, -0.25],
                },
            ),
            (
                "ins_2".to_owned(),
                IndexedVector {
                    content_hash: 9,
                    vector: vec![1.0, 0.0],
                },
            ),
        ])
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
