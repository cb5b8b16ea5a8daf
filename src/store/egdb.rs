//! Endgame database files: one file per slice in the data folder, a resumable build, loading
//! for the engine, and verification of what is on disk.
//!
//! The pure work (indexing, solving, checking, probing) is `crate::egdb`; this module only
//! reads and writes. A slice file is written atomically (temporary file, sync, rename) once
//! its pair is solved and verified, so a build that is killed, even with `kill -9`, loses at
//! most the pair it was on and carries on from there when restarted. A build holds a lock on
//! its folder (`.build.lock`): a second build there is refused while the first runs, and a
//! build starting under the lock removes the temporary files a killed one left. After the last
//! slice a marker `verified-N.toml` records the set.
//!
//! File layout (little-endian): the magic `CBEGDB01`, the material as four bytes (our men, our
//! kings, their men, their kings), the number of positions (u64), an FNV-1a checksum of the
//! table (u64), then the table (two bits a position, see [`crate::egdb::Bytes`]).

use super::atomic::write_atomic;
use crate::egdb::{self, Bytes, Egdb, Material, VerifyReport, plan};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

const MAGIC: &[u8; 8] = b"CBEGDB01";
const HEADER_LEN: usize = 8 + 4 + 8 + 8;
/// File name extension of a slice file.
pub const EXTENSION: &str = "cbdb";

/// The default database folder: the platform's local data directory's `egdb` folder
/// (`~/.local/share/crossboard/egdb` on Linux; on Windows under `%LOCALAPPDATA%`, not the
/// roaming `%APPDATA%`: tens of megabytes that can be rebuilt have no place in a roaming
/// profile copied at every logon).
pub fn default_egdb_dir() -> Option<PathBuf> {
    super::config::project_dirs().map(|d| d.data_local_dir().join("egdb"))
}

/// The file of one slice in `dir`.
pub fn slice_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

fn marker_path(dir: &Path, pieces: u32) -> PathBuf {
    dir.join(format!("verified-{pieces}.toml"))
}

