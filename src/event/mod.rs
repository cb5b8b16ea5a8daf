//! The tournament desk's logic: a whole event of many players, pure (no database, no terminal;
//! time and randomness come in from outside).
//!
//! - [`settings`]: the event's heading and each division's format, games, scoring, tie-breaks.
//! - [`player`]: a player as the registry keeps them and an entry copies them.
//! - [`state`]: the [`Tournament`] derived from its log of [`Action`]s ([`Tournament::apply`],
//!   [`Tournament::replay`]); a refused action changes nothing.
//! - [`pair`](mod@pair): the next round's pairing (Berger tables in [`berger`](mod@berger), the
//!   Dutch-system Swiss in [`swiss`] over the blossom [`matching`], accelerated by
//!   [`acceleration`]), director overrides.
//! - [`ballot`]: the round's ballots, drawn with the openings module.
//! - [`round_points`], [`standings`](mod@standings), [`tiebreak`]: points, standings and
//!   tie-breaks.
//! - [`explain`]: why each board was paired as it was.
//! - [`import`]: an entry list (CSV) read into a division's entries, with its report.
//! - [`rating`]: a rating preview by the ACF's published formula.
//! - [`prizes`]: the prize list and who wins what.
//! - [`board_match`]: a board played on crossboard (its match settings, its results read back).

mod acceleration;
mod ballot;
mod berger;
mod board_match;
mod board_setup;
mod explain;
mod import;
mod matching;
mod pair;
mod player;
mod prizes;
mod rating;
mod round_points;
mod settings;
mod standings;
mod state;
mod swiss;
mod tiebreak;

pub use acceleration::virtual_points;
pub use ballot::{ballot_for, draw_ballots};
pub use berger::{berger, berger_round};
pub use board_match::BoardMatchError;
pub use board_match::{board_result, match_settings};
pub use board_setup::{SetupMismatch, check_board_setup};
pub use explain::{Avoided, Method, Note};
pub use import::{EntryList, Finding, ListedPlayer, parse_delimiter, read_entry_list};
pub use pair::swiss_input;
pub use pair::{
    Repeat, by_hand, pairing_order, propose, repeats, swap, swap_repeats, with_reason_note,
};
pub use player::{PlayerId, PlayerInfo};
pub use prizes::{
    Award, Contender, Eligible, Money, Prize, PrizeError, PrizeList, Prizes, TieShare, award,
    prize_awards, prize_list,
};
pub use rating::{
    HISTORY_GAMES, RatingChange, WINDOW_BY_GAME, WINDOW_BY_ROUND, rating_preview, window_size,
};
pub use round_points::records;
pub use round_points::{RoundKind, RoundRecord};
pub use settings::MAX_TEXT;
pub use settings::{
    Acceleration, BallotMode, DivisionSettings, EventInfo, EventScoring, Format, ScoreUnit,
};
pub use standings::{Standing, Table, TieValue, standings};
pub use state::{
    Action, Board, BoardGameResult, BoardResult, Division, DivisionId, EventError, Floor,
    FloorState, Pairing, Round, Tournament,
};
pub use swiss::{Float, SwissInput, SwissPlayer, pair};
pub use tiebreak::parse_list;
pub use tiebreak::{Preset, TieBreak};
