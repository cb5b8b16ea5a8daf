//! The match state machine: [`Match`], driven by [`Command`]s through [`Match::apply`].
//!
//! Flow: colour choice (once) -> for each ballot: draw -> accept/reject (White first) -> game 1
//! -> game 2 (colours reversed) -> ... -> finished (with tie-break ballots if the tie rule says
//! so). Every change is an [`Event`] appended to the match's log with a wall-clock stamp.
//! Time comes in as [`Now`], randomness as an `rng` argument; what the rng decided (coin side,
//! cards) is recorded, so a match read back never rolls again.

use super::clock::{Clock, ClockError, ClockReading, ClockState, Commit, Flag, FlagKind};
use super::settings::{
    ColourMethod, MatchSettings, Player, Points, RejectionPolicy, SettingsError, TieRule,
};
use crate::engine::{
    Color, DrawClaim, Game, Move, MoveError, Outcome, Position, Rules, parse_move,
};
use crate::openings::{self, Draw, DrawStep, Opening, OpeningError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
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

/// The two faces of a coin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoinSide {
    /// Heads.
    Heads,
    /// Tails.
    Tails,
}

/// A concealed hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hand {
    /// The left hand.
    Left,
    /// The right hand.
    Right,
}

/// Where the match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "phase"
)]
pub enum Phase {
    /// Choosing colours: waiting for the toss (`chooser` none) or for the toss winner's choice.
    ColourChoice {
        /// The player who won the toss and now chooses.
        #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// What a command asks. Colours in player commands are the colours of the current game (for
/// accept/reject: of game one of the ballot).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "command"
)]
pub enum Command {
    /// Coin flip: `caller` calls a side; the rng flips. The winner then chooses a colour.
    CallCoin {
        /// Who calls.
        caller: Player,
        /// The call.
        call: CoinSide,
    },
    /// Bag: `player` draws a colour from the bag (rng) and takes it.
    DrawColour {
        /// Who draws.
        player: Player,
    },
    /// Concealed hands: `player` picks a hand (the rng hid the pieces) and takes the colour.
    PickHand {
        /// Who picks.
        player: Player,
        /// The hand picked.
        hand: Hand,
    },
    /// The toss winner chooses the colour they play in game one of ballot one.
    ChooseColour {
        /// The toss winner.
        player: Player,
        /// The colour chosen.
        colour: Color,
    },
    /// Director: `player` plays `colour` in game one of ballot one (any colour-choice step).
    AssignColour {
        /// The player.
        player: Player,
        /// The colour.
        colour: Color,
    },
    /// Draw the next ballot (rng).
    DrawBallot,
    /// The player with `colour` accepts the drawn ballot.
    Accept {
        /// White first, then Red.
        colour: Color,
    },
    /// The player with `colour` rejects the drawn ballot.
    Reject {
        /// White first, then Red.
        colour: Color,
    },
    /// Start the game that is ready: the clock of the side to move starts.
    StartGame,
    /// The player with `colour` plays a move typed in notation (`11-15`, `15x24`).
    Move {
        /// The mover.
        colour: Color,
        /// The move as typed.
        text: String,
    },
    /// The player with `colour` plays a move given as a [`Move`].
    PlayMove {
        /// The mover.
        colour: Color,
        /// The move.
        mv: Move,
    },
    /// Offer a draw.
    OfferDraw {
        /// Who offers.
        colour: Color,
    },
    /// Accept the opponent's draw offer.
    AcceptDraw {
        /// Who accepts.
        colour: Color,
    },
    /// Decline the opponent's draw offer.
    DeclineDraw {
        /// Who declines.
        colour: Color,
    },
    /// Claim a draw by repetition or the 40-move rule (only when the rules allow it now).
    ClaimDraw {
        /// Who claims.
        colour: Color,
    },
    /// Resign the current game.
    Resign {
        /// Who resigns.
        colour: Color,
    },
    /// Check the clock: ends the game if a flag has fallen, or calls "Time" once when the
    /// per-move limit is reached. Never fails; no events if nothing happened.
    Tick,
    /// Director: the side with `loser` forfeits the current game, or the last finished one
    /// (amending its result) if the next game has not started.
    Forfeit {
        /// The colour that loses.
        loser: Color,
        /// Why.
        reason: String,
    },
    /// Director: decide the current game, or amend the last finished one (e.g. overrule a
    /// flag) if the next game has not started.
    Adjudicate {
        /// The result.
        outcome: Outcome,
        /// Why.
        reason: String,
    },
    /// Director: take back the last `moves` moves (plies) of the current game, or of the last
    /// finished one (reopening it, clocks paused) if the next game has not started. Clocks go
    /// back to their readings before those moves.
    TakeBack {
        /// How many moves; 0 only reopens a finished game.
        moves: u32,
        /// Why (illegal move, mis-entry...).
        reason: String,
    },
    /// Director: pause both clocks (a dispute).
    PauseClocks {
        /// Why.
        reason: String,
    },
    /// Director: resume the clocks.
    ResumeClocks,
    /// Director: add (positive) or remove (negative) time.
    AdjustTime {
        /// Whose clock.
        colour: Color,
        /// Milliseconds to add.
        delta_ms: i64,
        /// Why.
        reason: String,
    },
    /// Anyone: a note for the record.
    Note {
        /// The text.
        text: String,
    },
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum EndReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser cannot move.
    Blocked,
    /// The loser resigned.
    Resigned,
    /// Draw by agreement.
    Agreed,
    /// Draw claimed: threefold repetition.
    Repetition,
    /// Draw claimed: 40-move rule.
    FortyMoves,
    /// Draw claimed: the pool 13-count ran out (the lone king was not caught).
    ThirteenCount,
    /// Lost on time.
    Time {
        /// Game time or per-move limit.
        flag: FlagKind,
    },
    /// Forfeited by the director's decision.
    Forfeit {
        /// The director's reason.
        note: String,
    },
    /// Adjudicated by the director.
    Adjudicated {
        /// The director's reason.
        note: String,
    },
}