/// What is wrong with a database file or folder.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file is not a slice file of this material, or is cut short or damaged.
    #[error("{path}: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The number of pieces asked for is out of range.
    #[error("databases can be built for 2 to {max} pieces, not {asked}")]
    Pieces {
        /// Asked for.
        asked: u32,
        /// The most supported.
        max: u32,
    },
    /// Another build holds the folder's lock.
    #[error("{path}: another database build is running in this folder ({holder})")]
    Busy {
        /// The folder.
        path: PathBuf,
        /// Who holds the lock ("pid N since 14:05").
        holder: String,
    },
    /// Verification found positions that disagree with their successors.
    #[error("verification failed: {mismatches} positions disagree (first: {first})")]
    Verification {
        /// How many.
        mismatches: u64,
        /// The first one, described.
        first: String,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// FNV-1a over 8-byte words (and the tail bytes): cheap enough for hundreds of megabytes.
fn checksum(bytes: &[u8]) -> u64 {
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

/// Write one slice's table to `dir` (atomically).
pub fn write_slice(dir: &Path, material: Material, table: &[u8]) -> Result<(), EgdbError> {
    let path = slice_path(dir, material);
    let mut out = Vec::with_capacity(HEADER_LEN + table.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[
        material.us_men,
        material.us_kings,
        material.them_men,
        material.them_kings,
    ]);
    out.extend_from_slice(&material.size().to_le_bytes());
    out.extend_from_slice(&checksum(table).to_le_bytes());
    out.extend_from_slice(table);
    write_atomic(&path, &out).map_err(io_err(&path))
}

/// A slice file mapped into memory: the table starts after the header.
struct Mapped {
    map: memmap2::Mmap,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

/// Open one slice file: the header is checked (and the checksum when `check_sum`), the table
/// is mapped, not read, so loading is quick and memory is only used for what is probed.
pub fn read_slice(dir: &Path, material: Material, check_sum: bool) -> Result<Bytes, EgdbError> {
    let path = slice_path(dir, material);
    let damaged = |reason: String| EgdbError::Damaged {
        path: path.clone(),
        reason,
    };
    let file = fs::File::open(&path).map_err(io_err(&path))?;
    // Safety: the file is only ever replaced by a rename, never written in place, so the
    // mapping keeps seeing the complete file it opened.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err(&path))?;
    if map.len() < HEADER_LEN || &map[..8] != MAGIC {
        return Err(damaged("not a crossboard endgame database file".into()));
    }
    let m = &map[8..12];
    if m != [
        material.us_men,
        material.us_kings,
        material.them_men,
        material.them_kings,
    ] {
        return Err(damaged(format!(
            "the header names another slice, not {material}"
        )));
    }
    let word = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().unwrap_or([0; 8]));
    if word(12) != material.size() {
        return Err(damaged("the header's position count is wrong".into()));
    }
    let expected = egdb::table_len(material.size()) as usize;
    if map.len() - HEADER_LEN != expected {
        return Err(damaged(format!(
            "{} table bytes, {expected} expected (cut short?)",
            map.len() - HEADER_LEN
        )));
    }
    if check_sum && checksum(&map[HEADER_LEN..]) != word(20) {
        return Err(damaged("the checksum does not match (damaged)".into()));
    }
    Ok(Box::new(Mapped { map }))
}

/// Databases found in a folder.
#[derive(Debug)]
pub struct Loaded {
    /// The tables (mapped from their files).
    pub db: Egdb,
    /// Files that could not be used, with the reason.
    pub problems: Vec<String>,
}

/// Load every slice file of up to [`egdb::MAX_PIECES`] pieces present in `dir` (a missing
/// folder gives an empty set). Damaged files are left out and named in `problems`.
pub fn load(dir: &Path) -> Loaded {
    let mut db = Egdb::new();
    let mut problems = Vec::new();
    for m in plan(egdb::MAX_PIECES).slices() {
        if !slice_path(dir, m).exists() {
            continue;
        }
        match read_slice(dir, m, false).and_then(|b| {
            db.insert(m, b).map_err(|e| EgdbError::Damaged {
                path: slice_path(dir, m),
                reason: e.to_string(),
            })
        }) {
            Ok(()) => {}
            Err(e) => problems.push(e.to_string()),
        }
    }
    Loaded { db, problems }
}

/// Load the databases of the default folder ([`default_egdb_dir`]); empty when there is none.
pub fn load_default() -> Loaded {
    match default_egdb_dir() {
        Some(dir) => load(&dir),
        None => Loaded {
            db: Egdb::new(),
            problems: Vec::new(),
        },
    }
}

/// What a build reports as it goes (called from several threads).
pub trait BuildObserver: Sync {
    /// A phase starts: `total` units of work. A build has one phase, [`Phase::Build`], of two
    /// units a position (solving it, then verifying it); `egdb verify` one, [`Phase::Verify`],
    /// of one unit a position.
    fn phase(&self, phase: Phase, total: u64);
    /// `n` more units done.
    fn advance(&self, n: u64);
    /// A slice is ready: built and verified now, or found complete on disk.
    fn slice(&self, material: Material, found: bool);
    /// A pair of slices is ready (after [`BuildObserver::slice`] for each of its slices).
    fn pair(&self, _report: &PairReport) {}
}

/// One pair of slices of a build, ready.
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    /// The pair's first material (its swap goes with it).
    pub material: Material,
    /// Slices ready so far, this pair's included.
    pub slices_done: usize,
    /// Slices of the whole build.
    pub slices_total: usize,
    /// Indices of the pair.
    pub positions: u64,
    /// Found complete on disk (then the times are zero).
    pub found: bool,
    /// Wall seconds solving the pair.
    pub solve_secs: f64,
    /// Wall seconds verifying it.
    pub verify_secs: f64,
}

/// The two phases of a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Solving and verifying the slices not yet on disk.
    Build,
    /// Checking every slice against its successors (`egdb verify`).
    Verify,
}

/// The outcome of a build.
#[derive(Debug)]
pub struct Built {
    /// The databases, ready to probe.
    pub db: Egdb,
    /// Slices solved in this run.
    pub solved: usize,
    /// Slices found complete on disk.
    pub found: usize,
    /// Positions verified in this run (those of the slices solved).
    pub verified: u64,
    /// Bytes of the slice files.
    pub disk_bytes: u64,
}

