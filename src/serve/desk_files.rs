//! The desk's files as serve finds them when it starts: the database must be the desk's own
//! (another program's SQLite file is refused before anything reads or writes it), and the
//! folder of the boards' copies, `NAME-boards/`, must be a folder of its own, never a link
//! (a link planted there would send the copies elsewhere). The temporary files a server killed
//! in the middle of writing a copy left in that folder are removed.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The tables every crossboard desk database has.
const DESK_TABLES: [&str; 3] = ["players", "events", "actions"];

/// The folder of the boards' copies beside the database `db`.
pub(super) fn boards_folder(db: &Path) -> PathBuf {
    let copy = crate::store::copy_path(db, "-", 1, 1, 1);
    copy.parent()
        .map_or_else(|| db.with_extension("boards"), Path::to_path_buf)
}

/// Refuses `db` when it is a file that is not a desk database (not SQLite, or SQLite with
/// tables of its own and not the desk's), reading it only: nothing is written. An absent or
/// empty file is a new desk.
pub(super) fn check_database(db: &Path) -> Result<(), String> {
    if !db.is_file() {
        return Ok(());
    }
    use rusqlite::OpenFlags;
    let foreign = |why: &str| {
        format!(
            "{}: not a crossboard desk database ({why}); nothing was served or changed: give \
             --db the desk's database (crossboard event list --db FILE lists its events)",
            db.display()
        )
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let tables: rusqlite::Result<Vec<String>> = rusqlite::Connection::open_with_flags(db, flags)
        .and_then(|conn| {
            let mut q = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
            let names = q.query_map([], |r| r.get(0))?;
            names.collect()
        });
    match tables {
        Ok(t) if t.is_empty() || DESK_TABLES.iter().all(|d| t.iter().any(|n| n == d)) => Ok(()),
        Ok(t) => Err(foreign(&format!("its tables are {}", t.join(", ")))),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::NotADatabase =>
        {
            Err(foreign("not an SQLite database"))
        }
        // Any other failure (locked, unreadable) is the desk's to report as it opens it.
        Err(_) => Ok(()),
    }
}

/// Refuses the boards' folder of `db` when something other than a folder is in its place (a
/// symbolic link above all): the desk writes the boards' copies there.
pub(super) fn check_boards_folder(db: &Path) -> Result<(), String> {
    let dir = boards_folder(db);
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "{} is a symbolic link: the desk keeps the boards' copies in a folder of its own \
             and never writes through a link; remove the link",
            dir.display()
        )),
        Ok(m) if !m.is_dir() => Err(format!(
            "{} is not a folder: the desk keeps the boards' copies there; move it away",
            dir.display()
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", dir.display())),
    }
}

/// Remove the temporary files (`.NAME.jsonl.XXXXXX.tmp`, `.NAME.refused.json.XXXXXX.tmp`, see
/// [`crate::store::write_atomic`]) left in the boards' folder of `db` by a server stopped
/// while it wrote a copy; how many were removed. Nothing else is touched.
pub(super) fn remove_leftovers(db: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(boards_folder(db)) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.contains(".jsonl.") || name.contains(".refused.json.");
        let left = name.starts_with('.') && name.ends_with(".tmp") && ours;
        let plain = entry.file_type().is_ok_and(|t| t.is_file());
        if left && plain && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}
