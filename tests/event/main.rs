//! The event tests, one binary: each module was once a test binary of its own.

mod bbp;
mod board_match;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod pairing;
mod standings;
mod store;
