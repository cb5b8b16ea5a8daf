//! What happened in a match: [`MatchEvent`]s, stamped into [`LogEntry`]s. The log is the match's
//! one source of truth: everything else (games, positions, clocks, scores, phase) is derived
//! from it by [`Match::evolve`](super::Match::evolve).
//!
//! Events hold typed data only (no display text) and nothing a fold of the earlier events
//! could not check: a move names the move, the time it took and the clock reading after it;
//! the ballot, game and mover follow from the log.

use super::clock::FlagKind;
use super::command::{CoinSide, Hand};
use super::settings::{Player, Points};
use crate::engine::{Color, Move, Outcome, Square};
use crate::openings::DrawStep;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind",
    deny_unknown_fields
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
    /// Draw claimed: the pool strength rule's count ran out (the stronger side did not win).
    StrengthRule,
    /// The losing game: the winner has no pieces left or cannot move.
    FirstOff,
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

impl EndReason {
    /// True for a result the director decided (forfeit, adjudication).
    pub fn is_director_decision(&self) -> bool {
        matches!(
            self,
            EndReason::Forfeit { .. } | EndReason::Adjudicated { .. }
        )
    }
}

/// A game's result and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
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
            EndReason::StrengthRule => f.write_str(" by the strength rule"),
            EndReason::FirstOff => f.write_str(": no piece or move left (the losing game)"),
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
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
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
///
/// A command gives one or more events: the first says what was done (a move, a resignation,
/// a ballot drawn), the others what followed from it by the rules (the game ended on the
/// board, the match finished). A log is only read back if every group of events is exactly
/// what the command its first event records gives in the state before it.
///
/// A record made while a side may be thinking (a draw offered or declined, a note, a time
/// adjustment, a huff, a strength count asked or extended) holds the time the side to move
/// had spent on its move by then (`spent`), so a match read back after a kill right after it
/// has that thinking counted. Version 1 files, and version 2 files written before crossboard
/// recorded it, lack it: such a record reads as "what the clock had counted before it", as
/// those builds did (only the thinking since the record before it is missing from them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "event",
    deny_unknown_fields
)]
pub enum MatchEvent {
    /// The match was set up (always the first entry).
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
        /// The opening's number in its system (the settings' system).
        number: u32,
        /// The cards, in order (redraws included).
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
    /// The side to move of the game in play made a move, in time.
    #[serde(rename = "move")]
    MovePlayed {
        /// The move (full path: `15x24x31`).
        mv: Move,
        /// Time spent on it (pauses excluded), ms.
        #[serde(rename = "spent")]
        spent_ms: u64,
        /// The mover's game time left after it (increments and new periods included), ms;
        /// none without a game clock.
        #[serde(rename = "left", default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<i64>,
    },
    /// Huffing: the side to move huffed the opponent's piece on `square`.
    Huffed {
        /// The square of the piece removed.
        square: Square,
        /// Time the side to move had spent on its move so far (pauses excluded), ms; none in
        /// older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// Huffing: the side to move had the opponent's last move taken back; the opponent must
    /// capture (the move taken back is the log's last move of the game).
    Compelled,
    /// Pool: the weaker side asked for the strength rule's count.
    StrengthCountAsked {
        /// The weaker side.
        colour: Color,
        /// Time the side to move had spent on its move so far (pauses excluded), ms; none in
        /// older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// Pool, rule 27: the director granted the stronger side 8 more moves.
    StrengthCountExtended {
        /// Time the side to move had spent on its move so far (pauses excluded), ms; none in
        /// older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// A draw was offered.
    DrawOffered {
        /// By.
        colour: Color,
        /// Time the side to move had spent on its move so far (pauses excluded), ms; none in
        /// older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// A draw offer was declined (explicitly or by moving).
    DrawDeclined {
        /// By.
        colour: Color,
        /// Time the side to move had spent on its move so far, ms; none when declined by moving
        /// (the move records its time) and in older
        /// files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// A game ended.
    GameEnded {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The result.
        result: GameResult,
        /// Time the side to move had spent on its unfinished move (pauses excluded), ms.
        #[serde(rename = "spent")]
        spent_ms: u64,
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
    /// The director undid their last decision on a game: the result it replaced is back, or
    /// the game it ended is in play again (clocks paused).
    DecisionUndone {
        /// Ballot number.
        ballot: u32,
        /// 1 or 2.
        game: u8,
        /// The result the decision had given.
        undone: GameResult,
        /// The result back in force; none: the game is in play again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restored: Option<GameResult>,
        /// Why.
        reason: String,
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
    /// grace runs out (noticed by a tick).
    TimeCalled {
        /// The side to move.
        colour: Color,
        /// Time it had spent on the move, ms.
        #[serde(rename = "spent")]
        spent_ms: u64,
    },
    /// Clocks paused.
    ClocksPaused {
        /// Why.
        reason: String,
        /// Time the side to move had spent on its move, ms (kept for when the clocks resume).
        #[serde(rename = "spent")]
        spent_ms: u64,
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
        /// Time the side to move had spent on its move so far (pauses excluded), ms; none in
        /// older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
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
        /// Time the side to move had spent on its move so far, ms; none when no game is in
        /// play and in older files (see [`MatchEvent`]).
        #[serde(rename = "spent", default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
    },
    /// The match was read back by a new process and continued: a game clock that was running
    /// is held at what the log had counted (paused) until the director resumes it.
    Reopened,
}

impl MatchEvent {
    /// The time on the move of a record made while a side may be thinking (see [`MatchEvent`]);
    /// `None`: not such a record.
    pub(crate) fn thinking_mut(&mut self) -> Option<&mut Option<u64>> {
        match self {
            MatchEvent::Huffed { spent_ms, .. }
            | MatchEvent::StrengthCountAsked { spent_ms, .. }
            | MatchEvent::StrengthCountExtended { spent_ms }
            | MatchEvent::DrawOffered { spent_ms, .. }
            | MatchEvent::DrawDeclined { spent_ms, .. }
            | MatchEvent::TimeAdjusted { spent_ms, .. }
            | MatchEvent::Note { spent_ms, .. } => Some(spent_ms),
            _ => None,
        }
    }
}

/// One log entry: an event and the wall-clock time it was recorded (whole seconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct LogEntry {
    /// Wall-clock time.
    pub at: DateTime<Utc>,
    /// What happened.
    pub event: MatchEvent,
}