/// A game's result and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GameResult {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why.
    pub reason: EndReason,
}

impl GameResult {
    /// The PDN result string from Red's (PDN "Black"'s) side: "1-0", "0-1", "1/2-1/2".
    pub fn pdn(&self) -> &'static str {
        match self.outcome {
            Outcome::Win(Color::Red) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    /// E.g. "White wins: Red resigned", "draw: repetition", "Red wins on time (game clock)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            Outcome::Win(c) => write!(f, "{c} wins")?,
            Outcome::Draw => f.write_str("draw")?,
        }
        let loser = match self.outcome {
            Outcome::Win(c) => c.opponent().name(),
            Outcome::Draw => "",
        };
        match &self.reason {
            EndReason::NoPieces => write!(f, ": {loser} has no pieces left"),
            EndReason::Blocked => write!(f, ": {loser} cannot move"),
            EndReason::Resigned => write!(f, ": {loser} resigned"),
            EndReason::Agreed => f.write_str(" by agreement"),
            EndReason::Repetition => f.write_str(" by repetition"),
            EndReason::FortyMoves => f.write_str(" by the 40-move rule"),
            EndReason::ThirteenCount => f.write_str(" by the 13-count"),
            EndReason::Time {
                flag: FlagKind::GameTime,
            } => write!(f, " on time: {loser}'s flag fell"),
            EndReason::Time {
                flag: FlagKind::MoveTime,
            } => write!(f, " on time: {loser} exceeded the move limit"),
            EndReason::Forfeit { note } => write!(f, ": {loser} forfeits ({note})"),
            EndReason::Adjudicated { note } => write!(f, ", adjudicated ({note})"),
        }
    }
}

/// One committed move with its clock figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub colour: Color,
    /// Time spent on the move (pauses excluded), ms.
    pub spent_ms: u64,
    /// The mover's game time left after the move, increments and new periods included; none
    /// without a game clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<i64>,
    /// The period (1-based) the mover is in after the move.
    pub period: u32,
    /// When it was committed.
    pub at: DateTime<Utc>,
}

/// One game of a ballot: everything a PDN export needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<DateTime<Utc>>,
    /// The result, once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct RejectedBallot {
    /// The ballot number it was drawn for.
    pub ballot: u32,
    /// The opening.
    pub opening: Opening,
    /// The cards drawn.
    pub steps: Vec<DrawStep>,
}

/// How the match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decided {
    /// On points.
    Score,
    /// Level on points: the holder retains the title.
    HolderRetains,
    /// Level on points: a tie.
    Tie,
}

/// The match's final result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MatchOutcome {
    /// The winner, none for a tie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Player>,
    /// How it was decided.
    pub decided: Decided,
    /// Final match points, first and second player.
    pub points: [Points; 2],
}

