//! The match state machine: [`Match`], as decide + evolve over its event log.
//!
//! Flow: colour choice (once) -> for each ballot: draw -> accept/reject (White first) -> game 1
//! -> game 2 (colours reversed) -> ... -> finished (with tie-break ballots if the tie rule says
//! so).
//!
//! - [`Match::decide`] answers a [`Command`] with the [`Event`]s it gives, or a
//!   [`MatchError`]; it changes nothing. Time comes in as [`Now`], randomness as an `rng`
//!   argument; what the rng decided (coin side, colour, hand, cards) is in the events.
//! - [`Match::evolve`] folds one stamped event ([`Entry`]) into the match; it cannot fail.
//! - [`Match::apply`] is the two: a refused command leaves no trace, with nothing to roll back.
//!
//! The log is the one source of truth: [`Match::from_log`](super::replay) rebuilds a match from
//! it, checking every record.

use super::clock::{Clock, ClockError, ClockReading, Commit, Flag};
use super::command::{CoinSide, Command, CommandKind, Hand};
use super::event::{Decided, EndReason, GameResult, LogEntry, MatchEvent, MatchOutcome};
use super::limits;
use super::match_score::{self, Change, ScoreTable};
use super::settings::{
    ColourMethod, MatchSettings, Player, RejectionPolicy, SettingsError, StrengthRule, TieRule,
};
use crate::engine::{
    Color, DrawClaim, Game, HuffError, Move, MoveError, Outcome, Position, Rules, parse_move,
};
use crate::openings::{self, Draw, DrawSettings, DrawStep, Opening, OpeningError};
use chrono::{DateTime, SubsecRound, Utc};
use thiserror::Error;

/// The time of a command: a monotonic reading for clocks and a wall-clock stamp for the log.
///
/// `mono_ms` must come from a monotonic source (`Instant` since process start, say); it is
/// never saved, so a new process may start it again from zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Now {
    /// Monotonic milliseconds.
    pub mono_ms: u64,
    /// Wall-clock time, for records.
    pub wall: DateTime<Utc>,
}

/// Where the match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Choosing colours: waiting for the toss (`chooser` none) or for the toss winner's choice.
    ColourChoice {
        /// The player who won the toss and now chooses.
        chooser: Option<Player>,
    },
    /// Waiting for ballot `ballot` to be drawn.
    Draw {
        /// Ballot number, 1-based.
        ballot: u32,
    },
    /// Waiting for a player's accept/reject decision on the drawn ballot.
    Decide {
        /// Ballot number.
        ballot: u32,
        /// Who decides now (in game one's colours): White first, then Red.
        by: Color,
    },
    /// A game is set up, waiting for the director to start the clock.
    Ready {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
    },
    /// A game is being played.
    Playing {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
    },
    /// The match is over.
    Finished,
}

/// One committed move with its clock figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub colour: Color,
    /// Time spent on the move (pauses excluded), ms.
    pub spent_ms: u64,
    /// The mover's game time left after the move, increments and new periods included; none
    /// without a game clock.
    pub remaining_ms: Option<i64>,
    /// The period (1-based) the mover is in after the move.
    pub period: u32,
    /// When it was committed.
    pub at: DateTime<Utc>,
}

/// One game of a ballot: everything a PDN export needs.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Ballot number (1-based).
    pub ballot: u32,
    /// 1 or 2 within the ballot.
    pub number: u8,
    /// The ballot's opening; the game starts from `opening.position` (set moves not timed).
    pub opening: Opening,
    /// Who has Red.
    pub red: Player,
    /// Red's name.
    pub red_name: String,
    /// White's name.
    pub white_name: String,
    /// The game on the board (rules engine), from `opening.position`.
    pub game: Game,
    /// The moves with their clock figures (same moves as `game.moves()`).
    pub moves: Vec<MoveRecord>,
    /// The game's clock.
    pub clock: Clock,
    /// When the clock was started.
    pub started: DateTime<Utc>,
    /// When the game ended.
    pub finished: Option<DateTime<Utc>>,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// What the director's decisions on this game replaced, oldest first: the result before
    /// an amendment, or none for a decision that ended the game in play. The last one is what
    /// [`Command::UndoDecision`] brings back.
    pub overruled: Vec<Option<GameResult>>,
    /// Pool: the strength rule's count, once the weaker side asked for it.
    pub strength: Option<StrengthCount>,
}

/// The pool strength rule's count in a game, as asked (rules 27 / 27A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthCount {
    /// The weaker side, who asked; its moves are counted.
    pub weaker: Color,
    /// The game's moves (plies) when it was asked.
    pub from_ply: usize,
    /// Rule 27: the director granted the 8 more moves.
    pub extended: bool,
}

/// The strength rule's count as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthReading {
    /// The weaker side, whose moves count.
    pub weaker: Color,
    /// Moves the weaker side has made since asking.
    pub moves: u32,
    /// The moves after which the draw may be claimed.
    pub limit: u32,
    /// Rule 27: the 8 more moves were granted.
    pub extended: bool,
}

impl StrengthReading {
    /// True when the count has run out: the draw may be claimed.
    pub fn reached(&self) -> bool {
        self.moves >= self.limit
    }
}

impl GameRecord {
    /// Drop a strength count asked after the moves a take-back has removed.
    fn forget_strength_count_past_the_end(&mut self) {
        if self.strength.is_some_and(|c| c.from_ply > self.moves.len()) {
            self.strength = None;
        }
    }

    /// The strength rule's count under `rule`, while it runs: none before it was asked, and
    /// none once the side that asked is no longer the weaker (the count lapses).
    pub fn strength_reading(&self, rule: StrengthRule) -> Option<StrengthReading> {
        let c = self.strength?;
        let pos = self.game.position();
        if pos.strength(c.weaker) >= pos.strength(c.weaker.opponent()) {
            return None;
        }
        let moves = self.moves.iter().skip(c.from_ply);
        let moves = moves.filter(|m| m.colour == c.weaker).count();
        Some(StrengthReading {
            weaker: c.weaker,
            moves: u32::try_from(moves).unwrap_or(u32::MAX),
            limit: rule.limit(c.extended),
            extended: c.extended,
        })
    }
}

/// Why the strength rule's count cannot be asked for or extended now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrengthRefusal {
    /// The game is not pool.
    NotPool,
    /// The side asking is not the weaker (king 2, man 1).
    NotWeaker,
    /// The count already runs.
    Running,
    /// No count runs.
    NotRunning,
    /// Only rule 27 grants 8 more moves, once, after the 30 have run out.
    NotExtendable,
}

impl GameRecord {
    /// Who has `colour` in this game.
    pub fn player(&self, colour: Color) -> Player {
        if colour == Color::Red {
            self.red
        } else {
            self.red.other()
        }
    }

    /// The colour `player` has in this game.
    pub fn colour_of(&self, player: Player) -> Color {
        if player == self.red {
            Color::Red
        } else {
            Color::White
        }
    }
}

/// An accepted ballot and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct BallotRecord {
    /// Ballot number (1-based).
    pub number: u32,
    /// The opening.
    pub opening: Opening,
    /// The cards drawn, in order (auto-redraws included).
    pub steps: Vec<DrawStep>,
    /// Who has Red in game one.
    pub red_first: Player,
    /// The games started so far (at most two).
    pub games: Vec<GameRecord>,
}

/// A ballot both players rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct RejectedBallot {
    /// The ballot number it was drawn for.
    pub ballot: u32,
    /// The opening.
    pub opening: Opening,
    /// The cards drawn.
    pub steps: Vec<DrawStep>,
}

/// What a reason or a note is, for refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A director's reason.
    Reason,
    /// A note.
    Note,
}

