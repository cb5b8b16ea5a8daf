//! The match file: the match's event log, one human-readable record a line (format version 2,
//! see [`super::matchlog`]), appended and synced event by event, so a crash loses nothing
//! that was shown as done.
//!
//! Everything but the settings and the records is derived on load by replaying them
//! ([`Match::from_log`]): a record that does not follow is refused with its line and the
//! reason, and the file is left untouched. A last record cut short by a crash (a torn line, or
//! the first records of an action whose last ones never reached the disk) is dropped on load,
//! and said so ([`Dropped`]); it is cut off the file only when the match is continued.
//!
//! Version 1 files (one TOML file rewritten after every event) are still read and checked the
//! same way; once the user continues such a match it is rewritten as version 2, the original
//! kept beside it as `NAME.v1.toml`.
//!
//! A file that cannot be loaded (damaged, hand-edited wrong, from a newer crossboard) is never
//! written: a [`MatchStore`] that saves is only obtained by creating a new file, by loading the
//! existing one, or by [`MatchStore::replace_damaged`], which moves the damaged file aside
//! first.

use super::atomic::{Format, LoadError, parse_toml_strict, write_atomic};
use super::config::project_dirs;
use super::matchlog;
use crate::director::{Match, Phase};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The match file's format version written by this build. Files with a higher one are refused.
pub(super) const MATCH_FILE_VERSION: u32 = matchlog::VERSION;

/// The last line of every version 1 match file.
pub const END_MARKER: &str = "# end of crossboard match file";

/// Version 1: one TOML file, rewritten after every event.
const V1_FORMAT: Format = Format {
    version_key: "format-version",
    supported: 1,
    version_required: true,
    end_marker: Some(END_MARKER),
};

/// A version 1 file as written.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct V1File {
    format_version: u32,
    saved_at: DateTime<Utc>,
    #[serde(rename = "match")]
    the_match: Match,
}

/// Records at the end of a file that are not part of the match: a crash cut the last action
/// short (a torn last line, or an action whose last records never reached the disk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The first line dropped (from 1).
    pub line: usize,
    /// How many records (a torn line counts as one).
    pub records: usize,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.records;
        write!(
            f,
            "line {} on: {n} record{} of an action cut short by a crash, dropped (never shown as done)",
            self.line,
            if n == 1 { "" } else { "s" }
        )
    }
}

/// A match file as read.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchFile {
    /// The file's format version: [`MATCH_FILE_VERSION`], or 1 for an older file (rewritten as
    /// version 2 when the match is continued).
    pub format_version: u32,
    /// When it was last written (its last record's time).
    pub saved_at: DateTime<Utc>,
    /// The match.
    pub the_match: Match,
    /// Records dropped at the end (a crash cut the last action short), if any.
    pub dropped: Option<Dropped>,
    /// The bytes of a version 2 file that hold the match, and whether its last record lacks
    /// its newline.
    keep: (u64, bool),
}

impl MatchFile {
    /// A file holding `m` (saved at its last record's time).
    pub fn new(m: Match) -> MatchFile {
        MatchFile {
            format_version: MATCH_FILE_VERSION,
            saved_at: last_stamp(&m),
            the_match: m,
            dropped: None,
            keep: (0, false),
        }
    }

    /// The text of the file in the current format.
    pub fn to_text(&self) -> Result<String, StoreError> {
        matchlog::encode(&self.the_match).map_err(|e| StoreError::Serialize(e.to_string()))
    }

