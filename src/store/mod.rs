//! Storage: PDN reading and writing, atomic saves, the config file, the match file and the
//! endgame database files.
//!
//! This layer knows about files and text formats; the layers below it (engine, openings,
//! director) stay pure.

pub mod atomic;
pub mod bench;
pub mod config;
pub mod egdb;
pub mod event_bench;
pub mod eventdb;
pub mod export;
pub mod matchfile;
pub mod matchlog;
pub mod pdn;
pub mod practice;
