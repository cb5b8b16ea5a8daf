//! The match director: a pure state machine for a whole match, its clocks and its scoring.
//!
//! - [`settings`]: what the director sets up ([`MatchSettings`] and its parts), validated.
//! - [`limits`]: the bounds of every setting and text (one validation everywhere).
//! - [`clock`]: time controls and the two-sided clock (integer ms, charged at commit).
//! - [`time_control_text`]: time-control text in one place: the typed form (`30/60`, `20+5`, ...),
//!   the words and the PGN form.
//! - [`command`]: what players and the director ask ([`Command`]).
//! - [`event`]: what happened ([`MatchEvent`], stamped into log [`LogEntry`]s): the one source
//!   of truth.
//! - [`state`]: the [`Match`]: [`Match::decide`] (a command -> its events, pure),
//!   [`Match::evolve`] (fold one entry in), [`Match::apply`] (both).
//! - [`replay`]: [`Match::from_log`], a match rebuilt from its log with every record checked.
//! - [`match_score`]: the score table, derived from the games' results.
//!
//! Nothing here reads the time, rolls dice or touches a file: time comes in as [`Now`] and
//! randomness as an `rng` argument, and what the rng decided is recorded in the log. Nor does
//! anything here build sentences for a screen: states and refusals are typed ([`Awaiting`],
//! [`MatchError`]).
//!
//! ```
//! use crossboard::director::{Awaiting, Command, Match, MatchEvent, MatchSettings, Now, Player};
//! use crossboard::engine::Color;
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let at = |ms: u64| Now { mono_ms: ms, wall: chrono::Utc::now() };
//! let settings = MatchSettings {
//!     players: ["Ann".into(), "Bob".into()],
//!     ..MatchSettings::default() // 11-man, 30 moves per hour, 1/½/0, players may reject
//! };
//! let mut m = Match::new(settings, at(0)).unwrap();
//! let assign = Command::AssignColour { player: Player::First, colour: Color::Red };
//! m.apply(assign, at(0), &mut rng).unwrap();
//! m.apply(Command::DrawBallot, at(0), &mut rng).unwrap();
//! // White (Bob in ballot one's first game) decides first; Red may not.
//! assert!(m.apply(Command::Accept { colour: Color::Red }, at(0), &mut rng).is_err());
//! m.apply(Command::Accept { colour: Color::White }, at(0), &mut rng).unwrap();
//! m.apply(Command::StartGame, at(1_000), &mut rng).unwrap();
//! let Awaiting::Move { colour, .. } = m.awaiting() else { panic!() };
//! let mv = m.playing().unwrap().game.position().distinct_moves()[0];
//! // decide is pure: the events a command gives, nothing changed.
//! let events = m.decide(Command::PlayMove { colour, mv }, at(31_000), &mut rng).unwrap();
//! assert!(matches!(events[0], MatchEvent::MovePlayed { spent_ms: 30_000, .. }));
//! m.apply(Command::PlayMove { colour, mv }, at(31_000), &mut rng).unwrap();
//! assert_eq!(m.playing().unwrap().moves[0].spent_ms, 30_000);
//! // The log is the match: rebuilt from it (every record checked), it is the same match.
//! let mut back = Match::from_log(m.settings().clone(), m.log()).unwrap().the_match;
//! assert_eq!(back, m);
//! back.reopen(at(0)); // a new process: clocks held at what the log counted, paused
//! assert_eq!(back.awaiting(), Awaiting::Resume);
//! ```

mod clock;
mod command;
mod event;
pub mod limits;
mod match_score;
mod replay;
mod settings;
mod state;
mod time_control_text;

pub use clock::{
    Clock, ClockError, ClockReading, ClockState, Delay, DelayKind, Flag, FlagKind, MoveClock,
    PerMoveLimit, Period, SideReading, TimeControl, TimeControlError, format_ms,
};
pub use command::{CoinSide, Command, CommandKind, Hand};
pub use event::{Decided, EndReason, GameResult, LogEntry, MatchEvent, MatchOutcome};
pub use limits::NOTE_MAX_CHARS;
pub use limits::{BALLOTS_MAX, EVENT_MAX_CHARS, NAME_MAX_CHARS, is_unfit};
pub use match_score::{BallotScore, GameScore, ScoreTable, Wdl};
pub use replay::{LogError, LogRefusal, Replayed, event_name};
pub use settings::{
    BallotDraw, ColourMethod, GamePoints, MatchSettings, Player, Points, PoolClock,
    RejectionPolicy, Scoring, SettingsError, StrengthRule, TieRule,
};
pub use state::{
    Awaiting, BallotRecord, GameRecord, Match, MatchError, MoveRecord, Now, Phase, RejectedBallot,
    StrengthCount, StrengthReading, StrengthRefusal, TextKind,
};
pub use time_control_text::TimeControlTextError;
