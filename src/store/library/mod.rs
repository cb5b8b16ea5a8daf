//! The game library: every game at hand (the match files and practice games of the data folder,
//! and the folders of PDN files the player names) indexed in a cache beside the data, and
//! searched by player, event, date, opening or ballot, result, length and position.
//!
//! - **The sources** ([`LibrarySources`]): the match folder's `*.jsonl`/`*.toml` files, the
//!   practice games file, and every `*.pdn` file under each named folder (subfolders too; hidden
//!   entries and links to folders are skipped).
//! - **The cache** ([`Library`]): a SQLite file (`library.sqlite3` in the data folder) holding
//!   one row per source file (its size and modification time, the games it gave, the games
//!   skipped), one row per game (players, event, date, opening or ballot, result, plies, file
//!   and number) and, for the search by position, one row per (position, game): a 64-bit key
//!   of each distinct position the game passed through ([`position_key`]), in a table ordered
//!   by that key. A file whose size or time changed is read again, a deleted one drops out,
//!   the rest is kept. The cache is never trusted: a file that is not SQLite, another
//!   program's database, another schema, or one failing SQLite's `quick_check` is removed and
//!   built again.
//! - **A bad game** of a PDN file is skipped and counted, with the first reason kept for the
//!   screen's notes; it never stops the index. Files are read on a rayon pool.
//! - **Openings** are named from the positions, where the tables know them (the 174 3-move
//!   openings after three moves from the start, the 2,500 11-man positions), else from the
//!   file's `Opening` or `Ballot` tag.

mod bench;
mod cache;
mod read;
mod search;

pub use bench::bench_library;
pub use cache::{Library, LibraryError, Refresh, SkippedNote};
pub use read::{opening_name, position_key};
pub use search::{Query, Sort};

use super::pdn::{PdnGame, PdnResult};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the library's games come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibrarySources {
    /// The match folder (`None`: no match files).
    pub match_dir: Option<PathBuf>,
    /// The practice games file (`None`: none).
    pub practice_games: Option<PathBuf>,
    /// Folders of PDN files, searched with their subfolders.
    pub folders: Vec<PathBuf>,
}

/// The config file's `[library]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct LibrarySettings {
    /// Folders of PDN files the library indexes, besides the data folder's games.
    pub folders: Vec<PathBuf>,
}

/// What a source file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    /// A crossboard match file.
    Match,
    /// A PDN file (the practice games, or a named folder's).
    Pdn,
}

impl SourceKind {
    fn key(self) -> &'static str {
        match self {
            SourceKind::Match => "match",
            SourceKind::Pdn => "pdn",
        }
    }

    fn from_key(key: &str) -> Option<SourceKind> {
        match key {
            "match" => Some(SourceKind::Match),
            "pdn" => Some(SourceKind::Pdn),
            _ => None,
        }
    }
}

/// One indexed game, as the library lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id in the cache.
    pub id: i64,
    /// Red's player (PDN's `Black`), as written; empty when unknown.
    pub red: String,
    /// White's player.
    pub white: String,
    /// The event; empty when unknown.
    pub event: String,
    /// The date as written (`1993.08.??`); empty when unknown.
    pub date: String,
    /// The opening or ballot, named where the tables know it.
    pub opening: String,
    /// The result.
    pub result: PdnResult,
    /// Moves played (plies).
    pub plies: u32,
    /// The file it is in.
    pub source: PathBuf,
    /// What that file is.
    pub kind: SourceKind,
    /// Its number in the file, from 1.
    pub number: u32,
}

impl GameRow {
    /// Full moves played (a ply of each side is a move; an odd last ply counts).
    pub fn moves(&self) -> u32 {
        self.plies.div_ceil(2)
    }
}

/// The games of a source file, each read or why not (a match file that does not read is one
/// error for the whole file).
pub fn read_source(path: &Path, kind: SourceKind) -> Result<Vec<Result<PdnGame, String>>, String> {
    read::source_games(path, kind)
}

/// The game `row` names, read again from its file; refused when the file changed since it was
/// indexed (the library then needs a refresh) or the game no longer reads.
pub fn load_game(library: &Library, row: &GameRow) -> Result<PdnGame, String> {
    if library.is_stale(&row.source) {
        return Err(format!(
            "{} changed since it was indexed: refresh the library",
            row.source.display()
        ));
    }
    let games = read::source_games(&row.source, row.kind)?;
    match games.into_iter().nth(row.number.saturating_sub(1) as usize) {
        Some(Ok(g)) => Ok(g),
        Some(Err(e)) => Err(format!("{}: {e}", row.source.display())),
        None => Err(format!(
            "{} has no game {}: refresh the library",
            row.source.display(),
            row.number
        )),
    }
}

/// The library's cache file in the data folder `dir`.
pub fn library_cache_file(dir: &Path) -> PathBuf {
    dir.join("library.sqlite3")
}

/// The file in the data folder `dir` keeping the folders added from the library screen.
pub fn library_folders_file(dir: &Path) -> PathBuf {
    dir.join("library.toml")
}

/// The folders added from the library screen, kept in `path`: none when the file is missing;
/// `Err` naming the file when it does not read.
pub fn load_library_folders(path: &Path) -> Result<Vec<PathBuf>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str::<LibrarySettings>(&text)
            .map(|s| s.folders)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Keep `folders` in `path` (atomically; the folder is made if needed).
pub fn save_library_folders(path: &Path, folders: &[PathBuf]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let settings = LibrarySettings {
        folders: folders.to_vec(),
    };
    let text = toml::to_string(&settings).map_err(|e| e.to_string())?;
    super::atomic::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}
