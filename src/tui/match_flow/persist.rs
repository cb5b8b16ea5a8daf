//! Where a match is saved: the store's match file (each event appended and synced), or
//! nowhere (headless tests that do not look at files); and where the PDN export goes.

use super::MatchOptions;
use crate::director::Match;
use crate::store::{MatchStore, WriterLock, load_match};
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// The save target of a running match.
#[derive(Debug, Default)]
pub enum Saver {
    /// Not saved.
    #[default]
    Off,
    /// Appended to the store's match file after every event.
    File(MatchStore),
    /// A file another crossboard has open for play, looked at: nothing is written, no lock is
    /// held, and the director takes no command
    /// ([`MatchSession::read_only`](super::session::MatchSession::read_only)).
    ReadOnly {
        /// The file looked at.
        path: PathBuf,
        /// Why it is read-only: "X is open in another crossboard, pid N since 14:05; ...".
        why: String,
    },
}

impl Saver {
    /// Write what is new in the match (appended and synced); the error as a message.
    pub fn save(&mut self, m: &Match) -> Result<(), String> {
        match self {
            Saver::Off | Saver::ReadOnly { .. } => Ok(()),
            Saver::File(store) => store.save(m).map_err(|e| e.to_string()),
        }
    }

    /// What opening the file found that the director should know, as sentences: the records
    /// of an action a crash cut short (dropped), a version 1 file (rewritten when the match
    /// goes on). Empty for a new match.
    pub fn open_notes(&self) -> Vec<String> {
        let Saver::File(store) = self else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if let Some(d) = store.dropped() {
            notes.push(format!("{}: {d}", store.path().display()));
        }
        if store.is_v1() {
            let name = store
                .path()
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy();
            notes.push(format!(
                "version 1 file: kept as {name}.v1.toml, rewritten when play goes on"
            ));
        }
        notes
    }

    /// Where the version 1 original was kept, once the file was rewritten in the current
    /// format.
    pub fn migrated(&self) -> Option<&Path> {
        match self {
            Saver::File(store) => store.migrated(),
            _ => None,
        }
    }

    /// The file written, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Saver::Off => None,
            Saver::File(store) => Some(store.path()),
            Saver::ReadOnly { path, .. } => Some(path),
        }
    }
}

/// The status line while the last save failed: "NOT SAVED" first (so it survives a narrow
/// screen), then `message` (a director action's "done" reads "not saved yet"), then why. None
/// when the match is saved. The one render of the NOT SAVED state; every screen's status line
/// goes through it.
pub fn not_saved(error: Option<&str>, message: &str) -> Option<String> {
    let e = error?;
    let message = message.replace(": done", ": done, not saved yet");
    Some(format!("NOT SAVED · {message} · {e}"))
}

/// Make the save target of a new match and write it a first time: `options.file` if given
/// (refused if it exists, unless `options.start_over`: then the damaged file there is moved
/// aside first), else a fresh file in `options.dir`, else nowhere. Also returns what to tell the
/// director (where a damaged file went).
pub fn create(
    options: &MatchOptions,
    m: &Match,
    wall: DateTime<Utc>,
) -> Result<(Saver, Option<String>), String> {
    let store = match (options.file.as_deref(), options.dir.as_deref()) {
        (Some(f), _) if options.start_over => return start_over(f, m, wall),
        (Some(f), _) => MatchStore::create(f, m),
        (None, Some(d)) => MatchStore::create_in(d, m, wall),
        (None, None) => return Ok((Saver::Off, None)),
    };
    store
        .map(|s| (Saver::File(s), None))
        .map_err(|e| e.to_string())
}

/// A new match in place of the damaged file at `path`, which is moved aside (kept). Refused if
/// the file reads by now (then it is a match to resume, not to replace) or another crossboard
/// holds it.
fn start_over(
    path: &Path,
    m: &Match,
    wall: DateTime<Utc>,
) -> Result<(Saver, Option<String>), String> {
    if path.exists() && load_match(path).is_ok() {
        return Err(format!(
            "{} reads now: resume it instead of starting over",
            path.display()
        ));
    }
    // Free now, or refused with who has it, before anything is moved.
    drop(WriterLock::take(path).map_err(|e| e.to_string())?);
    let (store, moved) = MatchStore::replace_damaged(path, m, wall).map_err(|e| e.to_string())?;
    let note = moved.map(|aside| {
        let name = aside
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("started over: the damaged file was moved aside as {name}")
    });
    Ok((Saver::File(store), note))
}

/// Where the PDN export of a match goes: beside its file (same name, `.pdn`), else
/// `crossboard-match.pdn` in `dir` (or the current directory).
pub fn export_path(saver: &Saver, dir: Option<&Path>) -> PathBuf {
    match (saver.path(), dir) {
        (Some(p), _) => crate::store::default_export_path(p),
        (None, Some(d)) => d.join("crossboard-match.pdn"),
        (None, None) => PathBuf::from("crossboard-match.pdn"),
    }
}

/// Write the match's sheets (score sheets, result slip, and its report once over) on `paper`
/// beside the match file (else into `dir`), named after it; none over the match file. The
/// files written, or why not.
pub fn write_sheets(
    m: &Match,
    saver: &Saver,
    dir: Option<&Path>,
    paper: crate::publish::Paper,
) -> Result<Vec<PathBuf>, String> {
    let (folder, stem) = match saver.path() {
        Some(p) => (
            p.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            p.file_stem()
                .map_or("match".into(), |s| s.to_string_lossy().into_owned()),
        ),
        None => (
            dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            "crossboard-match".into(),
        ),
    };
    let sheets = crate::publish::match_sheets(m, &stem, paper);
    let input = saver.path().unwrap_or(Path::new(""));
    crate::store::write_outputs(&folder, &sheets.files(), input, "the match file itself")
}
