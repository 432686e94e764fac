//! The learnings' vectors of one embedding model, laid out as they are stored, so a session
//! start reads one buffer and looks into it instead of building a map of vectors.

use std::fmt;

const MAGIC: &[u8; 8] = b"CRYIDX02";
const OLD_MAGIC: &[u8; 8] = b"CRYIDX01";
const HEADER: usize = 16;

/// Vectors keyed by learning id, each with the content hash it was computed from, quantised
/// to int8 with one scale per vector (a quarter of the f32 size; cosine similarities move by
/// well under 0.01).
///
/// Little-endian layout: magic `CRYIDX02`, dims (u32), count (u32), then count content hashes
/// (u64), count scales (f32), count id end offsets (u32), count × dims values (i8), and the
/// ids (UTF-8, sorted, concatenated). [`StoredVectors::from_bytes`] checks all of it once, so
/// the accessors cannot fail.
#[derive(Clone, PartialEq)]
pub struct StoredVectors {
    bytes: Vec<u8>,
    dims: usize,
    count: usize,
}

impl fmt::Debug for StoredVectors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredVectors")
            .field("dims", &self.dims)
            .field("count", &self.count)
            .finish()
    }
}

impl Default for StoredVectors {
    fn default() -> Self {
        StoredVectorsBuilder::default().finish()
    }
}

impl StoredVectors {
    /// A builder for a new set.
    pub fn builder() -> StoredVectorsBuilder {
        StoredVectorsBuilder::default()
    }

