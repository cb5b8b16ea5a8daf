//! The endgame database's slice file: its layout, writing it, and opening it mapped.
//!
//! Layout (little-endian), format 2: the magic `CBEGDB02`, the material as four bytes (our men,
//! our kings, their men, their kings), the number of positions (u64), the block size in bytes
//! (u32, [`egdb::BLOCK_BYTES`]), the CRC-32 of each block of the table (u32 each), then the
//! table (two bits a position, see [`crate::egdb::Bytes`]). Every header field is checked
//! against what the file's name says when the file is opened; the blocks are checked on first
//! touch by the [`Egdb`](crate::egdb::Egdb), or all at once when the caller asks.
//!
//! Format 1 (`CBEGDB01`, before block checksums) had one FNV-1a checksum of the whole table in
//! place of the block size and the block checksums: such a file is still read, its whole
//! checksum checked when it is opened, and `egdb build` rewrites it in format 2.

use super::atomic::write_atomic;
use super::egdb::{EgdbError, io_err, slice_path};
use crate::egdb::{self, Bytes, Checksums, Material};
use std::fs;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"CBEGDB02";
const MAGIC_1: &[u8; 8] = b"CBEGDB01";
/// Magic, material, positions, block size.
const HEADER_LEN: usize = 8 + 4 + 8 + 4;
/// Magic, material, positions, checksum.
const HEADER_LEN_1: usize = 8 + 4 + 8 + 8;

/// Bytes of the file of a slice of `material`.
pub fn file_len(material: Material) -> u64 {
    let table = egdb::table_len(material.size());
    HEADER_LEN as u64 + egdb::block_count(table) * egdb::SUM_BYTES as u64 + table
}

/// Write one slice's table to `dir` (atomically), with the checksums of its blocks.
pub fn write_slice(dir: &Path, material: Material, table: &[u8]) -> Result<(), EgdbError> {
    let path = slice_path(dir, material);
    let sums = egdb::block_sums(table);
    let mut out = Vec::with_capacity(HEADER_LEN + sums.len() + table.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&material_bytes(material));
    out.extend_from_slice(&material.size().to_le_bytes());
    out.extend_from_slice(&(egdb::BLOCK_BYTES as u32).to_le_bytes());
    out.extend_from_slice(&sums);
    out.extend_from_slice(table);
    write_atomic(&path, &out).map_err(io_err(&path))
}

fn material_bytes(m: Material) -> [u8; 4] {
    [m.us_men, m.us_kings, m.them_men, m.them_kings]
}

/// Part of a slice file mapped into memory (the table, or its checksums).
struct Mapped {
    map: Arc<memmap2::Mmap>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map[self.range.clone()]
    }
}

/// An opened slice file.
pub struct Opened {
    /// The table (mapped).
    pub table: Bytes,
    /// The checksums of its blocks, for [`crate::egdb::Egdb::insert_checked`].
    pub checksums: Checksums,
    /// A format 1 file (checked whole now; `egdb build` rewrites it).
    pub old_format: bool,
}

/// Open one slice file of `dir`: the header is checked, and every block's checksum too when
/// `check_all` (else each block is checked on first touch). The table is mapped, not read, so
/// opening is quick and memory is only used for what is probed.
pub fn read_slice(dir: &Path, material: Material, check_all: bool) -> Result<Opened, EgdbError> {
    let path = slice_path(dir, material);
    let damaged = |reason: String| EgdbError::Damaged {
        path: path.clone(),
        reason,
    };
    let file = fs::File::open(&path).map_err(io_err(&path))?;
    // Safety: the file is only ever replaced by a rename, never written in place, so the
    // mapping keeps seeing the complete file it opened.
    let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }.map_err(io_err(&path))?);
    let old_format = map.get(..8) == Some(MAGIC_1);
    if map.len() < HEADER_LEN_1 || (map[..8] != *MAGIC && !old_format) {
        return Err(damaged("not a crossboard endgame database file".into()));
    }
    if map[8..12] != material_bytes(material) {
        return Err(damaged(format!(
            "the header names another slice, not {material}"
        )));
    }
    let word = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().unwrap_or([0; 8]));
    if word(12) != material.size() {
        return Err(damaged("the header's position count is wrong".into()));
    }
    let table_len = egdb::table_len(material.size());
    let sums_len = if old_format {
        0
    } else {
        let block = u32::from_le_bytes(map[20..24].try_into().unwrap_or([0; 4]));
        if block as usize != egdb::BLOCK_BYTES {
            return Err(damaged(format!(
                "the header's block size is {block} bytes, {} expected",
                egdb::BLOCK_BYTES
            )));
        }
        egdb::block_count(table_len) * egdb::SUM_BYTES as u64
    };
    let start = if old_format { HEADER_LEN_1 } else { HEADER_LEN };
    let table_start = start as u64 + sums_len;
    if map.len() as u64 != table_start + table_len {
        return Err(damaged(format!(
            "{} bytes, {} expected (cut short?)",
            map.len(),
            table_start + table_len
        )));
    }
    let table = table_start as usize..map.len();
    let checksums = if old_format {
        if fnv1a(&map[table.clone()]) != word(20) {
            return Err(damaged("the checksum does not match (damaged)".into()));
        }
        Checksums {
            sums: Box::new(egdb::block_sums(&map[table.clone()])),
            checked: true,
            source: path.display().to_string(),
        }
    } else {
        let sums = start..table.start;
        if check_all && let Some(b) = egdb::first_bad_block(&map[table.clone()], &map[sums.clone()])
        {
            return Err(damaged(egdb::describe_block(b, table_len)));
        }
        Checksums {
            sums: Box::new(Mapped {
                map: Arc::clone(&map),
                range: sums,
            }),
            checked: check_all,
            source: path.display().to_string(),
        }
    };
    Ok(Opened {
        table: Box::new(Mapped { map, range: table }),
        checksums,
        old_format,
    })
}