    /// Read a match file of either format from its bytes; `path` names it in messages. A
    /// byte-order mark first (an editor such as Notepad writes one) is skipped; a file whose
    /// first line is neither a record nor a version 1 file's `format-version` is not a match
    /// file, and said so at that line.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
        let text = &bytes[skip..];
        let first = text
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_ascii()))
            .find(|(_, l)| !l.is_empty() && !l.starts_with(b"#"));
        match first {
            Some((_, l)) if l.starts_with(b"{") => read_v2(text, path).map(|mut f| {
                // The mark stays in the file: the match's bytes start after it.
                f.keep.0 += skip as u64;
                f
            }),
            Some((line, l)) if !is_v1_start(l) => Err(parse_error(
                path,
                line,
                0,
                "not a crossboard match file (one starts with {\"format-version\":2})".into(),
            )),
            _ => read_v1(text, path),
        }
    }

    /// True when the match is over.
    pub fn is_finished(&self) -> bool {
        self.the_match.phase() == Phase::Finished
    }
}

/// The first line of a version 1 file: `format-version = N`.
fn is_v1_start(line: &[u8]) -> bool {
    line.strip_prefix(V1_FORMAT.version_key.as_bytes())
        .is_some_and(|rest| rest.trim_ascii_start().starts_with(b"="))
}

fn last_stamp(m: &Match) -> DateTime<Utc> {
    m.log().last().map(|e| e.at).unwrap_or_default()
}

fn parse_error(path: &Path, line: usize, column: usize, message: String) -> LoadError {
    LoadError::Parse {
        path: path.to_path_buf(),
        line,
        column,
        key: None,
        message,
    }
}

fn read_v2(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = super::atomic::line_col(bytes, e.valid_up_to());
            let msg = "not UTF-8 text: the file is damaged".to_string();
            return Err(parse_error(path, line, column, msg));
        }
    };
    let parsed = matchlog::parse(text).map_err(|e| match e.newer {
        Some(found) => LoadError::Newer {
            path: path.to_path_buf(),
            found,
            supported: MATCH_FILE_VERSION,
        },
        None => parse_error(path, e.line, e.column, e.message),
    })?;
    let replayed = Match::from_log(parsed.settings, &parsed.entries).map_err(|e| {
        let line = parsed.lines.get(e.index).copied().unwrap_or(2);
        let line = if e.index == 0 && !matches!(e.reason, crate::director::LogRefusal::NoStart) {
            2 // the settings
        } else {
            line
        };
        parse_error(path, line, 0, e.to_string())
    })?;
    if let Some(e) = parsed.backwards {
        return Err(parse_error(path, e.line, e.column, e.message));
    }
    let applied = parsed.entries.len() - replayed.dropped;
    let dropped = match (&parsed.torn, replayed.dropped) {
        (None, 0) => None,
        (torn, n) => Some(Dropped {
            line: parsed
                .lines
                .get(applied)
                .copied()
                .or(torn.as_ref().map(|t| t.line))
                .unwrap_or(0),
            records: n + usize::from(torn.is_some()),
        }),
    };
    let end = parsed
        .ends
        .get(applied.wrapping_sub(1))
        .copied()
        .unwrap_or(0);
    let unterminated = replayed.dropped == 0 && parsed.unterminated;
    let m = replayed.the_match;
    Ok(MatchFile {
        format_version: MATCH_FILE_VERSION,
        saved_at: last_stamp(&m),
        the_match: m,
        dropped,
        keep: (end as u64, unterminated),
    })
}

fn read_v1(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
    let file: V1File = parse_toml_strict(bytes, path, V1_FORMAT).map_err(|e| match e {
        LoadError::Newer { path, found, .. } if found <= i64::from(MATCH_FILE_VERSION) => {
            LoadError::Parse {
                path,
                line: 1,
                column: 0,
                key: Some(V1_FORMAT.version_key.into()),
                message: format!(
                    "a format version {found} file is JSON lines, not TOML: the file is damaged"
                ),
            }
        }
        e => e,
    })?;
    Ok(MatchFile {
        format_version: 1,
        saved_at: file.saved_at,
        the_match: file.the_match,
        dropped: None,
        keep: (0, false),
    })
}

/// The text of a version 1 file holding `m` (for tests of the migration).
pub fn v1_text(m: &Match, saved_at: DateTime<Utc>) -> Result<String, StoreError> {
    let file = V1File {
        format_version: 1,
        saved_at,
        the_match: m.clone(),
    };
    super::atomic::to_toml(&file, V1_FORMAT).map_err(|e| StoreError::Serialize(e.to_string()))
}

