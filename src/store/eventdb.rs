//! The tournament desk's database: the player registry and every event, in one SQLite file in
//! the data folder (`rusqlite` with its bundled SQLite, so no system library is needed).
//!
//! - **One source of truth**: an event is its log of director actions (table `actions`, one
//!   row per [`Action`], JSON text, numbered from 0); the standings, pairings and crosstables
//!   are derived by replaying it ([`Tournament::replay`]), never stored.
//! - **Every director action is one transaction** ([`Desk::record`]): checked against the
//!   event first, then written and committed, and only then applied in memory and shown. The
//!   file is opened in WAL mode with `synchronous = FULL`, so a committed action survives a
//!   kill or a power cut, and a transaction cut short is rolled back on the next open: nothing
//!   half-written is ever visible.
//! - **A second crossboard** on the same file: writes wait for each other (busy timeout). When
//!   the log grew since this desk read it, the action is recorded after the other's if
//!   nothing it relies on changed (a result on another board, an entry in another division:
//!   [`Tournament::reads_same`]), and refused otherwise (the same board: reload, then redo).
//! - **Schema versioned** with `PRAGMA user_version` and migrations applied in order, each in
//!   its own transaction; a file from a newer crossboard is refused, never changed.
//! - **A damaged file is refused**: SQLite's `quick_check` runs on every open, and a file that
//!   fails it is neither read nor written ([`DeskError::Corrupt`], naming the way back).
//! - **A copy before each pairing**: before a round is paired the whole database is copied to
//!   `NAME.backup.sqlite3` beside it ([`backup_path`]), the copy a damaged file is restored
//!   from.

use super::atomic::{OutputIsInput, check_output, check_output_folder};
use crate::event::{Action, EventError, EventInfo, PlayerId, PlayerInfo, Tournament};
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// One step of the schema: SQL, or a rewrite of the rows in Rust.
enum Migration {
    /// Statements run as they are.
    Sql(&'static str),
    /// A rewrite of stored rows.
    Rows(fn(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>),
}

/// The schema, one migration per version (index 0 takes a new file to version 1; 1 to 2: the
/// actions' text from TOML to JSON, which reads back several times faster).
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(
        "
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        club TEXT NOT NULL DEFAULT '',
        region TEXT NOT NULL DEFAULT '',
        federation_ids TEXT NOT NULL DEFAULT '',
        rating INTEGER,
        created_at TEXT NOT NULL
    );
    CREATE INDEX players_name ON players (name);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE actions (
        event_id INTEGER NOT NULL REFERENCES events (id),
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (event_id, seq)
    ) WITHOUT ROWID;
",
    ),
    Migration::Rows(actions_to_json),
];

/// Version 1 stored each action as TOML: rewrite as JSON every row that reads (a row that
/// does not read is left as it was, for [`Desk::load`] to report as damaged).
fn actions_to_json(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let rows: Vec<(i64, i64, String)> = {
        let mut st = tx.prepare("SELECT event_id, seq, action FROM actions")?;
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let mut update =
        tx.prepare("UPDATE actions SET action = ?3 WHERE event_id = ?1 AND seq = ?2")?;
    for (event, seq, text) in rows {
        if let Ok(action) = toml::from_str::<Action>(&text) {
            update.execute(params![event, seq, action_text(&action)?])?;
        }
    }
    Ok(())
}

/// An action as stored: JSON.
fn action_text(action: &Action) -> rusqlite::Result<String> {
    serde_json::to_string(action).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// The tables every version of the desk's schema has: a file without them is another
/// program's.
const DESK_TABLES: [&str; 3] = ["actions", "events", "players"];

/// The schema version this crossboard writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// An event's number in the database.
pub(super) type EventId = i64;

/// What went wrong with the database.
#[derive(Debug, Error)]
pub enum DeskError {
    /// SQLite said no (locked, full disk, damaged file, ...).
    #[error("{path}: {source}")]
    Sqlite {
        /// The database file.
        path: String,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// Written by a newer crossboard.
    #[error(
        "{path} has schema version {found}; this crossboard knows up to {SCHEMA_VERSION}: update crossboard"
    )]
    TooNew {
        /// The database file.
        path: String,
        /// Its version.
        found: i64,
    },
    /// The action was refused (nothing written).
    #[error("{0}")]
    Refused(#[from] EventError),
    /// The file is not the desk's database (another program's SQLite file, or not SQLite at
    /// all): nothing was written to it.
    #[error("{path} is not a crossboard desk database ({why}): nothing was written to it")]
    NotADesk {
        /// The file.
        path: String,
        /// What it is instead.
        why: String,
    },
    /// A read found no database at the path given (only commands that create an event or a
    /// player make one).
    #[error(
        "no desk database at {path} (check --db; `crossboard event new` creates one): nothing was created"
    )]
    Missing {
        /// The path given.
        path: String,
    },
    /// A stored action does not read back.
    #[error("{path}: event {event}, action {seq} is damaged: {why}")]
    Damaged {
        /// The database file.
        path: String,
        /// The event.
        event: EventId,
        /// The action's number.
        seq: i64,
        /// Why.
        why: String,
    },
    /// The file fails SQLite's check: nothing is read from it or written to it.
    #[error(
        "{path} is damaged (SQLite's check: {why}): nothing was read from it or written to it. {recover}"
    )]
    Corrupt {
        /// The database file.
        path: String,
        /// What the check found first.
        why: String,
        /// The way back: the copy kept before the last pairing, or the sqlite3 tool.
        recover: String,
    },
    /// Another crossboard changed what the action relies on since the event was read.
    #[error("the event changed in another crossboard since it was opened: reopen it and try again")]
    Changed,
    /// No such event or player.
    #[error("{0}")]
    NotFound(String),
    /// An entry list with problems: nothing imported.
    #[error("{file}: {problems} problem(s) in the list: nothing imported")]
    ListRefused {
        /// The list.
        file: String,
        /// How many problems its report has.
        problems: usize,
    },
    /// The data folder could not be made.
    #[error("{0}")]
    Io(String),
}