/// Build the databases of up to `pieces` pieces in `dir`, one pair of slices at a time: a pair
/// whose files are on disk (checksums checked) is kept; any other is solved in memory,
/// verified against its successors while its tables are still in memory, and only then written
/// (atomically). So a slice file on disk is complete and verified, and a build stopped at any
/// instant (even `kill -9`) carries on from the pairs already written. The marker
/// `verified-N.toml` is written when every slice is there.
pub fn build(dir: &Path, pieces: u32, observer: &dyn BuildObserver) -> Result<Built, EgdbError> {
    if !(2..=egdb::MAX_PIECES).contains(&pieces) {
        return Err(EgdbError::Pieces {
            asked: pieces,
            max: egdb::MAX_PIECES,
        });
    }
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let _lock = lock_folder(dir)?;
    remove_stale_temporaries(dir);
    let plan = plan(pieces);
    let slices_total = plan.slices().count();
    observer.phase(Phase::Build, 2 * plan.positions());
    let mut db = Egdb::new();
    let (mut solved, mut found, mut verified) = (0, 0, 0);
    for &m in &plan.pairs {
        let pair = plan_pair(m);
        let on_disk: Vec<Option<Bytes>> = pair
            .iter()
            .map(|&s| read_slice(dir, s, true).ok())
            .collect();
        let mut report = PairReport {
            material: m,
            slices_done: solved + found + pair.len(),
            slices_total,
            positions: egdb::Plan::pair_positions(m),
            found: on_disk.iter().all(Option::is_some),
            solve_secs: 0.0,
            verify_secs: 0.0,
        };
        if report.found {
            for (&s, bytes) in pair.iter().zip(on_disk) {
                insert(&mut db, dir, s, bytes.unwrap_or_else(|| unreachable!()))?;
                observer.slice(s, true);
                found += 1;
            }
            observer.advance(2 * report.positions);
        } else {
            verified += build_pair(dir, &mut db, m, observer, &mut report)?;
            solved += pair.len();
        }
        observer.pair(&report);
    }
    let marker = marker_path(dir, pieces);
    let text = format!(
        "# crossboard endgame databases, each slice verified before it was written\npieces = {pieces}\nslices = {slices_total}\npositions = {}\nverified-at = \"{}\"\n",
        plan.positions(),
        chrono::Local::now().format("%Y-%m-%d %H:%M:%S")
    );
    write_atomic(&marker, text.as_bytes()).map_err(io_err(&marker))?;
    let disk_bytes = plan
        .slices()
        .map(|s| HEADER_LEN as u64 + egdb::table_len(s.size()))
        .sum();
    Ok(Built {
        db,
        solved,
        found,
        verified,
        disk_bytes,
    })
}

/// The lock file a build holds in its folder.
const LOCK_NAME: &str = ".build.lock";

/// Take the build's lock on `dir`: an advisory lock on [`LOCK_NAME`] (see `store::lockfile`),
/// held while the returned file is open.
fn lock_folder(dir: &Path) -> Result<fs::File, EgdbError> {
    let path = dir.join(LOCK_NAME);
    match super::lockfile::take(&path).map_err(io_err(&path))? {
        Ok(held) => Ok(held.file),
        Err(holder) => Err(EgdbError::Busy {
            path: dir.to_path_buf(),
            holder,
        }),
    }
}

/// Remove the temporary files a build killed while writing left in `dir` (a slice's
/// `.NAME.cbdb.XXXXXX.tmp` is as big as the slice: tens of megabytes at 6 pieces). Called under
/// the folder's lock, so no running build's file is taken; any other file is left alone, and one
/// that cannot be removed is left too (it stops nothing).
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && entry.file_name().to_str().is_some_and(is_build_temporary) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// A temporary file of a build's atomic writes (see `write_atomic`): `.` + the target's name +
/// `.` + a random part + `.tmp`, the target a slice file or the `verified-N.toml` marker.
fn is_build_temporary(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    let Some((target, random)) = inner.rsplit_once('.') else {
        return false;
    };
    let slice = target
        .strip_suffix(EXTENSION)
        .and_then(|m| m.strip_suffix('.'))
        .is_some_and(|m| !m.is_empty());
    let marker = target
        .strip_prefix("verified-")
        .and_then(|n| n.strip_suffix(".toml"))
        .is_some_and(|n| n.parse::<u32>().is_ok());
    !random.is_empty() && (slice || marker)
}

/// Solve the pair of `m` into `db`, verify it, write its files and map them back. Returns the
/// positions verified.
fn build_pair(
    dir: &Path,
    db: &mut Egdb,
    m: Material,
    observer: &dyn BuildObserver,
    report: &mut PairReport,
) -> Result<u64, EgdbError> {
    let t = Instant::now();
    let tables = egdb::solve(m, db, &|n| observer.advance(n)).map_err(|e| EgdbError::Damaged {
        path: dir.to_path_buf(),
        reason: e.to_string(),
    })?;
    let pair: Vec<Material> = tables.iter().map(|(s, _)| *s).collect();
    for (s, table) in tables {
        insert(db, dir, s, Box::new(table))?;
    }
    report.solve_secs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut checked = 0;
    for &s in &pair {
        let r = egdb::verify_slice(s, db, &|n| observer.advance(n))
            .unwrap_or_else(|| unreachable!("a solved pair has its dependencies"));
        if let Some(first) = r.examples.first() {
            return Err(EgdbError::Verification {
                mismatches: r.mismatches,
                first: format!("{} index {} {}", first.material, first.index, first.fen),
            });
        }
        checked += r.checked;
    }
    report.verify_secs = t.elapsed().as_secs_f64();
    for &s in &pair {
        write_slice(dir, s, db.table(s).unwrap_or_default())?;
        // Probed from the file's mapping from now on: clean pages the system can reclaim, so a
        // 6-piece build holds the tables of one pair in memory, not all of them.
        insert(db, dir, s, read_slice(dir, s, false)?)?;
        observer.slice(s, false);
    }
    Ok(checked)
}

