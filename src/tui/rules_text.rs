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

/// The game's rules in a few lines (at most 4 of 56 characters, so the help fits 80x24).
pub fn explain(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::English => &[
            "Men move and capture forward; kings one square any way.",
            "Capture compulsory: any sequence, completed.",
            "Crowning ends the move. No piece or no move: lost.",
            "Draws: third repetition; 40 moves, no man moved or taken.",
        ],
        Rules::Pool => &[
            "Men capture backward too; kings fly and take at range.",
            "Capture compulsory: any sequence, completed; taken",
            "pieces come off after. A man crowns only if it ends there.",
            "Draws: 13-count (3 kings v 1); strength rule (K 2, M 1).",
        ],
        Rules::Huffing => &[
            "Capture optional; a neglected capture may be let stand,",
            "huffed (then a move), or taken back to capture.",
        ],
        Rules::Losing => &[
            "English moves, compulsory capture, no huffing; the side",
            "with no piece or no move left wins.",
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
            assert!((2..=4).contains(&lines.len()));
            assert!(lines.iter().all(|l| l.chars().count() <= 58), "{r:?}");
            assert_eq!(help(r).len(), lines.len() + 1);
        }
    }
}
