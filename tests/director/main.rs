//! The director tests, one binary: each module was once a test binary of its own.

mod clock;
#[path = "../director_support/mod.rs"]
mod director_support;
mod limits;
mod log;
mod matches;
mod props;
mod undo;
mod variants;