impl TextKind {
    /// The most characters it may have ([`limits::REASON_MAX_CHARS`], [`limits::NOTE_MAX_CHARS`]).
    pub fn max_chars(self) -> usize {
        match self {
            TextKind::Reason => limits::REASON_MAX_CHARS,
            TextKind::Note => limits::NOTE_MAX_CHARS,
        }
    }
}

/// A command that does not fit the match's state. Nothing has changed.
///
/// Typed data only: a UI builds its own sentence from it (the TUI's `match_flow::words`).
#[derive(Debug, Error)]
pub enum MatchError {
    /// The command does not fit the phase.
    #[error("{asked:?} is not possible now (awaiting {awaiting:?})")]
    NotNow {
        /// What was asked.
        asked: CommandKind,
        /// What the match waits for.
        awaiting: Awaiting,
    },
    /// A player command by the wrong side.
    #[error("it is {expected}'s turn, not {got}'s")]
    NotYourTurn {
        /// Who is to act.
        expected: Color,
        /// Who tried.
        got: Color,
    },
    /// A colour-choice command for another method.
    #[error("this match chooses colours by {0:?}")]
    WrongMethod(ColourMethod),
    /// The clocks are paused.
    #[error("the clocks are paused")]
    Paused,
    /// The move is not legal or not understood.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A draw offer is already pending.
    #[error("{0} has already offered a draw")]
    OfferPending(Color),
    /// No draw offer to answer.
    #[error("there is no draw offer from {0}")]
    NoOffer(Color),
    /// The rules do not allow a draw claim now.
    #[error("no draw can be claimed in this position")]
    NotClaimable,
    /// Take back more moves than were played.
    #[error("cannot take back {asked} moves: {made} played")]
    TakeBack {
        /// Asked.
        asked: u32,
        /// Played.
        made: usize,
    },
    /// No director decision on the last game to undo.
    #[error("the last game's result is not a director's decision")]
    NothingToUndo,
    /// A clock operation refused.
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// The draw failed (nothing left to draw).
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// Empty text where a reason or note is needed.
    #[error("a {0:?} is needed")]
    EmptyText(TextKind),
    /// A reason or note longer than its bound.
    #[error("the {what:?} has {chars} characters: at most {max}")]
    TooLong {
        /// Reason or note.
        what: TextKind,
        /// Its length.
        chars: usize,
        /// The bound.
        max: usize,
    },
    /// A time adjustment beyond [`limits::ADJUST_MS_MAX`].
    #[error("an adjustment of {0} ms: at most a day either way")]
    AdjustTooLarge(i64),
    /// Settings refused when creating a match.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// A huffing choice refused.
    #[error(transparent)]
    Huff(#[from] HuffError),
    /// The strength rule's count cannot be asked for or extended now.
    #[error("strength rule: {0:?}")]
    Strength(StrengthRefusal),
}

/// What the match waits for, for a UI to prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting {
    /// The colour toss by the settings' method (or the director's assignment).
    Toss(ColourMethod),
    /// The toss winner's colour choice.
    ColourChoice(Player),
    /// The director draws a ballot.
    BallotDraw(u32),
    /// A player's accept/reject decision.
    Decision {
        /// Ballot number.
        ballot: u32,
        /// In game one's colours.
        colour: Color,
        /// Who.
        player: Player,
    },
    /// The director starts the game.
    GameStart {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
    },
    /// A move.
    Move {
        /// The side to move.
        colour: Color,
        /// Who.
        player: Player,
    },
    /// The director resumes the paused clocks.
    Resume,
    /// Nothing: the match is over.
    Nothing,
}

/// What the rng decided for a command, or what a record says it decided.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Roll {
    /// Nothing random in the command.
    None,
    /// The coin landed so.
    Coin(CoinSide),
    /// The bag gave this colour.
    Colour(Color),
    /// The red piece was in this hand.
    RedHand(Hand),
    /// The ballot drawn.
    Draw(Draw),
}

/// A whole match: settings, phase, ballots with their games and clocks, and the event log
/// they are all derived from.
///
/// Two matches are equal when their logs say the same: the monotonic instants a running
/// process keeps for its clocks are not compared (see [`Clock`]). With serde, a match is
/// written as its settings and its log, and read back by replaying the log with every record
/// checked ([`Match::from_log`]).
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

/// A reason or a note must say something, within its bound of [`limits`].
fn need(text: &str, what: TextKind) -> Result<(), MatchError> {
    let max = what.max_chars();
    let n = limits::chars(text);
    if text.trim().is_empty() {
        Err(MatchError::EmptyText(what))
    } else if n > max {
        Err(MatchError::TooLong {
            what,
            chars: n,
            max,
        })
    } else {
        Ok(())
    }
}

/// True if the side to move's only move is one jump (the per-move limit is shorter).
fn single_jump(pos: &Position) -> bool {
    let moves = pos.distinct_moves();
    moves.len() == 1 && moves[0].is_capture()
}

/// The result the board gives in `pos`, if the side to move has lost.
fn board_result(pos: &Position) -> Option<GameResult> {
    if pos.rules().stuck_side_wins() && pos.is_stuck() {
        return Some(GameResult {
            outcome: Outcome::Win(pos.turn()),
            reason: EndReason::FirstOff,
        });
    }
    if !pos.is_lost() {
        return None;
    }
    let loser = pos.turn();
    let reason = if pos.count(loser) == 0 {
        EndReason::NoPieces
    } else {
        EndReason::Blocked
    };
    Some(GameResult {
        outcome: Outcome::Win(loser.opponent()),
        reason,
    })
}

/// The wall-clock stamp of a log entry: whole seconds.
fn stamp(wall: DateTime<Utc>) -> DateTime<Utc> {
    wall.trunc_subsecs(0)
}

