//! The rules engine: board geometry, positions, moves, notation, FEN, games and perft.
//!
//! Knows nothing of time, files, randomness or terminals.

pub mod board;
pub mod game;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;

pub use board::{Bitboard, Color, Direction, Square, squares};
pub use game::{DrawClaim, FORTY_MOVE_PLIES, Game, Outcome};
pub use moves::{Move, MoveList, count_moves};
pub use notation::{MoveError, parse_move, parse_squares};
pub use perft::{perft, perft_divide};
pub use position::{FenError, Piece, Position};
pub use rules::Rules;
