//! The event tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod accelerated;
mod after_round;
mod attach;
mod bbp;
mod board_match;
mod bye;
mod cli;
mod cli_entry;
#[path = "../common/mod.rs"]
mod common;
mod concurrent;
mod desk_cli;
mod federation;
mod fide;
mod floor;
mod foreign;
mod import;
mod open_swiss;
mod pairing;
mod prizes;
mod prizes_published;
mod sheets;
mod standings;
mod store;