/// Why a match file could not be loaded or saved.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file could not be loaded (the message names the file, the line, the problem).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Writing failed; the previous file is intact.
    #[error("cannot save {}: {source} (the previous save is intact)", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// A new match would overwrite an existing file.
    #[error("{} already exists; open it to continue that match, or choose another file", .0.display())]
    Exists(PathBuf),
    /// The match could not be turned into TOML (a bug).
    #[error("cannot write the match as TOML: {0}")]
    Serialize(String),
    /// No data directory is known on this system.
    #[error("no data directory is known here (no home directory?); use --match FILE")]
    NoDataDir,
    /// The file went away, or its folder did (a USB stick pulled out, a folder deleted).
    #[error(
        "cannot save {}: the file or its folder is gone (the whole match is written again at the next save once the folder is back)",
        .0.display()
    )]
    Gone(PathBuf),
    /// Another crossboard has the match open for play.
    #[error("{} is open in another crossboard, {holder}; it is left untouched", path.display())]
    Locked {
        /// The match file.
        path: PathBuf,
        /// Who has it: "pid 1234 since 14:05".
        holder: String,
    },
}

/// One writer per match file: an OS advisory lock on `.NAME.lock` beside it, held for as long
/// as a crossboard has the match open for play and released by the OS when that process ends
/// (however it ends). The lock file says who holds it; it is never deleted (deleting a lock
/// file another process is about to lock would let two writers in). A link or another name of
/// a file in its place is refused, never written through.
#[derive(Debug)]
pub struct WriterLock {
    /// The open lock file (the OS lock lives as long as it).
    #[cfg_attr(not(unix), allow(dead_code))]
    file: std::fs::File,
    /// The lock file.
    path: PathBuf,
    /// What this process wrote in it ("pid N since 14:05").
    #[cfg_attr(unix, allow(dead_code))]
    who: String,
}

impl WriterLock {
    /// The lock file of `match_path`.
    pub fn path_for(match_path: &Path) -> PathBuf {
        let name = match_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match_path.with_file_name(format!(".{name}.lock"))
    }

    /// Take the lock of `match_path`, or say who holds it.
    pub fn take(match_path: &Path) -> Result<WriterLock, StoreError> {
        use std::io::{Read, Seek, Write};
        let lock_path = WriterLock::path_for(match_path);
        let write_err = |source| StoreError::Write {
            path: lock_path.clone(),
            source,
        };
        let mut file = crate::store::atomic::open_regular(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
            &lock_path,
        )
        .map_err(write_err)?;
        if !lock_with_grace(&file).map_err(write_err)? {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(StoreError::Locked {
                path: match_path.to_path_buf(),
                holder: if holder.is_empty() {
                    "pid unknown".into()
                } else {
                    holder.to_string()
                },
            });
        }
        let since = chrono::Local::now().format("%H:%M");
        let who = format!("pid {} since {since}\n", std::process::id());
        file.set_len(0).map_err(write_err)?;
        file.rewind().map_err(write_err)?;
        file.write_all(who.as_bytes()).map_err(write_err)?;
        let _ = file.flush();
        Ok(WriterLock {
            file,
            path: lock_path,
            who,
        })
    }

