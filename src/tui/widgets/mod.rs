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
pub use move_list::{MoveEntry, MoveListView};
