//! The records a round is made of: its pairing, boards and results, and the players entered.

use super::floor::Floor;
use crate::director::{Player, Points};
use crate::event::ballot::BallotDraw;
use crate::event::explain::Explanation;
use crate::event::player::{PlayerId, PlayerInfo};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One game's result on a board, seen from the board's first player (who has Red in games 1,
/// 3, ...; the second player has Red in games 2, 4, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "result"
)]
pub enum BoardGameResult {
    /// Won over the board by that player.
    Win {
        /// The winner.
        winner: Player,
    },
    /// Drawn.
    Draw,
    /// Won by forfeit (lateness, no-show for that game): scores as a win, but is not a game
    /// played for the tie-breaks.
    Forfeit {
        /// The player present.
        winner: Player,
    },
}

impl BoardGameResult {
    /// Game points in half points of `game` for `who`.
    pub fn points(self, who: Player, game: crate::director::GamePoints) -> Points {
        match self {
            BoardGameResult::Draw => game.draw(),
            BoardGameResult::Win { winner } | BoardGameResult::Forfeit { winner }
                if winner == who =>
            {
                game.win()
            }
            _ => Points::ZERO,
        }
    }
}

/// The result of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "kind"
)]
pub enum BoardResult {
    /// Game results in order; fewer than the round's games while the board is still playing.
    Games {
        /// One per game played so far.
        games: Vec<BoardGameResult>,
    },
    /// The whole round forfeited: the player present (if any) scores a forfeit win.
    Forfeit {
        /// The player who came; none: both forfeited.
        present: Option<Player>,
    },
}

/// A board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Board {
    /// Board number, 1 = top board.
    pub number: u32,
    /// The player with Red in game 1.
    pub first: PlayerId,
    /// The player with White in game 1.
    pub second: PlayerId,
    /// The result as entered so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<BoardResult>,
    /// PDN of the board's games, if attached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdn: Option<String>,
    /// The attached PDN is not the board's games (other players, ballot or number of games):
    /// how it differs and why the director attached it all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdn_overridden: Option<String>,
    /// The crossboard match file of the board, if it was played on crossboard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_file: Option<String>,
    /// What its players and the director entered from the floor (derived from the log's
    /// entries, [`super::floor`]).
    #[serde(default, skip_serializing_if = "Floor::is_empty")]
    pub floor: Floor,
}

impl Board {
    /// The player on `side` of the board.
    pub fn player(&self, side: Player) -> PlayerId {
        match side {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// Which side `id` plays, if on this board.
    pub fn side_of(&self, id: PlayerId) -> Option<Player> {
        if id == self.first {
            Some(Player::First)
        } else if id == self.second {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// True once every game has a result (or the round was forfeited).
    pub fn is_complete(&self, games_per_round: u32) -> bool {
        match &self.result {
            None => false,
            Some(BoardResult::Forfeit { .. }) => true,
            Some(BoardResult::Games { games }) => games.len() as u32 >= games_per_round,
        }
    }
}

/// The pairing of a round: what the pairing engine (or the director) decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Pairing {
    /// The round paired.
    pub round: u32,
    /// Boards in order: (first, second).
    pub boards: Vec<(PlayerId, PlayerId)>,
    /// The player given the pairing bye, if the number was odd.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    /// Why each board was paired so.
    pub explanation: Explanation,
}

/// A player in a division.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The registry id.
    pub player: PlayerId,
    /// As entered.
    pub info: PlayerInfo,
    /// The first round the player can be paired in (1 unless a late entry).
    pub from_round: u32,
    /// Not paired from this round on (withdrawn).
    pub withdrawn_from: Option<u32>,
    /// Rounds the player said they will miss.
    pub absences: BTreeSet<u32>,
    /// Rounds the player asked to sit out (requested byes), each with whether the request
    /// came late (once the round before it was paired: it then scores nothing).
    pub requested_byes: BTreeMap<u32, bool>,
}

impl Entrant {
    /// True when the player can be paired in `round`.
    pub fn available(&self, round: u32) -> bool {
        round >= self.from_round
            && self.withdrawn_from.is_none_or(|w| round < w)
            && !self.absences.contains(&round)
            && !self.requested_byes.contains_key(&round)
    }
}

/// A round as it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// 1, 2, ...
    pub number: u32,
    /// The boards, top first.
    pub boards: Vec<Board>,
    /// The pairing bye.
    pub bye: Option<PlayerId>,
    /// Why each board was paired so.
    pub explanation: Explanation,
    /// Director overrides of this round's pairing, with their reasons.
    pub overrides: Vec<String>,
    /// Ballots drawn (empty until drawn).
    pub ballots: Vec<BallotDraw>,
}

impl Round {
    /// The board `number`.
    pub fn board(&self, number: u32) -> Option<&Board> {
        self.boards.iter().find(|b| b.number == number)
    }

    /// The board `id` plays on.
    pub fn board_of(&self, id: PlayerId) -> Option<&Board> {
        self.boards.iter().find(|b| b.side_of(id).is_some())
    }

    /// True when no board has a result yet.
    pub fn untouched(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_none())
    }
}
