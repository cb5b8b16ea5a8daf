//! The library's cache: a SQLite file beside the data, checked on open and rebuilt when it is
//! not the library's, kept in step with the source files one file at a time.

use super::read::{FileGames, file_games, source_files};
use super::{LibrarySources, SourceKind};
use crate::store::eventdb::side_files;
use rayon::prelude::*;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;
use thiserror::Error;

/// `PRAGMA application_id` of the library's cache ("CBLI"): another program's database is
/// never read as one.
const APPLICATION_ID: i64 = 0x4342_4C49;

/// The cache's schema version (`PRAGMA user_version`); another version is rebuilt.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime INTEGER NOT NULL,
        games INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        first_skip TEXT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        file INTEGER NOT NULL REFERENCES files (id),
        number INTEGER NOT NULL,
        red TEXT NOT NULL,
        white TEXT NOT NULL,
        event TEXT NOT NULL,
        date TEXT NOT NULL,
        day TEXT NOT NULL,
        opening TEXT NOT NULL,
        result TEXT NOT NULL,
        plies INTEGER NOT NULL
    );
    CREATE INDEX games_file ON games (file);
    CREATE TABLE positions (
        key INTEGER NOT NULL,
        game INTEGER NOT NULL,
        PRIMARY KEY (key, game)
    ) WITHOUT ROWID;
";

/// What can go wrong with the library's cache.
#[derive(Debug, Error)]
pub enum LibraryError {
    /// SQLite refused (the disk is full, the folder cannot be written).
    #[error("{path}: {source}")]
    Sqlite {
        /// The cache file.
        path: String,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
    /// A file beside it could not be removed or made.
    #[error("{0}")]
    Io(String),
    /// A search line that does not read.
    #[error("{0}")]
    Query(String),
}

/// The library's cache, open.
pub struct Library {
    conn: Connection,
    path: PathBuf,
    /// Why the cache file found was built again on open, if it was.
    pub rebuilt: Option<String>,
}

/// What one refresh did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refresh {
    /// Source files read again (new or changed).
    pub read: usize,
    /// Source files kept as indexed.
    pub kept: usize,
    /// Files dropped (deleted, or no longer a source).
    pub dropped: usize,
    /// Games in the library now.
    pub games: usize,
}

/// A source file with games that could not be read, for the screen's notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedNote {
    /// The file.
    pub path: PathBuf,
    /// How many of its games were skipped.
    pub skipped: u32,
    /// The first one's reason.
    pub first: String,
}

/// A source file's size and modification time (nanoseconds since the epoch).
type Stamp = (i64, i64);

/// The files indexed, by path: their id and stamp.
type Known = HashMap<String, (i64, Stamp)>;

/// A source file's [`Stamp`], if it can be read.
fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    Some((i64::try_from(meta.len()).unwrap_or(i64::MAX), mtime))
}

