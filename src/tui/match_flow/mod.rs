//! The match flow screens: set-up form, colour choice, ballot draw,
//! accept/reject, the game under clocks, between games and the end with the score table, and the
//! director menu. Built on the framework of [`crate::tui`]; see its module doc for how to add a
//! screen.
//!
//! - [`setup`]: [`MatchSetupScreen`], every [`MatchSettings`] choice validated as you type.
//! - [`screen`]: [`MatchScreen`], one screen showing one [`stages::Stage`] at a time, with its
//!   popups; every command goes through it.
//! - [`stages`]: the stages, one file each with its update and render (toss, ballot draw,
//!   accept/reject, pre-game, game, game over); [`results`] draws from the match alone.
//! - [`log_view`]: the event log in words.
//! - [`session`]: [`MatchSession`](session::MatchSession), the match, its save target and its
//!   time base; every command goes through it and is saved at once.
//! - [`director_menu`]: the guarded director menu and its forms.
//! - [`results`]: the score table by game and by ballot.
//! - [`join`]: a board's laptop joining the round at the desk, from the home screen or the
//!   command line.
//! - [`persist`]: where the match file and the PDN export are written.
//! - [`network`]: serving a match live and reporting it to the desk, through a [`Network`]
//!   the command line gives.
//!
//! The TUI only turns input into director commands and draws the director's state: rules,
//! clocks and scoring stay in [`crate::director`].

pub(super) mod director_menu;
pub(super) mod join;
pub(super) mod log_view;
pub(super) mod network;
pub mod persist;
pub(super) mod results;
pub(super) mod results_chart;
pub mod resume;
pub(super) mod screen;
pub(super) mod session;
pub(super) mod setup;
pub(super) mod stages;
pub mod words;

use crate::director::MatchSettings;
use chrono::{DateTime, Utc};
use std::path::PathBuf;

pub use join::{JoinScreen, open_board};
pub use network::{Link, NetOptions, Network, Reporting, Serving, check_desk_url, check_token};
pub(super) use resume::ResumeScreen;
pub use screen::MatchScreen;
pub(super) use setup::MatchSetupScreen;
pub use stages::StageKind;

/// Start-up options of the match screens.
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    /// Defaults of the set-up form (built-in, or the config file's).
    pub defaults: MatchSettings,
    /// `--match FILE`: the new match is saved there.
    pub file: Option<PathBuf>,
    /// `file` is damaged and the director chose to start over: a new match moves it aside
    /// (kept as `NAME.damaged-DATE`) instead of refusing to overwrite it.
    pub start_over: bool,
    /// Where new matches are saved (the data directory); `None` with no `file`: not saved.
    pub dir: Option<PathBuf>,
    /// A fixed wall-clock time for the start of a match (tests); `None`: the real time.
    pub fixed_wall: Option<DateTime<Utc>>,
    /// Serving a match live and reporting it to the desk.
    pub net: NetOptions,
    /// Where the set-up form keeps the last match's settings (`None`: not kept).
    pub last_settings: Option<PathBuf>,
    /// The set-up form fills in the last match's players too.
    pub remember_names: bool,
    /// The config file's presets, by name, in the order listed.
    pub presets: Vec<(String, MatchSettings)>,
    /// The config file's Hub engines, by name (the engines screen, practice, analysis).
    pub engines: Vec<(String, crate::store::HubEngineConfig)>,
}

impl MatchOptions {
    /// The wall-clock time now (or the fixed one).
    pub fn wall(&self) -> DateTime<Utc> {
        self.fixed_wall.unwrap_or_else(Utc::now)
    }
}

/// Open the TUI on `screen` (a resumed match) instead of the home screen, and run until the
/// user quits (see [`crate::tui::run_from`]).
pub fn run_on(
    options: crate::tui::Options,
    screen: crate::tui::Screen,
) -> Result<(), crate::tui::TuiError> {
    crate::tui::run_from(options, Some(screen))
}

/// What became of the open match after a stop signal, from the screens left (the top first):
/// "the match is saved in FILE", "the match is NOT SAVED: why"; `None` with no match open.
pub fn stop_note<'a>(screens: impl IntoIterator<Item = &'a crate::tui::Screen>) -> Option<String> {
    screens.into_iter().find_map(|s| match s {
        crate::tui::Screen::Match(m) => m.session.exit_note(),
        _ => None,
    })
}
