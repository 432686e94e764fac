//! Reading a file's lines from the end, in blocks, with a bound on the bytes read.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

const BLOCK: u64 = 64 * 1024;

/// Yields a file's lines last first. Reading stops for good once `budget` bytes were read, so
/// the cost is bounded whatever the file's size or the length of its lines.
pub struct ReverseLines {
    file: File,
    position: u64,
    pending: Vec<u8>,
    /// Later parts of the line being assembled, latest first: a line longer than a block is
    /// joined once when its start is found, not copied again with every block read.
    tail: Vec<Vec<u8>>,
    read: u64,
    budget: u64,
}

impl ReverseLines {
    /// Starts at the end of `file`.
    pub fn new(mut file: File, budget: u64) -> std::io::Result<Self> {
        let position = file.seek(SeekFrom::End(0))?;
        Ok(Self {
            file,
            position,
            pending: Vec::new(),
            tail: Vec::new(),
            read: 0,
            budget,
        })
    }

    /// The next line towards the start, without its newline; empty lines are skipped. `None`
    /// at the start of the file or when the budget is spent (a line cut by the budget is
    /// never returned, since it would be a fragment).
    pub fn next_line(&mut self) -> std::io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(newline) = memchr::memrchr(b'\n', &self.pending) {
                let mut line = self.pending.split_off(newline + 1);
                self.pending.truncate(newline);
                self.join_tail(&mut line);
                if line.iter().any(|b| !b.is_ascii_whitespace()) {
                    return Ok(Some(line));
                }
                continue;
            }
            if self.position == 0 {
                let mut line = std::mem::take(&mut self.pending);
                self.join_tail(&mut line);
                return Ok(line
                    .iter()
                    .any(|b| !b.is_ascii_whitespace())
                    .then_some(line));
            }
            if self.read >= self.budget {
                return Ok(None);
            }
            let size = BLOCK.min(self.position);
            self.position -= size;
            self.file.seek(SeekFrom::Start(self.position))?;
            let mut block = vec![0; usize::try_from(size).unwrap_or(0)];
            self.file.read_exact(&mut block)?;
            self.read += size;
            if !self.pending.is_empty() {
                self.tail.push(std::mem::replace(&mut self.pending, block));
            } else {
                self.pending = block;
            }
        }
    }

    /// True once every line was returned: the file's start was reached within the budget.
    pub fn reached_start(&self) -> bool {
        self.position == 0 && self.pending.is_empty() && self.tail.is_empty()
    }

    /// Appends the parts of the line read before `line`'s start, in file order.
    fn join_tail(&mut self, line: &mut Vec<u8>) {
        if self.tail.is_empty() {
            return;
        }
        line.reserve(self.tail.iter().map(Vec::len).sum());
        for part in self.tail.drain(..).rev() {
            line.extend_from_slice(&part);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn lines_of(content: &[u8], budget: u64) -> Vec<String> {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(content).unwrap();
        let mut reader = ReverseLines::new(file, budget).unwrap();
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(String::from_utf8(line).unwrap());
        }
        out
    }

    #[test]
    fn yields_lines_last_first_skipping_blank_ones() {
        assert_eq!(lines_of(b"a\nb\n\nc\n", u64::MAX), vec!["c", "b", "a"]);
        assert_eq!(lines_of(b"a\nb", u64::MAX), vec!["b", "a"]);
        assert!(lines_of(b"", u64::MAX).is_empty());
    }

    #[test]
    fn lines_longer_than_a_block_come_out_whole() {
        let long = "x".repeat(200_000);
        let content = format!("first\n{long}\nlast\n");
        assert_eq!(
            lines_of(content.as_bytes(), u64::MAX),
            vec!["last".to_owned(), long, "first".to_owned()]
        );
    }

    #[test]
    fn many_long_lines_come_out_whole_and_in_order() {
        let lines: Vec<String> = (0..5).map(|n| n.to_string().repeat(150_000 + n)).collect();
        let content = lines.join("\n");
        let mut expected = lines.clone();
        expected.reverse();
        assert_eq!(lines_of(content.as_bytes(), u64::MAX), expected);
    }

    #[test]
    fn stops_at_the_budget_without_returning_a_fragment() {
        let long = "y".repeat(300_000);
        let content = format!("{long}\nlast\n");
        assert_eq!(lines_of(content.as_bytes(), 64 * 1024), vec!["last"]);
    }
}
