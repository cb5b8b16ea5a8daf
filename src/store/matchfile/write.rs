//! Writing a match file: created new, appended record by record, rewritten whole after a
//! failed append, and a version 1 file migrated to version 2 with its original kept.

use super::{Dropped, EXTENSION, MatchFile, StoreError, WriterLock, load_match};
use crate::director::Match;
use crate::store::atomic::write_atomic;
use crate::store::matchlog;
use chrono::{DateTime, Utc};
use std::io;
use std::path::{Path, PathBuf};

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
            player_slug(&s.players[0]),
            player_slug(&s.players[1])
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
pub(super) fn is_v1_copy(path: &Path) -> bool {
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

/// A file-name-safe form of `name`: its letters and digits in lower case, each run of
/// anything else one `-` between them (none at either end), at most `max` characters (cut
/// after a whole word, unless the first is already too long); empty when `name` has no
/// letter or digit.
pub fn slug(name: &str, max: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    let words = name.split(|c: char| !c.is_alphanumeric());
    for word in words.filter(|w| !w.is_empty()) {
        let word: String = word.chars().flat_map(char::to_lowercase).collect();
        let (sep, n) = (usize::from(len > 0), word.chars().count());
        if len + sep + n > max {
            if len == 0 {
                out = word.chars().take(max).collect();
            }
            break;
        }
        if sep == 1 {
            out.push('-');
        }
        out.push_str(&word);
        len += sep + n;
    }
    out
}

/// A player's name in a match file's name: [`slug`] of at most 24 characters, "player" when
/// nothing is left.
fn player_slug(name: &str) -> String {
    match slug(name, 24) {
        s if s.is_empty() => "player".into(),
        s => s,
    }
}
