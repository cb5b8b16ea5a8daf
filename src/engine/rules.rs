//! The rule set a game is played under, as a value.
//!
//! Four games share the board, the numbering, the start and the notation:
//!
//! - **English draughts** (American checkers), the default: compulsory capture, men move and
//!   capture forward only, kings one square in any direction, a man that crowns ends its move.
//! - **American pool checkers** (PDN `GameType` 23): men capture backward as well, kings fly
//!   (any distance along a free diagonal, and capture a piece at any distance, landing on any
//!   free square beyond it), no piece is jumped twice, captured pieces come off after the move,
//!   and a man that reaches the king row in a capture goes on capturing when it can and is
//!   crowned only if its move ends there (APCA rules 14-24).
//! - **English with huffing**: English moves, but capture is not compulsory; a player who could
//!   capture and did not (or stopped a capture short) may be huffed by the opponent
//!   ([`crate::engine::Game::huff_chance`]).
//! - **The losing game** ("first off the board"): English moves and compulsory capture, but the
//!   side that loses all its pieces or cannot move wins.
//!
//! A [`crate::engine::Position`] carries its rules, so every caller of
//! [`crate::engine::Position::legal_moves`] follows them without being told.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which rules a game follows.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
#[repr(u8)]
pub enum Rules {
    /// English draughts / American checkers: compulsory capture, men move and capture forward
    /// only, kings one square in any direction, a man that crowns ends its move.
    #[default]
    English,
    /// American pool checkers: flying kings, men capture backward, crowning only at the end of
    /// a move (APCA rules).
    Pool,
    /// English draughts with the old huffing rule: capture is not compulsory, a neglected
    /// capture may be huffed.
    Huffing,
    /// The losing game: English moves, compulsory capture, the side left without a move wins.
    Losing,
}

impl Rules {
    /// Every rule set, the default first.
    pub const ALL: [Rules; 4] = [Rules::English, Rules::Pool, Rules::Huffing, Rules::Losing];

    /// The PDN `GameType` number of this rule set: 23 for pool, 21 (English draughts) for the
    /// other three, which PDN has no number for (a `Variant` tag tells them apart).
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Rules::Pool => 23,
            Rules::English | Rules::Huffing | Rules::Losing => 21,
        }
    }

    /// Human name.
    pub fn name(self) -> &'static str {
        match self {
            Rules::English => "English draughts (American checkers)",
            Rules::Pool => "American pool checkers",
            Rules::Huffing => "English draughts with huffing",
            Rules::Losing => "The losing game (first off the board)",
        }
    }

    /// Short name, as typed on the command line and written in files: `english`, `pool`,
    /// `huffing`, `losing`.
    pub fn key(self) -> &'static str {
        match self {
            Rules::English => "english",
            Rules::Pool => "pool",
            Rules::Huffing => "huffing",
            Rules::Losing => "losing",
        }
    }

    /// Kings move and capture any distance along a diagonal.
    #[inline(always)]
    pub fn flying_kings(self) -> bool {
        matches!(self, Rules::Pool)
    }

    /// A player who can capture must (and must complete the capture).
    #[inline(always)]
    pub fn capture_compulsory(self) -> bool {
        !matches!(self, Rules::Huffing)
    }

    /// The side left without a legal move (no pieces, or all blocked) wins instead of losing.
    #[inline(always)]
    pub fn stuck_side_wins(self) -> bool {
        matches!(self, Rules::Losing)
    }

    /// Perft counts capture sequences with the same start, end and captured pieces once (the
    /// published pool convention), instead of once per route (the English convention).
    pub fn perft_merges_routes(self) -> bool {
        matches!(self, Rules::Pool)
    }

    /// The rules an engine plans a game of these rules under. Huffing is searched as English
    /// draughts: taking a capture is always allowed, and declining one only hands the opponent
    /// a choice (let it stand, huff, or have the capture played), so the engine always
    /// captures and its moves are legal moves of the game. The other games are searched as
    /// they are.
    pub fn planning_rules(self) -> Rules {
        match self {
            Rules::Huffing => Rules::English,
            other => other,
        }
    }

    /// The 40-move rule applies (English, huffing, losing game); pool uses the 13-count and the
    /// strength rule instead.
    pub fn forty_move_rule(self) -> bool {
        !matches!(self, Rules::Pool)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = String;
    /// Reads a [`Rules::key`] (`english`, `pool`, `huffing`, `losing`), case-insensitive.
    fn from_str(s: &str) -> Result<Rules, String> {
        let t = s.trim();
        Rules::ALL
            .into_iter()
            .find(|r| r.key().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                format!("{t:?} is not a game; choose one of english, pool, huffing, losing")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        for r in Rules::ALL {
            assert_eq!(r.key().parse::<Rules>(), Ok(r));
            assert_eq!(r.to_string(), r.name());
        }
        assert!("draughts".parse::<Rules>().is_err());
        assert_eq!("POOL".parse::<Rules>(), Ok(Rules::Pool));
    }

    #[test]
    fn serde_names_are_the_keys() {
        #[derive(Serialize, Deserialize)]
        struct W {
            r: Rules,
        }
        for r in Rules::ALL {
            let t = toml::to_string(&W { r }).unwrap();
            assert_eq!(t.trim(), format!("r = \"{}\"", r.key()));
        }
    }
}