/// Something that happened, as recorded in the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "event"
)]
pub enum Event {
    /// The match was set up.
    MatchCreated,
    /// A coin was flipped.
    CoinFlipped {
        /// Who called.
        caller: Player,
        /// The call.
        call: CoinSide,
        /// How it landed.
        landed: CoinSide,
        /// Who won the toss and chooses.
        winner: Player,
    },
    /// A colour was drawn from the bag.
    ColourDrawn {
        /// Who drew.
        player: Player,
        /// What came out.
        colour: Color,
    },
    /// A concealed hand was picked.
    HandPicked {
        /// Who picked.
        player: Player,
        /// Which hand.
        hand: Hand,
        /// The colour in it.
        colour: Color,
    },
    /// Colours are settled: `red` plays Red in game one of ballot one; Red then alternates.
    ColoursSet {
        /// Red in game one of ballot one.
        red: Player,
        /// Assigned by the director.
        by_director: bool,
    },
    /// A ballot was drawn.
    BallotDrawn {
        /// Ballot number.
        ballot: u32,
        /// The opening.
        opening: Opening,
        /// The cards, in order.
        steps: Vec<DrawStep>,
    },
    /// A player accepted the ballot (the ballot will be played).
    BallotAccepted {
        /// Ballot number.
        ballot: u32,
        /// In game one's colours; none when the policy plays every ballot.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colour: Option<Color>,
    },
    /// A player rejected the ballot.
    BallotRejected {
        /// Ballot number.
        ballot: u32,
        /// In game one's colours.
        colour: Color,
        /// Who.
        player: Player,
    },
    /// Both rejected: a new ballot will be drawn.
    BallotDiscarded {
        /// Ballot number.
        ballot: u32,
        /// The rejected opening's number in its system.
        number: u32,
    },
    /// A game's clock started.
    GameStarted {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// Who has Red.
        red: Player,
    },
    /// A move was committed in time.
    MovePlayed {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The move and its clock figures.
        record: MoveRecord,
    },
    /// A draw was offered.
    DrawOffered {
        /// By.
        colour: Color,
    },
    /// A draw offer was declined (explicitly or by moving).
    DrawDeclined {
        /// By.
        colour: Color,
    },
    /// A game ended.
    GameEnded {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The result.
        result: GameResult,
    },
    /// The director changed a finished game's result.
    ResultAmended {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The result before.
        previous: GameResult,
        /// The new result.
        result: GameResult,
    },
    /// The director took back moves (and reopened the game if it had ended).
    MovesTakenBack {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The moves taken back, in the order they were played.
        moves: Vec<Move>,
        /// The result the game had, if it was reopened.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reopened: Option<GameResult>,
        /// Why.
        reason: String,
    },
    /// "Time" called: the side to move reached the per-move limit; the move is lost when the
    /// grace runs out (noticed by [`Command::Tick`]).
    TimeCalled {
        /// The side to move.
        colour: Color,
    },
    /// Clocks paused.
    ClocksPaused {
        /// Why.
        reason: String,
    },
    /// Clocks resumed.
    ClocksResumed,
    /// Time added or removed.
    TimeAdjusted {
        /// Whose clock.
        colour: Color,
        /// Milliseconds added (negative: removed).
        delta_ms: i64,
        /// Time left afterwards, ms.
        remaining_ms: i64,
        /// Why.
        reason: String,
    },
    /// The score was level after the planned ballots: one more ballot is played.
    ExtraBallot {
        /// Its number.
        ballot: u32,
    },
    /// The match is over.
    MatchFinished {
        /// The result.
        outcome: MatchOutcome,
    },
    /// The director's or a player's note.
    Note {
        /// The text.
        text: String,
    },
    /// The match was read back and resumed (clocks held at their last saved state).
    Resumed {
        /// A game clock was running and is now paused.
        clocks_paused: bool,
    },
}

/// One log entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Entry {
    /// Position in the log, from 0.
    pub seq: u64,
    /// Wall-clock time.
    pub at: DateTime<Utc>,
    /// What happened.
    pub event: Event,
}

/// A command that does not fit the match's state. Nothing has changed.
#[derive(Debug, Error)]
pub enum MatchError {
    /// Not now: the command does not fit the phase.
    #[error("cannot {what} now: {status}")]
    NotNow {
        /// What was asked.
        what: &'static str,
        /// What the match waits for.
        status: String,
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
    #[error("the clocks are paused: resume them first")]
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
    /// A clock operation refused.
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// The draw failed (nothing left to draw).
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// Empty text where a reason or note is needed.
    #[error("a {0} is needed")]
    EmptyText(&'static str),
    /// Settings refused when creating a match.
    #[error(transparent)]
    Settings(#[from] SettingsError),
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

/// Points of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameScore {
    /// Ballot number.
    pub ballot: u32,
    /// 1 or 2.
    pub game: u8,
    /// Who had Red.
    pub red: Player,
    /// The result, none while playing.
    pub result: Option<GameResult>,
    /// Points, first and second player.
    pub points: [Points; 2],
}

/// Points of one ballot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BallotScore {
    /// Ballot number.
    pub ballot: u32,
    /// The opening's label.
    pub opening: String,
    /// Game points over its games, first and second player.
    pub games: [Points; 2],
    /// Both games finished.
    pub complete: bool,
    /// Mini-match points when ballots are scored and the ballot is complete.
    pub mini: Option<[Points; 2]>,
}

/// Wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The score by game, by ballot and in total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreTable {
    /// Every started game in order.
    pub games: Vec<GameScore>,
    /// Every accepted ballot in order.
    pub ballots: Vec<BallotScore>,
    /// Match points (ballot points if ballots are scored, else game points), first and second.
    pub total: [Points; 2],
    /// Game record, first and second player.
    pub record: [Wdl; 2],
}

/// A whole match: settings, phase, ballots with their games and clocks, and the event log.
///
/// Serialisable (TOML-friendly); a match read back must be [`Match::resume`]d before play
/// continues (its clocks are held at their last saved state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Match {
    settings: MatchSettings,
    phase: Phase,
    /// Red in game one of ballot one, once colours are chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    red_first: Option<Player>,
    /// The ballot drawn and awaiting decisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Draw>,
    ballots: Vec<BallotRecord>,
    rejected: Vec<RejectedBallot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw_offer: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<MatchOutcome>,
    log: Vec<Entry>,
}

fn need(text: &str, what: &'static str) -> Result<(), MatchError> {
    if text.trim().is_empty() {
        Err(MatchError::EmptyText(what))
    } else {
        Ok(())
    }
}

