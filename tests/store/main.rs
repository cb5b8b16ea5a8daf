//! The store tests, one binary: each module was once a test binary of its own.

mod atomic;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod config;
#[path = "../director_support/mod.rs"]
mod director_support;
mod export;
mod matches;
mod pdn;
mod pdn_variants;
mod props;
