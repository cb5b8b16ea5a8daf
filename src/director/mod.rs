//! The match director: a pure state machine for a whole match, its clocks and its scoring.
//!
//! - [`settings`]: what the director sets up ([`MatchSettings`] and its parts), validated.
//! - [`clock`]: time controls and the two-sided clock (integer ms, charged at commit).
//! - [`time_control_text`]: time-control text in one place: the typed form (`30/60`, `20+5`, ...),
//!   the words and the PGN form.
//! - [`state`]: the [`Match`] itself, driven by [`Command`]s through [`Match::apply`], with an
//!   append-only event log.
//!
//! Nothing here reads the time, rolls dice or touches a file: time comes in as [`Now`] and
//! randomness as an `rng` argument, and what the rng decided is recorded in the log.
//!
//! ```
//! use crossboard::director::{Awaiting, Command, Match, MatchSettings, Now, Player};
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
//! m.apply(Command::PlayMove { colour, mv }, at(31_000), &mut rng).unwrap();
//! let record = &m.playing().unwrap().moves[0];
//! assert_eq!(record.spent_ms, 30_000);
//! // Save with serde (the store writes TOML after every event); read back, then resume.
//! let text = toml::to_string(&m).unwrap();
//! let mut back: Match = toml::from_str(&text).unwrap();
//! back.resume(at(0)); // a new process: clocks held at the last saved state, paused
//! assert_eq!(back.awaiting(), Awaiting::Resume);
//! ```

pub mod clock;
pub mod settings;
pub mod state;
pub mod time_control_text;

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
pub use time_control_text::TimeControlTextError;
