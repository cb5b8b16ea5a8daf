//! A board played on crossboard from the desk: its match opened or started, and its games
//! read back as the board's result when the match screen closes.

use super::DeskScreen;
use crate::event::{Action, BoardResult};
use crate::event::{board_result, match_settings};
use crate::publish::sentences::result_text;
use crate::tui::match_flow::resume::reopen;
use crate::tui::match_flow::{MatchOptions, MatchScreen};
use crate::tui::screens::{Ctx, Nav, Screen};
use std::path::PathBuf;

impl DeskScreen {
    /// Play the selected board on crossboard: a new match with the division's settings (the
    /// board's first player has Red in game 1), saved in the desk's `matches` folder and
    /// linked to the board; a board already linked resumes its match.
    pub(super) fn play(&mut self, ctx: &mut Ctx) -> Nav {
        let (Some(open), Some((round, number))) = (&self.open, self.selected_board()) else {
            self.status = "pair a round first (p)".into();
            return Nav::Stay;
        };
        let d = &open.event.divisions[self.division];
        let Some(board) = d.rounds.last().and_then(|r| r.boards.get(self.board)) else {
            return Nav::Stay;
        };
        if board.is_complete(d.settings.games_per_round) {
            self.status = format!("board {number} is complete (Backspace takes a game back)");
            return Nav::Stay;
        }
        let screen = match &board.match_file {
            Some(file) => {
                let path = PathBuf::from(file);
                reopen(&path, ctx.matches, ctx.now, true).map(|s| (s, path, None))
            }
            None => self
                .new_board_match(ctx, round, board)
                .map(|(s, path, link)| (Screen::Match(Box::new(s)), path, link)),
        };
        match screen {
            Ok((screen, path, link)) => {
                if let Some(action) = link {
                    self.record(
                        vec![action],
                        format!("round {round} board {number} on crossboard"),
                    );
                }
                self.playing = Some((self.division, round, number, path));
                Nav::Push(Box::new(screen))
            }
            Err(e) => {
                self.status = e;
                Nav::Stay
            }
        }
    }

    /// A new match for `board` of round `round`, its file and the action linking it.
    pub(super) fn new_board_match(
        &self,
        ctx: &mut Ctx,
        round: u32,
        board: &crate::event::Board,
    ) -> Result<(MatchScreen, PathBuf, Option<Action>), String> {
        let open = self.open.as_ref().ok_or("no event open")?;
        let d = &open.event.divisions[self.division];
        let settings = match_settings(
            &ctx.matches.defaults,
            &open.event.info.name,
            d,
            round,
            board,
        )
        .map_err(|e| e.to_string())?;
        let path = self.matches_dir().join(format!(
            "{}-r{round}-b{}.{}",
            self.stem(),
            board.number,
            crate::store::EXTENSION
        ));
        let options = MatchOptions {
            file: Some(path.clone()),
            dir: None,
            ..ctx.matches.clone()
        };
        let mut screen = MatchScreen::start_for_board(settings, &options, ctx.now, ctx.rng)?;
        screen.back_to_caller = true;
        let link = Action::LinkMatch {
            division: self.division,
            round,
            board: board.number,
            file: path.display().to_string(),
        };
        Ok((screen, path, Some(link)))
    }

    /// Where the matches of boards played on crossboard are saved: `matches` beside the
    /// desk's `exports` folder.
    pub(super) fn matches_dir(&self) -> PathBuf {
        self.exports
            .parent()
            .map_or_else(|| PathBuf::from("matches"), |p| p.join("matches"))
    }

    /// The match of the board played on crossboard has closed: record its finished games as
    /// the board's result (the match file stays the record of the moves).
    pub(super) fn read_back_match(&mut self) {
        let Some((division, round, number, path)) = self.playing.take() else {
            return;
        };
        let m = match crate::store::load_match(&path) {
            Ok(f) => f.the_match,
            Err(e) => {
                self.status = format!("round {round} board {number}: {e}");
                return;
            }
        };
        let Some(open) = &self.open else { return };
        let Some((d, b)) = open.event.divisions.get(division).and_then(|d| {
            let b = d.round(round)?.boards.iter().find(|b| b.number == number)?;
            Some((d, b))
        }) else {
            return;
        };
        let games = match board_result(&m, d, round, b) {
            Ok(g) => g,
            Err(e) => {
                self.status = format!("round {round} board {number}: {e}");
                return;
            }
        };
        let entered = match &b.result {
            Some(BoardResult::Games { games }) => games.clone(),
            _ => Vec::new(),
        };
        if games.is_empty() || games == entered {
            self.status =
                format!("round {round} board {number}: no new game finished on crossboard");
            return;
        }
        let result = BoardResult::Games { games };
        let text = format!(
            "round {round} board {number} from crossboard: {}",
            result_text(Some(&result))
        );
        self.record(
            vec![Action::Result {
                division,
                round,
                board: number,
                result,
            }],
            text,
        );
    }
}