impl Library {
    /// Open the cache at `path`, made when missing. A file that is not the library's cache
    /// (not SQLite, another program's, another schema, damaged) is removed and made again;
    /// [`Library::rebuilt`] says why.
    pub fn open(path: &Path) -> Result<Library, LibraryError> {
        let io = |e: std::io::Error, p: &Path| LibraryError::Io(format!("{}: {e}", p.display()));
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| io(e, dir))?;
        }
        let mut rebuilt = None;
        if std::fs::symlink_metadata(path).is_ok()
            && let Err(why) = Self::check(path)
        {
            rebuilt = Some(why);
            for p in std::iter::once(path.to_path_buf()).chain(side_files(path)) {
                match std::fs::remove_file(&p) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e, &p)),
                    _ => {}
                }
            }
        }
        for side in side_files(path) {
            super::super::atomic::refuse_planted(&side).map_err(|e| io(e, &side))?;
        }
        let conn = Connection::open(path).map_err(|e| sql(path, e))?;
        let library = Library {
            conn,
            path: path.to_path_buf(),
            rebuilt,
        };
        library.create()?;
        Ok(library)
    }

    /// Why the file at `path` is not a cache to trust, if it is not.
    fn check(path: &Path) -> Result<(), String> {
        let meta = std::fs::symlink_metadata(path).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err("not a plain file".into());
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| e.to_string())?;
        let read = |pragma: &str| -> Result<i64, String> {
            conn.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get(0))
                .map_err(|e| format!("not a SQLite database ({e})"))
        };
        let id = read("application_id")?;
        if id != APPLICATION_ID {
            return Err("another program's database".into());
        }
        let version = read("user_version")?;
        if version != SCHEMA_VERSION {
            return Err(format!("schema {version}, not {SCHEMA_VERSION}"));
        }
        let ok: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(|e| format!("damaged ({e})"))?;
        if ok != "ok" {
            return Err(format!("damaged ({ok})"));
        }
        Ok(())
    }

    /// The schema, on a new file.
    fn create(&self) -> Result<(), LibraryError> {
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        self.conn
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| self.sql(e))?;
        // A cache: a cut write is rolled back (WAL), and a lost last commit is read again.
        self.conn
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;")
            .map_err(|e| self.sql(e))?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        let batch = format!(
            "BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; \
             PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        );
        self.conn.execute_batch(&batch).map_err(|e| self.sql(e))
    }

    pub(super) fn sql(&self, e: rusqlite::Error) -> LibraryError {
        sql(&self.path, e)
    }

    pub(super) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bring the cache in step with `sources`: new and changed files read (on a rayon pool),
    /// deleted ones dropped, the rest kept; all in one transaction.
    pub fn refresh(&mut self, sources: &LibrarySources) -> Result<Refresh, LibraryError> {
        let files = source_files(sources);
        let known = self.known_files()?;
        let mut refresh = Refresh::default();
        let mut stale: Vec<i64> = Vec::new();
        let mut todo: Vec<(PathBuf, SourceKind, (i64, i64))> = Vec::new();
        let mut present = std::collections::HashSet::new();
        for (path, kind) in files {
            let key = path.to_string_lossy().into_owned();
            let Some(st) = stamp(&path) else { continue };
            present.insert(key.clone());
            match known.get(&key) {
                Some((_, was)) if *was == st => refresh.kept += 1,
                other => {
                    stale.extend(other.map(|(id, _)| *id));
                    todo.push((path, kind, st));
                }
            }
        }
        for (key, (id, _)) in &known {
            if !present.contains(key) {
                stale.push(*id);
                refresh.dropped += 1;
            }
        }
        let read: Vec<FileGames> = todo
            .par_iter()
            .map(|(path, kind, _)| file_games(path, *kind))
            .collect();
        refresh.read = todo.len();
        self.write(&stale, &todo, &read).map_err(|e| self.sql(e))?;
        refresh.games = self.count()?;
        Ok(refresh)
    }

    /// Remove the `stale` files' rows and write the files read, in one transaction.
    fn write(
        &mut self,
        stale: &[i64],
        todo: &[(PathBuf, SourceKind, (i64, i64))],
        read: &[FileGames],
    ) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        if !stale.is_empty() {
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS gone (id INTEGER PRIMARY KEY); DELETE FROM gone;",
            )?;
            {
                let mut add =
                    tx.prepare("INSERT INTO gone (id) SELECT id FROM games WHERE file = ?1")?;
                for id in stale {
                    add.execute([id])?;
                }
            }
            tx.execute_batch(
                "DELETE FROM positions WHERE game IN (SELECT id FROM gone);
                 DELETE FROM games WHERE id IN (SELECT id FROM gone);
                 DELETE FROM gone;",
            )?;
            let mut drop = tx.prepare("DELETE FROM files WHERE id = ?1")?;
            for id in stale {
                drop.execute([id])?;
            }
        }
        {
            let mut file = tx.prepare(
                "INSERT INTO files (path, kind, size, mtime, games, skipped, first_skip)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut game = tx.prepare(
                "INSERT INTO games (file, number, red, white, event, date, day, opening, result, plies)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            let mut position =
                tx.prepare("INSERT OR IGNORE INTO positions (key, game) VALUES (?1, ?2)")?;
            let mut pairs: Vec<(i64, i64)> = Vec::new();
            for ((path, kind, (size, mtime)), got) in todo.iter().zip(read) {
                file.execute(params![
                    path.to_string_lossy(),
                    kind.key(),
                    size,
                    mtime,
                    got.entries.len() as i64,
                    got.skipped,
                    got.first_skip.clone().unwrap_or_default(),
                ])?;
                let file_id = tx.last_insert_rowid();
                for e in &got.entries {
                    game.execute(params![
                        file_id,
                        e.number,
                        e.red,
                        e.white,
                        e.event,
                        e.date,
                        super::search::sortable_day(&e.date),
                        e.opening,
                        e.result,
                        e.plies,
                    ])?;
                    let game_id = tx.last_insert_rowid();
                    pairs.extend(e.keys.iter().map(|&k| (k as i64, game_id)));
                }
            }
            // In key order, the table's pages are filled one after the other.
            pairs.sort_unstable();
            for (key, game) in pairs {
                position.execute(params![key, game])?;
            }
        }
        tx.commit()
    }

    /// The files indexed: path to (id, (size, mtime)).
    fn known_files(&self) -> Result<Known, LibraryError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, path, size, mtime FROM files")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(1)?, (r.get(0)?, (r.get(2)?, r.get(3)?))))
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.sql(e))
    }

    /// Games in the library.
    pub fn count(&self) -> Result<usize, LibraryError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(|e| self.sql(e))
    }

    /// The files with games that could not be read, by path.
    pub fn skipped(&self) -> Result<Vec<SkippedNote>, LibraryError> {
        let mut stmt = self
            .conn
            .prepare("SELECT path, skipped, first_skip FROM files WHERE skipped > 0 ORDER BY path")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(SkippedNote {
                    path: PathBuf::from(r.get::<_, String>(0)?),
                    skipped: r.get(1)?,
                    first: r.get(2)?,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.sql(e))
    }

    /// True when `path` is not indexed as it is now (changed, deleted, or never read).
    pub fn is_stale(&self, path: &Path) -> bool {
        let row: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT size, mtime FROM files WHERE path = ?1",
                [path.to_string_lossy()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .ok()
            .flatten();
        row.is_none() || row != stamp(path)
    }
}

fn sql(path: &Path, source: rusqlite::Error) -> LibraryError {
    LibraryError::Sqlite {
        path: path.display().to_string(),
        source,
    }
}
