//! The director's actions, as the event's log keeps them.

use super::{BoardResult, DivisionId, Pairing};
use crate::director::Player;
use crate::event::ballot::BallotDraw;
use crate::event::player::{PlayerId, PlayerInfo};
use crate::event::prizes::Prizes;
use crate::event::settings::{DivisionSettings, EventInfo};
use serde::{Deserialize, Serialize};

/// One director action, as the log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "action"
)]
pub enum Action {
    /// Name, site, dates, director.
    SetInfo {
        /// The new information.
        info: EventInfo,
    },
    /// A new division (its own players, pairings and standings).
    AddDivision {
        /// Unique within the event.
        name: String,
        /// Format, games, scoring, tie-breaks.
        settings: DivisionSettings,
    },
    /// Change a division's settings (only before its first round is paired, except the
    /// tie-breaks, which may change at any time).
    SetSettings {
        /// The division.
        division: DivisionId,
        /// The new settings.
        settings: DivisionSettings,
    },
    /// A player enters a division (after round 1 is paired: a late entry, rounds missed score
    /// as absences).
    Enter {
        /// The division.
        division: DivisionId,
        /// The registry id.
        player: PlayerId,
        /// The player as entered.
        info: PlayerInfo,
    },
    /// A player leaves: not paired from the next round on.
    Withdraw {
        /// The division.
        division: DivisionId,
        /// Who.
        player: PlayerId,
        /// Why (logged).
        reason: String,
    },
    /// A player will miss a round not yet paired (scores the absence points).
    Absent {
        /// The division.
        division: DivisionId,
        /// Who.
        player: PlayerId,
        /// Which round.
        round: u32,
    },
    /// A player asks to sit out a round not yet paired (a requested bye: not paired, scores
    /// the division's requested-bye points, and is not the pairing bye); `cancel` takes the
    /// request back.
    ByeRequest {
        /// The division.
        division: DivisionId,
        /// Who.
        player: PlayerId,
        /// Which round.
        round: u32,
        /// The request taken back.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cancel: bool,
    },
    /// A round's pairing.
    Pair {
        /// The division.
        division: DivisionId,
        /// The pairing and its explanation.
        pairing: Pairing,
    },
    /// The director replaces a round's pairing (before any result), with the reason logged.
    Override {
        /// The division.
        division: DivisionId,
        /// The replacement (the explanation says what the engine had proposed).
        pairing: Pairing,
        /// Why.
        reason: String,
    },
    /// The director pairs the next round by hand (e.g. when the engine finds no pairing
    /// without a rematch), with the reason logged.
    PairByHand {
        /// The division.
        division: DivisionId,
        /// The director's pairing: every player available in the round on a board or the bye.
        pairing: Pairing,
        /// Why.
        reason: String,
    },
    /// The director withdraws the last round's pairing (before any result).
    Unpair {
        /// The division.
        division: DivisionId,
        /// The round (the last paired).
        round: u32,
        /// Why.
        reason: String,
    },
    /// Ballots drawn for a round: one for all boards, or one per board in board order.
    Ballots {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// What was drawn, card by card.
        draws: Vec<BallotDraw>,
    },
    /// A board's result (replaces what was entered before: corrections are logged too).
    Result {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The result so far.
        result: BoardResult,
    },
    /// A player's result of their board, entered from the floor with the player's own code:
    /// the board's result once the other player has entered the same
    /// ([`super::floor`]); a board played on crossboard, or whose result is recorded, refuses
    /// it.
    FloorResult {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// Whose code entered it.
        side: Player,
        /// The whole board's result, as the desk types it.
        result: BoardResult,
    },
    /// The director decides the result of a board entered from the floor (the players
    /// disagree, or one entered it wrongly), with the reason logged.
    Overrule {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The board's result.
        result: BoardResult,
        /// Why.
        reason: String,
    },
    /// The division's prize list (replaces the one before).
    SetPrizes {
        /// The division.
        division: DivisionId,
        /// The whole list and how ties share.
        prizes: Prizes,
    },
    /// A PDN of the board's games.
    AttachPdn {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The PDN text (already checked by the caller).
        pdn: String,
        /// Attached although it is not the board's games: how it differs and the director's
        /// reason (printed with the games in the export).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        overridden: Option<String>,
    },
    /// The board is played on crossboard: its match file belongs to the event.
    LinkMatch {
        /// The division.
        division: DivisionId,
        /// The round.
        round: u32,
        /// The board number.
        board: u32,
        /// The match file's path.
        file: String,
    },
}
