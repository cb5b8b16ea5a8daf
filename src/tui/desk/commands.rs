//! What the keys of an open event do: results, pairing, the views, and the exports.

use super::ask::Ask;
use super::keys::{Act, page_of};
use super::{DeskScreen, View};
use crate::director::Player;
use crate::event::propose;
use crate::event::{Action, BoardGameResult, BoardResult, EventError};
use crate::publish::sentences::{pdn_note, result_text, unpaired_note};
use crate::publish::{Paper, Published, SheetKind, sheet};
use crate::tui::screens::{Ctx, Nav};
use ratatui::crossterm::event::KeyCode;

impl DeskScreen {
    /// The desk's boards' codes (their key made when the desk has none), if it can keep them.
    pub(super) fn codes(&self) -> Option<crate::store::BoardCodes> {
        crate::store::BoardCodes::of_desk(self.desk.as_ref()?.path()).ok()
    }

    /// The same, if the desk has made their key already (printing the pairings, serving).
    fn codes_made(&self) -> Option<crate::store::BoardCodes> {
        crate::store::BoardCodes::made(self.desk.as_ref()?.path())
    }

    /// The selected board's code, for a director to read aloud, and how its laptop joins:
    /// `board 3's code K7QM-3XF0: crossboard --desk URL --board-code K7QM-3XF0`. `None`: the
    /// event takes no pushes (no boards' folder yet, as the hall's column says) or no code was
    /// made yet (the pairings printed, or serve started, make them).
    pub(super) fn code_line(&self, r: &crate::event::Round) -> Option<String> {
        let open = self.open.as_ref()?;
        let board = r.boards.get(self.board)?.number;
        if !self.copy_of(r.number, board)?.parent()?.is_dir() {
            return None;
        }
        let code =
            self.codes_made()?
                .code(&open.event.info.name, self.division + 1, r.number, board);
        Some(format!(
            "  board {board}'s code {code}: crossboard --desk URL --board-code {code}"
        ))
    }

    pub(super) fn event_update(&mut self, act: Act, key: KeyCode, ctx: &mut Ctx) -> Nav {
        let n = self.boards_len();
        match act {
            Act::Board if matches!(key, KeyCode::Up | KeyCode::Char('k')) => {
                self.board = self.board.saturating_sub(1)
            }
            Act::Board => self.board = (self.board + 1).min(n.saturating_sub(1)),
            Act::NextDivision => {
                let count = self.open.as_ref().map_or(0, |o| o.event.divisions.len());
                if count > 0 {
                    self.division = (self.division + 1) % count;
                    self.board = 0;
                }
            }
            Act::Pair if key != KeyCode::Char('H') => self.pair(ctx),
            Act::Pair => match self.current_division().map(|d| d.round_to_pair()) {
                Some(Ok(_)) => self.ask = Some((Ask::ByHand, String::new())),
                Some(Err(e)) => self.status = e.to_string(),
                None => self.status = "add a division first (d)".into(),
            },
            Act::Game => self.game(Some(match key {
                KeyCode::Char('1') => BoardGameResult::Win {
                    winner: Player::First,
                },
                KeyCode::Char('2') => BoardGameResult::Win {
                    winner: Player::Second,
                },
                _ => BoardGameResult::Draw,
            })),
            Act::Undo => self.game(None),
            Act::Forfeit => self.ask = Some((Ask::Forfeit, String::new())),
            Act::Pairings => self.view = View::Pairings,
            Act::Standings => self.view = View::Standings,
            Act::Crosstable => {
                // Left/Right on another view open the crosstable where it was.
                if self.view == View::Crosstable {
                    self.pan = match key {
                        KeyCode::Left => -1,
                        KeyCode::Right => 1,
                        _ => 0,
                    };
                }
                self.view = View::Crosstable;
            }
            Act::Why => self.view = View::Why,
            Act::AddPlayer if key == KeyCode::Char('I') => self.ask_if_division(Ask::EntryList),
            Act::AddPlayer => self.ask = Some((Ask::Player, String::new())),
            Act::AddDivision => self.ask = Some((Ask::Division, String::new())),
            Act::Swap => self.ask_if_division(Ask::SwapPlayers),
            Act::Withdraw => self.ask_if_division(Ask::WithdrawPlayer),
            Act::Absent if key == KeyCode::Char('B') => self.ask_if_division(Ask::ByeRequest),
            Act::Absent => self.ask_if_division(Ask::Absent),
            Act::BoardRecord if key == KeyCode::Char('R') => self.ask_resync(),
            Act::BoardRecord => {
                if self.selected_board().is_some() {
                    self.ask = Some((Ask::Pdn, String::new()));
                } else {
                    self.status = "pair a round first (p)".into();
                }
            }
            Act::Play => return self.play(ctx),
            Act::Export if key != KeyCode::Char('S') => self.export(),
            Act::Export => match self.current_division().map(|d| d.paired_rounds()) {
                Some(0) | None => self.status = "pair a round first (p)".into(),
                Some(_) => self.ask = Some((Ask::SheetsPaper, String::new())),
            },
            Act::Scroll => self.page = page_of(key),
            // A view (standings, crosstable, why) goes back to the round's pairings first.
            Act::Back if self.view != View::Pairings => self.view = View::Pairings,
            Act::Back => {
                self.open = None;
                self.refresh();
            }
        }
        Nav::Stay
    }

