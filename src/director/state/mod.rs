//! The match state machine: [`Match`], as decide + evolve over its event log.
//!
//! Flow: colour choice (once) -> for each ballot: draw -> accept/reject (White first) -> game 1
//! -> game 2 (colours reversed) -> ... -> finished (with tie-break ballots if the tie rule says
//! so).
//!
//! - [`Match::decide`] answers a [`Command`] with the [`MatchEvent`]s it gives, or a
//!   [`MatchError`]; it changes nothing. Time comes in as [`Now`], randomness as an `rng`
//!   argument; what the rng decided (coin side, colour, hand, cards) is in the events.
//! - [`Match::evolve`] folds one stamped event ([`LogEntry`]) into the match; it cannot fail.
//! - [`Match::apply`] is the two: a refused command leaves no trace, with nothing to roll back.
//!
//! Rooms: `records.rs` (what a match keeps), `decide.rs` (commands checked and answered),
//! `in_game.rs` (the commands of a game in play), `evolve.rs` (events folded in).
//!
//! The log is the one source of truth: [`Match::from_log`](super::replay) rebuilds a match from
//! it, checking every record.

mod decide;
mod evolve;
mod in_game;
mod records;
#[cfg(test)]
mod tests;

use decide::*;
pub use records::*;

use crate::director::clock::{ClockReading, Flag};
use crate::director::command::{Command, CommandKind};
use crate::director::event::{GameResult, LogEntry, MatchEvent, MatchOutcome};
use crate::director::match_score::{self, ScoreTable};
use crate::director::settings::{MatchSettings, Player, RejectionPolicy};
use crate::engine::{Color, DrawClaim};
use crate::openings::{self, Draw, DrawSettings, Opening};
use chrono::{DateTime, Utc};

/// A whole match: settings, phase, ballots with their games and clocks, and the event log
/// they are all derived from.
///
/// Two matches are equal when their logs say the same: the monotonic instants a running
/// process keeps for its clocks are not compared (see [`Clock`](crate::director::Clock)). With
/// serde, a match is written as its settings and its log, and read back by replaying the log
/// with every record checked ([`Match::from_log`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    settings: MatchSettings,
    phase: Phase,
    /// Red in game one of ballot one, once colours are chosen.
    red_first: Option<Player>,
    /// The ballot drawn and awaiting decisions.
    pending: Option<Draw>,
    ballots: Vec<BallotRecord>,
    rejected: Vec<RejectedBallot>,
    draw_offer: Option<Color>,
    outcome: Option<MatchOutcome>,
    log: Vec<LogEntry>,
}

impl Match {
    /// A new match in the colour-choice phase. Fails if the settings do not validate.
    pub fn new(settings: MatchSettings, now: Now) -> Result<Match, MatchError> {
        settings.validate()?;
        let mut m = Match {
            settings,
            phase: Phase::ColourChoice { chooser: None },
            red_first: None,
            pending: None,
            ballots: Vec::new(),
            rejected: Vec::new(),
            draw_offer: None,
            outcome: None,
            log: Vec::new(),
        };
        m.evolve(&LogEntry {
            at: stamp(now.wall),
            event: MatchEvent::MatchCreated,
        });
        Ok(m)
    }

    /// Apply a command at `now`, with `rng` for coin, bag, hands and ballot draws: decide,
    /// then evolve with each event. Returns the new log entries; on error nothing has changed.
    pub fn apply<R: rand::Rng + ?Sized>(
        &mut self,
        cmd: Command,
        now: Now,
        rng: &mut R,
    ) -> Result<Vec<LogEntry>, MatchError> {
        let events = self.decide(cmd, now, rng)?;
        let at = self.next_stamp(now.wall);
        let start = self.log.len();
        for event in events {
            self.evolve_at(&LogEntry { at, event }, Some(now.mono_ms));
        }
        Ok(self.log[start..].to_vec())
    }

    /// The events `cmd` gives at `now` (rolling `rng` for coin, bag, hands and ballot draws),
    /// or why it is refused. Changes nothing.
    pub fn decide<R: rand::Rng + ?Sized>(
        &self,
        cmd: Command,
        now: Now,
        rng: &mut R,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let roll = self.roll(&cmd, rng)?;
        let spent = self.playing().map_or(0, |g| g.clock.move_ms(now.mono_ms));
        self.rule(cmd, roll, spent)
    }

