//! crossboard: a terminal match manager for American checkers (English draughts).
//!
//! Layers, each knowing only those below it:
//! - [`engine`]: the rules (positions, moves, notation, FEN, games, perft).
//! - [`openings`]: the opening systems (GAYP, 2-move, 3-move, 11-Man Ballot, Roll Your Own) and drawing.
//! - [`director`]: the match state machine, clocks and scoring (pure: time and randomness come in).
//! - [`egdb`]: endgame databases (indexing, retrograde solving, verification, probing; pure).
//! - [`event`]: the tournament desk: divisions, Swiss and round-robin pairing, standings (pure).
//! - [`search`]: the built-in engine (alpha-beta, levels, analysis).
//! - [`hub`]: other engines, programs that speak the Hub protocol, run as child processes.
//! - [`store`]: files: PDN, atomic saves, the config file, the match file.
//! - [`tui`]: the terminal UI (screens, widgets, event loop, terminal guard).
//! - [`serve`]: the event and its boards on the network (beside the terminal UI).
//! - [`cli`]: the command line; `main.rs` only calls [`cli::main`].

#![warn(unreachable_pub)]

pub mod cli;
pub mod director;
pub mod egdb;
pub mod engine;
pub mod event;
pub mod hub;
pub mod openings;
pub mod publish;
pub mod search;
pub mod serve;
pub mod store;
pub mod tui;

#[cfg(test)]
mod layers;