/// The phase after game `game` of `ballot` has a result (before any match-level event).
fn next_after(ballot: u32, game: u8) -> Phase {
    if game == 1 {
        Phase::Ready { ballot, game: 2 }
    } else {
        Phase::Draw {
            ballot: ballot.saturating_add(1),
        }
    }
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
        let at = stamp(now.wall);
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

    /// Continue a match read back by a new process: records [`Event::Reopened`] and holds a
    /// running game clock at what the log counted (paused) until the director resumes it.
    pub fn reopen(&mut self, now: Now) -> LogEntry {
        let entry = LogEntry {
            at: stamp(now.wall),
            event: MatchEvent::Reopened,
        };
        self.evolve_at(&entry, Some(now.mono_ms));
        entry
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

    /// What the rng decides for `cmd` (checking first that the command fits, so a refused
    /// command rolls nothing).
    fn roll<R: rand::Rng + ?Sized>(&self, cmd: &Command, rng: &mut R) -> Result<Roll, MatchError> {
        let heads = |rng: &mut R| rng.next_u32() % 2 == 0;
        Ok(match cmd {
            Command::CallCoin { .. } => {
                self.expect_toss(ColourMethod::CoinFlip, CommandKind::CallCoin)?;
                Roll::Coin(if heads(rng) {
                    CoinSide::Heads
                } else {
                    CoinSide::Tails
                })
            }
            Command::DrawColour { .. } => {
                self.expect_toss(ColourMethod::Bag, CommandKind::DrawColour)?;
                Roll::Colour(if heads(rng) { Color::Red } else { Color::White })
            }
            Command::PickHand { .. } => {
                self.expect_toss(ColourMethod::ConcealedHands, CommandKind::PickHand)?;
                Roll::RedHand(if heads(rng) { Hand::Left } else { Hand::Right })
            }
            Command::DrawBallot => {
                let Phase::Draw { ballot } = self.phase else {
                    return Err(self.not_now(CommandKind::DrawBallot));
                };
                match self.given_draw(ballot) {
                    Some(given) => Roll::Draw(given),
                    None => Roll::Draw(openings::draw(
                        &self.draw_settings(),
                        &self.drawn_openings(),
                        rng,
                    )?),
                }
            }
            _ => Roll::None,
        })
    }

    /// The events of `cmd` given what the rng decided (`roll`) and the time the side to move
    /// has spent on its move (`spent`, pauses excluded). Pure: the rules in one place, for
    /// live commands and for checking a log.
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    pub(crate) fn rule(
        &self,
        cmd: Command,
        roll: Roll,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let kind = cmd.kind();
        match cmd {
            Command::CallCoin { caller, call } => {
                self.expect_toss(ColourMethod::CoinFlip, kind)?;
                let Roll::Coin(landed) = roll else {
                    return Err(self.not_now(kind));
                };
                let winner = if landed == call {
                    caller
                } else {
                    caller.other()
                };
                Ok(vec![MatchEvent::CoinFlipped {
                    caller,
                    call,
                    landed,
                    winner,
                }])
            }
            Command::DrawColour { player } => {
                self.expect_toss(ColourMethod::Bag, kind)?;
                let Roll::Colour(colour) = roll else {
                    return Err(self.not_now(kind));
                };
                Ok(vec![
                    MatchEvent::ColourDrawn { player, colour },
                    colours_set(player, colour, false),
                ])
            }
            Command::PickHand { player, hand } => {
                self.expect_toss(ColourMethod::ConcealedHands, kind)?;
                let Roll::RedHand(red_hand) = roll else {
                    return Err(self.not_now(kind));
                };
                let colour = if hand == red_hand {
                    Color::Red
                } else {
                    Color::White
                };
                Ok(vec![
                    MatchEvent::HandPicked {
                        player,
                        hand,
                        colour,
                    },
                    colours_set(player, colour, false),
                ])
            }
            Command::ChooseColour { player, colour } => {
                let method = self.settings.colour_method;
                match self.phase {
                    Phase::ColourChoice { chooser: Some(p) } if p == player => {
                        Ok(vec![colours_set(player, colour, false)])
                    }
                    Phase::ColourChoice { chooser: None } if method != ColourMethod::CoinFlip => {
                        Err(MatchError::WrongMethod(method))
                    }
                    _ => Err(self.not_now(kind)),
                }
            }
            Command::AssignColour { player, colour } => match self.phase {
                Phase::ColourChoice { .. } => Ok(vec![colours_set(player, colour, true)]),
                _ => Err(self.not_now(kind)),
            },
            Command::DrawBallot => self.draw_events(roll),
            Command::Accept { colour } => self.decision_events(colour, true),
            Command::Reject { colour } => self.decision_events(colour, false),
            Command::StartGame => self.start_events(),
            Command::Move { colour, text } => {
                let (_, _, g) = self.turn(colour)?;
                let mv = parse_move(g.game.position(), &text)?;
                self.move_events(colour, mv, spent)
            }
            Command::PlayMove { colour, mv } => self.move_events(colour, mv, spent),
            Command::OfferDraw { colour } => {
                let (_, _, g) = self.in_play(kind)?;
                if let Some(c) = self.draw_offer {
                    return Err(MatchError::OfferPending(c));
                }
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::DrawOffered {
                    colour,
                    spent_ms: Some(spent),
                }])
            }
            Command::AcceptDraw { colour } => {
                let (ballot, game, g) = self.in_play(kind)?;
                if self.draw_offer != Some(colour.opponent()) {
                    return Err(MatchError::NoOffer(colour.opponent()));
                }
                g.clock.check_spent(spent)?;
                let result = GameResult {
                    outcome: Outcome::Draw,
                    reason: EndReason::Agreed,
                };
                Ok(self.end_events(ballot, game, result, spent))
            }
            Command::DeclineDraw { colour } => {
                let (_, _, g) = self.in_play(kind)?;
                if self.draw_offer != Some(colour.opponent()) {
                    return Err(MatchError::NoOffer(colour.opponent()));
                }
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::DrawDeclined {
                    colour,
                    spent_ms: Some(spent),
                }])
            }
            Command::ClaimDraw { colour: _ } => {
                let (ballot, game, g) = self.in_play(kind)?;
                let strength = g.strength_reading(self.settings.strength_rule);
                let reason = match g.game.claimable_draw() {
                    Some(DrawClaim::Repetition) => EndReason::Repetition,
                    Some(DrawClaim::FortyMoves) => EndReason::FortyMoves,
                    Some(DrawClaim::ThirteenCount) => EndReason::ThirteenCount,
                    None if strength.is_some_and(|s| s.reached()) => EndReason::StrengthRule,
                    None => return Err(MatchError::NotClaimable),
                };
                g.clock.check_spent(spent)?;
                let result = GameResult {
                    outcome: Outcome::Draw,
                    reason,
                };
                Ok(self.end_events(ballot, game, result, spent))
            }
            Command::Huff { colour, square } => self.huff_events(colour, square, spent),
            Command::Compel { colour } => {
                let (_, _, g) = self.turn(colour)?;
                g.clock.check_spent(spent)?;
                g.game.clone().compel()?;
                if g.clock.committed() == 0 {
                    return Err(MatchError::Huff(HuffError::NoChance));
                }
                Ok(vec![MatchEvent::Compelled])
            }
            Command::AskStrengthCount { colour } => {
                let (_, _, g) = self.in_play(kind)?;
                let pos = g.game.position();
                let refuse = |why| Err(MatchError::Strength(why));
                if self.settings.game != Rules::Pool {
                    return refuse(StrengthRefusal::NotPool);
                }
                if pos.strength(colour) >= pos.strength(colour.opponent()) {
                    return refuse(StrengthRefusal::NotWeaker);
                }
                if g.strength_reading(self.settings.strength_rule).is_some() {
                    return refuse(StrengthRefusal::Running);
                }
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::StrengthCountAsked {
                    colour,
                    spent_ms: Some(spent),
                }])
            }
            Command::ExtendStrengthCount => {
                let (_, _, g) = self.in_play(kind)?;
                let rule = self.settings.strength_rule;
                match g.strength_reading(rule) {
                    None => Err(MatchError::Strength(StrengthRefusal::NotRunning)),
                    Some(r)
                        if rule == StrengthRule::ThirtyPlusEight && !r.extended && r.reached() =>
                    {
                        g.clock.check_spent(spent)?;
                        Ok(vec![MatchEvent::StrengthCountExtended {
                            spent_ms: Some(spent),
                        }])
                    }
                    Some(_) => Err(MatchError::Strength(StrengthRefusal::NotExtendable)),
                }
            }
            Command::Resign { colour } => {
                let (ballot, game, g) = self.in_play(kind)?;
                g.clock.check_spent(spent)?;
                let result = GameResult {
                    outcome: Outcome::Win(colour.opponent()),
                    reason: EndReason::Resigned,
                };
                Ok(self.end_events(ballot, game, result, spent))
            }
            Command::Tick => self.tick_events(spent),
            Command::Forfeit { loser, reason } => {
                need(&reason, TextKind::Reason)?;
                let result = GameResult {
                    outcome: Outcome::Win(loser.opponent()),
                    reason: EndReason::Forfeit { note: reason },
                };
                self.director_result(result, spent, kind)
            }
            Command::Adjudicate { outcome, reason } => {
                need(&reason, TextKind::Reason)?;
                let result = GameResult {
                    outcome,
                    reason: EndReason::Adjudicated { note: reason },
                };
                self.director_result(result, spent, kind)
            }
            Command::UndoDecision { reason } => {
                need(&reason, TextKind::Reason)?;
                self.undo_events(reason)
            }
            Command::TakeBack { moves, reason } => {
                need(&reason, TextKind::Reason)?;
                self.take_back_events(moves, reason)
            }
            Command::PauseClocks { reason } => {
                need(&reason, TextKind::Reason)?;
                let (_, _, g) = self.in_play(kind)?;
                if g.clock.is_paused() {
                    return Err(MatchError::Paused);
                }
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::ClocksPaused {
                    reason,
                    spent_ms: spent,
                }])
            }
            Command::ResumeClocks => {
                let (_, _, g) = self.in_play(kind)?;
                if !g.clock.is_paused() {
                    return Err(MatchError::Clock(ClockError::NotPaused));
                }
                Ok(vec![MatchEvent::ClocksResumed])
            }
            Command::AdjustTime {
                colour,
                delta_ms,
                reason,
            } => {
                need(&reason, TextKind::Reason)?;
                if delta_ms.unsigned_abs() > limits::ADJUST_MS_MAX {
                    return Err(MatchError::AdjustTooLarge(delta_ms));
                }
                let (_, _, g) = self.in_play(kind)?;
                let remaining_ms = g.clock.adjusted(colour, delta_ms)?;
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::TimeAdjusted {
                    colour,
                    delta_ms,
                    remaining_ms,
                    reason,
                    spent_ms: Some(spent),
                }])
            }
            Command::Note { text } => {
                need(&text, TextKind::Note)?;
                let spent_ms = match self.playing() {
                    Some(g) => {
                        g.clock.check_spent(spent)?;
                        Some(spent)
                    }
                    None => None,
                };
                Ok(vec![MatchEvent::Note { text, spent_ms }])
            }
        }
    }

    fn expect_toss(&self, method: ColourMethod, asked: CommandKind) -> Result<(), MatchError> {
        match self.phase {
            Phase::ColourChoice { chooser: None } if self.settings.colour_method == method => {
                Ok(())
            }
            Phase::ColourChoice { chooser: None } => {
                Err(MatchError::WrongMethod(self.settings.colour_method))
            }
            _ => Err(self.not_now(asked)),
        }
    }

    /// The game in play, with its ballot and game numbers.
    fn in_play(&self, asked: CommandKind) -> Result<(u32, u8, &GameRecord), MatchError> {
        match (self.phase, self.playing()) {
            (Phase::Playing { ballot, game }, Some(g)) => Ok((ballot, game, g)),
            _ => Err(self.not_now(asked)),
        }
    }

    /// The game in play if `colour` may move in it now: its clock runs and it is that side's
    /// turn. The one place the checks of a move live.
    fn turn(&self, colour: Color) -> Result<(u32, u8, &GameRecord), MatchError> {
        let (ballot, game, g) = self.in_play(CommandKind::Move)?;
        if g.clock.is_paused() {
            return Err(MatchError::Paused);
        }
        let expected = g.game.position().turn();
        if colour != expected {
            return Err(MatchError::NotYourTurn {
                expected,
                got: colour,
            });
        }
        Ok((ballot, game, g))
    }

    fn draw_events(&self, roll: Roll) -> Result<Vec<MatchEvent>, MatchError> {
        let Phase::Draw { ballot } = self.phase else {
            return Err(self.not_now(CommandKind::DrawBallot));
        };
        let Roll::Draw(draw) = roll else {
            return Err(self.not_now(CommandKind::DrawBallot));
        };
        let mut ev = vec![MatchEvent::BallotDrawn {
            ballot,
            number: draw.opening.number,
            steps: draw.steps,
        }];
        // A given ballot is played as given: no one may reject it.
        let given = self.given_draw(ballot).is_some();
        if given || self.settings.rejection != RejectionPolicy::PlayersMayReject {
            ev.push(MatchEvent::BallotAccepted {
                ballot,
                colour: None,
            });
        }
        Ok(ev)
    }

    fn decision_events(&self, colour: Color, accept: bool) -> Result<Vec<MatchEvent>, MatchError> {
        let kind = if accept {
            CommandKind::Accept
        } else {
            CommandKind::Reject
        };
        let Phase::Decide { ballot, by } = self.phase else {
            return Err(self.not_now(kind));
        };
        if colour != by {
            return Err(MatchError::NotYourTurn {
                expected: by,
                got: colour,
            });
        }
        let Some(draw) = &self.pending else {
            return Err(self.not_now(kind));
        };
        if accept {
            return Ok(vec![MatchEvent::BallotAccepted {
                ballot,
                colour: Some(colour),
            }]);
        }
        let red = self.red_in(ballot, 1).unwrap_or(Player::First);
        let player = if colour == Color::Red {
            red
        } else {
            red.other()
        };
        let mut ev = vec![MatchEvent::BallotRejected {
            ballot,
            colour,
            player,
        }];
        if colour == Color::Red {
            ev.push(MatchEvent::BallotDiscarded {
                ballot,
                number: draw.opening.number,
            });
        }
        Ok(ev)
    }

    fn start_events(&self) -> Result<Vec<MatchEvent>, MatchError> {
        let Phase::Ready { ballot, game } = self.phase else {
            return Err(self.not_now(CommandKind::StartGame));
        };
        let Some(b) = self.ballots.last().filter(|b| b.number == ballot) else {
            return Err(self.not_now(CommandKind::StartGame));
        };
        let red = self.red_in(ballot, game).unwrap_or(Player::First);
        let mut ev = vec![MatchEvent::GameStarted { ballot, game, red }];
        if let Some(result) = board_result(&b.opening.position) {
            ev.extend(self.end_events(ballot, game, result, 0));
        }
        Ok(ev)
    }

    fn move_events(
        &self,
        colour: Color,
        mv: Move,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.turn(colour)?;
        g.clock.check_spent(spent)?;
        // Legality first (an illegal entry changes nothing), then the clock.
        let mut after = *g.game.position();
        after.play(&mv)?;
        let figures = match g.clock.figures(spent)? {
            Commit::Flag(flag) => {
                let result = GameResult {
                    outcome: Outcome::Win(flag.color.opponent()),
                    reason: EndReason::Time { flag: flag.kind },
                };
                return Ok(self.end_events(ballot, game, result, spent));
            }
            Commit::Moved(c) => c,
        };
        let mut ev = vec![MatchEvent::MovePlayed {
            mv,
            spent_ms: spent,
            left_ms: figures.remaining_ms,
        }];
        if self.draw_offer == Some(colour.opponent()) {
            ev.push(MatchEvent::DrawDeclined {
                colour,
                spent_ms: None,
            });
        }
        if let Some(result) = board_result(&after) {
            ev.extend(self.end_events(ballot, game, result, 0));
        }
        Ok(ev)
    }

    /// Huffing: `colour`, to move, huffs the piece on `square`; a huff that takes the
    /// offender's last piece wins the game.
    fn huff_events(
        &self,
        colour: Color,
        square: crate::engine::Square,
        spent: u64,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g) = self.turn(colour)?;
        g.clock.check_spent(spent)?;
        let mut after = g.game.clone();
        after.huff(square)?;
        let mut ev = vec![MatchEvent::Huffed {
            square,
            spent_ms: Some(spent),
        }];
        if after.position().count(colour.opponent()) == 0 {
            let result = GameResult {
                outcome: Outcome::Win(colour),
                reason: EndReason::NoPieces,
            };
            ev.extend(self.end_events(ballot, game, result, spent));
        }
        Ok(ev)
    }

    fn tick_events(&self, spent: u64) -> Result<Vec<MatchEvent>, MatchError> {
        let Ok((ballot, game, g)) = self.in_play(CommandKind::Tick) else {
            return Ok(Vec::new());
        };
        if let Some(flag) = g.clock.flag_for(spent) {
            g.clock.check_spent(spent)?;
            let result = GameResult {
                outcome: Outcome::Win(flag.color.opponent()),
                reason: EndReason::Time { flag: flag.kind },
            };
            return Ok(self.end_events(ballot, game, result, spent));
        }
        match g.clock.time_call_due(spent) {
            Some(colour) => {
                g.clock.check_spent(spent)?;
                Ok(vec![MatchEvent::TimeCalled {
                    colour,
                    spent_ms: spent,
                }])
            }
            None => Ok(Vec::new()),
        }
    }

    /// The game in play ends with `result` after `spent` ms on the move being made.
    fn end_events(&self, ballot: u32, game: u8, result: GameResult, spent: u64) -> Vec<MatchEvent> {
        let then = self.after_game(ballot, game, &result);
        let mut ev = vec![MatchEvent::GameEnded {
            ballot,
            game,
            result,
            spent_ms: spent,
        }];
        ev.extend(then);
        ev
    }

    /// What follows at match level once game `game` of `ballot` has `result`: the match
    /// finishes, or a tie-break ballot is added, or nothing.
    fn after_game(&self, ballot: u32, game: u8, result: &GameResult) -> Vec<MatchEvent> {
        if game == 1 || ballot < self.settings.ballots {
            return Vec::new();
        }
        let change = Change {
            ballot,
            game,
            result: Some(result),
        };
        let points = match_score::score(&self.settings, &self.ballots, Some(change)).total;
        let (winner, decided) = if points[0] != points[1] {
            let w = if points[0] > points[1] {
                Player::First
            } else {
                Player::Second
            };
            (Some(w), Decided::Score)
        } else {
            match self.settings.tie {
                TieRule::StaysTied => (None, Decided::Tie),
                TieRule::HolderRetains { holder } => (Some(holder), Decided::HolderRetains),
                TieRule::ContinueInBlocks { max_blocks } => {
                    let extra = ballot.saturating_sub(self.settings.ballots);
                    if max_blocks.is_none_or(|m| extra < m) {
                        return vec![MatchEvent::ExtraBallot {
                            ballot: ballot.saturating_add(1),
                        }];
                    }
                    (None, Decided::Tie)
                }
            }
        };
        vec![MatchEvent::MatchFinished {
            outcome: MatchOutcome {
                winner,
                decided,
                points,
            },
        }]
    }

    /// The last finished game, if its result may still be changed (the next game has not
    /// started and no later ballot is accepted or pending).
    fn amendable(&self) -> Option<(u32, u8)> {
        let g = self.current_game()?;
        g.result.as_ref()?;
        let ok = match self.phase {
            Phase::Ready { ballot, game } => ballot == g.ballot && game == 2,
            Phase::Draw { .. } | Phase::Finished => true,
            _ => false,
        };
        ok.then_some((g.ballot, g.number))
    }

    /// A forfeit or adjudication: ends the game in play, or amends the last finished one.
    fn director_result(
        &self,
        result: GameResult,
        spent: u64,
        asked: CommandKind,
    ) -> Result<Vec<MatchEvent>, MatchError> {
        if let Ok((ballot, game, g)) = self.in_play(asked) {
            g.clock.check_spent(spent)?;
            return Ok(self.end_events(ballot, game, result, spent));
        }
        let (Some((ballot, game)), Some(g)) = (self.amendable(), self.current_game()) else {
            return Err(self.not_now(asked));
        };
        let Some(previous) = g.result.clone() else {
            return Err(self.not_now(asked));
        };
        let then = self.after_game(ballot, game, &result);
        let mut ev = vec![MatchEvent::ResultAmended {
            ballot,
            game,
            previous,
            result,
        }];
        ev.extend(then);
        Ok(ev)
    }

    fn undo_events(&self, reason: String) -> Result<Vec<MatchEvent>, MatchError> {
        let Some((ballot, game)) = self.amendable() else {
            return Err(self.not_now(CommandKind::UndoDecision));
        };
        let Some((undone, restored)) = self.undoable() else {
            return Err(MatchError::NothingToUndo);
        };
        let (undone, restored) = (undone.clone(), restored.cloned());
        let then = match &restored {
            Some(r) => self.after_game(ballot, game, r),
            None => Vec::new(),
        };
        let mut ev = vec![MatchEvent::DecisionUndone {
            ballot,
            game,
            undone,
            restored,
            reason,
        }];
        ev.extend(then);
        Ok(ev)
    }

    fn take_back_events(&self, moves: u32, reason: String) -> Result<Vec<MatchEvent>, MatchError> {
        let (ballot, game, g, reopened) = match self.in_play(CommandKind::TakeBack) {
            Ok((ballot, game, g)) => {
                if moves == 0 {
                    return Err(MatchError::TakeBack {
                        asked: 0,
                        made: g.moves.len(),
                    });
                }
                (ballot, game, g, None)
            }
            Err(e) => {
                let (Some((ballot, game)), Some(g)) = (self.amendable(), self.current_game())
                else {
                    return Err(e);
                };
                (ballot, game, g, g.result.clone())
            }
        };
        let made = g.moves.len().min(g.clock.committed());
        let n = usize::try_from(moves).unwrap_or(usize::MAX);
        if n > made {
            return Err(MatchError::TakeBack { asked: moves, made });
        }
        let taken = g.moves[g.moves.len() - n..].iter().map(|r| r.mv).collect();
        Ok(vec![MatchEvent::MovesTakenBack {
            ballot,
            game,
            moves: taken,
            reopened,
            reason,
        }])
    }

    // ----- evolve -----

    /// Fold `entry` in; `at` is the monotonic instant of a live command (none when replaying
    /// a log), from which a clock stretch that starts now runs.
    #[expect(clippy::cognitive_complexity, reason = "to be split into its steps")]
    #[expect(clippy::too_many_lines, reason = "long: to be split into its steps")]
    fn evolve_at(&mut self, entry: &LogEntry, at: Option<u64>) {
        let wall = entry.at;
        match &entry.event {
            MatchEvent::MatchCreated
            | MatchEvent::ColourDrawn { .. }
            | MatchEvent::HandPicked { .. } => {}
            MatchEvent::Note { spent_ms, .. } => self.count_thinking(*spent_ms, at),
            MatchEvent::CoinFlipped { winner, .. } => {
                self.phase = Phase::ColourChoice {
                    chooser: Some(*winner),
                }
            }
            MatchEvent::ColoursSet { red, .. } => {
                self.red_first = Some(*red);
                self.phase = Phase::Draw { ballot: 1 };
            }
            MatchEvent::BallotDrawn {
                ballot,
                number,
                steps,
            } => {
                if let Some(opening) =
                    openings::all_in(self.settings.openings.system, self.settings.game)
                        .get((*number as usize).wrapping_sub(1))
                {
                    self.pending = Some(Draw {
                        opening: opening.clone(),
                        steps: steps.clone(),
                    });
                }
                self.phase = Phase::Decide {
                    ballot: *ballot,
                    by: Color::White,
                };
            }
            MatchEvent::BallotAccepted { ballot, .. } => {
                if let Some(draw) = self.pending.take() {
                    let red_first = self.red_in(*ballot, 1).unwrap_or(Player::First);
                    self.ballots.push(BallotRecord {
                        number: *ballot,
                        opening: draw.opening,
                        steps: draw.steps,
                        red_first,
                        games: Vec::new(),
                    });
                }
                self.phase = Phase::Ready {
                    ballot: *ballot,
                    game: 1,
                };
            }
            MatchEvent::BallotRejected { ballot, colour, .. } => {
                if *colour == Color::White {
                    self.phase = Phase::Decide {
                        ballot: *ballot,
                        by: Color::Red,
                    };
                }
            }
            MatchEvent::BallotDiscarded { ballot, .. } => {
                if let Some(draw) = self.pending.take() {
                    self.rejected.push(RejectedBallot {
                        ballot: *ballot,
                        opening: draw.opening,
                        steps: draw.steps,
                    });
                }
                self.phase = Phase::Draw { ballot: *ballot };
            }
            MatchEvent::GameStarted { ballot, game, red } => {
                self.start_game(*ballot, *game, *red, wall, at)
            }
            MatchEvent::MovePlayed {
                mv,
                spent_ms,
                left_ms,
            } => {
                if let Some(g) = self.playing_mut() {
                    let colour = g.game.position().turn();
                    if g.game.play(mv).is_ok() {
                        let next = single_jump(g.game.position());
                        g.clock.commit(*spent_ms, next, at);
                        let period = g.clock.side(colour).period + 1;
                        g.moves.push(MoveRecord {
                            mv: *mv,
                            colour,
                            spent_ms: *spent_ms,
                            remaining_ms: *left_ms,
                            period,
                            at: wall,
                        });
                    }
                }
            }
            MatchEvent::DrawOffered { colour, spent_ms } => {
                self.draw_offer = Some(*colour);
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::Huffed { square, spent_ms } => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.game.huff(*square);
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::Compelled => {
                if let Some(g) = self.playing_mut() {
                    if g.game.compel().is_ok() {
                        g.moves.pop();
                        let _ = g.clock.take_back(1, at);
                    }
                    g.forget_strength_count_past_the_end();
                }
            }
            MatchEvent::StrengthCountAsked { colour, spent_ms } => {
                if let Some(g) = self.playing_mut() {
                    g.strength = Some(StrengthCount {
                        weaker: *colour,
                        from_ply: g.moves.len(),
                        extended: false,
                    });
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::StrengthCountExtended { spent_ms } => {
                if let Some(c) = self.playing_mut().and_then(|g| g.strength.as_mut()) {
                    c.extended = true;
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::DrawDeclined { spent_ms, .. } => {
                self.draw_offer = None;
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::GameEnded {
                ballot,
                game,
                result,
                spent_ms,
            } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.stop(*spent_ms);
                    g.result = Some(result.clone());
                    g.finished = Some(wall);
                    if result.reason.is_director_decision() {
                        g.overruled.push(None);
                    }
                }
                self.draw_offer = None;
                self.phase = next_after(*ballot, *game);
            }
            MatchEvent::ResultAmended {
                ballot,
                game,
                previous,
                result,
            } => {
                if let Some(g) = self.current_game_mut() {
                    g.result = Some(result.clone());
                    g.overruled.push(Some(previous.clone()));
                }
                self.outcome = None;
                self.phase = next_after(*ballot, *game);
            }
            MatchEvent::DecisionUndone {
                ballot,
                game,
                restored,
                ..
            } => {
                self.outcome = None;
                if let Some(g) = self.current_game_mut() {
                    g.overruled.pop();
                    g.result = restored.clone();
                    if restored.is_none() {
                        g.finished = None;
                        g.clock.reopen();
                    }
                }
                self.phase = match restored {
                    Some(_) => next_after(*ballot, *game),
                    None => Phase::Playing {
                        ballot: *ballot,
                        game: *game,
                    },
                };
            }
            MatchEvent::MovesTakenBack {
                ballot,
                game,
                moves,
                reopened,
                ..
            } => {
                if reopened.is_some() {
                    self.outcome = None;
                    self.phase = Phase::Playing {
                        ballot: *ballot,
                        game: *game,
                    };
                    if let Some(g) = self.playing_mut() {
                        g.result = None;
                        g.finished = None;
                        g.overruled.clear();
                        g.clock.reopen();
                    }
                }
                if let Some(g) = self.playing_mut() {
                    for _ in moves {
                        g.game.take_back();
                        g.moves.pop();
                    }
                    let _ = g.clock.take_back(moves.len(), at);
                    g.forget_strength_count_past_the_end();
                }
                self.draw_offer = None;
            }
            MatchEvent::TimeCalled { spent_ms, .. } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.call_time();
                }
                self.count_thinking(Some(*spent_ms), at);
            }
            MatchEvent::ClocksPaused { spent_ms, .. } => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.clock.pause(*spent_ms);
                }
            }
            MatchEvent::ClocksResumed => {
                if let Some(g) = self.playing_mut() {
                    let _ = g.clock.resume(at);
                }
            }
            MatchEvent::TimeAdjusted {
                colour,
                remaining_ms,
                spent_ms,
                ..
            } => {
                if let Some(g) = self.playing_mut() {
                    g.clock.set_remaining(*colour, *remaining_ms);
                }
                self.count_thinking(*spent_ms, at);
            }
            MatchEvent::ExtraBallot { ballot } => self.phase = Phase::Draw { ballot: *ballot },
            MatchEvent::MatchFinished { outcome } => {
                self.outcome = Some(*outcome);
                self.phase = Phase::Finished;
            }
            MatchEvent::Reopened => {
                if let Some(g) = self.playing_mut() {
                    g.clock.hold();
                }
            }
        }
        self.log.push(entry.clone());
    }

    /// The time on the move an event made during it records (none: nothing to count), counted
    /// on the clock of the game in play; its stretch runs on from `at`.
    fn count_thinking(&mut self, spent: Option<u64>, at: Option<u64>) {
        if let (Some(spent), Some(g)) = (spent, self.playing_mut()) {
            g.clock.mark(spent, at);
        }
    }

    fn start_game(
        &mut self,
        ballot: u32,
        game: u8,
        red: Player,
        wall: DateTime<Utc>,
        at: Option<u64>,
    ) {
        let (red_name, white_name) = (
            self.name(red).to_string(),
            self.name(red.other()).to_string(),
        );
        let control = self.settings.time_control.clone();
        let Some(b) = self.ballots.last_mut() else {
            return;
        };
        let start = b.opening.position;
        let mut clock = Clock::new(&control, start.turn());
        let _ = clock.start(at, single_jump(&start));
        b.games.push(GameRecord {
            ballot,
            number: game,
            opening: b.opening.clone(),
            red,
            red_name,
            white_name,
            game: Game::new(self.settings.game, start),
            moves: Vec::new(),
            clock,
            started: wall,
            finished: None,
            result: None,
            overruled: Vec::new(),
            strength: None,
        });
        self.phase = Phase::Playing { ballot, game };
        self.draw_offer = None;
    }
}

