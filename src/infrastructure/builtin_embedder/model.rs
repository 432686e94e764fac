//! The built-in model's bytes, read in place: a sorted vocabulary searched by bisection and
//! int8 rows with one scale each (layout in tools/distill/README.md). Nothing is parsed or
//! copied at load; the operating system pages in only the rows a text touches.

const MAGIC: &[u8; 8] = b"CRYSTAT1";

/// A static embedding model over borrowed bytes.
#[derive(Debug, Clone, Copy)]
pub struct StaticModel<'a> {
    bytes: &'a [u8],
    dims: usize,
    count: usize,
    offsets: usize,
    strings: usize,
    scales: usize,
    rows: usize,
}

impl<'a> StaticModel<'a> {
    /// Checks the header and that every table fits in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Result<Self, String> {
        let word = |at: usize| -> Result<usize, String> {
            let raw = bytes.get(at..at + 4).ok_or("truncated header")?;
            Ok(u32::from_le_bytes(raw.try_into().map_err(|_| "truncated header")?) as usize)
        };
        if bytes.get(..8) != Some(MAGIC.as_slice()) {
            return Err("not a carryover static model".into());
        }
        if word(8)? != 1 {
            return Err(format!(
                "model format version {} is not supported",
                word(8)?
            ));
        }
        let dims = word(12)?;
        let count = word(16)?;
        let offsets = 20;
        let strings = offsets + 4 * (count + 1);
        let strings_len = word(offsets + 4 * count)?;
        let scales = (strings + strings_len).div_ceil(4) * 4;
        let rows = scales + 4 * count;
        if dims == 0 || rows + count * dims != bytes.len() {
            return Err("model tables do not match its size".into());
        }
        Ok(Self {
            bytes,
            dims,
            count,
            offsets,
            strings,
            scales,
            rows,
        })
    }

    /// Vector dimensions.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Tokens in the vocabulary.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True for an empty vocabulary.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn offset(&self, index: usize) -> usize {
        let at = self.offsets + 4 * index;
        u32::from_le_bytes([
            self.bytes[at],
            self.bytes[at + 1],
            self.bytes[at + 2],
            self.bytes[at + 3],
        ]) as usize
    }

    /// The token at `index` (in sorted order).
    pub fn token(&self, index: usize) -> &'a [u8] {
        &self.bytes[self.strings + self.offset(index)..self.strings + self.offset(index + 1)]
    }

    /// The row of `token`, by bisection over the sorted vocabulary.
    pub fn lookup(&self, token: &str) -> Option<usize> {
        let wanted = token.as_bytes();
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = (low + high) / 2;
            match self.token(middle).cmp(wanted) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// Adds row `index` (dequantised) to `sum`.
    pub fn add_row(&self, index: usize, sum: &mut [f32]) {
        let at = self.scales + 4 * index;
        let scale = f32::from_le_bytes([
            self.bytes[at],
            self.bytes[at + 1],
            self.bytes[at + 2],
            self.bytes[at + 3],
        ]);
        let row = &self.bytes[self.rows + index * self.dims..self.rows + (index + 1) * self.dims];
        for (total, value) in sum.iter_mut().zip(row) {
            *total += f32::from(*value as i8) * scale;
        }
    }
}
