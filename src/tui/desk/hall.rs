//! The hall as the desk sees it: the re-sync of a board whose copy of its match file (kept by
//! `crossboard serve`) diverged.

use super::DeskScreen;
use super::ask::Ask;
use crate::publish::sentences::resync_text;
use std::path::PathBuf;

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
    /// The status, `width` wide, keeps the end of the path when it is cut.
    pub(super) fn resync(&mut self, round: u32, board: u32, text: &str, width: usize) {
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
        self.status = crate::tui::widgets::wrap_fit(&said, width, 1)
            .into_iter()
            .next()
            .unwrap_or_default();
    }
}
