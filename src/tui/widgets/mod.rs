//! Widgets shared by every screen: the board, the clock panel, the move list, the whole game
//! screen, menus, form fields, confirmations and the help overlay.

pub mod board;
pub mod clock_panel;
pub mod form;
pub mod game_screen;
pub mod menu;
pub mod move_list;

pub use board::{BoardGeometry, BoardView};
pub use clock_panel::{ClockFace, ClockPanelView, format_clock};
pub use form::{Confirm, ConfirmOutcome, TextField, render_popup};
pub use game_screen::{GameLayout, GameScreenView, StatusKind, centered};
pub use menu::{Menu, render_help, render_too_small};
pub use move_list::{MoveEntry, MoveListView, plies_and_moves};

/// Split `text` into lines of at most `width` characters, at spaces where possible.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let wl = word.chars().count();
        let ll = line.chars().count();
        if ll > 0 && ll + 1 + wl > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            let tail: String = line.chars().skip(width).collect();
            out.push(head);
            line = tail;
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}