/// An event as read: its id, its log's length and the state it describes.
#[derive(Clone, Debug)]
pub struct OpenEvent {
    /// The event's number.
    pub id: EventId,
    /// The state derived from the log.
    pub event: Tournament,
}

/// A line of the event list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSummary {
    /// The event's number.
    pub id: EventId,
    /// Its name.
    pub name: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// Actions logged.
    pub actions: i64,
}

/// The desk's database, open.
pub struct Desk {
    conn: Connection,
    path: PathBuf,
}

/// A player to enter in a division: from the registry, or a new name to register.
#[derive(Clone, Debug, PartialEq)]
pub enum Entrant {
    /// A registered player: the id and the registry's details.
    Registered(PlayerId, PlayerInfo),
    /// A new player, registered by the entry.
    New(PlayerInfo),
}

/// Where the desk's database lives when no `--db` is given.
pub fn default_db_path() -> Option<PathBuf> {
    super::config::project_dirs().map(|d| d.data_dir().join("desk.sqlite3"))
}

/// The copy of the database at `db` made before the last round was paired: beside it,
/// `desk.backup.sqlite3` for `desk.sqlite3`.
fn backup_path(db: &Path) -> PathBuf {
    let stem = db.file_stem().unwrap_or_default().to_string_lossy();
    match db.extension() {
        Some(ext) => db.with_file_name(format!("{stem}.backup.{}", ext.to_string_lossy())),
        None => db.with_file_name(format!("{stem}.backup")),
    }
}

/// The files SQLite keeps beside the database at `db` (its rollback journal, write-ahead log
/// and shared-memory index).
pub(super) fn side_files(db: &Path) -> Vec<PathBuf> {
    let name = db.file_name().unwrap_or_default().to_string_lossy();
    ["-journal", "-wal", "-shm"]
        .iter()
        .map(|suffix| db.with_file_name(format!("{name}{suffix}")))
        .collect()
}

/// True when `actions` pair a round (the database is copied first).
fn pairs_a_round(actions: &[Action]) -> bool {
    actions
        .iter()
        .any(|a| matches!(a, Action::Pair { .. } | Action::PairByHand { .. }))
}

