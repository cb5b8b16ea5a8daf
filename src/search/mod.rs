//! The built-in engine: alpha-beta search, evaluation, playing levels, a worker thread for the
//! UI, game and ballot analysis, and engine-versus-engine games.
//!
//! Pure like the rules engine: no terminal, no files. Time enters only as a deadline the caller
//! computes ([`Limits::deadline`]); randomness only through an injected RNG.

pub mod alphabeta;
pub mod eval;
pub mod score;
mod tt;
pub mod zobrist;

pub use alphabeta::{Engine, Limits, MAX_DEPTH, Options, SearchInfo, SearchResult};
pub use score::Score;
pub mod bench;
pub mod level;
pub mod worker;

pub use level::{Level, choose_move};
pub use worker::{Report, Request, Searcher, Task};
pub mod analysis;
pub mod selfplay;
