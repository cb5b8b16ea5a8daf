//! Windows: what differs there, tested on Linux through the same code, and the Windows build
//! itself run under Wine.
//!
//! - [`keys`]: the key events and console events Windows sends, through the real event loop
//!   (runs everywhere, by default).
//! - [`version`]: `--version` names the commit and the target (the Linux build, by default).
//! - The Windows build (`crossboard.exe`, cross-built with mingw-w64) under Wine: [`cli`]
//!   (perft, openings, PDN with Windows line endings, export), [`desk`] (the tournament desk on
//!   the bundled SQLite), [`hub`] (the Hub protocol over pipes), [`paths`] (`%APPDATA%`,
//!   `%LOCALAPPDATA%`, a folder with spaces and accents), [`interchange`] (a match file
//!   written by one build read by the other), [`console`] (the terminal UI in Wine's console).
//!   These are `#[ignore]`d (the Windows build takes minutes on two cores): `tests/windows/run`
//!   installs Wine and the cross compiler when absent and runs them; CI does. Without Wine
//!   they fail under CI and are skipped elsewhere, saying so.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails by panicking

mod cli;
mod console;
mod desk;
mod hub;
mod interchange;
mod keys;
mod paths;
mod screen;
mod support;
mod version;