impl Desk {
    /// Open (or create, with its folder) the database at `path`, migrating it to the current
    /// schema. A file that is not the desk's database is refused, unchanged.
    pub fn open(path: &Path) -> Result<Desk, DeskError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| DeskError::Io(format!("{}: {e}", dir.display())))?;
        }
        Desk::connect(path, OpenFlags::SQLITE_OPEN_CREATE)
    }

    /// Open the database at `path`, which must exist (for the commands that only read or
    /// change what is there: a mistyped path is an error, never a new desk).
    pub fn open_existing(path: &Path) -> Result<Desk, DeskError> {
        if !path.exists() {
            return Err(DeskError::Missing {
                path: path.display().to_string(),
            });
        }
        Desk::connect(path, OpenFlags::empty())
    }

    /// Open `path` read-write with the extra `flags`, then check and migrate it.
    fn connect(path: &Path, flags: OpenFlags) -> Result<Desk, DeskError> {
        // SQLite refuses a link in place of its side files, but writes through another name
        // of a file (a hard link) there.
        for side in side_files(path) {
            super::atomic::refuse_planted(&side)
                .map_err(|e| DeskError::Io(format!("{}: {e}", side.display())))?;
        }
        let flags = flags
            | OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| sql(path, e))?;
        let mut desk = Desk {
            conn,
            path: path.to_path_buf(),
        };
        desk.setup(flags.contains(OpenFlags::SQLITE_OPEN_CREATE))?;
        Ok(desk)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses an output that is one of the desk's files (the database, SQLite's files beside
    /// it, the copy kept before the last pairing, the boards' tokens and copies), before
    /// anything is written.
    pub fn check_output(&self, out: &Path) -> Result<(), OutputIsInput> {
        check_output(out, &self.path, "the desk's database")?;
        check_output(
            out,
            &backup_path(&self.path),
            "the copy of the desk's database kept before pairing",
        )?;
        for side in side_files(&self.path) {
            check_output(out, &side, "a file SQLite keeps beside the desk's database")?;
        }
        check_output(
            out,
            &super::tokens::tokens_path(&self.path),
            "the file of the boards' tokens kept beside the desk's database",
        )?;
        check_output_folder(
            out,
            &super::tokens::boards_dir(&self.path),
            "in the folder of the boards' copies kept beside the desk's database",
        )
    }

    /// Refuse a damaged file before anything else reads or writes it.
    fn check(&self) -> Result<(), DeskError> {
        let found = self
            .conn
            .query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0));
        let why = match found {
            Ok(text) if text == "ok" => return Ok(()),
            Ok(text) => text
                .lines()
                .find(|l| !l.starts_with("***"))
                .unwrap_or(&text)
                .to_string(),
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
                e.to_string()
            }
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) => {
                return Err(self.not_a_desk("it is not an SQLite file".into()));
            }
            Err(e) => return Err(self.err(e)),
        };
        let backup = backup_path(&self.path);
        let recover = match std::fs::metadata(&backup).and_then(|m| m.modified()) {
            Ok(when) => format!(
                "A copy was kept before the last round was paired ({}): {}. Move the damaged \
                 file aside, copy that one in its place, and enter again what was recorded since.",
                chrono::DateTime::<chrono::Local>::from(when).format("%Y-%m-%d %H:%M"),
                backup.display()
            ),
            Err(_) => format!(
                "No copy is kept yet (crossboard keeps one before each round is paired, as {}); \
                 the sqlite3 tool's .recover command saves what can still be read.",
                backup.display()
            ),
        };
        Err(DeskError::Corrupt {
            path: self.path.display().to_string(),
            why,
            recover,
        })
    }

    /// Copy the whole database to [`backup_path`] (a consistent snapshot, written beside it
    /// under a temporary name, then renamed over the previous copy).
    fn keep_copy(&self) -> Result<(), DeskError> {
        let backup = backup_path(&self.path);
        let fail = |e: String| {
            DeskError::Io(format!(
                "cannot keep the copy {} before pairing: {e}; nothing was recorded",
                backup.display()
            ))
        };
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = backup.file_name().unwrap_or_default().to_string_lossy();
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| fail(e.to_string()))?
            .into_temp_path();
        let target = tmp
            .to_str()
            .ok_or_else(|| fail("the folder's name is not UTF-8".into()))?;
        self.conn
            .execute("VACUUM INTO ?1", [target])
            .map_err(|e| fail(e.to_string()))?;
        tmp.persist(&backup).map_err(|e| fail(e.to_string()))?;
        Ok(())
    }

    fn err(&self, e: rusqlite::Error) -> DeskError {
        sql(&self.path, e)
    }

    fn not_a_desk(&self, why: String) -> DeskError {
        DeskError::NotADesk {
            path: self.path.display().to_string(),
            why,
        }
    }

    /// Refuse, before anything is written, a file that is not the desk's: one whose schema
    /// version crossboard never wrote, one with tables but not the desk's, and (unless
    /// `creating`) an empty one.
    fn identify(&self, creating: bool) -> Result<(), DeskError> {
        let version = self.schema_version()?;
        let tables = self.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            [],
            |r| r.get::<_, String>(0),
        )?;
        let ours = DESK_TABLES.iter().all(|t| tables.iter().any(|n| n == t));
        let why = if version < 0 {
            format!("schema version {version}, which crossboard never writes")
        } else if tables.is_empty() && version == 0 {
            if creating {
                return Ok(());
            }
            "it is empty".to_string()
        } else if version == 0 || !ours {
            format!(
                "its tables are {}, not the desk's {}",
                tables.join(", "),
                DESK_TABLES.join(", ")
            )
        } else {
            return Ok(());
        };
        Err(self.not_a_desk(why))
    }

    fn setup(&mut self, creating: bool) -> Result<(), DeskError> {
        self.conn
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| self.err(e))?;
        self.check()?;
        self.identify(creating)?;
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(DeskError::Io(format!(
                "{}: cannot use write-ahead logging (journal mode {mode})",
                self.path.display()
            )));
        }
        self.conn
            .execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
            .map_err(|e| self.err(e))?;
        let version = self.schema_version()?;
        if version > SCHEMA_VERSION {
            return Err(DeskError::TooNew {
                path: self.path.display().to_string(),
                found: version,
            });
        }
        for (k, migration) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| sql(&self.path, e))?;
            // Another crossboard may have migrated meanwhile.
            let now: i64 = tx
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(|e| sql(&self.path, e))?;
            if now > k as i64 {
                continue;
            }
            match migration {
                Migration::Sql(text) => tx.execute_batch(text),
                Migration::Rows(rewrite) => rewrite(&tx),
            }
            .map_err(|e| sql(&self.path, e))?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", k + 1))
                .map_err(|e| sql(&self.path, e))?;
            tx.commit().map_err(|e| sql(&self.path, e))?;
        }
        Ok(())
    }

    /// The schema version of the file.
    pub fn schema_version(&self) -> Result<i64, DeskError> {
        self.conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// Add a player to the registry.
    pub fn add_player(
        &mut self,
        info: &PlayerInfo,
        at: DateTime<Utc>,
    ) -> Result<PlayerId, DeskError> {
        info.validate_new().map_err(EventError::from)?;
        let tx = begin(&mut self.conn, &self.path)?;
        let id = insert_player(&tx, info, at).map_err(|e| sql(&self.path, e))?;
        tx.commit().map_err(|e| sql(&self.path, e))?;
        Ok(id)
    }

    /// Every registered player, by name.
    pub fn players(&self) -> Result<Vec<(PlayerId, PlayerInfo)>, DeskError> {
        self.rows(
            "SELECT id, name, club, region, federation_ids, rating FROM players ORDER BY name, id",
            [],
            |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    PlayerInfo {
                        name: r.get(1)?,
                        club: r.get(2)?,
                        region: r.get(3)?,
                        federation_ids: r.get(4)?,
                        rating: r.get(5)?,
                    },
                ))
            },
        )
    }

    /// Every row of the query `sql` with `params`, each read by `row`.
    fn rows<T, P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
        row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, DeskError> {
        let mut st = self.conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let rows = st.query_map(params, row).map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The player with id `id`.
    pub fn player(&self, id: PlayerId) -> Result<PlayerInfo, DeskError> {
        self.players()?
            .into_iter()
            .find(|(i, _)| *i == id)
            .map(|(_, p)| p)
            .ok_or_else(|| DeskError::NotFound(format!("no player {id} in the registry")))
    }

    /// Create an event: its row and its first action (the heading), one transaction.
    pub fn create_event(
        &mut self,
        info: &EventInfo,
        at: DateTime<Utc>,
    ) -> Result<OpenEvent, DeskError> {
        let action = Action::SetInfo { info: info.clone() };
        let mut event = Tournament::new();
        event.check(&action)?;
        let tx = begin(&mut self.conn, &self.path)?;
        tx.execute(
            "INSERT INTO events (name, created_at) VALUES (?1, ?2)",
            params![info.name, at.to_rfc3339()],
        )
        .map_err(|e| sql(&self.path, e))?;
        let id = tx.last_insert_rowid();
        insert_action(&tx, id, 0, &action, at).map_err(|e| sql(&self.path, e))?;
        tx.commit().map_err(|e| sql(&self.path, e))?;
        event.apply(&action)?;
        Ok(OpenEvent { id, event })
    }

    /// Every event, newest first.
    pub fn events(&self) -> Result<Vec<EventSummary>, DeskError> {
        self.rows(
            "SELECT e.id, e.name, e.created_at, (SELECT COUNT(*) FROM actions a WHERE a.event_id = e.id)
             FROM events e ORDER BY e.id DESC",
            [],
            |r| {
                Ok(EventSummary {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    created_at: r.get(2)?,
                    actions: r.get(3)?,
                })
            },
        )
    }

    /// The event named `name` (its number, or its name, case-insensitive; the newest of that
    /// name).
    pub fn find_event(&self, name: &str) -> Result<EventId, DeskError> {
        let list = self.events()?;
        if let Ok(id) = name.trim().parse::<EventId>()
            && list.iter().any(|e| e.id == id)
        {
            return Ok(id);
        }
        list.iter()
            .find(|e| e.name.eq_ignore_ascii_case(name.trim()))
            .map(|e| e.id)
            .ok_or_else(|| {
                DeskError::NotFound(format!("no event {name:?} (crossboard event list)"))
            })
    }

    /// Read an event: replay its log.
    pub fn load(&self, id: EventId) -> Result<OpenEvent, DeskError> {
        let event = replay_log(&self.conn, &self.path, id)?;
        Ok(OpenEvent { id, event })
    }

    /// Record director actions as one transaction: each is checked against the event, all are
    /// written and committed, then applied to `open`. Refused or failed: nothing is written and
    /// `open` is unchanged. Actions that pair a round first copy the database
    /// ([`backup_path`]); when that copy cannot be made nothing is recorded. When another
    /// crossboard recorded since `open` was read, the actions go after its records if nothing
    /// they rely on changed ([`latest`]), and `open` becomes the event as it is now.
    pub fn record(
        &mut self,
        open: &mut OpenEvent,
        actions: &[Action],
        at: DateTime<Utc>,
    ) -> Result<(), DeskError> {
        let mut next = open.event.clone();
        for a in actions {
            next.apply(a)?;
        }
        if pairs_a_round(actions) {
            self.keep_copy()?;
        }
        let tx = begin(&mut self.conn, &self.path)?;
        if let Some(now) = latest(&tx, open, actions, &self.path)? {
            next = now;
            for a in actions {
                next.apply(a)?;
            }
        }
        let count = (next.actions - actions.len()) as i64;
        for (k, a) in actions.iter().enumerate() {
            insert_action(&tx, open.id, count + k as i64, a, at).map_err(|e| sql(&self.path, e))?;
        }
        tx.commit().map_err(|e| sql(&self.path, e))?;
        open.event = next;
        Ok(())
    }

    /// Register a new player and enter them in a division, one transaction.
    pub fn enter_new_player(
        &mut self,
        open: &mut OpenEvent,
        division: usize,
        info: &PlayerInfo,
        at: DateTime<Utc>,
    ) -> Result<PlayerId, DeskError> {
        let ids = self.enter_players(open, division, &[Entrant::New(info.clone())], at)?;
        Ok(ids[0])
    }

    /// Enter players in a division, registering the new ones: one transaction, so one refused
    /// entry (a name entered twice, a bad name) enters and registers nobody. Returns their ids.
    /// Every name is checked as a new one ([`PlayerInfo::validate_new`]), so that every board
    /// of the division can be played on crossboard.
    pub fn enter_players(
        &mut self,
        open: &mut OpenEvent,
        division: usize,
        entries: &[Entrant],
        at: DateTime<Utc>,
    ) -> Result<Vec<PlayerId>, DeskError> {
        for e in entries {
            let (Entrant::New(info) | Entrant::Registered(_, info)) = e;
            info.validate_new().map_err(EventError::from)?;
        }
        let tx = begin(&mut self.conn, &self.path)?;
        let mut actions = Vec::with_capacity(entries.len());
        for e in entries {
            let (player, info) = match e {
                Entrant::Registered(id, info) => (*id, info.clone()),
                Entrant::New(info) => (
                    insert_player(&tx, info, at).map_err(|e| sql(&self.path, e))?,
                    info.clone(),
                ),
            };
            actions.push(Action::Enter {
                division,
                player,
                info,
            });
        }
        let mut next =
            latest(&tx, open, &actions, &self.path)?.unwrap_or_else(|| open.event.clone());
        let count = next.actions as i64;
        for (k, action) in actions.iter().enumerate() {
            next.apply(action)?;
            insert_action(&tx, open.id, count + k as i64, action, at)
                .map_err(|e| sql(&self.path, e))?;
        }
        tx.commit().map_err(|e| sql(&self.path, e))?;
        open.event = next;
        Ok(actions
            .iter()
            .filter_map(|a| match a {
                Action::Enter { player, .. } => Some(*player),
                _ => None,
            })
            .collect())
    }

    /// The log of an event: (number, time, action text).
    pub fn log(&self, id: EventId) -> Result<Vec<(i64, String, String)>, DeskError> {
        self.rows(
            "SELECT seq, at, action FROM actions WHERE event_id = ?1 ORDER BY seq",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
    }

    /// SQLite's own check of the file ("ok" when sound).
    pub fn integrity_check(&self) -> Result<String, DeskError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }
}

