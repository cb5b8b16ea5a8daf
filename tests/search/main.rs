//! The search tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod analyse;
mod analysis;
mod cli;
mod cli_variants;
#[path = "../common/mod.rs"]
mod common;
mod egdb;
mod egdb_damage;
mod egdb_full;
mod egdb_small;
mod egdb_store;
mod hub_analysis;
mod hub_cli;
mod limits;
mod multipv;
mod properties;
mod sprt;
mod strength;
mod tactics;
mod variants;
mod worker;
