//! The rules of each game in words, for the game screens (practice and the match): one line
//! naming the rules in force, a few lines for the help (`?`), the draws a player may claim,
//! the pool counts, and the huffing choices with their keys.

use crate::director::StrengthReading;
use crate::engine::{DrawClaim, HuffChance, LoneKingCount, Rules, Square, squares};
use crate::tui::keys::{Binding, Key};
use crate::tui::widgets::menu::KeyHelp;

/// What the huffing keys do (the third choice, letting the move stand, is just a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HuffAct {
    /// Huff (remove) the piece that should have captured, then move.
    Huff,
    /// Have the neglectful move taken back; its player must capture.
    Compel,
}

/// The keys of the huffing choices, on every game screen of a huffing game.
pub(super) static HUFF_KEYS: &[Binding<HuffAct>] = &[
    Binding::new(
        &[Key::Char('H')],
        HuffAct::Huff,
        "huff a piece that failed to capture (its square first)",
    ),
    Binding::new(
        &[Key::Char('C')],
        HuffAct::Compel,
        "compel: take back the move; the capture must be made",
    ),
];

/// The first key of a huffing choice, as the status line names it.
fn huff_key(act: HuffAct) -> String {
    HUFF_KEYS
        .iter()
        .find(|b| b.action == act)
        .and_then(|b| b.keys.first())
        .map(|k| k.label())
        .unwrap_or_default()
}

/// The piece to huff: the square typed in the move field (`typed`), or the only piece that may
/// be huffed; otherwise the sentence asking which.
pub(super) fn huff_square(chance: &HuffChance, typed: &str) -> Result<Square, String> {
    let typed = typed.trim().parse::<u8>().ok().and_then(Square::new);
    let mut huffable = squares(chance.huffable);
    match (typed, huffable.next(), huffable.next()) {
        (Some(sq), _, _) => Ok(sq),
        (None, Some(only), None) => Ok(only),
        _ => {
            let list: Vec<String> = squares(chance.huffable).map(|s| s.to_string()).collect();
            Err(format!(
                "type the square of the piece to huff ({}), then {}",
                list.join(" or "),
                huff_key(HuffAct::Huff)
            ))
        }
    }
}

/// Why a draw may be claimed, as the status line says it.
pub(super) fn claim_reason(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::Repetition => "third repetition",
        DrawClaim::FortyMoves => "40 moves without a man move or capture",
        DrawClaim::ThirteenCount => "the 13-count ran out",
    }
}

/// Pool: the running 13-count, "13-count: White's king, 7 of 13" ("of 6 (4-29)" while the lone
/// king holds the long diagonal); "13-count out: White's king, 13 moves" once it has run out.
pub(super) fn thirteen_count(c: &LoneKingCount) -> String {
    if c.reached() {
        return format!("13-count out: {}'s king, {} moves", c.lone, c.moves);
    }
    let diagonal = if c.limit < 13 { " (4-29)" } else { "" };
    format!(
        "13-count: {}'s king, {} of {}{diagonal}",
        c.lone, c.moves, c.limit
    )
}

/// Pool: the strength rule's count once asked, "Strength count: Red 12 of 30" ("30+8" once
/// extended).
pub(super) fn strength_count(r: &StrengthReading) -> String {
    let limit = if r.extended {
        format!("{}+8", r.limit.saturating_sub(8))
    } else {
        r.limit.to_string()
    };
    format!("Strength count: {} {} of {limit}", r.weaker, r.moves)
}

/// One line naming the game and what sets it apart, for the game screen's side panel.
pub(super) fn in_force(rules: Rules) -> &'static str {
    match rules {
        Rules::English => "English draughts: capture compulsory",
        Rules::Pool => "Pool: flying kings, men take backward",
        Rules::Huffing => "Huffing: capture optional, or huffed",
        Rules::Losing => "Losing game: first off the board wins",
    }
}

/// The game's rules in a few lines (at most 4 of 56 characters, so the help fits 80x24).
pub(super) fn explain(rules: Rules) -> &'static [&'static str] {
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
pub(super) fn help(rules: Rules) -> Vec<KeyHelp> {
    std::iter::once(KeyHelp::new("Game", rules.name()))
        .chain(explain(rules).iter().map(|l| KeyHelp::new("", *l)))
        .collect()
}

/// The three huffing choices as the game screens offer them, with the keys of [`HUFF_KEYS`].
pub(super) fn huff_offer(chance: &HuffChance) -> String {
    let pieces: Vec<String> = squares(chance.huffable).map(|s| s.to_string()).collect();
    let what = if chance.stopped_short {
        "stopped a capture short"
    } else {
        "did not capture"
    };
    format!(
        "{} {what} ({}): move to let it stand, {} huff {}, {} take back and capture",
        chance.offender,
        chance.offence,
        huff_key(HuffAct::Huff),
        pieces.join("/"),
        huff_key(HuffAct::Compel)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_short_explanation_that_fits_80_columns() {
        for r in Rules::ALL {
            // The side panel of the game screen at 80x24 is 38 columns, 1 of them margin.
            assert!(in_force(r).chars().count() <= 37, "{}", in_force(r));
            let lines = explain(r);
            assert!((2..=4).contains(&lines.len()));
            assert!(lines.iter().all(|l| l.chars().count() <= 58), "{r:?}");
            assert_eq!(help(r).len(), lines.len() + 1);
        }
    }

    #[test]
    fn the_huff_keys_are_consistent_and_named_in_the_offer() {
        crate::tui::keys::check_table(HUFF_KEYS).unwrap();
        // One help row each at 80 columns (the game screen's help is full).
        assert!(HUFF_KEYS.iter().all(|b| b.help.chars().count() <= 57));
        assert_eq!(huff_key(HuffAct::Huff), "H");
        assert_eq!(huff_key(HuffAct::Compel), "C");
    }

    #[test]
    fn the_counts_read_as_the_director_says_them() {
        use crate::engine::Color;
        let c = LoneKingCount {
            lone: Color::White,
            moves: 7,
            limit: 13,
        };
        assert_eq!(thirteen_count(&c), "13-count: White's king, 7 of 13");
        let c = LoneKingCount {
            moves: 3,
            limit: 6,
            ..c
        };
        assert_eq!(thirteen_count(&c), "13-count: White's king, 3 of 6 (4-29)");
        let c = LoneKingCount { moves: 7, ..c };
        assert_eq!(thirteen_count(&c), "13-count out: White's king, 7 moves");
        let r = StrengthReading {
            weaker: Color::Red,
            moves: 31,
            limit: 38,
            extended: true,
        };
        assert_eq!(strength_count(&r), "Strength count: Red 31 of 30+8");
        let r = StrengthReading {
            extended: false,
            ..r
        };
        assert_eq!(strength_count(&r), "Strength count: Red 31 of 38");
    }
}
