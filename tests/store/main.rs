//! The store tests, one binary: each module was once a test binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod atomic;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod config;
mod diagram;
#[path = "../director_support/mod.rs"]
mod director_support;
mod export;
mod library;
mod match_sheets;
mod matches;
mod pdn;
mod pdn_variants;
mod props;
mod stdout;

use common::cli::{crossboard, crossboard_ok};

/// The path of `tests/fixtures/NAME`.
fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}
