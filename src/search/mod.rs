//! The built-in engine: alpha-beta search, evaluation, playing levels, a worker thread for the
//! UI, game and ballot analysis, and engine-versus-engine games.
//!
//! Pure like the rules engine: no terminal, no files. Time enters only as a deadline the caller
//! computes ([`Limits::deadline`]); randomness only through an injected RNG.
//!
//! - [`Engine`]: the search itself ([`Engine::search`], [`Engine::score_moves`]).
//! - [`Level`] and [`choose_move`]: deliberately imperfect to full-strength play.
//! - [`choose_huff`]: the engine's answer to a neglected capture in a huffing game.
//! - [`Searcher`]: the engine on a worker thread (hints, practice moves, reviews).
//! - [`analysis`]: post-game review and opening-position verdicts.
//! - [`selfplay`]: engine-versus-engine games (engine match, strength checks).

pub mod alphabeta;
pub mod analysis;
pub mod bench;
pub mod eval;
pub mod hub;
pub mod huff;
pub mod level;
mod probe;
pub mod prove;
pub mod score;
pub mod selfplay;
pub mod time;
mod tt;
pub mod worker;
pub mod zobrist;

pub use alphabeta::{
    Engine, Limits, MAX_DEPTH, MAX_THREADS, Options, SearchInfo, SearchResult, pv_text,
};
pub use huff::{HuffChoice, choose_huff};
pub use level::{Level, choose_move};
pub use score::Score;
pub use time::Budget;
pub use worker::{Report, Request, Searcher, Task};