    /// True while the lock file beside the match is still this lock's: not gone with its
    /// folder (a lock on a deleted file keeps no one else out of a new one). On Unix the same
    /// file (device and inode); elsewhere, where an open file's folder cannot be deleted, the
    /// file saying what this lock wrote in it.
    pub fn in_place(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (std::fs::metadata(&self.path), self.file.metadata()) {
                (Ok(there), Ok(held)) => there.dev() == held.dev() && there.ino() == held.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        std::fs::read_to_string(&self.path).is_ok_and(|text| text == self.who)
    }
}

/// How long a lock held by someone else may take to be let go before it counts as held: a lock
/// is briefly kept by a process that is ending, and by a child this process forks (to run an
/// engine or a test) until that child execs, since the child shares the open lock file.
const LOCK_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// Try the exclusive lock, retrying for [`LOCK_GRACE`]; false when it is still held after that.
fn lock_with_grace(file: &std::fs::File) -> std::io::Result<bool> {
    use fs4::fs_std::FileExt;
    let start = std::time::Instant::now();
    loop {
        if file.try_lock_exclusive()? {
            return Ok(true);
        }
        if start.elapsed() >= LOCK_GRACE {
            return Ok(false);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A match file this process may write: created new, or loaded successfully; it holds the
/// file's [`WriterLock`] for as long as it lives, and knows how much of the match's log the
/// file holds, so that saving appends only what is new.
#[derive(Debug)]
pub struct MatchStore {
    path: PathBuf,
    durable: bool,
    _lock: WriterLock,
    /// Log entries the file holds.
    written: usize,
    disk: Disk,
    /// Where the version 1 original was kept, once migrated.
    migrated: Option<PathBuf>,
    /// An append failed: the next save writes the whole file again (atomically), so a file
    /// that went away with its folder, or was cut, comes back whole.
    rewrite_next: bool,
    /// What opening the file found: records a crash cut short, dropped.
    dropped: Option<Dropped>,
}

/// What is on disk.
#[derive(Debug)]
enum Disk {
    /// A version 2 file whose first `len` bytes hold the `written` entries (anything after
    /// them was cut short by a crash and is cut off before the next append); `newline`: the
    /// last record lacks its newline. The file is opened for writing at the first append.
    Log {
        file: Option<std::fs::File>,
        len: u64,
        newline: bool,
    },
    /// A version 1 file, rewritten as version 2 (the original kept) at the first save that
    /// has something new.
    V1,
}

impl MatchStore {
    /// Save a new match to `path`, refusing to replace an existing file.
    pub fn create(path: &Path, m: &Match) -> Result<MatchStore, StoreError> {
        if path.exists() {
            return Err(StoreError::Exists(path.to_path_buf()));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let mut store = MatchStore {
            path: path.to_path_buf(),
            durable: true,
            _lock: WriterLock::take(path)?,
            written: 0,
            disk: Disk::Log {
                file: None,
                len: 0,
                newline: false,
            },
            migrated: None,
            rewrite_next: false,
            dropped: None,
        };
        store.rewrite(m)?;
        Ok(store)
    }

    /// Save a new match in `dir` under a fresh name made of the date and the players
    /// (`2026-11-30-1405-ann-vs-bob.jsonl`, then `-2`, `-3`, ... if taken).
    pub fn create_in(dir: &Path, m: &Match, now: DateTime<Utc>) -> Result<MatchStore, StoreError> {
        let s = m.settings();
        let base = format!(
            "{}-{}-vs-{}",
            now.format("%Y-%m-%d-%H%M"),
            slug(&s.players[0]),
            slug(&s.players[1])
        );
        for n in 1.. {
            let name = if n == 1 {
                format!("{base}.{EXTENSION}")
            } else {
                format!("{base}-{n}.{EXTENSION}")
            };
            let path = dir.join(name);
            if !path.exists() {
                return MatchStore::create(&path, m);
            }
        }
        unreachable!("some name is free")
    }

    /// Load a match file for play; the store appends to it. Refused while another crossboard
    /// has it open ([`StoreError::Locked`]); reading it to look needs no lock
    /// ([`load_match`]). Nothing is written until the first save with something new.
    pub fn open(path: &Path) -> Result<(MatchStore, MatchFile), StoreError> {
        if !path.is_file() {
            // Say why it cannot be read, and leave no lock file beside nothing.
            load_match(path)?;
        }
        let lock = WriterLock::take(path)?;
        let file = load_match(path)?;
        let disk = if file.format_version == 1 {
            Disk::V1
        } else {
            Disk::Log {
                file: None,
                len: file.keep.0,
                newline: file.keep.1,
            }
        };
        let store = MatchStore {
            path: path.to_path_buf(),
            durable: true,
            _lock: lock,
            written: file.the_match.log().len(),
            disk,
            migrated: None,
            rewrite_next: false,
            dropped: file.dropped.clone(),
        };
        Ok((store, file))
    }

    /// Explicitly start over at `path` although its file could not be loaded: the damaged
    /// file is first renamed to `NAME.damaged-YYYYmmddTHHMMSS` beside it (kept, never
    /// deleted), then `m` is saved. Returns the store and where the damaged file went.
    pub fn replace_damaged(
        path: &Path,
        m: &Match,
        now: DateTime<Utc>,
    ) -> Result<(MatchStore, Option<PathBuf>), StoreError> {
        let mut moved = None;
        if path.exists() {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let aside =
                path.with_file_name(format!("{name}.damaged-{}", now.format("%Y%m%dT%H%M%S")));
            std::fs::rename(path, &aside).map_err(|source| StoreError::Write {
                path: path.to_path_buf(),
                source,
            })?;
            moved = Some(aside);
        }
        let store = MatchStore::create(path, m)?;
        Ok((store, moved))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records a crash had cut short that opening the file dropped (cut off the file at the
    /// first save).
    pub fn dropped(&self) -> Option<&Dropped> {
        self.dropped.as_ref()
    }

    /// True while the file is a version 1 file (rewritten as version 2 at the first save).
    pub fn is_v1(&self) -> bool {
        matches!(self.disk, Disk::V1)
    }

    /// Where the version 1 original was kept, once this store rewrote it as version 2.
    pub fn migrated(&self) -> Option<&Path> {
        self.migrated.as_deref()
    }

    /// Skip the disk syncs when saving (`false`): still safe against a crash of the process,
    /// not against a power cut. For tests and benchmarks that save thousands of times.
    pub fn set_durable(&mut self, durable: bool) {
        self.durable = durable;
    }

    /// Write what `m`'s log has that the file does not (call after every event): appended in
    /// one write and synced before this returns. On failure the file holds what it held
    /// before (a partial record is cut off again where the system allows), and the next save
    /// tries again.
    pub fn save(&mut self, m: &Match) -> Result<(), StoreError> {
        let log = m.log();
        if log.len() < self.written {
            return Err(StoreError::Serialize(format!(
                "the match has {} records, the file {}: not the match of this file",
                log.len(),
                self.written
            )));
        }
        if log.len() == self.written {
            return Ok(());
        }
        match self.disk {
            Disk::V1 => self.migrate(m),
            Disk::Log { .. } if self.rewrite_next => {
                self.keep_lock()?;
                self.rewrite(m)
            }
            Disk::Log { .. } => self.append(m),
        }
    }

    fn write_err(&self, source: io::Error) -> StoreError {
        write_error(&self.path, source)
    }

    /// Before writing the file again after a failed save: if the lock file went away (with
    /// its folder, now back), take the lock anew, so that no second crossboard can have
    /// opened the match in the meantime and write beside this one; refused if one has.
    fn keep_lock(&mut self) -> Result<(), StoreError> {
        if self._lock.in_place() {
            return Ok(());
        }
        match WriterLock::take(&self.path) {
            Ok(lock) => {
                self._lock = lock;
                Ok(())
            }
            Err(StoreError::Write { source, .. }) => Err(self.write_err(source)),
            Err(e) => Err(e),
        }
    }

    /// Append the new records.
    fn append(&mut self, m: &Match) -> Result<(), StoreError> {
        use std::io::{Seek, SeekFrom, Write};
        let log = m.log();
        let created = matchlog::created(log);
        let text = matchlog::records(&log[self.written..], created)
            .map_err(|e| StoreError::Serialize(e.to_string()))?;
        let durable = self.durable;
        let path = self.path.clone();
        let Disk::Log { file, len, newline } = &mut self.disk else {
            unreachable!("append is only called on a version 2 file")
        };
        let mut bytes = Vec::with_capacity(text.len() + 1);
        if *newline {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(text.as_bytes());
        let result = (|| -> io::Result<()> {
            if file.is_none() {
                let f = std::fs::OpenOptions::new().write(true).open(&path)?;
                // Cut off what a crash left after the last whole action.
                if f.metadata()?.len() != *len {
                    f.set_len(*len)?;
                }
                *file = Some(f);
            }
            // Still the file at `path`, as this store left it (not gone with its folder, not
            // cut or replaced): else writing would go nowhere.
            let now = std::fs::metadata(&path)?.len();
            if now != *len {
                return Err(io::Error::other(format!(
                    "the file changed under crossboard ({now} bytes, {} expected)",
                    *len
                )));
            }
            let f = file.as_mut().ok_or_else(|| io::Error::other("no file"))?;
            let written = f.seek(SeekFrom::Start(*len)).and_then(|_| {
                f.write_all(&bytes)?;
                if durable { f.sync_data() } else { Ok(()) }
            });
            if written.is_err() {
                // Leave the file as it was, as far as the system lets us.
                let _ = f.set_len(*len);
            }
            written
        })();
        match result {
            Ok(()) => {
                *len += bytes.len() as u64;
                *newline = false;
                self.written = log.len();
                Ok(())
            }
            Err(source) => {
                // Write it whole next time.
                *file = None;
                self.rewrite_next = true;
                Err(write_error(&path, source))
            }
        }
    }

    /// Write the whole match as a new version 2 file (atomically: the old one or the new one).
    fn rewrite(&mut self, m: &Match) -> Result<(), StoreError> {
        let text = matchlog::encode(m).map_err(|e| StoreError::Serialize(e.to_string()))?;
        write_atomic(&self.path, text.as_bytes()).map_err(|e| self.write_err(e))?;
        self.disk = Disk::Log {
            file: None,
            len: text.len() as u64,
            newline: false,
        };
        self.written = m.log().len();
        self.rewrite_next = false;
        Ok(())
    }

    /// Keep the version 1 original as `NAME.v1.toml`, then rewrite the file as version 2.
    fn migrate(&mut self, m: &Match) -> Result<(), StoreError> {
        let original = std::fs::read(&self.path).map_err(|e| self.write_err(e))?;
        let kept = v1_copy_path(&self.path, &original);
        if !kept.exists() {
            write_atomic(&kept, &original).map_err(|source| StoreError::Write {
                path: kept.clone(),
                source,
            })?;
        }
        self.rewrite(m)?;
        self.migrated = Some(kept);
        Ok(())
    }
}

/// Why writing `path` failed: gone (with its folder), or the system's reason.
fn write_error(path: &Path, source: io::Error) -> StoreError {
    if source.kind() == io::ErrorKind::NotFound {
        StoreError::Gone(path.to_path_buf())
    } else {
        StoreError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The extension of new match files (JSON lines). Files of other names are read all the same:
/// the format is told by the contents.
pub const EXTENSION: &str = "jsonl";

/// Where the version 1 original of `path` is kept: `NAME.v1.toml` beside it (`NAME.v1-2.toml`,
/// ... if that name holds something else).
fn v1_copy_path(path: &Path, original: &[u8]) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 1.. {
        let name = if n == 1 {
            format!("{stem}.v1.toml")
        } else {
            format!("{stem}.v1-{n}.toml")
        };
        let kept = path.with_file_name(name);
        match std::fs::read(&kept) {
            Ok(b) if b == original => return kept,
            Ok(_) => continue,
            Err(_) => return kept,
        }
    }
    unreachable!("some name is free")
}

/// True for a kept version 1 original (`NAME.v1.toml`, `NAME.v1-2.toml`): not listed.
fn is_v1_copy(path: &Path) -> bool {
    let stem = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some((_, tail)) = stem.rsplit_once(".v1") else {
        return false;
    };
    tail.is_empty()
        || tail
            .strip_prefix('-')
            .is_some_and(|n| n.parse::<u32>().is_ok())
}

/// Read a match file.
pub fn load_match(path: &Path) -> Result<MatchFile, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    MatchFile::from_bytes(&bytes, path)
}

/// Where match files go by default: the platform data directory's `matches` folder (e.g.
/// `~/.local/share/crossboard/matches` on Linux).
pub fn default_match_dir() -> Option<PathBuf> {
    project_dirs().map(|d| d.data_dir().join("matches"))
}

/// One file of a match directory.
#[derive(Debug)]
pub struct Listing {
    /// The file.
    pub path: PathBuf,
    /// Its match, or why it could not be read.
    pub file: Result<MatchFile, LoadError>,
}

/// Every `*.jsonl` and `*.toml` file in `dir` (kept version 1 originals, hidden and temporary
/// files skipped), newest save first;
/// unreadable files last, in name order. A missing directory lists nothing.
pub fn list_matches(dir: &Path) -> io::Result<Vec<Listing>> {
    let mut out: Vec<Listing> = match_paths(dir)?
        .into_iter()
        .map(|path| {
            let file = load_match(&path);
            Listing { path, file }
        })
        .collect();
    out.sort_by(|a, b| match (&a.file, &b.file) {
        (Ok(x), Ok(y)) => y.saved_at.cmp(&x.saved_at).then(a.path.cmp(&b.path)),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.path.cmp(&b.path),
    });
    Ok(out)
}

/// What `crossboard resume` without a file finds in a match directory.
#[derive(Debug)]
pub struct ResumeCandidates {
    /// The most recently saved unfinished match: its file and contents.
    pub latest: Option<(PathBuf, MatchFile)>,
    /// Files that could not be read (to mention them; they are left alone).
    pub damaged: Vec<Listing>,
}

/// The most recently saved unfinished match in `dir` (for `crossboard resume` without a file),
/// and the files that could not be read. Files are read newest first (by modification time)
/// and reading stops at the first unfinished match, so old finished matches cost nothing.
pub fn latest_unfinished(dir: &Path) -> io::Result<ResumeCandidates> {
    let mut found = ResumeCandidates {
        latest: None,
        damaged: Vec::new(),
    };
    let mut paths = match_paths(dir)?;
    paths.sort_by_key(|p| std::cmp::Reverse(std::fs::metadata(p).and_then(|m| m.modified()).ok()));
    for path in paths {
        match load_match(&path) {
            Ok(f) if !f.is_finished() => {
                found.latest = Some((path, f));
                break;
            }
            Ok(_) => {}
            Err(e) => found.damaged.push(Listing { path, file: Err(e) }),
        }
    }
    Ok(found)
}

/// The visible `*.jsonl` and `*.toml` match files of `dir` (none if it does not exist).
fn match_paths(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let visible = name.is_some_and(|n| !n.starts_with('.'));
        let known = path
            .extension()
            .is_some_and(|e| e == "toml" || e == EXTENSION);
        if visible && known && !is_v1_copy(&path) && path.is_file() {
            out.push(path);
        }
    }
    Ok(out)
}

/// A file-name-safe form of a name: lower case letters and digits, words joined by `-`.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "player".into()
    } else {
        out.chars().take(24).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_v1_originals_are_told_apart() {
        assert!(is_v1_copy(Path::new("a/m.v1.toml")));
        assert!(is_v1_copy(Path::new("m.v1-3.toml")));
        assert!(!is_v1_copy(Path::new("m.toml")));
        assert!(!is_v1_copy(Path::new("m.v1x.toml")));
        assert!(!is_v1_copy(Path::new("v1.jsonl")));
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Ann O'Neil"), "ann-o-neil");
        assert_eq!(slug("  "), "player");
        assert_eq!(slug("Élodie"), "élodie");
    }
}
