//! The built-in engine: alpha-beta search, evaluation, playing levels, a worker thread for the
//! UI, game and ballot analysis, and engine-versus-engine games.
//!
//! Pure like the rules engine: no terminal, no files. Time enters only as a deadline the caller
//! computes ([`Limits::deadline`]); randomness only through an injected RNG.
//!
//! - [`Engine`]: the search itself ([`Engine::search`], [`Engine::score_moves`], and the
//!   multi-PV [`Engine::analyse`]).
//! - [`Level`] and [`choose_move`]: deliberately imperfect to full-strength play.
//! - [`choose_huff`]: the engine's answer to a neglected capture in a huffing game.
//! - [`Searcher`]: the engine on a worker thread (hints, practice moves, reviews).
//! - [`analysis`]: post-game review and opening-position verdicts.
//! - [`selfplay`]: engine-versus-engine games (engine match, strength checks).
//! - [`sprt`]: a match's statistics: Elo over game pairs and the sequential test that stops it.
//! - [`Book`] and [`Dropout`]: the opening book and its building by dropout expansion.
//! - [`tune`]: the weights of the English evaluation fitted to games (Texel's method).

mod alphabeta;
mod analysis;
mod bench;
mod book;
mod dropout;
mod eval;
mod hub;
mod huff;
mod level;
mod probe;
mod prove;
mod score;
pub mod selfplay;
pub mod sprt;
mod time;
mod tt;
pub mod tune;
mod worker;
mod zobrist;

pub use alphabeta::{
    Engine, Limits, MAX_DEPTH, MAX_HASH_MB, MAX_MOVE_MS, MAX_THREADS, MultiInfo, Options, PvLine,
    SearchInfo, SearchResult, pv_text,
};
pub use analysis::{
    BALLOT_PROOF, DEFAULT_BALLOT_DEPTH, DEFAULT_GAME_DEPTH, Mark, PositionVerdict, analyse_all,
};
pub use analysis::{
    GameLimits, MoveReview, PositionAnalyser, PositionScore, analyse_game, review_moves,
};
pub use bench::{bench_analysis_report, bench_search, bench_search_timed};
pub use book::{BOOK_MARGIN, BOOK_VERSION, Book, BookEntry, BookError};
pub use dropout::{DROPOUT_PLY, Dropout, Scorer};
pub use eval::MAN;
pub use eval::{Evaluation, KING, POOL_KING, evaluate, material};
pub use hub::{
    Line, TimeLimit, move_text, parse_hub_move, parse_position, parse_score, position_text,
    score_text,
};
pub use huff::{HuffChoice, choose_huff};
pub use level::{Level, choose_move};
pub use prove::ProofResult;
pub use prove::Prover;
pub use score::Score;
pub use selfplay::{Choice, DEFAULT_MAX_PLIES, EndReason, MoveLimit, Player};
pub use time::{Budget, Deadlines};
pub use worker::{Report, Request, Searcher, Task, moves_between};
