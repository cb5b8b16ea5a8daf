//! Drill an 11-man position from the atlas: practice from its position, the player on one side
//! and the master engine on the other. When the game ends (a side without a move, or a draw
//! the rules let a player claim: threefold repetition, the 40-move rule) the result is noted in
//! the player's drill record: held (drawn or won) or lost, with the date.

use super::atlas_record::{DrillEntry, DrillRecord, DrillResult, load_record, save_record};
use super::practice_engine::{Opponent, PracticeEngine};
use super::{Ctx, Nav, PracticeScreen, RenderCtx, ScreenState};
use crate::engine::{Color, Outcome};
use crate::openings::ElevenManPosition;
use crate::search::Level;
use crate::tui::Msg;
use crate::tui::widgets::StatusKind;
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::path::{Path, PathBuf};

/// The level the engine drills at.
pub const DRILL_LEVEL: Level = Level::Master;

/// A drill: practice with the end noted in the record.
#[derive(Clone, Debug)]
pub struct DrillScreen {
    /// The game, on the practice screen.
    pub practice: PracticeScreen,
    /// The position's public id.
    pub id: u32,
    /// The side the player takes.
    pub side: Color,
    /// Where the record is kept (`None`: not kept).
    pub record_file: Option<PathBuf>,
    /// What was noted of this drill, once it ended.
    pub noted: Option<DrillResult>,
}

impl DrillScreen {
    /// Drill position `p` as `side` against the engine.
    pub fn new(p: &ElevenManPosition, side: Color, record_file: Option<PathBuf>) -> DrillScreen {
        let mut practice = PracticeScreen::from_opening(&p.opening());
        practice.engine =
            PracticeEngine::new(Some(Opponent::at_level(DRILL_LEVEL, side.opponent())));
        // The player's side at the bottom.
        practice.flipped = side == Color::Red;
        practice.message = Some((
            format!(
                "drill: hold position {} as {side} against the {DRILL_LEVEL} engine",
                p.id
            ),
            StatusKind::Info,
        ));
        DrillScreen {
            practice,
            id: p.id,
            side,
            record_file,
            noted: None,
        }
    }

    /// How the game on the board ended for the player, if it has.
    fn ended(&self) -> Option<DrillResult> {
        let game = &self.practice.game;
        match game.result() {
            Some(Outcome::Win(c)) if c != self.side => Some(DrillResult::Lost),
            Some(_) => Some(DrillResult::Held),
            None => game.claimable_draw().map(|_| DrillResult::Held),
        }
    }

    /// Note the end of the drill once (not when the board no longer shows the position drilled,
    /// as after drawing another ballot).
    fn note_end(&mut self, ctx: &Ctx) {
        let Some(result) = self.ended() else {
            return;
        };
        if self.noted.is_some() {
            return;
        }
        let Some(p) = crate::openings::eleven_man_position(self.id).ok() else {
            return;
        };
        if *self.practice.game.start() != p.position {
            return;
        }
        self.noted = Some(result);
        let entry = DrillEntry {
            id: self.id,
            side: self.side,
            result,
            date: ctx.matches.wall().format("%Y-%m-%d").to_string(),
        };
        let word = result.word();
        let said = match &self.record_file {
            Some(path) => match note_in_file(path, entry) {
                Ok(()) => (
                    format!("{word} as {}: noted in {}", self.side, path.display()),
                    StatusKind::Info,
                ),
                Err(e) => (format!("{word}, but not noted: {e}"), StatusKind::Error),
            },
            None => (format!("{word} as {}", self.side), StatusKind::Info),
        };
        self.practice.message = Some(said);
    }
}

/// Add `entry` to the record in `path` (read again first: another drill may have written it).
/// A damaged file is left as it is.
pub fn note_in_file(path: &Path, entry: DrillEntry) -> Result<(), String> {
    let mut record: DrillRecord = load_record(path).map_err(|e| e.to_string())?;
    record.note(entry);
    save_record(path, &record).map_err(|e| format!("{}: {e}", path.display()))
}

impl ScreenState for DrillScreen {
    fn update(&mut self, msg: &Msg, ctx: &mut Ctx) -> Nav {
        let nav = self.practice.update(msg, ctx);
        self.note_end(ctx);
        nav
    }

    fn render(&self, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
        self.practice.render(frame, area, ctx);
    }

    fn title(&self) -> String {
        format!("Drill {} as {}", self.id, self.side)
    }

    fn keys(&self) -> Vec<KeyHelp> {
        self.practice.keys()
    }

    fn ticking(&self) -> bool {
        self.practice.ticking()
    }

    fn typing(&self) -> bool {
        self.practice.typing()
    }

    fn confirm_quit(&mut self) -> bool {
        self.practice.confirm_quit()
    }

    fn chain(&self) -> Vec<crate::tui::keys::Erased> {
        self.practice.chain()
    }

    fn uncovered(&mut self) {
        self.practice.uncovered();
    }
}