/// Format 1's checksum: FNV-1a over 8-byte words (and the tail bytes).
fn fnv1a(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h ^ v).wrapping_mul(PRIME);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format 1 file of `table`, as crossboard wrote them before block checksums.
    fn write_format_1(dir: &Path, m: Material, table: &[u8]) {
        let mut out = MAGIC_1.to_vec();
        out.extend_from_slice(&material_bytes(m));
        out.extend_from_slice(&m.size().to_le_bytes());
        out.extend_from_slice(&fnv1a(table).to_le_bytes());
        out.extend_from_slice(table);
        fs::write(slice_path(dir, m), out).unwrap();
    }

    #[test]
    fn a_slice_file_round_trips_and_damage_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let m = Material::new(1, 0, 0, 1).unwrap();
        let table: Vec<u8> = (0..egdb::table_len(m.size())).map(|i| i as u8).collect();
        write_slice(dir.path(), m, &table).unwrap();
        let path = slice_path(dir.path(), m);
        assert_eq!(fs::metadata(&path).unwrap().len(), file_len(m));
        let back = read_slice(dir.path(), m, true).unwrap();
        assert_eq!((*back.table).as_ref(), &table[..]);
        assert!(back.checksums.checked && !back.old_format);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let lazy = read_slice(dir.path(), m, false).unwrap();
        assert!(!lazy.checksums.checked);
        let err = read_slice(dir.path(), m, true).err().unwrap().to_string();
        assert!(
            err.contains("block 1 of 1 (table bytes 0-216) fails its checksum"),
            "{err}"
        );
        fs::write(&path, &bytes[..100]).unwrap();
        let err = read_slice(dir.path(), m, false).err().unwrap();
        assert!(err.to_string().contains("cut short"), "{err}");
        let other = Material::new(0, 1, 1, 0).unwrap();
        fs::copy(&path, slice_path(dir.path(), other)).unwrap();
        assert!(read_slice(dir.path(), other, false).is_err());
    }

    struct Quiet;

    impl super::super::egdb::BuildObserver for Quiet {
        fn phase(&self, _: super::super::egdb::Phase, _: u64) {}
        fn advance(&self, _: u64) {}
        fn slice(&self, _: Material, _: bool) {}
    }

    #[test]
    fn a_build_rewrites_format_1_files_without_solving_them_again() {
        use super::super::egdb::{build, load};
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), 2, &Quiet).unwrap();
        let slices: Vec<Material> = egdb::plan(2).slices().collect();
        let current: Vec<Vec<u8>> = slices
            .iter()
            .map(|&m| fs::read(slice_path(dir.path(), m)).unwrap())
            .collect();
        for (&m, bytes) in slices.iter().zip(&current) {
            write_format_1(
                dir.path(),
                m,
                &bytes[bytes.len() - egdb::table_len(m.size()) as usize..],
            );
        }
        let loaded = load(dir.path());
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        assert_eq!(loaded.warnings.len(), 1);
        let four = format!("{}: 4 slice files of an older format", dir.path().display());
        assert!(
            loaded.warnings[0].starts_with(&four),
            "{:?}",
            loaded.warnings
        );
        assert_eq!(loaded.db.complete_pieces(), 2);
        drop(loaded);
        let built = build(dir.path(), 2, &Quiet).unwrap();
        assert_eq!((built.solved, built.found), (0, slices.len()));
        for (&m, bytes) in slices.iter().zip(&current) {
            assert_eq!(&fs::read(slice_path(dir.path(), m)).unwrap(), bytes, "{m}");
        }
        assert!(load(dir.path()).warnings.is_empty());
    }

    #[test]
    fn a_format_1_file_is_read_with_its_whole_checksum_checked() {
        let dir = tempfile::tempdir().unwrap();
        let m = Material::new(0, 1, 0, 1).unwrap();
        let table: Vec<u8> = (0..egdb::table_len(m.size())).map(|i| i as u8).collect();
        write_format_1(dir.path(), m, &table);
        let back = read_slice(dir.path(), m, false).unwrap();
        assert!(back.old_format && back.checksums.checked);
        assert_eq!((*back.table).as_ref(), &table[..]);
        assert_eq!(
            (*back.checksums.sums).as_ref(),
            &egdb::block_sums(&table)[..]
        );
        let path = slice_path(dir.path(), m);
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN_1 + 3] ^= 0x5a;
        fs::write(&path, &bytes).unwrap();
        let err = read_slice(dir.path(), m, false).err().unwrap().to_string();
        assert!(err.contains("the checksum does not match"), "{err}");
    }
}
