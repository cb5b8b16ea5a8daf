//! Per-block checksums of a table, checked on first touch.
//!
//! A slice file keeps, beside its table, the CRC-32 of each block of [`BLOCK_BYTES`] bytes of
//! the table. A table read from a file carries them into the [`Egdb`](super::Egdb): the first
//! probe that reads a block checks that block (a microsecond for 4 KiB, less than the page fault
//! that brings it in), and a block that fails makes its whole slice missing: every probe of it
//! answers `None` from then on and the damage is reported once. So a flipped bit on disk is never
//! a wrong value, and opening the files costs no more than mapping them.

use super::{Bytes, Material};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Bytes of a table a checksum covers (the last block may be shorter).
pub const BLOCK_BYTES: usize = 4096;

/// Bytes a block's checksum takes (a little-endian CRC-32).
pub const SUM_BYTES: usize = 4;

/// The number of blocks of a table of `table_len` bytes.
pub fn block_count(table_len: u64) -> u64 {
    table_len.div_ceil(BLOCK_BYTES as u64)
}

/// The checksums of a table's blocks, as stored in a file (CRC-32, little-endian, in block order).
pub fn block_sums(table: &[u8]) -> Vec<u8> {
    table
        .chunks(BLOCK_BYTES)
        .flat_map(|block| crc32fast::hash(block).to_le_bytes())
        .collect()
}

/// The first block of `table` whose checksum in `sums` does not match (`sums` as
/// [`block_sums`] writes them; a missing checksum counts as not matching).
pub fn first_bad_block(table: &[u8], sums: &[u8]) -> Option<u64> {
    (0..table.len().div_ceil(BLOCK_BYTES))
        .find(|&b| !block_ok(table, sums, b))
        .map(|b| b as u64)
}

fn block_ok(table: &[u8], sums: &[u8], block: usize) -> bool {
    let start = block * BLOCK_BYTES;
    let end = (start + BLOCK_BYTES).min(table.len());
    let stored = sums
        .get(block * SUM_BYTES..(block + 1) * SUM_BYTES)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_le_bytes);
    stored == Some(crc32fast::hash(&table[start..end]))
}

/// The checksums of a table from a file, given to [`Egdb::insert_checked`](super::Egdb).
pub struct Checksums {
    /// The stored checksums ([`block_sums`]' layout).
    pub sums: Bytes,
    /// Every block already checked (a file checked whole when it was opened).
    pub checked: bool,
    /// Where the table comes from, to name in a report (the file's path).
    pub source: String,
}

/// A slice found damaged: a block of its table fails its checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The slice, left out from now on.
    pub material: Material,
    /// Where its table comes from (the file's path).
    pub source: String,
    /// The first block found failing (from 0).
    pub block: u64,
    /// The table's length in bytes.
    pub table_len: u64,
}

impl Damage {
    /// What is wrong, without the source: `block 2 of 3 (table bytes 4096-8191) fails its
    /// checksum: the file is damaged`.
    pub fn what(&self) -> String {
        describe_block(self.block, self.table_len)
    }
}

/// `block N of M (table bytes A-B) fails its checksum: the file is damaged`, for block `block`
/// (from 0) of a table of `table_len` bytes.
pub fn describe_block(block: u64, table_len: u64) -> String {
    let start = block * BLOCK_BYTES as u64;
    format!(
        "block {} of {} (table bytes {start}-{}) fails its checksum: the file is damaged",
        block + 1,
        block_count(table_len),
        (start + BLOCK_BYTES as u64)
            .min(table_len)
            .saturating_sub(1),
    )
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}, and the {} slice is left out",
            self.source,
            self.what(),
            self.material
        )
    }
}

/// What a touch of a block found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Touch {
    /// The block is sound: its bytes may be read.
    Good,
    /// The slice was found damaged before.
    Damaged,
    /// This touch found the slice damaged, at this block (report it).
    Found(u64),
}

const UNCHECKED: u8 = 0;
const GOOD: u8 = 1;

/// The checks of one table's blocks: a state a block, and whether the slice is damaged.
/// Shared by every probing thread; two threads checking one block at once both find the same.
pub(super) struct Blocks {
    sums: Bytes,
    state: Vec<AtomicU8>,
    damaged: AtomicBool,
    pub(super) source: String,
}

impl Blocks {
    /// The checks of a table of `table_len` bytes.
    pub(super) fn new(checksums: Checksums, table_len: usize) -> Blocks {
        let start = if checksums.checked { GOOD } else { UNCHECKED };
        Blocks {
            sums: checksums.sums,
            state: (0..table_len.div_ceil(BLOCK_BYTES))
                .map(|_| AtomicU8::new(start))
                .collect(),
            damaged: AtomicBool::new(false),
            source: checksums.source,
        }
    }

    /// True once a block of the slice has failed.
    #[inline]
    pub(super) fn damaged(&self) -> bool {
        self.damaged.load(Ordering::Relaxed)
    }

    /// Whether byte `byte` of `table` may be read, checking its block on first touch.
    #[inline]
    pub(super) fn touch(&self, table: &[u8], byte: usize) -> Touch {
        if self.damaged() {
            return Touch::Damaged;
        }
        let block = byte / BLOCK_BYTES;
        match self.state.get(block) {
            Some(s) if s.load(Ordering::Relaxed) == GOOD => Touch::Good,
            _ => self.check(table, block),
        }
    }

    /// Check every block not checked yet.
    pub(super) fn touch_all(&self, table: &[u8]) -> Touch {
        for (block, s) in self.state.iter().enumerate() {
            if self.damaged() {
                return Touch::Damaged;
            }
            if s.load(Ordering::Relaxed) != GOOD
                && let found @ (Touch::Damaged | Touch::Found(_)) = self.check(table, block)
            {
                return found;
            }
        }
        if self.damaged() {
            Touch::Damaged
        } else {
            Touch::Good
        }
    }

    #[cold]
    fn check(&self, table: &[u8], block: usize) -> Touch {
        let sums = (*self.sums).as_ref();
        if block < self.state.len() && block_ok(table, sums, block) {
            self.state[block].store(GOOD, Ordering::Relaxed);
            Touch::Good
        } else if self.damaged.swap(true, Ordering::Relaxed) {
            Touch::Damaged
        } else {
            Touch::Found(block as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_block_has_its_checksum_and_a_change_is_found_in_its_block() {
        let table: Vec<u8> = (0..3 * BLOCK_BYTES + 10).map(|i| i as u8).collect();
        let sums = block_sums(&table);
        assert_eq!(sums.len(), 4 * SUM_BYTES);
        assert_eq!(block_count(table.len() as u64), 4);
        assert_eq!(first_bad_block(&table, &sums), None);
        for (byte, block) in [(0, 0), (BLOCK_BYTES, 1), (3 * BLOCK_BYTES + 9, 3)] {
            let mut bad = table.clone();
            bad[byte] ^= 0x5a;
            assert_eq!(first_bad_block(&bad, &sums), Some(block));
        }
        assert_eq!(first_bad_block(&table, &sums[..8]), Some(2));
    }
}