    pub(super) fn game(&mut self, o: Option<BoardGameResult>) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            return;
        };
        let Some(r) = d.rounds.last() else {
            self.status = "pair a round first (p)".into();
            return;
        };
        let Some(b) = r.boards.get(self.board) else {
            return;
        };
        let mut games = match &b.result {
            Some(BoardResult::Games { games }) => games.clone(),
            _ => Vec::new(),
        };
        match o {
            Some(o) => {
                if games.len() as u32 >= d.settings.games_per_round {
                    self.status = format!(
                        "board {} is complete (Backspace takes a game back)",
                        b.number
                    );
                    return;
                }
                games.push(o);
            }
            None => {
                games.pop();
            }
        }
        let (round, board) = (r.number, b.number);
        self.record_result(round, board, BoardResult::Games { games });
    }

    /// Record `result` for `board` of `round` in the current division.
    pub(super) fn record_result(&mut self, round: u32, board: u32, result: BoardResult) {
        let text = format!(
            "round {round} board {board}: {}",
            result_text(Some(&result))
        );
        let action = Action::Result {
            division: self.division,
            round,
            board,
            result,
        };
        self.record(vec![action], text);
    }

    pub(super) fn pair(&mut self, ctx: &mut Ctx) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            self.status = "add a division first (d)".into();
            return;
        };
        if let Err(e) = d.round_to_pair() {
            self.status = e.to_string();
            return;
        }
        match propose(self.division, d) {
            Ok(pair) => self.record_pairing(pair, String::new(), ctx),
            // The engine found no pairing (every pairing repeats a meeting, or no one may have
            // the bye): the director's.
            Err(e @ EventError::Pairing(_)) => {
                self.status = format!("{e}: H pairs it by hand");
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Record the next round's pairing `pair` with its ballots drawn; `note` ends the sentence.
    pub(super) fn record_pairing(&mut self, pair: Action, note: String, ctx: &mut Ctx) {
        let Some(open) = &self.open else { return };
        let mut after = open.event.clone();
        if let Err(e) = after.apply(&pair) {
            self.status = e.to_string();
            return;
        }
        let round = after.divisions[self.division].paired_rounds();
        match crate::event::draw_ballots(
            self.division,
            &after.divisions[self.division],
            round,
            ctx.rng,
        ) {
            Ok(b) => {
                self.record(vec![pair, b], format!("round {round} paired{note}"));
                self.board = 0;
                self.view = View::Pairings;
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    pub(super) fn export(&mut self) {
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            return;
        };
        let p = Published::new(&open.event, d, u32::MAX);
        let pdn = crate::publish::pdn(&open.event, d, None);
        let stem = self.stem();
        // What the files hold first (the path is long): no round yet, games left out.
        let mut notes: Vec<String> = unpaired_note(d).into_iter().collect();
        notes.push(format!("PDN: {}", pdn_note(&pdn)));
        let files = [
            (self.exports.join(format!("{stem}.html")), p.html()),
            (
                self.exports.join(format!("{stem}.txt")),
                p.text_with_prizes(),
            ),
            (self.exports.join(format!("{stem}.pdn")), pdn.text),
        ];
        if !self.write_files(&files) {
            return;
        }
        self.status = format!(
            "{}; wrote {}, .txt, .pdn",
            notes.join("; "),
            files[0].0.display()
        );
    }

    /// The last round's four sheets on the paper typed, in the exports folder:
    /// `STEM-rN-pairings.html`, `-slips`, `-scoresheet`, `-crosstable`.
    pub(super) fn sheets(&mut self, text: &str) {
        let paper: Paper = match text.parse() {
            Ok(p) => p,
            Err(e) => {
                self.status = e;
                self.ask = Some((Ask::SheetsPaper, String::new()));
                return;
            }
        };
        let Some(open) = &self.open else { return };
        let Some(d) = open.event.divisions.get(self.division) else {
            return;
        };
        let round = d.paired_rounds();
        let stem = format!("{}-r{round}", self.stem());
        let codes = self.codes().map_or_else(Default::default, |c| {
            crate::publish::SheetCodes::of_round(&c, &open.event, self.division + 1, round, None)
        });
        let mut files = Vec::new();
        for kind in SheetKind::ALL {
            match sheet(&open.event, d, round, kind, paper, &codes) {
                Ok(html) => files.push((
                    self.exports.join(format!("{stem}-{}.html", kind.name())),
                    html,
                )),
                Err(e) => {
                    self.status = e.to_string();
                    return;
                }
            }
        }
        if self.write_files(&files) {
            self.status = format!(
                "round {round}: wrote {} and the slips, score sheets, crosstable",
                files[0].0.display()
            );
        }
    }

    /// Write `files` into the exports folder, none of them if one would replace one of the
    /// desk's own files; false (the status says why) when one was refused or failed.
    fn write_files(&mut self, files: &[(std::path::PathBuf, String)]) -> bool {
        let _ = std::fs::create_dir_all(&self.exports);
        if let Some(desk) = &self.desk {
            for (path, _) in files {
                if let Err(e) = desk.check_output(path) {
                    self.status = e.to_string();
                    return false;
                }
            }
        }
        for (path, text) in files {
            if let Err(e) = crate::store::write_atomic(path, text.as_bytes()) {
                self.status = format!("cannot write {}: {e}", path.display());
                return false;
            }
        }
        true
    }
}
