//! The match file: one human-readable TOML file per match, rewritten atomically after every
//! event, so a crash loses nothing that was committed.
//!
//! ```toml
//! format-version = 1
//! saved-at = "2026-11-30T14:05:00Z"
//!
//! [match]
//! ...            # crate::director::Match: settings, ballots, games, clocks, event log
//!
//! # end of crossboard match file
//! ```
//!
//! The last line marks a complete file: a file cut short is refused. A file that cannot be
//! loaded (damaged, truncated, hand-edited wrong, from a newer crossboard) is never
//! overwritten: a [`MatchStore`] that saves is only obtained by creating a new file, by
//! loading the existing one, or by [`MatchStore::replace_damaged`], which moves the damaged
//! file aside first.

use super::atomic::{
    Format, LoadError, parse_toml_strict, to_toml, write_atomic, write_atomic_unsynced,
};
use super::config::project_dirs;
use crate::director::{Match, Phase};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The match file's format version. Files with a higher one are refused.
pub const MATCH_FILE_VERSION: u32 = 1;

/// The last line of every match file.
pub const END_MARKER: &str = "# end of crossboard match file";

const FORMAT: Format = Format {
    version_key: "format-version",
    supported: MATCH_FILE_VERSION,
    version_required: true,
    end_marker: Some(END_MARKER),
};

/// The contents of a match file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct MatchFile {
    /// [`MATCH_FILE_VERSION`] when written by this build.
    pub format_version: u32,
    /// When the file was written.
    pub saved_at: DateTime<Utc>,
    /// The match.
    #[serde(rename = "match")]
    pub the_match: Match,
}

impl MatchFile {
    /// A file holding `m`, stamped `now`.
    pub fn new(m: Match, now: DateTime<Utc>) -> MatchFile {
        MatchFile {
            format_version: MATCH_FILE_VERSION,
            saved_at: now,
            the_match: m,
        }
    }

    /// The text written to disk.
    pub fn to_text(&self) -> Result<String, StoreError> {
        to_toml(self, FORMAT).map_err(|e| StoreError::Serialize(e.to_string()))
    }

    /// Read a match file from text; `path` names it in messages.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<MatchFile, LoadError> {
        parse_toml_strict(bytes, path, FORMAT)
    }

    /// True when the match is over.
    pub fn is_finished(&self) -> bool {
        self.the_match.phase() == Phase::Finished
    }
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
/// file another process is about to lock would let two writers in).
#[derive(Debug)]
pub struct WriterLock {
    _file: std::fs::File,
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
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
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
        Ok(WriterLock { _file: file })
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
/// file's [`WriterLock`] for as long as it lives.
#[derive(Debug)]
pub struct MatchStore {
    path: PathBuf,
    durable: bool,
    _lock: WriterLock,
}

impl MatchStore {
    /// Save a new match to `path`, refusing to replace an existing file.
    pub fn create(path: &Path, m: &Match, now: DateTime<Utc>) -> Result<MatchStore, StoreError> {
        if path.exists() {
            return Err(StoreError::Exists(path.to_path_buf()));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let store = MatchStore {
            path: path.to_path_buf(),
            durable: true,
            _lock: WriterLock::take(path)?,
        };
        store.save(m, now)?;
        Ok(store)
    }

    /// Save a new match in `dir` under a fresh name made of the date and the players
    /// (`2026-11-30-1405-ann-vs-bob.toml`, then `-2`, `-3`, ... if taken).
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
                format!("{base}.toml")
            } else {
                format!("{base}-{n}.toml")
            };
            let path = dir.join(name);
            if !path.exists() {
                return MatchStore::create(&path, m, now);
            }
        }
        unreachable!("some name is free")
    }

    /// Load a match file for play; the store saves back to it. Refused while another
    /// crossboard has it open ([`StoreError::Locked`]); reading it to look needs no lock
    /// ([`load_match`]).
    pub fn open(path: &Path) -> Result<(MatchStore, MatchFile), StoreError> {
        if !path.is_file() {
            // Say why it cannot be read, and leave no lock file beside nothing.
            load_match(path)?;
        }
        let lock = WriterLock::take(path)?;
        let file = load_match(path)?;
        Ok((
            MatchStore {
                path: path.to_path_buf(),
                durable: true,
                _lock: lock,
            },
            file,
        ))
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
        let store = MatchStore::create(path, m, now)?;
        Ok((store, moved))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Skip the disk syncs when saving (`false`): still atomic against a crash of the
    /// process, not against a power cut. For tests and benchmarks that save thousands of times.
    pub fn set_durable(&mut self, durable: bool) {
        self.durable = durable;
    }

    /// Write the match atomically (call after every event).
    pub fn save(&self, m: &Match, now: DateTime<Utc>) -> Result<(), StoreError> {
        let text = MatchFile::new(m.clone(), now).to_text()?;
        let write = if self.durable {
            write_atomic
        } else {
            write_atomic_unsynced
        };
        write(&self.path, text.as_bytes()).map_err(|source| StoreError::Write {
            path: self.path.clone(),
            source,
        })
    }
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

/// Every `*.toml` file in `dir` (hidden and temporary files skipped), newest save first;
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

/// The visible `*.toml` files of `dir` (none if it does not exist).
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
        if visible && path.extension().is_some_and(|e| e == "toml") && path.is_file() {
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
    fn slugs() {
        assert_eq!(slug("Ann O'Neil"), "ann-o-neil");
        assert_eq!(slug("  "), "player");
        assert_eq!(slug("Élodie"), "élodie");
    }
}
