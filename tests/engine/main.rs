//! The engine tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod fen;
mod perft;
mod props;
#[path = "../reference_movegen/mod.rs"]
mod reference_movegen;
mod variants;