    /// Fold one log entry into the match (the match as it is after that event). Cannot fail:
    /// an event that does not fit leaves the state as it is (entries come from
    /// [`Match::decide`], or from a log checked by [`Match::from_log`]).
    pub fn evolve(&mut self, entry: &LogEntry) {
        self.evolve_at(entry, None);
    }

    /// Continue a match read back by a new process: records [`MatchEvent::Reopened`] and holds a
    /// running game clock at what the log counted (paused) until the director resumes it.
    pub fn reopen(&mut self, now: Now) -> LogEntry {
        let entry = LogEntry {
            at: self.next_stamp(now.wall),
            event: MatchEvent::Reopened,
        };
        self.evolve_at(&entry, Some(now.mono_ms));
        entry
    }

    /// The stamp of a new log entry at `wall`: never before the last entry's, so that a wall
    /// clock set back never writes a log whose times go back (such a log is refused on load).
    fn next_stamp(&self, wall: DateTime<Utc>) -> DateTime<Utc> {
        let at = stamp(wall);
        self.log.last().map_or(at, |last| at.max(last.at))
    }

    // ----- queries -----

    /// The settings.
    pub fn settings(&self) -> &MatchSettings {
        &self.settings
    }

    /// A player's name.
    pub fn name(&self, p: Player) -> &str {
        self.settings.name(p)
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The event log, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Accepted ballots with their games.
    pub fn ballots(&self) -> &[BallotRecord] {
        &self.ballots
    }

    /// Ballots both players rejected.
    pub fn rejected(&self) -> &[RejectedBallot] {
        &self.rejected
    }

    /// The drawn ballot awaiting decisions, if any.
    pub fn pending_draw(&self) -> Option<&Draw> {
        self.pending.as_ref()
    }

    /// Who has Red in game one of ballot one, once chosen.
    pub fn red_first(&self) -> Option<Player> {
        self.red_first
    }

    /// Who has Red in `game` (1 or 2) of `ballot`: the lead-off alternates by ballot, and game
    /// two reverses game one. None before the colour choice.
    pub fn red_in(&self, ballot: u32, game: u8) -> Option<Player> {
        let first = self.red_first?;
        let lead = if ballot % 2 == 1 {
            first
        } else {
            first.other()
        };
        Some(if game == 1 { lead } else { lead.other() })
    }

    /// Ballots to play as things stand: the planned number, or more once tie-break ballots
    /// have begun.
    pub fn planned_ballots(&self) -> u32 {
        let current = match self.phase {
            Phase::Draw { ballot }
            | Phase::Decide { ballot, .. }
            | Phase::Ready { ballot, .. }
            | Phase::Playing { ballot, .. } => ballot,
            Phase::ColourChoice { .. } | Phase::Finished => 0,
        };
        let accepted = u32::try_from(self.ballots.len()).unwrap_or(u32::MAX);
        self.settings.ballots.max(current).max(accepted)
    }

    /// The pending draw offer's author.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The match result, once finished.
    pub fn outcome(&self) -> Option<&MatchOutcome> {
        self.outcome.as_ref()
    }

    /// Every game started, in order (finished ones and the one in play), for PDN export.
    pub fn games(&self) -> impl Iterator<Item = &GameRecord> {
        self.ballots.iter().flat_map(|b| b.games.iter())
    }

    /// The game being played (phase `Playing`).
    pub fn playing(&self) -> Option<&GameRecord> {
        match self.phase {
            Phase::Playing { .. } => self.ballots.last().and_then(|b| b.games.last()),
            _ => None,
        }
    }

    fn playing_mut(&mut self) -> Option<&mut GameRecord> {
        match self.phase {
            Phase::Playing { .. } => self.ballots.last_mut().and_then(|b| b.games.last_mut()),
            _ => None,
        }
    }

    /// The game to show: the one being played, else the last one started.
    pub fn current_game(&self) -> Option<&GameRecord> {
        self.ballots.last().and_then(|b| b.games.last())
    }

    fn current_game_mut(&mut self) -> Option<&mut GameRecord> {
        self.ballots.last_mut().and_then(|b| b.games.last_mut())
    }

    /// The clocks of the game being played at `now_ms`.
    pub fn clock_reading(&self, now_ms: u64) -> Option<ClockReading> {
        self.playing().map(|g| g.clock.reading(now_ms))
    }

    /// The flag that has fallen by `now_ms` in the game being played, without changing anything
    /// (apply [`Command::Tick`] to act on it).
    pub fn flag_due(&self, now_ms: u64) -> Option<Flag> {
        self.playing().and_then(|g| g.clock.check_flag(now_ms))
    }

    /// The draw the rules allow claiming now in the game being played (repetition, the
    /// 40-move rule, the 13-count; for the strength rule see [`Match::strength_reading`]).
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        self.playing().and_then(|g| g.game.claimable_draw())
    }

