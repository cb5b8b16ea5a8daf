//! The tournament desk's logic: a whole event of many players, pure (no database, no terminal;
//! time and randomness come in from outside).
//!
//! - [`settings`]: the event's heading and each division's format, games, scoring, tie-breaks.
//! - [`player`]: a player as the registry keeps them and an entry copies them.
//! - [`state`]: the [`Tournament`] derived from its log of [`Action`]s ([`Tournament::apply`],
//!   [`Event::replay`]); a refused action changes nothing.
//! - [`pair`]: the next round's pairing (Berger tables in [`berger`], the Dutch-system Swiss in
//!   [`swiss`] over the blossom [`matching`]), director overrides.
//! - [`ballot`]: the round's ballots, drawn with the openings module.
//! - [`score`], [`standings`], [`tiebreak`]: points, standings and tie-breaks.
//! - [`explain`]: why each board was paired as it was.
//! - [`board_match`]: a board played on crossboard (its match settings, its results read back).

pub mod ballot;
pub mod berger;
pub mod board_match;
pub mod explain;
pub mod matching;
pub mod pair;
pub mod player;
pub mod round_points;
pub mod settings;
pub mod standings;
pub mod state;
pub mod swiss;
pub mod tiebreak;

pub use player::{PlayerId, PlayerInfo};
pub use settings::{BallotMode, DivisionSettings, EventInfo, EventScoring, Format, ScoreUnit};
pub use state::{
    Action, Board, BoardGameResult, BoardResult, Division, DivisionId, EventError, Pairing, Round,
    Tournament,
};
pub use tiebreak::{Preset, TieBreak};
