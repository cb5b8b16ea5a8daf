//! The rules engine: board geometry, positions, moves, notation, FEN, games and perft, for
//! English draughts (the default), American pool checkers, English with huffing and the losing
//! game ([`Rules`]).
//!
//! Knows nothing of time, files, randomness or terminals.

mod board;
mod game;
mod moves;
mod notation;
mod perft;
mod pool;
mod position;
mod rules;
mod short_moves;

pub use board::{Bitboard, Color, Direction, LONG_DIAGONAL, Square, squares};
pub(crate) use board::{
    free_run, step, step_back, step_down_left, step_down_right, step_up_left, step_up_right,
};
pub use game::{
    DrawClaim, FORTY_MOVE_PLIES, Game, HuffChance, HuffError, LoneKingCount, Outcome, Prelude,
    THIRTEEN_COUNT,
};
#[cfg(test)]
pub(crate) use moves::has_capture;
pub use moves::{Move, MoveList, count_moves};
pub(crate) use moves::{generate, generate_with_jumpers, has_any_move, jumpers, short_jumpers};
pub use notation::{MoveError, parse_move, parse_squares};
pub use perft::{PERFT_MAX_DEPTH, perft, perft_divide};
pub use position::{FenError, PIECES_A_SIDE, Piece, Position};
pub use rules::Rules;
