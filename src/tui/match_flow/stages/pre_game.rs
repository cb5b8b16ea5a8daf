//! A game set up and waiting for its clock: the ballot position, both clocks full, who has
//! which colour; Enter starts the clock of the side to move.

use super::game::{Shown, render_game};
use super::{Step, View};
use crate::director::Command;
use crate::tui::keys::{Binding, ENTER, Key, help, lookup};
use crate::tui::widgets::menu::KeyHelp;
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

/// The stage before a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreGameStage;

/// What the key before a game does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// Start the clock.
    Start,
}

/// The keys before a game.
pub(crate) static KEYS: &[Binding<Act>] = &[Binding::new(
    &[ENTER, Key::Char('s')],
    Act::Start,
    "start the clock of the side to move",
)
.footer("start the clock")];

impl PreGameStage {
    /// The help lines.
    pub fn help(&self) -> Vec<KeyHelp> {
        help(KEYS)
    }

    /// Handle a key; `None` when it is not one of the stage's.
    pub fn key(&self, key: &KeyEvent) -> Option<Step> {
        match lookup(KEYS, key)? {
            Act::Start => Some(Step::Command(Command::StartGame)),
        }
    }

    /// Draw the stage.
    pub fn render(&self, frame: &mut Frame, area: Rect, v: &View) {
        render_game(frame, area, v, Shown::Pre);
    }
}