fn begin<'c>(
    conn: &'c mut Connection,
    path: &Path,
) -> Result<rusqlite::Transaction<'c>, DeskError> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| sql(path, e))
}

/// The event as logged now, if another crossboard recorded since `open` was read: the log
/// read again inside the transaction `tx` (which holds the write lock, so nothing more is
/// recorded meanwhile), when every one of `actions` finds in it what it relied on in `open`
/// ([`Tournament::reads_same`]: another board, another division); otherwise
/// [`DeskError::Changed`]. `None` when nobody recorded since.
fn latest(
    tx: &rusqlite::Transaction<'_>,
    open: &OpenEvent,
    actions: &[Action],
    path: &Path,
) -> Result<Option<Tournament>, DeskError> {
    let count: i64 = tx
        .query_row(
            "SELECT COUNT(*) FROM actions WHERE event_id = ?1",
            [open.id],
            |r| r.get(0),
        )
        .map_err(|e| sql(path, e))?;
    if count == open.event.actions as i64 {
        return Ok(None);
    }
    let now = replay_log(tx, path, open.id)?;
    if actions.iter().all(|a| open.event.reads_same(&now, a)) {
        Ok(Some(now))
    } else {
        Err(DeskError::Changed)
    }
}

/// The event `id` of the database `conn` (the file `path`), its log replayed.
fn replay_log(conn: &Connection, path: &Path, id: EventId) -> Result<Tournament, DeskError> {
    let exists: Option<i64> = conn
        .query_row("SELECT id FROM events WHERE id = ?1", [id], |r| r.get(0))
        .optional()
        .map_err(|e| sql(path, e))?;
    if exists.is_none() {
        return Err(DeskError::NotFound(format!("no event {id}")));
    }
    let mut st = conn
        .prepare_cached("SELECT seq, action FROM actions WHERE event_id = ?1 ORDER BY seq")
        .map_err(|e| sql(path, e))?;
    let rows = st
        .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .map_err(|e| sql(path, e))?;
    let mut event = Tournament::new();
    for (k, row) in rows.enumerate() {
        let (seq, text) = row.map_err(|e| sql(path, e))?;
        let damaged = |why: String| DeskError::Damaged {
            path: path.display().to_string(),
            event: id,
            seq,
            why,
        };
        if seq != k as i64 {
            return Err(damaged(format!(
                "it is numbered {seq} where action {k} should be (an action is missing)"
            )));
        }
        let action: Action = serde_json::from_str(&text)
            .map_err(|e| damaged(format!("its text does not read as an action ({e})")))?;
        event
            .apply(&action)
            .map_err(|e| damaged(format!("the event refuses it ({e})")))?;
    }
    Ok(event)
}

fn sql(path: &Path, source: rusqlite::Error) -> DeskError {
    DeskError::Sqlite {
        path: path.display().to_string(),
        source,
    }
}

fn insert_player(
    tx: &rusqlite::Transaction<'_>,
    info: &PlayerInfo,
    at: DateTime<Utc>,
) -> rusqlite::Result<PlayerId> {
    tx.execute(
        "INSERT INTO players (name, club, region, federation_ids, rating, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![info.name, info.club, info.region, info.federation_ids, info.rating, at.to_rfc3339()],
    )?;
    Ok(tx.last_insert_rowid() as PlayerId)
}

fn insert_action(
    tx: &rusqlite::Transaction<'_>,
    event: EventId,
    seq: i64,
    action: &Action,
    at: DateTime<Utc>,
) -> rusqlite::Result<()> {
    let text = action_text(action)?;
    tx.execute(
        "INSERT INTO actions (event_id, seq, at, action) VALUES (?1, ?2, ?3, ?4)",
        params![event, seq, at.to_rfc3339(), text],
    )?;
    Ok(())
}
