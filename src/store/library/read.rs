//! Reading the library's sources: which files there are, each file's games as index entries
//! (their fields, opening name and position keys).

use super::{LibrarySources, SourceKind};
use crate::engine::{Color, Position, Rules};
use crate::openings::{System, all_ref, eleven_man_positions, three_move_flags};
use crate::store::pdn::{PdnGame, decode, read_pdn};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Folders below a named folder that are searched, at most (a link loop cannot make it run
/// for ever; the Open Checkers Archive is three deep).
const MAX_DEPTH: usize = 16;

/// One game read for the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub red: String,
    pub white: String,
    pub event: String,
    pub date: String,
    pub opening: String,
    pub result: &'static str,
    pub plies: u32,
    /// Its number in the file, from 1.
    pub number: u32,
    /// The keys of the distinct positions it passed through, ascending.
    pub keys: Vec<u64>,
}

/// A source file read for the index: its games, and those skipped with the first reason.
#[derive(Clone, Debug, Default)]
pub(super) struct FileGames {
    pub entries: Vec<Entry>,
    pub skipped: u32,
    pub first_skip: Option<String>,
}

/// Every source file of `sources`, with its kind, in a stable order (duplicates once).
pub(super) fn source_files(sources: &LibrarySources) -> Vec<(PathBuf, SourceKind)> {
    let mut out = Vec::new();
    if let Some(dir) = &sources.match_dir
        && let Ok(paths) = crate::store::matchfile::match_paths(dir)
    {
        out.extend(paths.into_iter().map(|p| (p, SourceKind::Match)));
    }
    if let Some(p) = &sources.practice_games
        && p.is_file()
    {
        out.push((p.clone(), SourceKind::Pdn));
    }
    for dir in &sources.folders {
        pdn_files(dir, 0, &mut out);
    }
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The `*.pdn` files under `dir` (case-insensitive extension), hidden entries and links to
/// folders skipped.
fn pdn_files(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, SourceKind)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if hidden {
            continue;
        }
        if kind.is_dir() && depth < MAX_DEPTH {
            pdn_files(&path, depth + 1, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
            && path.is_file()
        {
            out.push((path, SourceKind::Pdn));
        }
    }
}

/// The games of a source file as PDN, each or why it does not read.
pub(super) fn source_games(
    path: &Path,
    kind: SourceKind,
) -> Result<Vec<Result<PdnGame, String>>, String> {
    let shown = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    match kind {
        SourceKind::Match => {
            let file = crate::store::load_match(path).map_err(|e| shown(&e))?;
            Ok(crate::store::match_to_pdn(&file.the_match)
                .into_iter()
                .map(Ok)
                .collect())
        }
        SourceKind::Pdn => {
            let bytes = std::fs::read(path).map_err(|e| shown(&e))?;
            Ok(read_pdn(&decode(&bytes))
                .into_iter()
                .map(|g| g.map_err(|e| e.to_string()))
                .collect())
        }
    }
}

/// A source file's games as index entries; a game that does not read is counted, not kept.
pub(super) fn file_games(path: &Path, kind: SourceKind) -> FileGames {
    let mut out = FileGames::default();
    let games = match source_games(path, kind) {
        Ok(g) => g,
        Err(e) => {
            out.skipped = 1;
            out.first_skip = Some(e);
            return out;
        }
    };
    for (i, g) in games.into_iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        match g.and_then(|g| entry(&g, number)) {
            Ok(e) => out.entries.push(e),
            Err(why) => {
                out.skipped = out.skipped.saturating_add(1);
                out.first_skip.get_or_insert(why);
            }
        }
    }
    out
}

/// The index entry of game `number`.
fn entry(g: &PdnGame, number: u32) -> Result<Entry, String> {
    let game = g.replay().map_err(|e| format!("game {number}: {e}"))?;
    let positions = game.positions();
    let mut keys: Vec<u64> = positions.iter().map(position_key).collect();
    keys.sort_unstable();
    keys.dedup();
    let tag = |name: &str| {
        let v = g.tag(name).unwrap_or("").trim();
        if v == "?" {
            String::new()
        } else {
            v.to_string()
        }
    };
    Ok(Entry {
        red: tag("Black"),
        white: tag("White"),
        event: tag("Event"),
        date: tag("Date"),
        opening: opening_name(positions).unwrap_or_else(|| {
            let o = tag("Opening");
            if o.is_empty() { tag("Ballot") } else { o }
        }),
        result: g.result.as_str(),
        plies: u32::try_from(g.moves.len()).unwrap_or(u32::MAX),
        number,
        keys,
    })
}

/// A 64-bit key of a position (its pieces, kings, side to move and rules), the same on every
/// machine and build: what the library's search by position looks up.
pub fn position_key(p: &Position) -> u64 {
    let men = u64::from(p.pieces(Color::Red)) | (u64::from(p.pieces(Color::White)) << 32);
    let turn = u64::from(p.turn() == Color::White);
    let rules = match p.rules() {
        Rules::English => 0,
        Rules::Pool => 1,
        Rules::Huffing => 2,
        Rules::Losing => 3,
    };
    let rest = u64::from(p.kings()) | (turn << 32) | (rules << 33);
    mix(mix(men) ^ rest)
}

/// SplitMix64's finaliser: every bit of the input moves every bit of the output.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The opening or ballot a game's first positions are, where the tables know it: a 3-move
/// opening (three moves from the start, or a game set up from its position), an 11-man
/// position (set up with or without its two moves). `None` for any other start.
pub fn opening_name(positions: &[Position]) -> Option<String> {
    let named = named_positions();
    positions.iter().take(4).find_map(|p| named.get(p).cloned())
}

/// The positions the openings tables name, with their names.
fn named_positions() -> &'static HashMap<Position, String> {
    static NAMED: OnceLock<HashMap<Position, String>> = OnceLock::new();
    NAMED.get_or_init(|| {
        let mut map = HashMap::new();
        for o in all_ref(System::ThreeMove) {
            let name = three_move_flags(o.number)
                .and_then(|f| f.common_name.clone())
                .unwrap_or_else(|| o.moves_text());
            map.entry(o.position)
                .or_insert_with(|| format!("3-move {}: {name}", o.number));
        }
        for p in eleven_man_positions() {
            map.entry(p.position)
                .or_insert_with(|| format!("11-man {}: {}", p.id, p.public_name));
        }
        map
    })
}
