//! Does an opening lose a man at once? Decided by the rules engine, not a list.
//!
//! From the opening position, play out only the compulsory captures: while the side to move must
//! capture, it picks its best capture (the one that leaves it best off once the captures stop,
//! assuming the other side does the same); as soon as the side to move has no capture, stop. The
//! opening loses a man when the piece counts then differ: the side behind loses.

use crate::engine::{Color, Position};

/// The side that ends up behind in material once the compulsory captures are played out, if any.
pub fn man_down(pos: &Position) -> Option<Color> {
    match man_down_balance(pos) {
        0 => None,
        b if b > 0 => Some(Color::White),
        _ => Some(Color::Red),
    }
}

/// Red's pieces minus White's once the compulsory captures are played out with best play on both
/// sides (Red maximises, White minimises). Equal to the plain count difference when the side to
/// move has no capture.
pub fn man_down_balance(pos: &Position) -> i32 {
    if !pos.must_capture() {
        return pos.count(Color::Red) as i32 - pos.count(Color::White) as i32;
    }
    let values = pos
        .legal_moves()
        .into_iter()
        .map(|m| man_down_balance(&pos.after(&m)));
    match pos.turn() {
        Color::Red => values.max(),
        Color::White => values.min(),
    }
    .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_capture_means_no_man_down() {
        assert_eq!(man_down(&Position::start()), None);
    }

    #[test]
    fn a_free_capture_loses_a_man() {
        // 9-14 21-17: Red 14 jumps 17 into the hole on 21; nothing recaptures.
        let pos = Position::from_fen(
            "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14",
        )
        .unwrap();
        assert_eq!(man_down(&pos), Some(Color::White));
    }

    #[test]
    fn an_exchange_is_even() {
        // 11-15 22-18: Red 15 must take 18 landing on 22; White 25 or 26 takes back.
        let pos = Position::from_fen(
            "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
        )
        .unwrap();
        assert!(pos.must_capture());
        assert_eq!(man_down(&pos), None);
    }
}
