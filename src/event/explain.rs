//! Why a round is paired as it is: structured reasons recorded with each pairing (the words
//! are built by the screens and the command line).

use super::player::PlayerId;
use crate::director::Points;
use serde::{Deserialize, Serialize};

/// How the round was paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The Swiss pairing engine (Dutch system).
    #[default]
    Swiss,
    /// The Berger table of a round robin.
    RoundRobin,
    /// Set by the director.
    Director,
}

/// Why the natural opponent was not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "why"
)]
pub enum Avoided {
    /// They met already, in that round.
    Rematch {
        /// The round they met.
        round: u32,
    },
    /// Both must have the same colour (absolute colour preferences).
    Colour,
    /// The natural opponent was needed on another board for everyone to be paired, or for
    /// fewer or better floats.
    Elsewhere,
}

/// One reason about a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "kebab-case",
    rename_all_fields = "kebab-case",
    tag = "note"
)]
pub enum Note {
    /// Both players from the same score group.
    SameGroup,
    /// `player` was moved down from their score group to be paired here.
    Floated {
        /// The floater.
        player: PlayerId,
        /// Their score.
        from: Points,
        /// The score of the group they were paired in.
        to: Points,
    },
    /// `player`'s natural opponent (top half against bottom half of the group) was another.
    NaturalAvoided {
        /// The player.
        player: PlayerId,
        /// The natural opponent.
        natural: PlayerId,
        /// Why not.
        why: Avoided,
    },
    /// Colours as both players' preferences ask, or who got their preference.
    Colours {
        /// The player whose colour preference decided (none: both granted or no preference).
        granted: Option<PlayerId>,
    },
    /// The Berger table: the round of the table and the players' numbers in it.
    Berger {
        /// Round of the table.
        table_round: u32,
        /// Number of the first player.
        first: u32,
        /// Number of the second player.
        second: u32,
    },
    /// The director set this board.
    Director,
    /// An absolute colour rule (C3: a colour difference beyond ±1 or the same colour twice
    /// running) gave way: `player` does not get the colour they must have.
    AbsoluteColourRelaxed {
        /// Who does not get their colour.
        player: PlayerId,
        /// Two topscorers in the last round (FIDE's exception); otherwise no pairing kept
        /// every absolute colour.
        topscorers: bool,
    },
}

/// The reasons for one board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct BoardWhy {
    /// First player (Red in game 1).
    pub first: PlayerId,
    /// Second player.
    pub second: PlayerId,
    /// Their scores before the round.
    pub scores: (Points, Points),
    /// The reasons.
    pub notes: Vec<Note>,
}

/// Why the bye went where it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ByeWhy {
    /// Who has it.
    pub player: PlayerId,
    /// Their score before the round.
    pub score: Points,
    /// Lower-placed players passed over because they already had a bye or a forfeit win.
    pub skipped: Vec<PlayerId>,
}

/// The reasons for a round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Explanation {
    /// How it was paired.
    pub method: Method,
    /// One per board, in board order.
    pub boards: Vec<BoardWhy>,
    /// The bye, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<ByeWhy>,
    /// Rematches the engine had to allow (none unless the settings force it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rematches: Vec<(PlayerId, PlayerId)>,
    /// An accelerated round: each player's virtual points, added to their points for this
    /// pairing only (the players with none left out; empty when the round is not accelerated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub virtual_points: Vec<(PlayerId, Points)>,
}

impl Explanation {
    /// The reasons of the board `a` plays on, if paired.
    pub fn board_of(&self, a: PlayerId) -> Option<&BoardWhy> {
        self.boards.iter().find(|b| b.first == a || b.second == a)
    }

    /// The virtual points `a` was paired with (none outside an accelerated round).
    pub fn virtual_points_of(&self, a: PlayerId) -> Points {
        self.virtual_points
            .iter()
            .find(|(p, _)| *p == a)
            .map_or(Points::ZERO, |&(_, v)| v)
    }
}
