//! The hall as the desk sees it: what the desk's files of each board (kept by `crossboard
//! serve`: the copy of its match file, its last refusal) say, and the re-sync of a board whose
//! copy diverged.

use super::DeskScreen;
use super::ask::Ask;
use crate::event::{Board, Round};
use crate::publish::hall::{floor_text, hall_text, refusal_text};
use crate::publish::sentences::resync_text;
use crate::store::BoardHall;
use std::path::PathBuf;

/// The screen width from which a board's row says the hall in words, with the push's time.
pub(super) const WIDE: usize = 100;

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

    /// What the desk's files say of board `b` of round `round` (`g` games a board): joined or
    /// not, where its match stands, both clocks, its last push and the last push refused.
    /// `None`: the event takes no pushes (no boards' folder yet).
    pub(super) fn board_hall(&self, round: u32, b: &Board, g: u32) -> Option<BoardHall> {
        let db = self.desk.as_ref()?.path();
        let event = &self.open.as_ref()?.event.info.name;
        crate::store::board_hall(db, event, self.division + 1, round, b, g)
    }

    /// The hall's column of the rows of round `r` (`g` games a board), each with its leading
    /// space (in words when `width` allows), and under the table a line for each board whose
    /// last push was refused: which line, when, why (cut to `width` with its marker).
    pub(super) fn hall_column(
        &self,
        r: &Round,
        g: u32,
        width: usize,
    ) -> (Vec<String>, Vec<String>) {
        let wide = width >= WIDE;
        let now = std::time::SystemTime::now();
        let mut column = Vec::new();
        let mut refusals = Vec::new();
        for b in &r.boards {
            let hall = self.board_hall(r.number, b, g);
            let floor = self.open.as_ref().and_then(|open| {
                let d = open.event.divisions.get(self.division)?;
                floor_text(d, b, wide)
            });
            column.push(match (&hall, floor) {
                (Some(h), _) => format!(" {}", hall_text(h, wide, now)),
                (None, Some(floor)) => format!(" {floor}"),
                (None, None) if b.match_file.is_some() => " crossboard".into(),
                (None, None) => String::new(),
            });
            if let Some(refusal) = hall.and_then(|h| h.refusal) {
                let hint = if refusal.status == 409 {
                    " (R re-syncs it)"
                } else {
                    ""
                };
                let said = format!("  board {}{hint} {}", b.number, refusal_text(&refusal));
                refusals.push(super::layout::clip(&said, width));
            }
        }
        (column, refusals)
    }
}
