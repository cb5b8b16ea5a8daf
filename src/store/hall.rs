//! The hall as the desk's files tell it, for the director: each reporting board's state read
//! from the desk's copy of its match file (joined or not, game and move, both clocks as the
//! copy last recorded them, its result pending or recorded, when it last pushed), and the last
//! push the desk refused from it. One home for both the desk screen and serve's director page.
//!
//! The refusal is kept by `crossboard serve` in `NAME.refused.json` beside the board's copy
//! (written atomically, the boards' folder checked first to be no link): when, the HTTP
//! status, the reason in words and the line it is about. It is no part of the event (the
//! event's log stays the one truth of results): a note for the director, removed when the
//! board next pushes successfully or is re-synced.

use super::tokens::copy_path;
use crate::director::{Match, Phase};
use crate::event::{Board, BoardResult};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A push the desk refused from a board, as kept beside the desk's copy of its match file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRefusal {
    /// When.
    pub at: chrono::DateTime<chrono::Utc>,
    /// The HTTP status answered (401, 409, 413, 422, ...).
    pub status: u16,
    /// Why, in words, as the board was told.
    pub reason: String,
    /// The line of the board's file it is about (from 1), when one is.
    pub line: Option<usize>,
}

/// Where the desk keeps the last refusal of board `at` (division, round, board, each from 1)
/// of `event`: `NAME.refused.json` beside the board's copy.
pub fn refusal_path(db: &Path, event: &str, at: (usize, u32, u32)) -> PathBuf {
    copy_path(db, event, at.0, at.1, at.2).with_extension("refused.json")
}

/// Keep `refusal` as board `at`'s last (atomically, in place of the one before). The boards'
/// folder is made when missing; the caller checks it is no link.
pub fn keep_refusal(
    db: &Path,
    event: &str,
    at: (usize, u32, u32),
    refusal: &BoardRefusal,
) -> std::io::Result<()> {
    let path = refusal_path(db, event, at);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string_pretty(refusal).map_err(std::io::Error::other)?;
    super::atomic::write_atomic(&path, text.as_bytes())
}

/// Forget board `at`'s last refusal (it pushed successfully, or was re-synced).
pub fn clear_refusal(db: &Path, event: &str, at: (usize, u32, u32)) -> std::io::Result<()> {
    match std::fs::remove_file(refusal_path(db, event, at)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Board `at`'s last refusal, if the desk keeps one (a file that does not read is said so).
pub fn board_refusal(db: &Path, event: &str, at: (usize, u32, u32)) -> Option<BoardRefusal> {
    let path = refusal_path(db, event, at);
    let bytes = std::fs::read(&path).ok()?;
    Some(serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        let modified = std::fs::metadata(&path).and_then(|m| m.modified());
        BoardRefusal {
            at: modified.map_or_else(|_| chrono::Utc::now(), Into::into),
            status: 0,
            reason: format!("{} does not read: {e}", path.display()),
            line: None,
        }
    }))
}

/// Where a board's match stands by the desk's copy of its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stand {
    /// The board has not pushed yet.
    NotJoined,
    /// The copy does not read (the reason is on the board's page and in `crossboard serve`).
    Unreadable,
    /// Joined: the set-up, no game started.
    Joined,
    /// Game `game` (from 1) at move `mv` (0: none yet).
    Playing {
        /// The game, from 1.
        game: usize,
        /// The full move, from 1 (0: none yet).
        mv: usize,
    },
    /// The board has finished games the desk has not recorded; the game and move it is at.
    Pending {
        /// The game, from 1.
        game: usize,
        /// The full move.
        mv: usize,
    },
    /// The match is over on the board and its result is recorded.
    Recorded,
}

/// A board of the round as the desk's files tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardHall {
    /// Where its match stands.
    pub stand: Stand,
    /// When it last pushed lines (the copy's modification time); `None`: never.
    pub pushed: Option<SystemTime>,
    /// Red's and White's time left, ms, at the last record of the game in play (`None`: no
    /// game in play, or no game clock).
    pub clocks: Option<[i64; 2]>,
    /// The last push the desk refused, since the board last pushed successfully.
    pub refusal: Option<BoardRefusal>,
}

/// Board `b` of round `round` of division `d` (from 1) of `event`, each board playing `g`
/// games, as the desk's files beside `db` tell it. `None` when the event takes no pushes (no
/// boards' folder yet: `crossboard serve` has not been given a board's push).
pub fn board_hall(
    db: &Path,
    event: &str,
    d: usize,
    round: u32,
    b: &Board,
    g: u32,
) -> Option<BoardHall> {
    let at = (d, round, b.number);
    let copy = copy_path(db, event, d, round, b.number);
    if !copy.parent().is_some_and(Path::is_dir) {
        return None;
    }
    let refusal = board_refusal(db, event, at);
    let Ok(meta) = std::fs::metadata(&copy) else {
        return Some(BoardHall {
            stand: Stand::NotJoined,
            pushed: None,
            clocks: None,
            refusal,
        });
    };
    let (done, complete) = recorded(b, g);
    let (stand, clocks) = match super::load_match(&copy) {
        Ok(f) => (
            stand_of(&f.the_match, done, complete),
            clocks_of(&f.the_match),
        ),
        Err(_) => (Stand::Unreadable, None),
    };
    Some(BoardHall {
        stand,
        pushed: meta.modified().ok(),
        clocks,
        refusal,
    })
}

/// Where the match `m` stands, the desk having recorded `recorded` games of the board
/// (`complete`: all of them).
fn stand_of(m: &Match, recorded: usize, complete: bool) -> Stand {
    let Some(last) = m.games().last() else {
        return Stand::Joined;
    };
    let game = m.games().count();
    let plies = last.moves.len();
    // Full moves: the one Red's move opens counts from the first.
    let mv =
        (plies + usize::from(last.game.start().turn() == crate::engine::Color::White)).div_ceil(2);
    let over = m.games().filter(|g| g.result.is_some()).count();
    if over > recorded && !complete {
        Stand::Pending { game, mv }
    } else if m.phase() == Phase::Finished {
        Stand::Recorded
    } else {
        Stand::Playing { game, mv }
    }
}

/// Red's and White's time left at the last record of the game `m` is playing (none once the
/// last game is over).
fn clocks_of(m: &Match) -> Option<[i64; 2]> {
    let game = m.games().last().filter(|g| g.result.is_none())?;
    let reading = game.clock.reading(0);
    Some([reading.red.remaining_ms?, reading.white.remaining_ms?])
}

/// The games the desk has recorded for `b`, and whether its result is complete (`g` games).
fn recorded(b: &Board, g: u32) -> (usize, bool) {
    let n = match &b.result {
        Some(BoardResult::Games { games }) => games.len(),
        Some(BoardResult::Forfeit { .. }) => g as usize,
        None => 0,
    };
    (n, b.is_complete(g))
}
