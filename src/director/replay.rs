//! Rebuilding a match from its log, every record checked: [`Match::from_log`].
//!
//! Each group of records is read as the command its first record says was given (with what
//! the rng decided and the time the clock had counted taken from the record), that command is
//! decided again in the state the earlier records give, and the group must be exactly the
//! events it gives. So a log cannot hold two stories: an illegal move, a draw whose cards do
//! not give the opening recorded, a clock reading that is not what the clock would read, a
//! result the rules do not give, a phase pointing nowhere, is refused with the record's index
//! and the reason. A last group cut short (a crash between two records of one command) is
//! dropped, and said so.

use super::clock::FlagKind;
use super::command::{Command, Hand};
use super::event::{EndReason, GameResult, LogEntry, MatchEvent};
use super::settings::{MatchSettings, SettingsError};
use super::state::{Match, MatchError, Now, Phase, Roll};
use crate::engine::{Color, Outcome};
use crate::openings::{self, OpeningError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// A match rebuilt from its log.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The match as the log says.
    pub the_match: Match,
    /// Records of an incomplete last group, not applied (0 for a whole log).
    pub dropped: usize,
}

/// Why a log cannot be read back: the record (0-based index in the log) and the reason.
#[derive(Debug, Error)]
#[error("{reason}")]
pub struct LogError {
    /// The record refused (0 for the settings and the creation record).
    pub index: usize,
    /// Why.
    pub reason: LogRefusal,
}

