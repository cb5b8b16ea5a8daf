//! The server tests, one binary: a real server on 127.0.0.1 (port 0) over a real event
//! database and real match files, read with a small HTTP client as a spectator would.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking
#![allow(clippy::too_many_lines, clippy::cognitive_complexity)] // a scenario reads top to bottom

mod browser;
#[path = "../common/mod.rs"]
mod common;
mod delay;
mod desk;
mod director;
mod floor;
mod hall;
mod hold;
mod hostile;
mod join;
mod live;
mod load;
mod match_live;
#[cfg(target_os = "linux")]
mod netns;
mod pages;
mod refusals;
mod rehearsal;
mod screens;
mod site;
mod views;
