//! The search tests, one binary: each module was once a test binary of its own.

mod analysis;
mod cli;
mod cli_variants;
mod egdb;
mod egdb_full;
mod egdb_small;
mod egdb_store;
mod hub_cli;
mod properties;
mod strength;
mod tactics;
mod variants;
mod worker;