/// What is wrong with a log record.
#[derive(Debug, Error)]
pub enum LogRefusal {
    /// The log is empty or does not begin with the creation record.
    #[error("the log does not begin with match-created")]
    NoStart,
    /// The settings are not ones the set-up form accepts.
    #[error("the settings are refused: {0}")]
    Settings(#[from] SettingsError),
    /// A record that only ever follows another (the match finished, a game ended on the
    /// board, ...) where nothing leads to it.
    #[error("{0} does not follow from the records before it")]
    Unprompted(&'static str),
    /// The command the record stands for is refused in the state the earlier records give.
    #[error("{what} is refused here: {why}")]
    Refused {
        /// The record's kind.
        what: &'static str,
        /// Why the command is refused.
        why: MatchError,
    },
    /// A ballot whose recorded cards do not give a draw.
    #[error("the ballot's cards do not replay: {0}")]
    Draw(OpeningError),
    /// The record differs from what the rules give at this point.
    #[error("{0}")]
    Differs(String),
    /// What the rules give here ends earlier: this record has nothing to follow.
    #[error("{0} does not follow: the command before it gives nothing more")]
    Unexpected(&'static str),
}

/// The record kind as written in a file (`move`, `game-ended`, ...).
pub fn event_name(e: &MatchEvent) -> &'static str {
    match e {
        MatchEvent::MatchCreated => "match-created",
        MatchEvent::CoinFlipped { .. } => "coin-flipped",
        MatchEvent::ColourDrawn { .. } => "colour-drawn",
        MatchEvent::HandPicked { .. } => "hand-picked",
        MatchEvent::ColoursSet { .. } => "colours-set",
        MatchEvent::BallotDrawn { .. } => "ballot-drawn",
        MatchEvent::BallotAccepted { .. } => "ballot-accepted",
        MatchEvent::BallotRejected { .. } => "ballot-rejected",
        MatchEvent::BallotDiscarded { .. } => "ballot-discarded",
        MatchEvent::GameStarted { .. } => "game-started",
        MatchEvent::MovePlayed { .. } => "move",
        MatchEvent::DrawOffered { .. } => "draw-offered",
        MatchEvent::Huffed { .. } => "huffed",
        MatchEvent::Compelled => "compelled",
        MatchEvent::StrengthCountAsked { .. } => "strength-count-asked",
        MatchEvent::StrengthCountExtended { .. } => "strength-count-extended",
        MatchEvent::DrawDeclined { .. } => "draw-declined",
        MatchEvent::GameEnded { .. } => "game-ended",
        MatchEvent::ResultAmended { .. } => "result-amended",
        MatchEvent::DecisionUndone { .. } => "decision-undone",
        MatchEvent::MovesTakenBack { .. } => "moves-taken-back",
        MatchEvent::TimeCalled { .. } => "time-called",
        MatchEvent::ClocksPaused { .. } => "clocks-paused",
        MatchEvent::ClocksResumed => "clocks-resumed",
        MatchEvent::TimeAdjusted { .. } => "time-adjusted",
        MatchEvent::ExtraBallot { .. } => "extra-ballot",
        MatchEvent::MatchFinished { .. } => "match-finished",
        MatchEvent::Note { .. } => "note",
        MatchEvent::Reopened => "reopened",
    }
}

/// Milliseconds as a clock reads them, with the milliseconds (`0:59:53.250`).
fn clock_text(ms: Option<i64>) -> String {
    match ms {
        None => "no clock".into(),
        Some(ms) => {
            let s = super::clock::format_ms(ms);
            format!("{s}.{:03}", ms.rem_euclid(1000))
        }
    }
}

/// Why `found` is not `expected`, in words.
fn differs(expected: &MatchEvent, found: &MatchEvent) -> String {
    match (expected, found) {
        (
            MatchEvent::MovePlayed {
                mv: a, left_ms: la, ..
            },
            MatchEvent::MovePlayed {
                mv: b, left_ms: lb, ..
            },
        ) if a == b && la != lb => format!(
            "the clock would read {} after {a}, the record says {}",
            clock_text(*la),
            clock_text(*lb)
        ),
        (MatchEvent::GameEnded { result, .. }, MatchEvent::MovePlayed { mv, spent_ms, .. })
            if matches!(result.reason, EndReason::Time { .. }) =>
        {
            format!("{mv} after {spent_ms} ms is a flag, not a move")
        }
        (MatchEvent::GameEnded { result: a, .. }, MatchEvent::GameEnded { result: b, .. })
            if a != b =>
        {
            format!("the result here is \"{a}\", the record says \"{b}\"")
        }
        (
            MatchEvent::BallotDrawn {
                number: a,
                steps: s,
                ..
            },
            MatchEvent::BallotDrawn { number: b, .. },
        ) if a != b && s.is_empty() => {
            format!("the settings give opening {a} for this ballot, the record says {b}")
        }
        (MatchEvent::BallotDrawn { number: a, .. }, MatchEvent::BallotDrawn { number: b, .. })
            if a != b =>
        {
            format!("the cards recorded give opening {a}, the record says {b}")
        }
        _ if event_name(expected) == event_name(found) => format!(
            "{} does not match what the records before it give ({expected:?})",
            event_name(found)
        ),
        _ => format!(
            "the rules give {} here, the record is {}",
            event_name(expected),
            event_name(found)
        ),
    }
}

/// A record made while a side may be thinking that does not say for how long (see [`MatchEvent`]).
fn lacks_thinking(e: &MatchEvent) -> bool {
    matches!(
        e,
        MatchEvent::Huffed { spent_ms: None, .. }
            | MatchEvent::StrengthCountAsked { spent_ms: None, .. }
            | MatchEvent::StrengthCountExtended { spent_ms: None }
            | MatchEvent::DrawOffered { spent_ms: None, .. }
            | MatchEvent::DrawDeclined { spent_ms: None, .. }
            | MatchEvent::TimeAdjusted { spent_ms: None, .. }
            | MatchEvent::Note { spent_ms: None, .. }
    )
}

fn unprompted(e: &MatchEvent) -> LogRefusal {
    LogRefusal::Unprompted(event_name(e))
}

impl Match {
    /// Rebuild a match from `settings` and its log, checking every record (see the module
    /// documentation). The match is as the log leaves it: a running clock has no stretch
    /// running in this process; call [`Match::reopen`] before continuing it.
    pub fn from_log(settings: MatchSettings, log: &[LogEntry]) -> Result<Replayed, LogError> {
        let at = |index: usize| move |reason: LogRefusal| LogError { index, reason };
        let first = match log.first() {
            Some(e) if e.event == MatchEvent::MatchCreated => e,
            _ => return Err(at(0)(LogRefusal::NoStart)),
        };
        let now = Now {
            mono_ms: 0,
            wall: first.at,
        };
        let mut m = match Match::new(settings, now) {
            Ok(m) => m,
            Err(MatchError::Settings(e)) => return Err(at(0)(LogRefusal::Settings(e))),
            Err(why) => {
                return Err(at(0)(LogRefusal::Refused {
                    what: "match-created",
                    why,
                }));
            }
        };
        let mut i = 1;
        while i < log.len() {
            let record = &log[i];
            if record.event == MatchEvent::Reopened {
                m.evolve(record);
                i += 1;
                continue;
            }
            let (cmd, roll, spent) = m.command_of(&record.event).map_err(at(i))?;
            let what = event_name(&record.event);
            let mut expected = m.rule(cmd, roll, spent).map_err(|why| LogError {
                index: i,
                reason: LogRefusal::Refused { what, why },
            })?;
            if lacks_thinking(&record.event) {
                // An older file's record: read as what the clock had counted (`spent` is).
                if let Some(t) = expected.first_mut().and_then(MatchEvent::thinking_mut) {
                    *t = None;
                }
            }
            if expected.is_empty() {
                return Err(at(i)(LogRefusal::Unexpected(what)));
            }
            if i + expected.len() > log.len()
                && log[i..].iter().zip(&expected).all(|(r, e)| r.event == *e)
            {
                return Ok(Replayed {
                    the_match: m,
                    dropped: log.len() - i,
                });
            }
            for (k, e) in expected.iter().enumerate() {
                let Some(r) = log.get(i + k) else { break };
                if r.event != *e {
                    return Err(at(i + k)(LogRefusal::Differs(differs(e, &r.event))));
                }
            }
            for r in &log[i..i + expected.len()] {
                m.evolve(r);
            }
            i += expected.len();
        }
        Ok(Replayed {
            the_match: m,
            dropped: 0,
        })
    }

    /// The command a group's first record stands for, with what the rng decided and the time
    /// the clock had counted on the move, as the record says.
    fn command_of(&self, e: &MatchEvent) -> Result<(Command, Roll, u64), LogRefusal> {
        match e {
            MatchEvent::CoinFlipped { .. }
            | MatchEvent::ColourDrawn { .. }
            | MatchEvent::HandPicked { .. }
            | MatchEvent::ColoursSet { .. } => self.toss_command(e),
            MatchEvent::BallotDrawn { .. }
            | MatchEvent::BallotAccepted {
                colour: Some(_), ..
            }
            | MatchEvent::BallotRejected { .. }
            | MatchEvent::GameStarted { .. } => self.ballot_command(e),
            MatchEvent::MovePlayed { .. }
            | MatchEvent::DrawOffered { .. }
            | MatchEvent::Huffed { .. }
            | MatchEvent::Compelled
            | MatchEvent::StrengthCountAsked { .. }
            | MatchEvent::StrengthCountExtended { .. }
            | MatchEvent::DrawDeclined { .. }
            | MatchEvent::GameEnded { .. } => self.play_command(e),
            MatchEvent::ResultAmended { .. }
            | MatchEvent::DecisionUndone { .. }
            | MatchEvent::MovesTakenBack { .. }
            | MatchEvent::TimeCalled { .. }
            | MatchEvent::ClocksPaused { .. }
            | MatchEvent::ClocksResumed
            | MatchEvent::TimeAdjusted { .. }
            | MatchEvent::Note { .. } => self.director_command(e),
            MatchEvent::MatchCreated
            | MatchEvent::BallotAccepted { colour: None, .. }
            | MatchEvent::BallotDiscarded { .. }
            | MatchEvent::ExtraBallot { .. }
            | MatchEvent::MatchFinished { .. }
            | MatchEvent::Reopened => Err(unprompted(e)),
        }
    }

    /// [`Match::command_of`] a record of the colour toss: the coin called, a colour drawn from
    /// the bag, a hand picked, the colours chosen or assigned.
    fn toss_command(&self, e: &MatchEvent) -> Result<(Command, Roll, u64), LogRefusal> {
        let plain = |c: Command| Ok((c, Roll::None, counted(self)));
        match e {
            MatchEvent::CoinFlipped {
                caller,
                call,
                landed,
                ..
            } => Ok((
                Command::CallCoin {
                    caller: *caller,
                    call: *call,
                },
                Roll::Coin(*landed),
                0,
            )),
            MatchEvent::ColourDrawn { player, colour } => Ok((
                Command::DrawColour { player: *player },
                Roll::Colour(*colour),
                0,
            )),
            MatchEvent::HandPicked {
                player,
                hand,
                colour,
            } => {
                let red: Hand = if *colour == Color::Red {
                    *hand
                } else {
                    hand.other()
                };
                Ok((
                    Command::PickHand {
                        player: *player,
                        hand: *hand,
                    },
                    Roll::RedHand(red),
                    0,
                ))
            }
            MatchEvent::ColoursSet {
                red,
                by_director: true,
            } => plain(Command::AssignColour {
                player: *red,
                colour: Color::Red,
            }),
            MatchEvent::ColoursSet {
                red,
                by_director: false,
            } => {
                let player = match self.phase() {
                    Phase::ColourChoice { chooser: Some(p) } => p,
                    _ => *red,
                };
                let colour = if player == *red {
                    Color::Red
                } else {
                    Color::White
                };
                plain(Command::ChooseColour { player, colour })
            }
            _ => Err(unprompted(e)),
        }
    }

    /// [`Match::command_of`] a record of a ballot: drawn (the draw replayed from its steps, or
    /// the ballot given), accepted or rejected, its game started.
    fn ballot_command(&self, e: &MatchEvent) -> Result<(Command, Roll, u64), LogRefusal> {
        let plain = |c: Command| Ok((c, Roll::None, counted(self)));
        match e {
            MatchEvent::BallotDrawn { steps, .. } => {
                let Phase::Draw { ballot } = self.phase() else {
                    return Err(unprompted(e));
                };
                if let Some(given) = self.given_draw(ballot) {
                    return Ok((Command::DrawBallot, Roll::Draw(given), 0));
                }
                let draw = openings::replay(&self.draw_settings(), &self.drawn_openings(), steps)
                    .map_err(LogRefusal::Draw)?;
                Ok((Command::DrawBallot, Roll::Draw(draw), 0))
            }
            MatchEvent::BallotAccepted {
                colour: Some(colour),
                ..
            } => plain(Command::Accept { colour: *colour }),
            MatchEvent::BallotRejected { colour, .. } => plain(Command::Reject { colour: *colour }),
            MatchEvent::GameStarted { .. } => plain(Command::StartGame),
            _ => Err(unprompted(e)),
        }
    }

    /// [`Match::command_of`] a record of the players during a game: a move, a draw offered or
    /// declined, a huff or a compelled capture, the strength count, the game's end.
    fn play_command(&self, e: &MatchEvent) -> Result<(Command, Roll, u64), LogRefusal> {
        let turn = to_move(self);
        let thinking = |c: Command, spent: &Option<u64>| thinking(self, c, *spent);
        match e {
            MatchEvent::MovePlayed { mv, spent_ms, .. } => Ok((
                Command::PlayMove {
                    colour: turn,
                    mv: *mv,
                },
                Roll::None,
                *spent_ms,
            )),
            MatchEvent::DrawOffered { colour, spent_ms } => {
                thinking(Command::OfferDraw { colour: *colour }, spent_ms)
            }
            MatchEvent::Huffed { square, spent_ms } => thinking(
                Command::Huff {
                    colour: turn,
                    square: *square,
                },
                spent_ms,
            ),
            MatchEvent::Compelled => {
                Ok((Command::Compel { colour: turn }, Roll::None, counted(self)))
            }
            MatchEvent::StrengthCountAsked { colour, spent_ms } => {
                thinking(Command::AskStrengthCount { colour: *colour }, spent_ms)
            }
            MatchEvent::StrengthCountExtended { spent_ms } => {
                thinking(Command::ExtendStrengthCount, spent_ms)
            }
            MatchEvent::DrawDeclined { colour, spent_ms } => {
                thinking(Command::DeclineDraw { colour: *colour }, spent_ms)
            }
            MatchEvent::GameEnded {
                result, spent_ms, ..
            } => Ok((self.ending_command(e, result)?, Roll::None, *spent_ms)),
            _ => Err(unprompted(e)),
        }
    }

    /// [`Match::command_of`] a record of the director: a result amended or a decision undone,
    /// moves taken back, time called, the clocks paused, resumed or adjusted, a note.
    fn director_command(&self, e: &MatchEvent) -> Result<(Command, Roll, u64), LogRefusal> {
        let plain = |c: Command| Ok((c, Roll::None, counted(self)));
        match e {
            MatchEvent::ResultAmended { result, .. } => {
                if !result.reason.is_director_decision() {
                    return Err(unprompted(e));
                }
                plain(self.ending_command(e, result)?)
            }
            MatchEvent::DecisionUndone { reason, .. } => plain(Command::UndoDecision {
                reason: reason.clone(),
            }),
            MatchEvent::MovesTakenBack { moves, reason, .. } => plain(Command::TakeBack {
                moves: u32::try_from(moves.len()).unwrap_or(u32::MAX),
                reason: reason.clone(),
            }),
            MatchEvent::TimeCalled { spent_ms, .. } => Ok((Command::Tick, Roll::None, *spent_ms)),
            MatchEvent::ClocksPaused { reason, spent_ms } => Ok((
                Command::PauseClocks {
                    reason: reason.clone(),
                },
                Roll::None,
                *spent_ms,
            )),
            MatchEvent::ClocksResumed => plain(Command::ResumeClocks),
            MatchEvent::TimeAdjusted {
                colour,
                delta_ms,
                reason,
                spent_ms,
                ..
            } => thinking(
                self,
                Command::AdjustTime {
                    colour: *colour,
                    delta_ms: *delta_ms,
                    reason: reason.clone(),
                },
                *spent_ms,
            ),
            MatchEvent::Note { text, spent_ms } => {
                thinking(self, Command::Note { text: text.clone() }, *spent_ms)
            }
            _ => Err(unprompted(e)),
        }
    }

    /// The command that gives a game `result` (a resignation, a claim, a flag, a decision).
    fn ending_command(&self, e: &MatchEvent, result: &GameResult) -> Result<Command, LogRefusal> {
        let loser = match result.outcome {
            Outcome::Win(w) => Some(w.opponent()),
            Outcome::Draw => None,
        };
        let turn = to_move(self);
        Ok(match (&result.reason, loser) {
            (EndReason::Resigned, Some(colour)) => Command::Resign { colour },
            (EndReason::Agreed, None) => Command::AcceptDraw {
                colour: self.draw_offer().map_or(Color::Red, Color::opponent),
            },
            (
                EndReason::Repetition
                | EndReason::FortyMoves
                | EndReason::ThirteenCount
                | EndReason::StrengthRule,
                None,
            ) => Command::ClaimDraw { colour: turn },
            (
                EndReason::Time {
                    flag: FlagKind::GameTime | FlagKind::MoveTime,
                },
                Some(_),
            ) => Command::Tick,
            (EndReason::Forfeit { note }, Some(loser)) => Command::Forfeit {
                loser,
                reason: note.clone(),
            },
            (EndReason::Adjudicated { note }, _) => Command::Adjudicate {
                outcome: result.outcome,
                reason: note.clone(),
            },
            _ => return Err(unprompted(e)),
        })
    }
}

/// The time the clock of the game in play has counted on the move (0 out of a game).
fn counted(m: &Match) -> u64 {
    m.playing().map_or(0, |g| g.clock.counted_ms())
}

/// The side to move in the game in play (Red out of a game).
fn to_move(m: &Match) -> Color {
    m.playing().map_or(Color::Red, |g| g.game.position().turn())
}

/// A command given while a side may be thinking, with its record's time on the move, or (an
/// older file's record without it) what the clock had counted.
fn thinking(m: &Match, c: Command, spent: Option<u64>) -> Result<(Command, Roll, u64), LogRefusal> {
    Ok((c, Roll::None, spent.unwrap_or_else(|| counted(m))))
}

/// How a match is written with serde: its settings and its log (everything else follows).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct Stored {
    settings: MatchSettings,
    log: Vec<LogEntry>,
}

impl Serialize for Match {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "kebab-case")]
        struct View<'a> {
            settings: &'a MatchSettings,
            log: &'a [LogEntry],
        }
        View {
            settings: self.settings(),
            log: self.log(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Match {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Match, D::Error> {
        let stored = Stored::deserialize(d)?;
        let replayed = Match::from_log(stored.settings, &stored.log).map_err(|e| {
            serde::de::Error::custom(format_args!("log record {}: {e}", e.index + 1))
        })?;
        if replayed.dropped > 0 {
            return Err(serde::de::Error::custom(
                "the log's last command is incomplete",
            ));
        }
        Ok(replayed.the_match)
    }
}