fn plan_pair(m: Material) -> Vec<Material> {
    let s = m.swapped();
    if s == m { vec![m] } else { vec![m, s] }
}

fn insert(db: &mut Egdb, dir: &Path, m: Material, bytes: Bytes) -> Result<(), EgdbError> {
    db.insert(m, bytes).map_err(|e| EgdbError::Damaged {
        path: slice_path(dir, m),
        reason: e.to_string(),
    })
}

/// Check every slice of up to `pieces` pieces in `db` (all must be present): what `egdb
/// verify` does to files on disk, whoever wrote them.
pub fn verify(db: &Egdb, pieces: u32, observer: &dyn BuildObserver) -> VerifyReport {
    let plan = plan(pieces);
    observer.phase(Phase::Verify, plan.positions());
    let mut total = VerifyReport::default();
    for m in plan.slices() {
        let r =
            egdb::verify_slice(m, db, &|n| observer.advance(n)).unwrap_or_else(|| VerifyReport {
                checked: 0,
                mismatches: 1,
                examples: vec![egdb::Mismatch {
                    material: m,
                    index: 0,
                    fen: "(slice or a slice it leads to is missing)".into(),
                    stored: 0,
                    expected: None,
                }],
            });
        total.checked += r.checked;
        total.mismatches += r.mismatches;
        if total.examples.len() < 5 {
            total.examples.extend(r.examples);
        }
    }
    total
}

/// The player's answer to the offer to build the databases (the TUI asks once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Build them (a build interrupted carries on at the next start).
    Build,
    /// Do not build them, and do not ask again.
    Declined,
}

fn choice_path(dir: &Path) -> PathBuf {
    dir.join("choice.txt")
}

/// The answer remembered in `dir`, if any (an unreadable file counts as no answer).
pub fn remembered_choice(dir: &Path) -> Option<Choice> {
    match fs::read_to_string(choice_path(dir)).ok()?.trim() {
        "build" => Some(Choice::Build),
        "declined" => Some(Choice::Declined),
        _ => None,
    }
}

/// Remember the answer in `dir` (created when missing).
pub fn remember_choice(dir: &Path, choice: Choice) -> Result<(), EgdbError> {
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let path = choice_path(dir);
    let text = match choice {
        Choice::Build => "build\n",
        Choice::Declined => "declined\n",
    };
    write_atomic(&path, text.as_bytes()).map_err(io_err(&path))
}

/// The largest number of pieces whose verification marker is in `dir` (0 when none).
pub fn verified_pieces(dir: &Path) -> u32 {
    (2..=egdb::MAX_PIECES)
        .rev()
        .find(|&n| marker_path(dir, n).exists())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_file_round_trips_and_damage_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let m = Material::new(1, 0, 0, 1).unwrap();
        let table: Vec<u8> = (0..egdb::table_len(m.size())).map(|i| i as u8).collect();
        write_slice(dir.path(), m, &table).unwrap();
        let back = read_slice(dir.path(), m, true).unwrap();
        assert_eq!((*back).as_ref(), &table[..]);
        let path = slice_path(dir.path(), m);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(read_slice(dir.path(), m, false).is_ok());
        let err = read_slice(dir.path(), m, true).err().unwrap();
        assert!(err.to_string().contains("checksum"), "{err}");
        fs::write(&path, &bytes[..100]).unwrap();
        let err = read_slice(dir.path(), m, false).err().unwrap();
        assert!(err.to_string().contains("cut short"), "{err}");
        let other = Material::new(0, 1, 1, 0).unwrap();
        fs::copy(&path, slice_path(dir.path(), other)).unwrap();
        assert!(read_slice(dir.path(), other, false).is_err());
    }

    #[test]
    fn only_the_builds_own_temporary_files_count_as_its_own() {
        for own in [
            ".2m0k-1m0k.cbdb.AbC123.tmp",
            ".0m1k-0m1k.cbdb.x.tmp",
            ".verified-6.toml.Zz9.tmp",
        ] {
            assert!(is_build_temporary(own), "{own}");
        }
        for other in [
            "2m0k-1m0k.cbdb.AbC123.tmp",
            ".2m0k-1m0k.cbdb.tmp",
            ".cbdb.AbC123.tmp",
            ".2m0k-1m0k.cbdb.AbC123",
            ".notes.txt.AbC123.tmp",
            ".verified-x.toml.AbC123.tmp",
            ".choice.toml.AbC123.tmp",
            ".build.lock",
        ] {
            assert!(!is_build_temporary(other), "{other}");
        }
    }
}