/// `player` takes `colour` in game one of ballot one.
fn colours_set(player: Player, colour: Color, by_director: bool) -> MatchEvent {
    let red = if colour == Color::Red {
        player
    } else {
        player.other()
    };
    MatchEvent::ColoursSet { red, by_director }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::director::clock::{FlagKind, TimeControl};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn at(ms: u64) -> Now {
        Now {
            mono_ms: ms,
            wall: DateTime::from_timestamp_millis(1_780_000_000_000 + ms as i64)
                .unwrap_or_default(),
        }
    }

    /// A match in its first game, with the board replaced by `fen` (clock restarted at 0).
    fn on_board(fen: &str, tc: TimeControl) -> (Match, ChaCha8Rng) {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut s = MatchSettings {
            players: ["Ann".into(), "Bob".into()],
            ballots: 1,
            time_control: tc.clone(),
            ..MatchSettings::default()
        };
        s.openings.system = openings::System::Gayp;
        let mut m = Match::new(s, at(0)).unwrap();
        for c in [
            Command::AssignColour {
                player: Player::First,
                colour: Color::Red,
            },
            Command::DrawBallot,
            Command::Accept {
                colour: Color::White,
            },
            Command::StartGame,
        ] {
            m.apply(c, at(0), &mut rng).unwrap();
        }
        let pos = Position::from_fen(fen).unwrap();
        let g = m.playing_mut().unwrap();
        g.game = Game::new(Rules::English, pos);
        g.clock = Clock::new(&tc, pos.turn());
        g.clock.start(Some(0), single_jump(&pos)).unwrap();
        (m, rng)
    }

    /// Apply `cmd` at `t` (it must be accepted): its events.
    fn events(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, cmd: Command) -> Vec<MatchEvent> {
        m.apply(cmd, at(t), rng)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect()
    }

    fn mv(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, text: &str) -> Vec<MatchEvent> {
        let colour = m.playing().unwrap().game.position().turn();
        let text = text.into();
        events(m, rng, t, Command::Move { colour, text })
    }

    fn result(ev: &[MatchEvent]) -> Option<GameResult> {
        ev.iter().find_map(|e| match e {
            MatchEvent::GameEnded { result, .. } => Some(result.clone()),
            _ => None,
        })
    }

    #[test]
    fn blocked_side_loses() {
        let (mut m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
        let r = result(&mv(&mut m, &mut rng, 1, "18-22")).unwrap();
        assert_eq!(r.outcome, Outcome::Win(Color::Red));
        assert_eq!(r.reason, EndReason::Blocked);
        assert_eq!(r.to_string(), "Red wins: White cannot move");
    }

    #[test]
    fn decide_changes_nothing_and_refusals_are_typed() {
        let (m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
        let before = m.clone();
        let ev = m
            .decide(
                Command::Move {
                    colour: Color::Red,
                    text: "18-22".into(),
                },
                at(5),
                &mut rng,
            )
            .unwrap();
        assert!(matches!(ev[0], MatchEvent::MovePlayed { .. }));
        assert_eq!(m, before);
        let e = m.decide(Command::DrawBallot, at(5), &mut rng).unwrap_err();
        assert!(matches!(
            e,
            MatchError::NotNow {
                asked: CommandKind::DrawBallot,
                awaiting: Awaiting::Move { .. }
            }
        ));
        let e = m
            .decide(
                Command::PlayMove {
                    colour: Color::White,
                    mv: Position::start().distinct_moves()[0],
                },
                at(5),
                &mut rng,
            )
            .unwrap_err();
        assert!(matches!(e, MatchError::NotYourTurn { .. }));
    }

    #[test]
    fn repetition_claim_only_when_the_rules_allow() {
        let (mut m, mut rng) = on_board("B:WK32:BK1", TimeControl::default());
        let claim = Command::ClaimDraw { colour: Color::Red };
        for (i, text) in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"]
            .iter()
            .enumerate()
        {
            assert!(matches!(
                m.apply(claim.clone(), at(i as u64), &mut rng),
                Err(MatchError::NotClaimable)
            ));
            mv(&mut m, &mut rng, i as u64, text);
        }
        mv(&mut m, &mut rng, 10, "28-32");
        assert_eq!(m.claimable_draw(), Some(DrawClaim::Repetition));
        let ev: Vec<MatchEvent> = m
            .apply(claim, at(11), &mut rng)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect();
        let r = result(&ev).unwrap();
        assert_eq!(
            (r.outcome, r.reason),
            (Outcome::Draw, EndReason::Repetition)
        );
    }

    #[test]
    fn forty_move_claim() {
        let (mut m, mut rng) = on_board("B:WK29,K30:BK3,K4", TimeControl::none());
        // Shuffle kings, always to the position seen least, so nothing repeats three times
        // before 40 moves each.
        let mut t = 0;
        while m.claimable_draw().is_none() {
            let g = &m.playing().unwrap().game;
            let pos = *g.position();
            let seen = |mv: &Move| {
                let after = pos.after(mv);
                g.positions().iter().filter(|p| **p == after).count()
            };
            let next = pos
                .distinct_moves()
                .into_iter()
                .min_by_key(|mv| (mv.is_capture(), pos.after(mv).must_capture(), seen(mv)))
                .unwrap();
            let c = Command::PlayMove {
                colour: pos.turn(),
                mv: next,
            };
            m.apply(c, at(t), &mut rng).unwrap();
            t += 1;
            assert!(t <= 200, "no claim after 200 plies");
        }
        assert_eq!(m.claimable_draw(), Some(DrawClaim::FortyMoves));
        assert_eq!(m.playing().unwrap().game.quiet_plies(), 80);
        let ev = m
            .apply(
                Command::ClaimDraw {
                    colour: Color::White,
                },
                at(t),
                &mut rng,
            )
            .unwrap();
        assert!(matches!(
            &ev[0].event,
            MatchEvent::GameEnded { result, .. } if result.reason == EndReason::FortyMoves
        ));
    }

    #[test]
    fn single_forced_jump_has_the_short_move_limit() {
        let (m, _) = on_board("B:W14,30:B9", TimeControl::per_move_classic());
        let r = m.clock_reading(60_000).unwrap();
        assert!(r.red.warning);
        assert!(m.flag_due(120_000).is_none());
        assert_eq!(
            m.flag_due(120_001).map(|f| f.kind),
            Some(FlagKind::MoveTime)
        );
    }

    #[test]
    fn game_start_on_a_lost_position_ends_at_once() {
        // Not reachable with real openings, but the check runs at every move and at the start.
        let (mut m, mut rng) = on_board("B:W29:B25,18", TimeControl::none());
        mv(&mut m, &mut rng, 1, "18-22");
        assert_eq!(m.phase(), Phase::Ready { ballot: 1, game: 2 });
        assert_eq!(m.awaiting(), Awaiting::GameStart { ballot: 1, game: 2 });
        assert_eq!(m.red_in(1, 2), Some(Player::Second));
    }

    /// As [`on_board`], in `game` with the strength rule `rule`.
    fn in_game(game: Rules, rule: StrengthRule, fen: &str) -> (Match, ChaCha8Rng) {
        let (mut m, rng) = on_board(fen, TimeControl::none());
        m.settings.game = game;
        m.settings.strength_rule = rule;
        let g = m.playing_mut().unwrap();
        g.game = Game::new(game, Position::from_fen_in(game, fen).unwrap());
        (m, rng)
    }

    /// A quiet move of the side to move that gives the opponent no capture and reaches a
    /// position not seen before (so no repetition cuts a count short).
    fn quiet_walk(m: &Match, seen: &mut Vec<Position>) -> Move {
        let pos = *m.playing().unwrap().game.position();
        let mv = pos
            .distinct_moves()
            .into_iter()
            .find(|mv| {
                let after = pos.after(mv);
                !mv.is_capture() && !after.must_capture() && !seen.contains(&after)
            })
            .expect("a quiet new move");
        seen.push(pos.after(&mv));
        mv
    }

    fn play(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, mv: Move) -> Vec<MatchEvent> {
        let colour = m.playing().unwrap().game.position().turn();
        events(m, rng, t, Command::PlayMove { colour, mv })
    }

    /// Until `done`, a draw claim by White is refused as not claimable, then a quiet new move
    /// is played `step` ms later; the time at the end (at most `max` ms).
    fn walk_until(
        m: &mut Match,
        rng: &mut ChaCha8Rng,
        (mut t, step, max): (u64, u64, u64),
        mut done: impl FnMut(&Match) -> bool,
    ) -> u64 {
        let claim = Command::ClaimDraw {
            colour: Color::White,
        };
        let mut seen = Vec::new();
        while !done(m) {
            assert!(matches!(
                m.apply(claim.clone(), at(t), rng),
                Err(MatchError::NotClaimable)
            ));
            t += step;
            let mv = quiet_walk(m, &mut seen);
            play(m, rng, t, mv);
            assert!(t < max, "the count did not run out in {max} ms");
        }
        t
    }

    #[test]
    fn the_thirteen_count_is_shown_and_claimed_when_it_runs_out() {
        // Three Red kings against White's lone king, off the long diagonal.
        let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::default(), "W:WK32:BK1,K2,K3");
        let mut last = 0;
        let t = walk_until(&mut m, &mut rng, (0, 1_000, 60_000), |m| {
            if m.claimable_draw().is_some() {
                return true;
            }
            let g = m.playing().unwrap();
            let count = g.game.thirteen_count().expect("the count runs");
            assert!(count.moves == last || count.moves == last + 1, "{count:?}");
            last = count.moves;
            false
        });
        let count = m.playing().unwrap().game.thirteen_count().unwrap();
        assert!(count.reached() && count.lone == Color::White, "{count:?}");
        assert!(count.limit == 13 || count.limit == 6);
        let claim = Command::ClaimDraw {
            colour: Color::White,
        };
        let r = result(&events(&mut m, &mut rng, t + 5, claim)).unwrap();
        assert_eq!(
            (r.outcome, r.reason.clone()),
            (Outcome::Draw, EndReason::ThirteenCount)
        );
        assert_eq!(r.to_string(), "draw by the 13-count");
    }

    #[test]
    fn the_strength_rule_thirty_eight_moves() {
        // Red: a king and a man (3); White: a lone king (2). White is weaker.
        let fen = "W:WK32:BK1,5";
        let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::ThirtyEight, fen);
        let ask = |c| Command::AskStrengthCount { colour: c };
        assert!(matches!(
            m.apply(ask(Color::Red), at(0), &mut rng),
            Err(MatchError::Strength(StrengthRefusal::NotWeaker))
        ));
        // Asked 10 ms into White's move: the record holds that thinking, and the clock counts it.
        let ev = events(&mut m, &mut rng, 10, ask(Color::White));
        let asked = MatchEvent::StrengthCountAsked {
            colour: Color::White,
            spent_ms: Some(10),
        };
        assert_eq!(ev, [asked]);
        assert_eq!(m.playing().unwrap().clock.counted_ms(), 10);
        assert!(matches!(
            m.apply(ask(Color::White), at(11), &mut rng),
            Err(MatchError::Strength(StrengthRefusal::Running))
        ));
        assert_eq!(
            m.strength_reading().map(|r| (r.moves, r.limit)),
            Some((0, 38))
        );
        let t = walk_until(&mut m, &mut rng, (100, 500, 100_000), |m| {
            m.strength_reading().is_some_and(|r| r.reached())
        });
        assert_eq!(m.strength_reading().unwrap().moves, 38);
        // Rule 27A grants no more moves.
        assert!(matches!(
            m.apply(Command::ExtendStrengthCount, at(t), &mut rng),
            Err(MatchError::Strength(StrengthRefusal::NotExtendable))
        ));
        let claim = Command::ClaimDraw {
            colour: Color::White,
        };
        let ev = events(&mut m, &mut rng, t + 1, claim);
        assert_eq!(result(&ev).unwrap().reason, EndReason::StrengthRule);
    }

    #[test]
    fn the_strength_rule_thirty_plus_eight_and_take_backs() {
        let fen = "W:WK32:BK1,5";
        let (mut m, mut rng) = in_game(Rules::Pool, StrengthRule::ThirtyPlusEight, fen);
        m.apply(
            Command::AskStrengthCount {
                colour: Color::White,
            },
            at(0),
            &mut rng,
        )
        .unwrap();
        // Not extendable before the 30 have run out.
        let one = |m: &Match| !m.playing().unwrap().moves.is_empty();
        let t = walk_until(&mut m, &mut rng, (0, 100, 1_000), one);
        assert!(matches!(
            m.apply(Command::ExtendStrengthCount, at(t), &mut rng),
            Err(MatchError::Strength(StrengthRefusal::NotExtendable))
        ));
        let t = walk_until(&mut m, &mut rng, (t, 100, 100_000), |m| {
            m.strength_reading().unwrap().reached()
        });
        assert_eq!(m.strength_reading().unwrap().moves, 30);
        let ev = events(&mut m, &mut rng, t + 7, Command::ExtendStrengthCount);
        let extended = MatchEvent::StrengthCountExtended { spent_ms: Some(7) };
        assert_eq!(ev, [extended]);
        assert_eq!(m.playing().unwrap().clock.counted_ms(), 7);
        let r = m.strength_reading().unwrap();
        assert_eq!((r.moves, r.limit, r.reached()), (30, 38, false));
        // A take-back to before the ask forgets the count.
        let plies = m.playing().unwrap().moves.len() as u32;
        m.apply(
            Command::TakeBack {
                moves: plies,
                reason: "mis-entry".into(),
            },
            at(t + 8),
            &mut rng,
        )
        .unwrap();
        assert_eq!(
            m.strength_reading().map(|r| r.moves),
            Some(0),
            "asked at ply 0: still counting from there"
        );
    }

    #[test]
    fn huffing_choices_with_the_clock() {
        let tc = TimeControl::sudden_death(600);
        let (mut m, mut rng) = on_board("B:W21-32:B1-12", tc.clone());
        m.settings.game = Rules::Huffing;
        {
            let g = m.playing_mut().unwrap();
            g.game = Game::new(Rules::Huffing, Position::start());
            g.clock = Clock::new(&tc, Color::Red);
            g.clock.start(Some(0), false).unwrap();
        }
        mv(&mut m, &mut rng, 10_000, "11-15");
        mv(&mut m, &mut rng, 20_000, "22-18");
        // Nothing neglected yet: no huff.
        assert!(matches!(
            m.apply(Command::Compel { colour: Color::Red }, at(20_500), &mut rng),
            Err(MatchError::Huff(_))
        ));
        let red_before = m.playing().unwrap().clock.side(Color::Red).remaining_ms;
        // Red neglects 15x22 and thinks 30 s about it.
        mv(&mut m, &mut rng, 50_000, "9-13");
        assert!(m.playing().unwrap().clock.side(Color::Red).remaining_ms < red_before);
        // White has it taken back: Red's clock reads as before 9-13, and Red must capture.
        let ev = m
            .apply(
                Command::Compel {
                    colour: Color::White,
                },
                at(51_000),
                &mut rng,
            )
            .unwrap();
        assert_eq!(ev[0].event, MatchEvent::Compelled);
        let g = m.playing().unwrap();
        assert_eq!(g.clock.side(Color::Red).remaining_ms, red_before);
        assert_eq!(g.game.position().turn(), Color::Red);
        assert_eq!(g.moves.len(), 2);
        assert!(matches!(
            m.apply(
                Command::Move {
                    colour: Color::Red,
                    text: "9-13".into()
                },
                at(52_000),
                &mut rng
            ),
            Err(MatchError::Move(_))
        ));
        mv(&mut m, &mut rng, 53_000, "15x22");
        // White neglects the recapture; Red huffs the piece that should have taken.
        mv(&mut m, &mut rng, 54_000, "24-20");
        let chance = m.playing().unwrap().game.huff_chance().unwrap();
        let sq = crate::engine::squares(chance.huffable).next().unwrap();
        assert!(matches!(
            m.apply(
                Command::Huff {
                    colour: Color::White,
                    square: sq
                },
                at(55_000),
                &mut rng
            ),
            Err(MatchError::NotYourTurn { .. })
        ));
        let ev = m
            .apply(
                Command::Huff {
                    colour: Color::Red,
                    square: sq,
                },
                at(55_000),
                &mut rng,
            )
            .unwrap();
        assert_eq!(
            ev[0].event,
            MatchEvent::Huffed {
                square: sq,
                spent_ms: Some(1_000)
            }
        );
        let g = m.playing().unwrap();
        assert!(g.game.position().piece_at(sq).is_none());
        assert_eq!(g.game.pending().huffed, Some(sq));
        // The huff made, Red moves as usual.
        let red_mv = g.game.position().distinct_moves()[0];
        play(&mut m, &mut rng, 56_000, red_mv);
        assert_eq!(m.playing().unwrap().game.prelude(4).huffed, Some(sq));
    }
}
