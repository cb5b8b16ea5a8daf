//! The openings tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod atlas;
mod book;
mod cli;
mod draw;
mod eleven_man;
mod systems;
