//! The rule set a game is played under, as a value.
//!
//! Today only English draughts (American checkers) is implemented. American pool checkers
//! (flying kings, men capturing backward) and the old huffing and losing-game variants of the
//! seeds are further members of this enum, each with its own move generator.

use serde::{Deserialize, Serialize};

/// Which rules a game follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// English draughts / American checkers: compulsory capture, men move and capture forward
    /// only, kings one square in any direction, a man that crowns ends its move.
    #[default]
    English,
}

impl Rules {
    /// The PDN `GameType` number of this rule set.
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Rules::English => 21,
        }
    }

    /// Human name.
    pub fn name(self) -> &'static str {
        match self {
            Rules::English => "English draughts (American checkers)",
        }
    }
}
