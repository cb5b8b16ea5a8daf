//! The records a match keeps: its phase, games, ballots and moves, what it awaits, and its
//! errors.

use crate::director::clock::{Clock, ClockError};
use crate::director::command::{CoinSide, CommandKind, Hand};
use crate::director::event::GameResult;
use crate::director::limits;
use crate::director::settings::{ColourMethod, Player, SettingsError, StrengthRule};
use crate::engine::{Color, Game, HuffError, Move, MoveError};
use crate::openings::{Draw, DrawStep, Opening, OpeningError};
use chrono::{DateTime, Utc};
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
    /// [`Command::UndoDecision`](crate::director::Command::UndoDecision) brings back.
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
    pub(super) fn forget_strength_count_past_the_end(&mut self) {
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
