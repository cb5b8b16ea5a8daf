//! The hall as the desk sees it: what the desk's copy of each board's match file (kept by
//! `crossboard serve`) says, and the re-sync of a board whose copy diverged.

use super::DeskScreen;
use super::ask::Ask;
use crate::director::{Match, Phase};
use crate::event::{Board, BoardResult};
use crate::publish::sentences::resync_text;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The screen width from which a board's row says the hall in words, with the push's time.
const WIDE: usize = 100;

/// Where a board's match stands by the desk's copy of its file.
#[derive(Debug, PartialEq, Eq)]
enum Stand {
    /// The copy does not read (the reason is on the board's page and in `crossboard serve`).
    Unreadable,
    /// Joined: the set-up, no game started.
    Joined,
    /// Game `game` (from 1) at move `mv` (0: none yet).
    Playing { game: usize, mv: usize },
    /// The board has finished games the desk has not recorded.
    Pending { game: usize, mv: usize },
    /// The match is over on the board and its result is recorded.
    Recorded,
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

/// The games the desk has recorded for `b`, and whether its result is complete (`g` games).
fn recorded(b: &Board, g: u32) -> (usize, bool) {
    let n = match &b.result {
        Some(BoardResult::Games { games }) => games.len(),
        Some(BoardResult::Forfeit { .. }) => g as usize,
        None => 0,
    };
    (n, b.is_complete(g))
}

/// `secs` as a short age: `40s`, `12m`, `3h05`.
fn age_text(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        _ => format!("{}h{:02}", secs / 3600, secs / 60 % 60),
    }
}

/// The stand in a few characters (`wide`: in words).
fn stand_text(stand: &Stand, wide: bool) -> String {
    match (stand, wide) {
        (Stand::Unreadable, false) => "unreadable".into(),
        (Stand::Unreadable, true) => "copy unreadable".into(),
        (Stand::Joined, _) => "joined".into(),
        (Stand::Playing { game, mv }, false) => format!("g{game} m{mv}"),
        (Stand::Playing { game, mv }, true) => format!("game {game} move {mv}"),
        (Stand::Pending { .. }, false) => "pending".into(),
        (Stand::Pending { game, mv }, true) => format!("game {game} move {mv}, result pending"),
        (Stand::Recorded, false) => "recorded".into(),
        (Stand::Recorded, true) => "over, result recorded".into(),
    }
}

impl DeskScreen {
    /// The desk's copy of board `board` of round `round` of the division shown (`None`: no
    /// desk or no event open). The copy may not exist.
    pub(super) fn copy_of(&self, round: u32, board: u32) -> Option<PathBuf> {
        let db = self.desk.as_ref()?.path();
        let event = &self.open.as_ref()?.event.info.name;
        Some(crate::store::copy_path(
            db,
            event,
            self.division + 1,
            round,
            board,
        ))
    }

    /// The key: asks to re-sync the selected board, naming it, when the desk has its copy.
    pub(super) fn ask_resync(&mut self) {
        let Some((round, board)) = self.selected_board() else {
            self.status = "pair a round first (p)".into();
            return;
        };
        match self.copy_of(round, board) {
            Some(copy) if copy.is_file() => {
                self.ask = Some((Ask::Resync { round, board }, String::new()))
            }
            _ => self.status = resync_text(round, board, None),
        }
    }

    /// The answer `text` to the re-sync of board `board` of round `round`: on `y`, the desk's
    /// copy is renamed aside (its bytes kept) and the board pushes its file from the start.
    pub(super) fn resync(&mut self, round: u32, board: u32, text: &str) {
        if !matches!(text.to_ascii_lowercase().as_str(), "y" | "yes") {
            self.status = format!("round {round} board {board}: nothing changed");
            return;
        }
        let (Some(desk), Some(open)) = (&self.desk, &self.open) else {
            return;
        };
        let at = (self.division + 1, round, board);
        let said = match crate::store::archive_copy(
            desk.path(),
            &open.event.info.name,
            at,
            chrono::Utc::now(),
        ) {
            Ok(aside) => resync_text(round, board, aside.as_deref()),
            Err(e) => format!("round {round} board {board}: {e}"),
        };
        self.status = said;
    }

    /// What the hall says of board `b` of round `round` (`g` games a board), read from the
    /// desk's copy of its match file: joined or not, where its match stands (game and move,
    /// result pending or recorded) and how long ago it last pushed (with the time when
    /// `width` allows). `None`: the event takes no pushes (no boards' folder yet).
    pub(super) fn hall_text(&self, round: u32, b: &Board, g: u32, width: usize) -> Option<String> {
        let copy = self.copy_of(round, b.number)?;
        let Ok(meta) = std::fs::metadata(&copy) else {
            return copy
                .parent()
                .is_some_and(Path::is_dir)
                .then(|| "not joined".into());
        };
        let pushed = meta.modified().ok()?;
        let (done, complete) = recorded(b, g);
        let stand = match crate::store::load_match(&copy) {
            Ok(f) => stand_of(&f.the_match, done, complete),
            Err(_) => Stand::Unreadable,
        };
        let wide = width >= WIDE;
        let age = SystemTime::now()
            .duration_since(pushed)
            .map_or(0, |d| d.as_secs());
        let age = age_text(age);
        let stand = stand_text(&stand, wide);
        Some(if wide {
            let at = chrono::DateTime::<chrono::Local>::from(pushed).format("%H:%M:%S");
            format!("{stand}, pushed {at} ({age} ago)")
        } else {
            format!("{stand} {age} ago")
        })
    }
}
