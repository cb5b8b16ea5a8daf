//! Roll Your Own (William "Bill" Scott, early 1960s; dice by Don Brattin).
//!
//! Each side rolls a 12-sided die to take up one of its 12 men and a 4-sided die for the square
//! in front where that man is put back. As read here (README, "Roll Your Own: how the seed is
//! read"): Red's faces count Red's squares as numbered, from Red's double corner: the d12 face k
//! takes up the man on k, the d4 face j puts it on 12 + j (13-16). White uses the corresponding
//! squares turned half round: face k takes up the man on 33 - k, face j puts it on 21 - j (20-17).
//! The men stay men; Red moves first. 12 x 12 x 4 x 4 = 2,304 rolls, numbered in the order
//! Red d12, Red d4, White d12, White d4: roll 1 is (1, 1, 1, 1).

use super::{Opening, OpeningError, System, table};
use crate::engine::{Color, Piece, Position, Square};
use serde::{Deserialize, Serialize};

/// Rolls: 12 x 12 x 4 x 4.
pub const ROLLS: u32 = 2304;

/// One Roll Your Own roll: the four die faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Roll {
    /// d12 face 1-12: Red takes up the man on this square.
    pub red_removal: u8,
    /// d4 face 1-4: Red puts it on square 12 + face.
    pub red_place: u8,
    /// d12 face 1-12: White takes up the man on 33 - face.
    pub white_removal: u8,
    /// d4 face 1-4: White puts it on square 21 - face.
    pub white_place: u8,
}

impl Roll {
    /// A roll from its four faces, checked.
    pub fn new(
        red_removal: u8,
        red_place: u8,
        white_removal: u8,
        white_place: u8,
    ) -> Result<Roll, OpeningError> {
        let ok = |c: u8, max: u8| (1..=max).contains(&c);
        if !(ok(red_removal, 12) && ok(red_place, 4) && ok(white_removal, 12) && ok(white_place, 4))
        {
            return Err(OpeningError::BadCard(format!(
                "Roll Your Own ({red_removal}, {red_place}, {white_removal}, {white_place}): \
                 the d12 shows 1-12 and the d4 1-4"
            )));
        }
        Ok(Roll {
            red_removal,
            red_place,
            white_removal,
            white_place,
        })
    }

    /// The roll with this number, 1-2304.
    pub fn from_number(number: u32) -> Result<Roll, OpeningError> {
        if number == 0 || number > ROLLS {
            return Err(OpeningError::NumberOutOfRange {
                system: System::RollYourOwn,
                number,
                max: ROLLS,
            });
        }
        let i = number - 1;
        Ok(Roll {
            red_removal: (i / 192) as u8 + 1,
            red_place: (i / 48 % 4) as u8 + 1,
            white_removal: (i / 4 % 12) as u8 + 1,
            white_place: (i % 4) as u8 + 1,
        })
    }

    /// The roll's number, 1-2304.
    pub fn number(self) -> u32 {
        (u32::from(self.red_removal) - 1) * 192
            + (u32::from(self.red_place) - 1) * 48
            + (u32::from(self.white_removal) - 1) * 4
            + u32::from(self.white_place)
    }

    /// Red's man: (taken from, put on).
    pub fn red_squares(self) -> (u8, u8) {
        (self.red_removal, 12 + self.red_place)
    }

    /// White's man: (taken from, put on).
    pub fn white_squares(self) -> (u8, u8) {
        (33 - self.white_removal, 21 - self.white_place)
    }

    /// "Red 7 to 15; White 26 to 19".
    pub fn name(self) -> String {
        let (rf, rt) = self.red_squares();
        let (wf, wt) = self.white_squares();
        format!("Red {rf} to {rt}; White {wf} to {wt}")
    }

    /// The position the roll sets up, Red to move.
    pub fn position(self) -> Position {
        let mut pos = Position::start();
        for (color, (from, to)) in [
            (Color::Red, self.red_squares()),
            (Color::White, self.white_squares()),
        ] {
            if let (Some(f), Some(t)) = (Square::new(from), Square::new(to)) {
                pos.set_piece(f, None);
                pos.set_piece(t, Some(Piece { color, king: false }));
            }
        }
        pos
    }

    /// The roll's opening, from the table built once.
    pub fn opening(self) -> Opening {
        table(System::RollYourOwn).openings[self.number() as usize - 1].clone()
    }
}

/// Build the 2,304 rolls from scratch.
pub(crate) fn build() -> Vec<Opening> {
    (1..=ROLLS)
        .filter_map(|n| Roll::from_number(n).ok())
        .map(|r| {
            let position = r.position();
            Opening {
                system: System::RollYourOwn,
                number: r.number(),
                name: r.name(),
                start: position,
                set_moves: Vec::new(),
                position,
                public_id: None,
                loses_man: super::man_down(&position),
                kingsrow_lost: false,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_numbers_round_trip() {
        for n in 1..=ROLLS {
            assert_eq!(Roll::from_number(n).map(Roll::number), Ok(n));
        }
        assert!(Roll::from_number(2305).is_err());
        assert!(Roll::new(13, 1, 1, 1).is_err());
    }

    #[test]
    fn the_seed_examples() {
        // "square 13 is 1, square 14 is 2"; "square 20 is 1".
        let r = Roll::new(1, 1, 1, 1).unwrap();
        assert_eq!(r.red_squares(), (1, 13));
        assert_eq!(r.white_squares(), (32, 20));
        assert_eq!(
            Roll::new(12, 2, 12, 4).unwrap().name(),
            "Red 12 to 14; White 21 to 17"
        );
    }
}
