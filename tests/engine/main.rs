//! The engine tests, one binary: each module was once a test binary of its own.

mod perft;
mod props;
#[path = "../reference_movegen/mod.rs"]
mod reference_movegen;
mod variants;
