//! What players and the director ask of a match: [`Command`], and its [`CommandKind`] (the
//! command without its data, for typed refusals).

use crate::engine::{Color, Move, Outcome, Square};
use serde::{Deserialize, Serialize};

use super::settings::Player;

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

impl Hand {
    /// The other hand.
    pub fn other(self) -> Hand {
        match self {
            Hand::Left => Hand::Right,
            Hand::Right => Hand::Left,
        }
    }
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
    /// Claim a draw by repetition, the 40-move rule, the pool 13-count or the strength rule
    /// (only when the rules allow it now).
    ClaimDraw {
        /// Who claims.
        colour: Color,
    },
    /// Huffing: the side to move (`colour`) huffs (removes) the opponent's piece on `square`,
    /// one that should have captured on the last move; it then moves as usual.
    Huff {
        /// The huffer, the side to move.
        colour: Color,
        /// The piece huffed.
        square: Square,
    },
    /// Huffing: the side to move (`colour`) has the opponent's last move, which neglected a
    /// capture, taken back; the opponent must now capture (clocks as before that move).
    /// Letting the move stand needs no command: just move.
    Compel {
        /// The side to move, who compels.
        colour: Color,
    },
    /// Pool, the strength rule: the weaker side (`colour`, king 2 and man 1) asks for the
    /// count; the stronger side must win within the rule's moves of the weaker side.
    AskStrengthCount {
        /// The weaker side.
        colour: Color,
    },
    /// Pool, rule 27 (30 + 8): the director grants the stronger side 8 more moves to complete
    /// the win once the 30 have run out.
    ExtendStrengthCount,
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
    /// Director: undo the last director decision on the last game (a forfeit, an
    /// adjudication or an amended result) while the next game has not started: an amended
    /// result goes back to what it was, a game the decision ended is reopened with its clocks
    /// paused. No move is taken back.
    UndoDecision {
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

/// A command without its data: what was asked, for refusals and for a UI to name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CommandKind {
    CallCoin,
    DrawColour,
    PickHand,
    ChooseColour,
    AssignColour,
    DrawBallot,
    Accept,
    Reject,
    StartGame,
    Move,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimDraw,
    Huff,
    Compel,
    AskStrengthCount,
    ExtendStrengthCount,
    Resign,
    Tick,
    Forfeit,
    Adjudicate,
    UndoDecision,
    TakeBack,
    PauseClocks,
    ResumeClocks,
    AdjustTime,
    Note,
}

impl Command {
    /// What the command asks, without its data (`Move` and `PlayMove` are both a move).
    pub fn kind(&self) -> CommandKind {
        match self {
            Command::CallCoin { .. } => CommandKind::CallCoin,
            Command::DrawColour { .. } => CommandKind::DrawColour,
            Command::PickHand { .. } => CommandKind::PickHand,
            Command::ChooseColour { .. } => CommandKind::ChooseColour,
            Command::AssignColour { .. } => CommandKind::AssignColour,
            Command::DrawBallot => CommandKind::DrawBallot,
            Command::Accept { .. } => CommandKind::Accept,
            Command::Reject { .. } => CommandKind::Reject,
            Command::StartGame => CommandKind::StartGame,
            Command::Move { .. } | Command::PlayMove { .. } => CommandKind::Move,
            Command::OfferDraw { .. } => CommandKind::OfferDraw,
            Command::AcceptDraw { .. } => CommandKind::AcceptDraw,
            Command::DeclineDraw { .. } => CommandKind::DeclineDraw,
            Command::ClaimDraw { .. } => CommandKind::ClaimDraw,
            Command::Huff { .. } => CommandKind::Huff,
            Command::Compel { .. } => CommandKind::Compel,
            Command::AskStrengthCount { .. } => CommandKind::AskStrengthCount,
            Command::ExtendStrengthCount => CommandKind::ExtendStrengthCount,
            Command::Resign { .. } => CommandKind::Resign,
            Command::Tick => CommandKind::Tick,
            Command::Forfeit { .. } => CommandKind::Forfeit,
            Command::Adjudicate { .. } => CommandKind::Adjudicate,
            Command::UndoDecision { .. } => CommandKind::UndoDecision,
            Command::TakeBack { .. } => CommandKind::TakeBack,
            Command::PauseClocks { .. } => CommandKind::PauseClocks,
            Command::ResumeClocks => CommandKind::ResumeClocks,
            Command::AdjustTime { .. } => CommandKind::AdjustTime,
            Command::Note { .. } => CommandKind::Note,
        }
    }
}