/// True if the side to move's only move is one jump (the per-move limit is shorter).
fn single_jump(pos: &Position) -> bool {
    let moves = pos.distinct_moves();
    moves.len() == 1 && moves[0].is_capture()
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
        m.record(vec![Event::MatchCreated], now);
        Ok(m)
    }

    /// Apply a command at `now`, with `rng` for coin, bag, hands and ballot draws. Returns the
    /// new log entries; on error nothing has changed.
    pub fn apply<R: rand::Rng + ?Sized>(
        &mut self,
        cmd: Command,
        now: Now,
        rng: &mut R,
    ) -> Result<Vec<Entry>, MatchError> {
        // Work on a copy (without the log, which only grows) so a failure leaves no trace.
        let log = std::mem::take(&mut self.log);
        let mut next = self.clone();
        self.log = log;
        let events = next.step(cmd, now, rng)?;
        next.log = std::mem::take(&mut self.log);
        *self = next;
        Ok(self.record(events, now))
    }

    /// Call after reading a match back: holds a running game clock at its last saved state
    /// (paused; the director resumes it) and records the resumption.
    pub fn resume(&mut self, now: Now) -> Vec<Entry> {
        let mut clocks_paused = false;
        if let Some(g) = self.playing_mut()
            && g.clock.state() == ClockState::Running
        {
            g.clock.hold();
            clocks_paused = true;
        }
        self.record(vec![Event::Resumed { clocks_paused }], now)
    }

    fn record(&mut self, events: Vec<Event>, now: Now) -> Vec<Entry> {
        let start = self.log.len();
        for event in events {
            self.log.push(Entry {
                seq: self.log.len() as u64,
                at: now.wall,
                event,
            });
        }
        self.log[start..].to_vec()
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
    pub fn log(&self) -> &[Entry] {
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
        self.settings
            .ballots
            .max(current)
            .max(self.ballots.len() as u32)
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

    /// The clocks of the game being played at `now_ms`.
    pub fn clock_reading(&self, now_ms: u64) -> Option<ClockReading> {
        self.playing().map(|g| g.clock.reading(now_ms))
    }

    /// The flag that has fallen by `now_ms` in the game being played, without changing anything
    /// (apply [`Command::Tick`] to act on it).
    pub fn flag_due(&self, now_ms: u64) -> Option<Flag> {
        self.playing().and_then(|g| g.clock.check_flag(now_ms))
    }

    /// The draw the rules allow claiming now in the game being played.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        self.playing().and_then(|g| g.game.claimable_draw())
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

    /// A one-line status for the UI: what happens next, with names.
    pub fn status(&self) -> String {
        let n = |p: Player| self.name(p).to_string();
        match self.awaiting() {
            Awaiting::Toss(ColourMethod::CoinFlip) => {
                "colour choice: a player calls the coin".into()
            }
            Awaiting::Toss(ColourMethod::Bag) => {
                "colour choice: a player draws from the bag".into()
            }
            Awaiting::Toss(ColourMethod::ConcealedHands) => {
                "colour choice: a player picks a hand".into()
            }
            Awaiting::Toss(ColourMethod::DirectorAssigns) => {
                "colour choice: the director assigns colours".into()
            }
            Awaiting::ColourChoice(p) => format!("{} won the toss and chooses a colour", n(p)),
            Awaiting::BallotDraw(b) => format!("ballot {b}: draw the ballot"),
            Awaiting::Decision {
                ballot,
                colour,
                player,
            } => format!(
                "ballot {ballot}: {} ({colour}) accepts or rejects",
                n(player)
            ),
            Awaiting::GameStart { ballot, game } => {
                let red = self.red_in(ballot, game).unwrap_or(Player::First);
                format!(
                    "ballot {ballot}, game {game}: {} (Red) v {} (White), start the clock",
                    n(red),
                    n(red.other())
                )
            }
            Awaiting::Move { colour, player } => {
                let (b, g) = self.game_id().unwrap_or((0, 0));
                format!("ballot {b}, game {g}: {} ({colour}) to move", n(player))
            }
            Awaiting::Resume => "clocks paused: the director resumes them".into(),
            Awaiting::Nothing => match self.outcome {
                Some(MatchOutcome {
                    winner: Some(p),
                    decided: Decided::HolderRetains,
                    points,
                }) => format!(
                    "match over: tied {}-{}, {} retains",
                    points[0],
                    points[1],
                    n(p)
                ),
                Some(MatchOutcome {
                    winner: Some(p),
                    points,
                    ..
                }) => format!("match over: {} wins {}-{}", n(p), points[0], points[1]),
                Some(MatchOutcome { points, .. }) => {
                    format!("match over: tied {}-{}", points[0], points[1])
                }
                None => "match over".into(),
            },
        }
    }

    fn game_id(&self) -> Option<(u32, u8)> {
        match self.phase {
            Phase::Ready { ballot, game } | Phase::Playing { ballot, game } => Some((ballot, game)),
            _ => None,
        }
    }

    /// The score by game, by ballot and in total.
    pub fn score(&self) -> ScoreTable {
        let gp = self.settings.scoring.game;
        let mut games = Vec::new();
        let mut ballots = Vec::new();
        let mut record = [Wdl::default(); 2];
        let mut game_total = [Points::ZERO; 2];
        let mut ballot_total = [Points::ZERO; 2];
        for b in &self.ballots {
            let mut sum = [Points::ZERO; 2];
            for g in &b.games {
                let mut points = [Points::ZERO; 2];
                if let Some(r) = &g.result {
                    match r.outcome {
                        Outcome::Win(c) => {
                            let w = g.player(c);
                            points[w.index()] = gp.win();
                            record[w.index()].wins += 1;
                            record[w.other().index()].losses += 1;
                        }
                        Outcome::Draw => {
                            points = [gp.draw(); 2];
                            record[0].draws += 1;
                            record[1].draws += 1;
                        }
                    }
                }
                for i in 0..2 {
                    sum[i] += points[i];
                }
                games.push(GameScore {
                    ballot: b.number,
                    game: g.number,
                    red: g.red,
                    result: g.result.clone(),
                    points,
                });
            }
            let complete = b.games.len() == 2 && b.games.iter().all(|g| g.result.is_some());
            let mini = (self.settings.scoring.per_ballot && complete).then(|| {
                use std::cmp::Ordering::*;
                match sum[0].cmp(&sum[1]) {
                    Greater => [gp.win(), Points::ZERO],
                    Less => [Points::ZERO, gp.win()],
                    Equal => [gp.draw(); 2],
                }
            });
            for i in 0..2 {
                game_total[i] += sum[i];
                ballot_total[i] += mini.map_or(Points::ZERO, |m| m[i]);
            }
            ballots.push(BallotScore {
                ballot: b.number,
                opening: b.opening.name.clone(),
                games: sum,
                complete,
                mini,
            });
        }
        ScoreTable {
            games,
            ballots,
            total: if self.settings.scoring.per_ballot {
                ballot_total
            } else {
                game_total
            },
            record,
        }
    }

    // ----- the machine -----

    fn not_now(&self, what: &'static str) -> MatchError {
        MatchError::NotNow {
            what,
            status: self.status(),
        }
    }

    fn step<R: rand::Rng + ?Sized>(
        &mut self,
        cmd: Command,
        now: Now,
        rng: &mut R,
    ) -> Result<Vec<Event>, MatchError> {
        let method = self.settings.colour_method;
        match cmd {
            Command::CallCoin { caller, call } => {
                self.expect_toss(ColourMethod::CoinFlip, "call the coin")?;
                let landed = if rng.next_u32() % 2 == 0 {
                    CoinSide::Heads
                } else {
                    CoinSide::Tails
                };
                let winner = if landed == call {
                    caller
                } else {
                    caller.other()
                };
                self.phase = Phase::ColourChoice {
                    chooser: Some(winner),
                };
                Ok(vec![Event::CoinFlipped {
                    caller,
                    call,
                    landed,
                    winner,
                }])
            }
            Command::DrawColour { player } => {
                self.expect_toss(ColourMethod::Bag, "draw from the bag")?;
                let colour = if rng.next_u32() % 2 == 0 {
                    Color::Red
                } else {
                    Color::White
                };
                let mut ev = vec![Event::ColourDrawn { player, colour }];
                ev.extend(self.set_colours(player, colour, false));
                Ok(ev)
            }
            Command::PickHand { player, hand } => {
                self.expect_toss(ColourMethod::ConcealedHands, "pick a hand")?;
                let red_hand = if rng.next_u32() % 2 == 0 {
                    Hand::Left
                } else {
                    Hand::Right
                };
                let colour = if hand == red_hand {
                    Color::Red
                } else {
                    Color::White
                };
                let mut ev = vec![Event::HandPicked {
                    player,
                    hand,
                    colour,
                }];
                ev.extend(self.set_colours(player, colour, false));
                Ok(ev)
            }
            Command::ChooseColour { player, colour } => match self.phase {
                Phase::ColourChoice {
                    chooser: Some(p), ..
                } if p == player => Ok(self.set_colours(player, colour, false)),
                Phase::ColourChoice { chooser: Some(_) } => Err(self.not_now("choose a colour")),
                Phase::ColourChoice { chooser: None } if method == ColourMethod::CoinFlip => {
                    Err(self.not_now("choose a colour"))
                }
                Phase::ColourChoice { chooser: None } => Err(MatchError::WrongMethod(method)),
                _ => Err(self.not_now("choose a colour")),
            },
            Command::AssignColour { player, colour } => match self.phase {
                Phase::ColourChoice { .. } => Ok(self.set_colours(player, colour, true)),
                _ => Err(self.not_now("assign colours")),
            },
            Command::DrawBallot => self.draw_ballot(rng),
            Command::Accept { colour } => self.decide(colour, true),
            Command::Reject { colour } => self.decide(colour, false),
            Command::StartGame => self.start_game(now),
            Command::Move { colour, text } => {
                let g = self.playing().ok_or_else(|| self.not_now("play a move"))?;
                let turn = g.game.position().turn();
                if colour != turn {
                    return Err(MatchError::NotYourTurn {
                        expected: turn,
                        got: colour,
                    });
                }
                if g.clock.is_paused() {
                    return Err(MatchError::Paused);
                }
                let mv = parse_move(g.game.position(), &text)?;
                self.play(colour, mv, now)
            }
            Command::PlayMove { colour, mv } => self.play(colour, mv, now),
            Command::OfferDraw { colour } => {
                self.playing().ok_or_else(|| self.not_now("offer a draw"))?;
                if let Some(c) = self.draw_offer {
                    return Err(MatchError::OfferPending(c));
                }
                self.draw_offer = Some(colour);
                Ok(vec![Event::DrawOffered { colour }])
            }
            Command::AcceptDraw { colour } => {
                self.playing()
                    .ok_or_else(|| self.not_now("accept a draw"))?;
                if self.draw_offer != Some(colour.opponent()) {
                    return Err(MatchError::NoOffer(colour.opponent()));
                }
                Ok(self.end_game(
                    GameResult {
                        outcome: Outcome::Draw,
                        reason: EndReason::Agreed,
                    },
                    now,
                ))
            }
            Command::DeclineDraw { colour } => {
                self.playing()
                    .ok_or_else(|| self.not_now("decline a draw"))?;
                if self.draw_offer != Some(colour.opponent()) {
                    return Err(MatchError::NoOffer(colour.opponent()));
                }
                self.draw_offer = None;
                Ok(vec![Event::DrawDeclined { colour }])
            }
            Command::ClaimDraw { colour: _ } => {
                let g = self.playing().ok_or_else(|| self.not_now("claim a draw"))?;
                let reason = match g.game.claimable_draw() {
                    Some(DrawClaim::Repetition) => EndReason::Repetition,
                    Some(DrawClaim::FortyMoves) => EndReason::FortyMoves,
                    Some(DrawClaim::ThirteenCount) => EndReason::ThirteenCount,
                    None => return Err(MatchError::NotClaimable),
                };
                Ok(self.end_game(
                    GameResult {
                        outcome: Outcome::Draw,
                        reason,
                    },
                    now,
                ))
            }
            Command::Resign { colour } => {
                self.playing().ok_or_else(|| self.not_now("resign"))?;
                Ok(self.end_game(
                    GameResult {
                        outcome: Outcome::Win(colour.opponent()),
                        reason: EndReason::Resigned,
                    },
                    now,
                ))
            }
            Command::Tick => match self.flag_due(now.mono_ms) {
                Some(flag) => Ok(self.flag(flag, now)),
                None => Ok(self
                    .playing_mut()
                    .and_then(|g| g.clock.call_time(now.mono_ms))
                    .map(|colour| Event::TimeCalled { colour })
                    .into_iter()
                    .collect()),
            },
            Command::Forfeit { loser, reason } => {
                need(&reason, "reason")?;
                self.decide_game(
                    GameResult {
                        outcome: Outcome::Win(loser.opponent()),
                        reason: EndReason::Forfeit { note: reason },
                    },
                    now,
                    "declare a forfeit",
                )
            }
            Command::Adjudicate { outcome, reason } => {
                need(&reason, "reason")?;
                self.decide_game(
                    GameResult {
                        outcome,
                        reason: EndReason::Adjudicated { note: reason },
                    },
                    now,
                    "adjudicate",
                )
            }
            Command::TakeBack { moves, reason } => {
                need(&reason, "reason")?;
                self.take_back(moves, reason, now)
            }
            Command::PauseClocks { reason } => {
                need(&reason, "reason")?;
                let g = self
                    .playing_mut()
                    .ok_or(MatchError::Clock(ClockError::NotRunning))?;
                if g.clock.is_paused() {
                    return Err(MatchError::Paused);
                }
                g.clock.pause(now.mono_ms)?;
                Ok(vec![Event::ClocksPaused { reason }])
            }
            Command::ResumeClocks => {
                let g = self
                    .playing_mut()
                    .ok_or(MatchError::Clock(ClockError::NotRunning))?;
                g.clock.resume(now.mono_ms)?;
                Ok(vec![Event::ClocksResumed])
            }
            Command::AdjustTime {
                colour,
                delta_ms,
                reason,
            } => {
                need(&reason, "reason")?;
                let g = self
                    .playing_mut()
                    .ok_or(MatchError::Clock(ClockError::NotRunning))?;
                let remaining_ms = g.clock.adjust(colour, delta_ms)?;
                Ok(vec![Event::TimeAdjusted {
                    colour,
                    delta_ms,
                    remaining_ms,
                    reason,
                }])
            }
            Command::Note { text } => {
                need(&text, "note")?;
                Ok(vec![Event::Note { text }])
            }
        }
    }

    fn expect_toss(&self, method: ColourMethod, what: &'static str) -> Result<(), MatchError> {
        match self.phase {
            Phase::ColourChoice { chooser: None } if self.settings.colour_method == method => {
                Ok(())
            }
            Phase::ColourChoice { chooser: None } => {
                Err(MatchError::WrongMethod(self.settings.colour_method))
            }
            _ => Err(self.not_now(what)),
        }
    }

    fn set_colours(&mut self, player: Player, colour: Color, by_director: bool) -> Vec<Event> {
        let red = if colour == Color::Red {
            player
        } else {
            player.other()
        };
        self.red_first = Some(red);
        self.phase = Phase::Draw { ballot: 1 };
        vec![Event::ColoursSet { red, by_director }]
    }

    fn draw_ballot<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Result<Vec<Event>, MatchError> {
        let Phase::Draw { ballot } = self.phase else {
            return Err(self.not_now("draw a ballot"));
        };
        let mut settings = self.settings.openings.clone();
        if self.settings.rejection == RejectionPolicy::AllExceptManDown {
            settings.exclude_man_down = true;
        }
        let drawn: Vec<Opening> = self
            .ballots
            .iter()
            .map(|b| b.opening.clone())
            .chain(self.rejected.iter().map(|r| r.opening.clone()))
            .collect();
        let draw = openings::draw(&settings, &drawn, rng)?;
        let mut ev = vec![Event::BallotDrawn {
            ballot,
            opening: draw.opening.clone(),
            steps: draw.steps.clone(),
        }];
        if self.settings.rejection == RejectionPolicy::PlayersMayReject {
            self.pending = Some(draw);
            self.phase = Phase::Decide {
                ballot,
                by: Color::White,
            };
        } else {
            ev.push(Event::BallotAccepted {
                ballot,
                colour: None,
            });
            self.accept_ballot(ballot, draw);
        }
        Ok(ev)
    }

    fn accept_ballot(&mut self, ballot: u32, draw: Draw) {
        let red_first = self.red_in(ballot, 1).unwrap_or(Player::First);
        self.ballots.push(BallotRecord {
            number: ballot,
            opening: draw.opening,
            steps: draw.steps,
            red_first,
            games: Vec::new(),
        });
        self.phase = Phase::Ready { ballot, game: 1 };
    }

    fn decide(&mut self, colour: Color, accept: bool) -> Result<Vec<Event>, MatchError> {
        let what = if accept {
            "accept a ballot"
        } else {
            "reject a ballot"
        };
        let Phase::Decide { ballot, by } = self.phase else {
            return Err(self.not_now(what));
        };
        if colour != by {
            return Err(MatchError::NotYourTurn {
                expected: by,
                got: colour,
            });
        }
        let Some(draw) = self.pending.take() else {
            return Err(self.not_now(what));
        };
        if accept {
            self.accept_ballot(ballot, draw);
            return Ok(vec![Event::BallotAccepted {
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
        let mut ev = vec![Event::BallotRejected {
            ballot,
            colour,
            player,
        }];
        if colour == Color::White {
            self.pending = Some(draw);
            self.phase = Phase::Decide {
                ballot,
                by: Color::Red,
            };
        } else {
            ev.push(Event::BallotDiscarded {
                ballot,
                number: draw.opening.number,
            });
            self.rejected.push(RejectedBallot {
                ballot,
                opening: draw.opening,
                steps: draw.steps,
            });
            self.phase = Phase::Draw { ballot };
        }
        Ok(ev)
    }

    fn start_game(&mut self, now: Now) -> Result<Vec<Event>, MatchError> {
        let Phase::Ready { ballot, game } = self.phase else {
            return Err(self.not_now("start a game"));
        };
        let red = self.red_in(ballot, game).unwrap_or(Player::First);
        let (red_name, white_name) = (
            self.name(red).to_string(),
            self.name(red.other()).to_string(),
        );
        let control = self.settings.time_control.clone();
        let b = self.ballots.last_mut().ok_or_else(|| MatchError::NotNow {
            what: "start a game",
            status: "no ballot".into(),
        })?;
        let start = b.opening.position;
        let mut clock = Clock::new(&control, start.turn());
        clock.start(now.mono_ms, single_jump(&start))?;
        b.games.push(GameRecord {
            ballot,
            number: game,
            opening: b.opening.clone(),
            red,
            red_name,
            white_name,
            game: Game::new(Rules::English, start),
            moves: Vec::new(),
            clock,
            started: now.wall,
            finished: None,
            result: None,
        });
        self.phase = Phase::Playing { ballot, game };
        self.draw_offer = None;
        let mut ev = vec![Event::GameStarted { ballot, game, red }];
        ev.extend(self.board_result(now));
        Ok(ev)
    }

    fn play(&mut self, colour: Color, mv: Move, now: Now) -> Result<Vec<Event>, MatchError> {
        let Phase::Playing { ballot, game } = self.phase else {
            return Err(self.not_now("play a move"));
        };
        let g = self.playing_mut().ok_or(MatchError::Paused)?;
        let turn = g.game.position().turn();
        if colour != turn {
            return Err(MatchError::NotYourTurn {
                expected: turn,
                got: colour,
            });
        }
        if g.clock.is_paused() {
            return Err(MatchError::Paused);
        }
        // Legality first (an illegal entry changes nothing), then the clock.
        let mut trial = g.game.clone();
        trial.play(&mv)?;
        let after = *trial.position();
        let clock = match g.clock.commit(now.mono_ms, single_jump(&after))? {
            Commit::Flag(flag) => return Ok(self.flag(flag, now)),
            Commit::Moved(c) => c,
        };
        g.game = trial;
        let record = MoveRecord {
            mv,
            colour,
            spent_ms: clock.spent_ms,
            remaining_ms: clock.remaining_ms,
            period: clock.period,
            at: now.wall,
        };
        g.moves.push(record.clone());
        let mut ev = vec![Event::MovePlayed {
            ballot,
            game,
            record,
        }];
        if self.draw_offer == Some(colour.opponent()) {
            self.draw_offer = None;
            ev.push(Event::DrawDeclined { colour });
        }
        ev.extend(self.board_result(now));
        Ok(ev)
    }

    /// End the game if the board decides it.
    fn board_result(&mut self, now: Now) -> Vec<Event> {
        let Some(g) = self.playing() else {
            return Vec::new();
        };
        let Some(outcome) = g.game.result() else {
            return Vec::new();
        };
        let reason = match outcome {
            Outcome::Win(c) if g.game.position().count(c.opponent()) == 0 => EndReason::NoPieces,
            _ => EndReason::Blocked,
        };
        self.end_game(GameResult { outcome, reason }, now)
    }

    fn flag(&mut self, flag: Flag, now: Now) -> Vec<Event> {
        self.end_game(
            GameResult {
                outcome: Outcome::Win(flag.color.opponent()),
                reason: EndReason::Time { flag: flag.kind },
            },
            now,
        )
    }

    /// End the game being played with `result` and move on.
    fn end_game(&mut self, result: GameResult, now: Now) -> Vec<Event> {
        let Phase::Playing { ballot, game } = self.phase else {
            return Vec::new();
        };
        if let Some(g) = self.playing_mut() {
            g.clock.stop(now.mono_ms);
            g.result = Some(result.clone());
            g.finished = Some(now.wall);
        }
        self.draw_offer = None;
        let mut ev = vec![Event::GameEnded {
            ballot,
            game,
            result,
        }];
        ev.extend(self.after_game(ballot, game));
        ev
    }

    /// Where the match goes after game `game` of `ballot` has a result.
    fn after_game(&mut self, ballot: u32, game: u8) -> Vec<Event> {
        if game == 1 {
            self.phase = Phase::Ready { ballot, game: 2 };
            return Vec::new();
        }
        if ballot < self.settings.ballots {
            self.phase = Phase::Draw { ballot: ballot + 1 };
            return Vec::new();
        }
        let points = self.score().total;
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
                    let extra = ballot - self.settings.ballots;
                    if max_blocks.is_none_or(|m| extra < m) {
                        self.phase = Phase::Draw { ballot: ballot + 1 };
                        return vec![Event::ExtraBallot { ballot: ballot + 1 }];
                    }
                    (None, Decided::Tie)
                }
            }
        };
        let outcome = MatchOutcome {
            winner,
            decided,
            points,
        };
        self.outcome = Some(outcome);
        self.phase = Phase::Finished;
        vec![Event::MatchFinished { outcome }]
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

    /// Undo the consequences of the last game's result (phase, outcome) before changing it.
    fn reopen_last(&mut self) {
        self.outcome = None;
        if let Some(g) = self.current_game() {
            self.phase = Phase::Playing {
                ballot: g.ballot,
                game: g.number,
            };
        }
    }

    fn decide_game(
        &mut self,
        result: GameResult,
        now: Now,
        what: &'static str,
    ) -> Result<Vec<Event>, MatchError> {
        if self.playing().is_some() {
            return Ok(self.end_game(result, now));
        }
        let Some((ballot, game)) = self.amendable() else {
            return Err(self.not_now(what));
        };
        self.reopen_last();
        let g = self.playing_mut().ok_or_else(|| MatchError::NotNow {
            what,
            status: "no game".into(),
        })?;
        let previous = g.result.replace(result.clone()).unwrap_or(GameResult {
            outcome: Outcome::Draw,
            reason: EndReason::Agreed,
        });
        let mut ev = vec![Event::ResultAmended {
            ballot,
            game,
            previous,
            result,
        }];
        ev.extend(self.after_game(ballot, game));
        Ok(ev)
    }

    fn take_back(
        &mut self,
        moves: u32,
        reason: String,
        now: Now,
    ) -> Result<Vec<Event>, MatchError> {
        let reopened = if let Some(g) = self.playing() {
            if moves == 0 {
                return Err(MatchError::TakeBack {
                    asked: 0,
                    made: g.moves.len(),
                });
            }
            None
        } else {
            let Some(_) = self.amendable() else {
                return Err(self.not_now("take back moves"));
            };
            self.reopen_last();
            self.playing_mut().and_then(|g| {
                g.finished = None;
                g.result.take()
            })
        };
        let Phase::Playing { ballot, game } = self.phase else {
            return Err(self.not_now("take back moves"));
        };
        let g = self.playing_mut().ok_or(MatchError::Paused)?;
        let made = g.moves.len();
        if moves as usize > made {
            return Err(MatchError::TakeBack { asked: moves, made });
        }
        let mut taken = Vec::new();
        for _ in 0..moves {
            g.game.take_back();
            if let Some(r) = g.moves.pop() {
                taken.push(r.mv);
            }
        }
        taken.reverse();
        if reopened.is_some() {
            g.clock.reopen();
        }
        g.clock.take_back(moves as usize, now.mono_ms)?;
        self.draw_offer = None;
        Ok(vec![Event::MovesTakenBack {
            ballot,
            game,
            moves: taken,
            reopened,
            reason,
        }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::director::clock::TimeControl;
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
        g.clock.start(0, single_jump(&pos)).unwrap();
        (m, rng)
    }

    fn mv(m: &mut Match, rng: &mut ChaCha8Rng, t: u64, text: &str) -> Vec<Event> {
        let colour = m.playing().unwrap().game.position().turn();
        let c = Command::Move {
            colour,
            text: text.into(),
        };
        m.apply(c, at(t), rng)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect()
    }

    fn result(ev: &[Event]) -> Option<GameResult> {
        ev.iter().find_map(|e| match e {
            Event::GameEnded { result, .. } => Some(result.clone()),
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
        let ev: Vec<Event> = m
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
            Event::GameEnded { result, .. } if result.reason == EndReason::FortyMoves
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
        assert!(
            m.status().contains("Bob (Red) v Ann (White)"),
            "{}",
            m.status()
        );
    }
}