    /// Pool: the strength rule's count in the game being played, while it runs.
    pub fn strength_reading(&self) -> Option<StrengthReading> {
        self.playing()
            .and_then(|g| g.strength_reading(self.settings.strength_rule))
    }

    /// The director's decision [`Command::UndoDecision`] would undo now: the result it gave,
    /// and what comes back (none: the game is in play again).
    pub fn undoable(&self) -> Option<(&GameResult, Option<&GameResult>)> {
        self.amendable()?;
        let g = self.current_game()?;
        let back = g.overruled.last()?;
        Some((g.result.as_ref()?, back.as_ref()))
    }

    /// What the match waits for.
    pub fn awaiting(&self) -> Awaiting {
        match self.phase {
            Phase::ColourChoice { chooser: None } => Awaiting::Toss(self.settings.colour_method),
            Phase::ColourChoice { chooser: Some(p) } => Awaiting::ColourChoice(p),
            Phase::Draw { ballot } => Awaiting::BallotDraw(ballot),
            Phase::Decide { ballot, by } => {
                let red = self.red_in(ballot, 1).unwrap_or(Player::First);
                let player = if by == Color::Red { red } else { red.other() };
                Awaiting::Decision {
                    ballot,
                    colour: by,
                    player,
                }
            }
            Phase::Ready { ballot, game } => Awaiting::GameStart { ballot, game },
            Phase::Playing { .. } => match self.playing() {
                Some(g) if g.clock.is_paused() => Awaiting::Resume,
                Some(g) => {
                    let colour = g.game.position().turn();
                    Awaiting::Move {
                        colour,
                        player: g.player(colour),
                    }
                }
                None => Awaiting::Nothing,
            },
            Phase::Finished => Awaiting::Nothing,
        }
    }

    /// The ballot and game the phase is about (ready or playing).
    pub fn game_id(&self) -> Option<(u32, u8)> {
        match self.phase {
            Phase::Ready { ballot, game } | Phase::Playing { ballot, game } => Some((ballot, game)),
            _ => None,
        }
    }

    /// The score by game, by ballot and in total.
    pub fn score(&self) -> ScoreTable {
        match_score::score(&self.settings, &self.ballots, None)
    }

    // ----- decide -----

    fn not_now(&self, asked: CommandKind) -> MatchError {
        MatchError::NotNow {
            asked,
            awaiting: self.awaiting(),
        }
    }

    /// The draw settings in force: the openings settings, with man-down openings excluded
    /// when the rejection policy redraws them.
    pub(crate) fn draw_settings(&self) -> DrawSettings {
        let mut settings = self.settings.openings.clone();
        settings.rules = self.settings.game;
        if self.settings.rejection == RejectionPolicy::AllExceptManDown {
            settings.exclude_man_down = true;
        }
        settings
    }

    /// Ballot `ballot` as the settings give it (`given-ballots`): its opening, no cards; none
    /// when it is to be drawn.
    pub(crate) fn given_draw(&self, ballot: u32) -> Option<Draw> {
        let k = (ballot as usize).checked_sub(1)?;
        let number = *self.settings.given_ballots.get(k)?;
        let all = openings::all_in(self.settings.openings.system, self.settings.game);
        let opening = all.get((number as usize).checked_sub(1)?)?;
        Some(Draw {
            opening: opening.clone(),
            steps: Vec::new(),
        })
    }

    /// Every opening drawn so far (accepted and rejected), for "no repeat".
    pub(crate) fn drawn_openings(&self) -> Vec<Opening> {
        self.ballots
            .iter()
            .map(|b| b.opening.clone())
            .chain(self.rejected.iter().map(|r| r.opening.clone()))
            .collect()
    }
}
