//! The rules engine: board geometry, positions, moves, notation, FEN, games and perft, for
//! English draughts (the default), American pool checkers, English with huffing and the losing
//! game ([`Rules`]).
//!
//! Knows nothing of time, files, randomness or terminals.

pub mod board;
pub mod game;
pub mod moves;
pub mod notation;
pub mod perft;
mod pool;
pub mod position;
pub mod rules;
mod short_moves;

pub use board::{Bitboard, Color, Direction, LONG_DIAGONAL, Square, squares};
pub use game::{
    DrawClaim, FORTY_MOVE_PLIES, Game, HuffChance, HuffError, LoneKingCount, Outcome, Prelude,
    THIRTEEN_COUNT,
};
pub use moves::{Move, MoveList, count_moves};
pub use notation::{MoveError, parse_move, parse_squares};
pub use perft::{perft, perft_divide};
pub use position::{FenError, Piece, Position};
pub use rules::Rules;