    /// Checks and adopts a stored buffer.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, String> {
        let magic = bytes.get(..8).ok_or("truncated")?;
        if magic == OLD_MAGIC {
            return Err("written by an older carryover; `carryover index` rebuilds it".into());
        }
        if magic != MAGIC {
            return Err("wrong magic".into());
        }
        let dims = read_u32(&bytes, 8).ok_or("truncated")? as usize;
        let count = read_u32(&bytes, 12).ok_or("truncated")? as usize;
        let ids_start = count
            .checked_mul(16)
            .and_then(|fixed| count.checked_mul(dims)?.checked_add(fixed))
            .and_then(|body| body.checked_add(HEADER))
            .filter(|start| *start <= bytes.len())
            .ok_or("truncated")?;
        let vectors = Self { bytes, dims, count };
        let ids = vectors.bytes.get(ids_start..).unwrap_or_default();
        let mut previous: Option<&str> = None;
        let mut start = 0usize;
        for slot in 0..count {
            let end = vectors.id_end(slot);
            let id = ids
                .get(start..end)
                .ok_or("an id is out of bounds")
                .and_then(|raw| std::str::from_utf8(raw).map_err(|_| "an id is not UTF-8"))?;
            if previous.is_some_and(|previous| previous >= id) {
                return Err("ids are not sorted".into());
            }
            previous = Some(id);
            start = end;
        }
        if start != ids.len() {
            return Err("trailing bytes".into());
        }
        // A unit vector's int8 scale is at most 1/127; anything outside [0, 1] is damage that
        // would show as infinite or absurd similarities.
        if (0..count).any(|slot| !(0.0..=1.0).contains(&vectors.scale(slot))) {
            return Err("a scale is out of range".into());
        }
        Ok(vectors)
    }

    /// The buffer to store.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Vectors held.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no vector is held.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Dimensions of every vector (0 when empty).
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The slot of `id`, if it has a vector.
    pub fn find(&self, id: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = (low + high) / 2;
            // Byte order is `str` order, and skips re-checking UTF-8 at every probe.
            match self.id_bytes(middle).cmp(id.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The slot of `id` when its vector was computed from content with `content_hash`.
    pub fn find_current(&self, id: &str, content_hash: u64) -> Option<usize> {
        self.find(id)
            .filter(|slot| self.content_hash(*slot) == content_hash)
    }

    /// The learning id in `slot`.
    pub fn id(&self, slot: usize) -> &str {
        // Checked in `from_bytes` (or written by the builder from `&str`s).
        std::str::from_utf8(self.id_bytes(slot)).unwrap_or_default()
    }

    fn id_bytes(&self, slot: usize) -> &[u8] {
        let start = if slot == 0 { 0 } else { self.id_end(slot - 1) };
        &self.bytes[self.ids_start()..][start..self.id_end(slot)]
    }

    /// Every learning id, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        (0..self.count).map(|slot| self.id(slot))
    }

    /// The content hash the vector in `slot` was computed from.
    pub fn content_hash(&self, slot: usize) -> u64 {
        let at = HEADER + 8 * slot;
        u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap_or_default())
    }

    /// Dot product of the vector in `slot` with `query` (the cosine similarity, both being
    /// unit vectors); a query of other dimensions scores 0.
    pub fn similarity(&self, slot: usize, query: &[f32]) -> f32 {
        if query.len() != self.dims {
            return 0.0;
        }
        // Eight running sums: floating-point addition is not associative, so the compiler
        // vectorises only sums written out this way.
        let values = self.values(slot);
        let mut sums = [0f32; 8];
        let (value_chunks, query_chunks) = (values.chunks_exact(8), query.chunks_exact(8));
        let tail: f32 = value_chunks
            .remainder()
            .iter()
            .zip(query_chunks.remainder())
            .map(|(value, q)| f32::from(*value as i8) * q)
            .sum();
        for (value, q) in value_chunks.zip(query_chunks) {
            for lane in 0..8 {
                sums[lane] += f32::from(value[lane] as i8) * q[lane];
            }
        }
        (sums.iter().sum::<f32>() + tail) * self.scale(slot)
    }

    /// The vector in `slot`, dequantised.
    pub fn vector(&self, slot: usize) -> Vec<f32> {
        let scale = self.scale(slot);
        self.values(slot)
            .iter()
            .map(|value| f32::from(*value as i8) * scale)
            .collect()
    }

    fn scale(&self, slot: usize) -> f32 {
        let at = HEADER + 8 * self.count + 4 * slot;
        f32::from_le_bytes(self.bytes[at..at + 4].try_into().unwrap_or_default())
    }

    fn id_end(&self, slot: usize) -> usize {
        read_u32(&self.bytes, HEADER + 12 * self.count + 4 * slot).unwrap_or_default() as usize
    }

    fn values(&self, slot: usize) -> &[u8] {
        let at = HEADER + 16 * self.count + self.dims * slot;
        &self.bytes[at..at + self.dims]
    }

    fn ids_start(&self) -> usize {
        HEADER + self.count * (16 + self.dims)
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Collects vectors for a new [`StoredVectors`]; the first vector fixes the dimensions and
/// vectors of other sizes are left out.
#[derive(Debug, Default)]
pub struct StoredVectorsBuilder {
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    id: String,
    content_hash: u64,
    scale: f32,
    values: Vec<u8>,
}

impl StoredVectorsBuilder {
    /// Adds the vector of `id`, quantised.
    pub fn insert(&mut self, id: &str, content_hash: u64, vector: &[f32]) -> &mut Self {
        let largest = vector.iter().fold(0.0f32, |max, v| max.max(v.abs()));
        let scale = if largest > 0.0 && largest.is_finite() {
            largest / 127.0
        } else {
            1.0
        };
        let values = vector
            .iter()
            .map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8 as u8)
            .collect();
        self.entries.push(Entry {
            id: id.to_owned(),
            content_hash,
            scale,
            values,
        });
        self
    }

    /// Adds the vector in `slot` of `stored` as it is (no second quantisation).
    pub fn keep(&mut self, stored: &StoredVectors, slot: usize) -> &mut Self {
        self.entries.push(Entry {
            id: stored.id(slot).to_owned(),
            content_hash: stored.content_hash(slot),
            scale: stored.scale(slot),
            values: stored.values(slot).to_vec(),
        });
        self
    }

    /// The laid-out set; of two vectors with the same id, the later one wins.
    pub fn finish(mut self) -> StoredVectors {
        let dims = self.entries.first().map_or(0, |entry| entry.values.len());
        self.entries.retain(|entry| entry.values.len() == dims);
        self.entries.reverse();
        self.entries.sort_by(|a, b| a.id.cmp(&b.id));
        self.entries
            .dedup_by(|later, earlier| later.id == earlier.id);
        let count = self.entries.len();
        let ids_length: usize = self.entries.iter().map(|entry| entry.id.len()).sum();
        let mut bytes = Vec::with_capacity(HEADER + count * (16 + dims) + ids_length);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(dims as u32).to_le_bytes());
        bytes.extend_from_slice(&(count as u32).to_le_bytes());
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.content_hash.to_le_bytes());
        }
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.scale.to_le_bytes());
        }
        let mut end = 0u32;
        for entry in &self.entries {
            end += entry.id.len() as u32;
            bytes.extend_from_slice(&end.to_le_bytes());
        }
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.values);
        }
        for entry in &self.entries {
            bytes.extend_from_slice(entry.id.as_bytes());
        }
        StoredVectors { bytes, dims, count }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn unit(values: &[f32]) -> Vec<f32> {
        let norm = values.iter().map(|v| v * v).sum::<f32>().sqrt();
        values.iter().map(|v| v / norm).collect()
    }

    fn sample() -> StoredVectors {
        let mut builder = StoredVectors::builder();
        builder
            .insert("pat_2", 9, &unit(&[0.5, -0.25, 0.1]))
            .insert("ins_1", 7, &unit(&[1.0, 0.0, 0.0]));
        builder.finish()
    }

    #[test]
    fn survives_the_byte_round_trip() {
        let vectors = sample();
        let again = StoredVectors::from_bytes(vectors.as_bytes().to_vec()).unwrap();
        assert_eq!(again, vectors);
        assert_eq!(again.ids().collect::<Vec<_>>(), ["ins_1", "pat_2"]);
        assert_eq!((again.len(), again.dims()), (2, 3));
    }

    #[rstest::rstest]
    #[case::infinite(f32::INFINITY)]
    #[case::huge(1e30)]
    #[case::negative(-0.5)]
    fn a_damaged_scale_is_refused_not_shown_as_an_infinite_score(#[case] scale: f32) {
        let vectors = sample();
        let mut bytes = vectors.as_bytes().to_vec();
        let at = HEADER + 8 * vectors.count;
        bytes[at..at + 4].copy_from_slice(&scale.to_le_bytes());
        assert!(StoredVectors::from_bytes(bytes).is_err());
    }

    #[test]
    fn finds_vectors_by_id_and_current_hash() {
        let vectors = sample();
        let slot = vectors.find("pat_2").unwrap();
        assert_eq!(vectors.id(slot), "pat_2");
        assert_eq!(vectors.find_current("pat_2", 9), Some(slot));
        assert_eq!(vectors.find_current("pat_2", 8), None, "content changed");
        assert_eq!(vectors.find("pat_3"), None);
        assert_eq!(StoredVectors::default().find("pat_2"), None);
    }

    #[test]
    fn quantisation_keeps_similarities_within_a_hundredth() {
        let vectors = sample();
        let original = unit(&[0.5, -0.25, 0.1]);
        let query = unit(&[0.3, 0.2, -0.9]);
        let exact: f32 = original.iter().zip(&query).map(|(a, b)| a * b).sum();
        let slot = vectors.find("pat_2").unwrap();
        assert!((vectors.similarity(slot, &query) - exact).abs() < 0.01);
        assert!((vectors.similarity(slot, &original) - 1.0).abs() < 0.01);
        assert_eq!(vectors.similarity(slot, &[1.0, 0.0]), 0.0, "other dims");
    }

    #[test]
    fn keeping_a_vector_copies_it_exactly_and_later_entries_win() {
        let vectors = sample();
        let mut builder = StoredVectors::builder();
        builder
            .keep(&vectors, vectors.find("pat_2").unwrap())
            .insert("ins_1", 1, &[0.0, 1.0, 0.0])
            .insert("ins_1", 2, &[0.0, 0.0, 1.0])
            .insert("odd", 3, &[1.0, 0.0]);
        let next = builder.finish();
        assert_eq!(
            next.ids().collect::<Vec<_>>(),
            ["ins_1", "pat_2"],
            "odd dims dropped"
        );
        let pat = next.find("pat_2").unwrap();
        assert_eq!(
            next.vector(pat),
            vectors.vector(vectors.find("pat_2").unwrap())
        );
        assert_eq!(next.content_hash(next.find("ins_1").unwrap()), 2);
    }

    #[rstest]
    #[case::empty(Vec::new(), "truncated")]
    #[case::old_format(b"CRYIDX01\0\0\0\0\0\0\0\0".to_vec(), "older carryover")]
    #[case::wrong_magic(b"NOTANIDX\0\0\0\0\0\0\0\0".to_vec(), "wrong magic")]
    #[case::huge_count(b"CRYIDX02\x00\x01\x00\x00\xff\xff\xff\xff".to_vec(), "truncated")]
    fn rejects_damaged_buffers(#[case] bytes: Vec<u8>, #[case] reason: &str) {
        let error = StoredVectors::from_bytes(bytes).unwrap_err();
        assert!(error.contains(reason), "{error}");
    }

    #[test]
    fn rejects_cut_unsorted_or_non_utf8_ids() {
        let bytes = sample().as_bytes().to_vec();
        let cut = bytes[..bytes.len() - 1].to_vec();
        assert!(StoredVectors::from_bytes(cut).is_err());
        let mut swapped = bytes.clone();
        let ids = swapped.len() - 10;
        swapped[ids..].copy_from_slice(b"pat_2ins_1");
        assert_eq!(
            StoredVectors::from_bytes(swapped).unwrap_err(),
            "ids are not sorted"
        );
        let mut invalid = bytes;
        let last = invalid.len() - 1;
        invalid[last] = 0xff;
        assert_eq!(
            StoredVectors::from_bytes(invalid).unwrap_err(),
            "an id is not UTF-8"
        );
    }
}
