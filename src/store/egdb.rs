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
//! The file layout, with a checksum for each 4 KiB block of a table, is in `egdb_file`.

use super::atomic::write_atomic;
pub use super::egdb_file::{Opened, file_len, read_slice, write_slice};
use crate::egdb::{self, Bytes, Egdb, Material, VerifyReport, plan};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

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

pub(super) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Databases found in a folder.
#[derive(Debug)]
pub struct Loaded {
    /// The tables (mapped from their files).
    pub db: Egdb,
    /// Files that could not be used, with the reason.
    pub problems: Vec<String>,
    /// Files used, with something to say (an older format, checked whole at each start).
    pub warnings: Vec<String>,
}

/// Load every slice file of up to [`egdb::MAX_PIECES`] pieces present in `dir` (a missing
/// folder gives an empty set). Damaged files are left out and named in `problems`. Every
/// table's blocks are checked against their checksums on first touch ([`Egdb::insert_checked`]):
/// a slice found damaged then is missing, reported through [`Egdb::on_damage`].
pub fn load(dir: &Path) -> Loaded {
    let mut loaded = Loaded {
        db: Egdb::new(),
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    let mut old = 0;
    for m in plan(egdb::MAX_PIECES).slices() {
        if !slice_path(dir, m).exists() {
            continue;
        }
        match open_into(&mut loaded.db, dir, m, false) {
            Ok(false) => {}
            Ok(true) => old += 1,
            Err(e) => loaded.problems.push(e.to_string()),
        }
    }
    if old > 0 {
        loaded.warnings.push(format!(
            "{}: {old} slice files of an older format, without block checksums: each checked \
             whole at each start; `crossboard egdb build` rewrites them in seconds",
            dir.display()
        ));
    }
    loaded
}

/// Open the slice file of `m` into `db` (every block checked now when `check_all`); true when
/// it is of the older format.
fn open_into(db: &mut Egdb, dir: &Path, m: Material, check_all: bool) -> Result<bool, EgdbError> {
    insert_opened(db, dir, m, read_slice(dir, m, check_all)?)
}

/// Put an opened slice file into `db`; true when it is of the older format.
fn insert_opened(
    db: &mut Egdb,
    dir: &Path,
    m: Material,
    opened: Opened,
) -> Result<bool, EgdbError> {
    let old = opened.old_format;
    db.insert_checked(m, opened.table, opened.checksums)
        .map_err(table_error(dir, m))?;
    Ok(old)
}

fn table_error(dir: &Path, m: Material) -> impl FnOnce(egdb::TableError) -> EgdbError {
    let path = slice_path(dir, m);
    move |e| EgdbError::Damaged {
        path,
        reason: e.to_string(),
    }
}

/// Load the databases of the default folder ([`default_egdb_dir`]); empty when there is none.
pub fn load_default() -> Loaded {
    match default_egdb_dir() {
        Some(dir) => load(&dir),
        None => Loaded {
            db: Egdb::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
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
        let on_disk: Vec<Option<Opened>> = pair
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
            for (&s, opened) in pair.iter().zip(on_disk) {
                keep_found(&mut db, dir, s, opened.unwrap_or_else(|| unreachable!()))?;
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
    let disk_bytes = plan.slices().map(file_len).sum();
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
        // 6-piece build holds the tables of one pair in memory, not all of them. Every block is
        // checked as it is mapped back: what is on disk is what was verified.
        open_into(db, dir, s, true)?;
        observer.slice(s, false);
    }
    Ok(checked)
}

/// Keep a slice file found complete on disk (every block checked): into `db`, after rewriting
/// it in the current format when it is of the older one (its whole checksum held).
fn keep_found(db: &mut Egdb, dir: &Path, s: Material, opened: Opened) -> Result<(), EgdbError> {
    if opened.old_format {
        // Copied out and unmapped first: Windows does not replace a file that is mapped.
        let table = (*opened.table).as_ref().to_vec();
        drop(opened);
        write_slice(dir, s, &table)?;
        open_into(db, dir, s, true)?;
        return Ok(());
    }
    insert_opened(db, dir, s, opened).map(|_| ())
}

fn plan_pair(m: Material) -> Vec<Material> {
    let s = m.swapped();
    if s == m { vec![m] } else { vec![m, s] }
}

fn insert(db: &mut Egdb, dir: &Path, m: Material, bytes: Bytes) -> Result<(), EgdbError> {
    db.insert(m, bytes).map_err(table_error(dir, m))
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
