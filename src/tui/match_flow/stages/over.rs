//! The game that just ended, as it ended: the final position, both clocks (the fallen flag at
//! 0), the result; Enter shows the results and the score.

use super::game::{Shown, render_game};
use super::{Stage, Step, View};
use crate::tui::keys::{Binding, ENTER, SPACE, help, lookup};
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

/// The stage after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverStage;

/// What the key after a game does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// On to the results.
    Results,
}

/// The keys after a game (the screen's own add export and the director).
pub(crate) static KEYS: &[Binding<Act>] =
    &[Binding::new(&[ENTER, SPACE], Act::Results, "the results and the score").footer("results")];

impl OverStage {
    /// The help lines.
    pub fn help(&self) -> Vec<KeyHelp> {
        help(KEYS)
    }

    /// Handle a key; `None` when it is not one of the stage's.
    pub fn key(&self, key: &KeyEvent) -> Option<Step> {
        match lookup(KEYS, key)? {
            Act::Results => Some(Step::To(Stage::Results(Default::default()))),
        }
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        match v.m().current_game() {
            Some(g) => render_game(frame, area, v, Shown::Over(g)),
            None => render_game(frame, area, v, Shown::Pre),
        }
    }
}
