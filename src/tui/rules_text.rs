//! The rules of each game in words, for the game screens: one line naming the rules in force,
//! a few lines for the help (`?`), and the huffing choices.

use crate::engine::{HuffChance, Rules, squares};
use crate::tui::widgets::menu::KeyHelp;

/// One line naming the game and what sets it apart, for the game screen's side panel.
pub fn in_force(rules: Rules) -> &'static str {
    match rules {
        Rules::English => "English draughts: capture compulsory",
        Rules::Pool => "Pool: flying kings, men take backward",
        Rules::Huffing => "Huffing: capture optional, may be huffed",
        Rules::Losing => "Losing game: first off the board wins",
    }
}

/// The game's rules in a few lines, as the help shows them.
pub fn explain(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::English => &[
            "Men move and capture forward one square; kings one square any way.",
            "Capture is compulsory: any sequence, completed to the end.",
            "A man that reaches the king row is crowned and its move ends.",
            "A side with no piece or no move loses; 40 moves with no man",
            "moved and no capture, or a third repetition, may be claimed drawn.",
        ],
        Rules::Pool => &[
            "American pool checkers (APCA): men move forward one square and",
            "capture forward and backward; kings fly along free diagonals and",
            "capture at any distance, landing on any free square beyond.",
            "Capture is compulsory; take any sequence, but complete it. Taken",
            "pieces come off after the move. A man passing the king row in a",
            "capture goes on and is crowned only if its move ends there.",
            "Draws: the 13-count (3 kings v 1: 13 moves of the lone king, 6 on",
            "the long diagonal 4-29) and the strength rule (king 2, man 1).",
        ],
        Rules::Huffing => &[
            "English moves, but capture is not compulsory. When the opponent",
            "could capture and did not (or stopped short), before moving you",
            "may let it stand (just move), huff the piece that should have",
            "captured and then move, or have the move taken back and the",
            "capture played instead.",
        ],
        Rules::Losing => &[
            "The losing game, first off the board: English moves and",
            "compulsory capture, no huffing; the side that loses all its",
            "pieces, or cannot move, wins.",
        ],
    }
}

/// The help lines of the game in force: its name, then [`explain`].
pub fn help(rules: Rules) -> Vec<KeyHelp> {
    std::iter::once(KeyHelp::new("Game", rules.name()))
        .chain(explain(rules).iter().map(|l| KeyHelp::new("", *l)))
        .collect()
}

/// The huffing choices as the game screen offers them (`huff_key`, `compel_key`: the keys).
pub fn huff_offer(chance: &HuffChance, huff_key: char, compel_key: char) -> String {
    let pieces: Vec<String> = squares(chance.huffable).map(|s| s.to_string()).collect();
    let what = if chance.stopped_short {
        "stopped a capture short"
    } else {
        "did not capture"
    };
    format!(
        "{} {what} ({}): move to let it stand, {huff_key} huff {}, {compel_key} take back and capture",
        chance.offender,
        chance.offence,
        pieces.join("/")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_short_explanation_that_fits_80_columns() {
        for r in Rules::ALL {
            assert!(in_force(r).chars().count() <= 40, "{}", in_force(r));
            let lines = explain(r);
            assert!((3..=8).contains(&lines.len()));
            assert!(lines.iter().all(|l| l.chars().count() <= 70), "{r:?}");
            assert_eq!(help(r).len(), lines.len() + 1);
        }
    }
}
