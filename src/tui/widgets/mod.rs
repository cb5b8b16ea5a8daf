//! Widgets shared by every screen: the board, the clock panel, the move list, the whole game
//! screen, menus and the help overlay.

pub mod board;
pub mod clock_panel;
pub mod game_screen;
pub mod menu;
pub mod move_list;

pub use board::{BoardGeometry, BoardView};
pub use clock_panel::{ClockFace, ClockPanelView, format_clock};
pub use game_screen::{GameLayout, GameScreenView, StatusKind, centered};
pub use menu::{Menu, render_help, render_too_small};
pub use move_list::{MoveEntry, MoveListView};
