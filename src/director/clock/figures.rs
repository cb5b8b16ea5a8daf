//! What a clock reports: each side's state between moves, flags, the figures recorded with a
//! committed move, the errors of a clock operation, and the readings shown on screen.

use crate::engine::Color;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One side's clock state between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SideClock {
    /// Game time left at the start of this side's current (or next) move, ms.
    pub remaining_ms: i64,
    /// Moves this side has completed in this game.
    pub moves: u32,
    /// Time controls passed (0-based period number; past the list, the last period repeats).
    pub period: u32,
    /// Moves made in the current period.
    pub period_moves: u32,
}

/// Why a flag fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlagKind {
    /// The game time ran out.
    GameTime,
    /// The per-move limit (including its grace) ran out.
    MoveTime,
}

/// A side ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Flag {
    /// Who ran out of time.
    pub color: Color,
    /// Game time or per-move limit.
    pub kind: FlagKind,
    /// Time spent on the move when the flag was decided, ms.
    pub spent_ms: u64,
}

/// The clock figures recorded with each committed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MoveClock {
    /// Time spent on the move (pauses excluded), ms.
    pub spent_ms: u64,
    /// The mover's game time left after the move, increments and new periods included; `None`
    /// without a game clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<i64>,
    /// The period (1-based) the mover is in after the move.
    pub period: u32,
}

/// What committing a move did to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// In time: the figures to record with the move.
    Moved(MoveClock),
    /// Out of time: the move does not count.
    Flag(Flag),
}

/// A clock operation that does not fit the clock's state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    /// The clock has not been started, or has been stopped.
    #[error("the clock is not running")]
    NotRunning,
    /// The clock is already running.
    #[error("the clock is already running")]
    AlreadyStarted,
    /// The clocks are paused.
    #[error("the clocks are paused")]
    Paused,
    /// Resume when not paused.
    #[error("the clocks are not paused")]
    NotPaused,
    /// An adjustment would leave negative time.
    #[error("{color} would have negative time left ({ms} ms)")]
    Negative {
        /// The side.
        color: Color,
        /// The time it would have.
        ms: i64,
    },
    /// An adjustment beyond what a clock can hold.
    #[error("{color} would have more time than a clock holds")]
    TooMuch {
        /// The side.
        color: Color,
    },
    /// An adjustment on a clock without game time.
    #[error("there is no game clock to adjust")]
    NoGameClock,
    /// A take-back of more moves than the clock has seen.
    #[error("cannot take back {asked} moves: only {made} made")]
    TakeBack {
        /// Moves asked for.
        asked: usize,
        /// Moves made.
        made: usize,
    },
    /// A time on the current move shorter than what was already counted (or, while paused,
    /// different from it): time does not run backwards, nor while the clocks are stopped.
    #[error("{spent_ms} ms on the move does not follow the {counted_ms} ms already counted")]
    Backwards {
        /// The time given.
        spent_ms: u64,
        /// The time already counted on the move.
        counted_ms: u64,
    },
}

/// Where a clock is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockState {
    /// Set but not started.
    Ready,
    /// Running (or paused, see [`Clock::is_paused`](super::Clock::is_paused)).
    Running,
    /// Stopped for good: the game is over.
    Stopped,
}

/// One side's figures for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SideReading {
    /// Game time left now, ms, never below zero; `None` without a game clock.
    pub remaining_ms: Option<i64>,
    /// Game time left now without the floor at zero: negative by the overrun of a side whose
    /// flag fell; `None` without a game clock.
    pub balance_ms: Option<i64>,
    /// Moves completed.
    pub moves: u32,
    /// Period (1-based).
    pub period: u32,
    /// Moves still to make before the next time control, if the period has a move count.
    pub moves_to_control: Option<u32>,
    /// Time spent on the current move, if this side is to move.
    pub move_ms: Option<u64>,
    /// Per-move limit left before "Time" is called (negative: into the grace), if any and to
    /// move.
    pub move_limit_left_ms: Option<i64>,
    /// "Time" has been called on this move (per-move limit reached, grace running).
    pub warning: bool,
    /// Out of time (a flag is due, or fell).
    pub expired: bool,
}

/// Both sides' figures at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ClockReading {
    /// Red's figures.
    pub red: SideReading,
    /// White's figures.
    pub white: SideReading,
    /// The side whose clock runs (or would run).
    pub to_move: Color,
    /// Running and not paused.
    pub running: bool,
    /// Paused by the director (or held since the match was read back).
    pub paused: bool,
}

impl ClockReading {
    /// The figures of one side.
    pub fn side(&self, color: Color) -> &SideReading {
        match color {
            Color::Red => &self.red,
            Color::White => &self.white,
        }
    }
}
