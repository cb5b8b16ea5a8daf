//! The openings tests, one binary: each module was once a test binary of its own.

mod cli;
mod draw;
mod eleven_man;
mod systems;
