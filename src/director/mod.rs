//! The match director: a pure state machine for a whole match, its clocks and its scoring.
//!
//! - [`settings`]: what the director sets up ([`MatchSettings`] and its parts), validated.
//! - [`clock`]: time controls and the two-sided clock (integer ms, charged at commit).
//! - [`state`]: the [`Match`] itself, driven by [`Command`]s through [`Match::apply`], with an
//!   append-only event log.
//!
//! Nothing here reads the time, rolls dice or touches a file: time comes in as [`Now`] and
//! randomness as an `rng` argument, and what the rng decided is recorded in the log.

pub mod clock;
pub mod settings;
pub mod state;

pub use clock::{
    Clock, ClockError, ClockReading, ClockState, Delay, DelayKind, Flag, FlagKind, MoveClock,
    PerMoveLimit, Period, SideReading, TimeControl, TimeControlError, format_ms,
};
pub use settings::{
    ColourMethod, GamePoints, MatchSettings, Player, Points, RejectionPolicy, Scoring,
    SettingsError, TieRule,
};
pub use state::{
    Awaiting, BallotRecord, BallotScore, CoinSide, Command, Decided, EndReason, Entry, Event,
    GameRecord, GameResult, GameScore, Hand, Match, MatchError, MatchOutcome, MoveRecord, Now,
    Phase, RejectedBallot, ScoreTable, Wdl,
};
