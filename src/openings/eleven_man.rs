//! The 11-Man Ballot (Newell Banks, 1907): one man of each side removed, then one move each.
//!
//! The deck has 8 cards with 4 sections each. Red draws a card for the man Red removes (squares
//! 5-12), returns it, and draws again for Red's first move (7 moves; the eighth card names none
//! and is redrawn); then White does the same (removal from 21-28, 7 moves). A card naming a move
//! for the man already removed moves the man behind it in the same direction instead (at the
//! edge, 12-16 and 21-17, the only man behind: 8-12, 25-21).
//!
//! Card k names the same thing for both sides, White's being Red's turned half round (square s
//! becomes 33 - s): card 1 removes 5 / 28 and plays 9-13 / 24-20.
//!
//! A ballot is the 4-tuple (Red removal, White removal, Red move, White move), 8 x 8 x 7 x 7 =
//! 3,136 ballots numbered in that order (the GoldToken order): ballot 1 is cards (1, 1, 1, 1).
//! They give 2,500 distinct positions, numbered 1-2500 as KingsRow and other programs do
//! (`assets/eleven_man_positions.tsv`, which also gives KingsRow's class).

use super::{Opening, OpeningError, System, table, with_set_moves};
use crate::engine::{Color, Move, Position, Square};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Squares of the man Red removes, by card 1-8.
pub const RED_REMOVAL_SQUARES: [u8; 8] = [5, 6, 7, 8, 9, 10, 11, 12];
/// Squares of the man White removes, by card 1-8 (Red's turned half round).
pub const WHITE_REMOVAL_SQUARES: [u8; 8] = [28, 27, 26, 25, 24, 23, 22, 21];
/// Red's move cards 1-7: (from, to, from-instead) where the man on `from-instead` moves to
/// `from` when the man on `from` was removed.
pub const RED_MOVE_CARDS: [(u8, u8, u8); 7] = [
    (9, 13, 6),
    (9, 14, 5),
    (10, 14, 7),
    (10, 15, 6),
    (11, 15, 8),
    (11, 16, 7),
    (12, 16, 8),
];
/// White's move cards 1-7, as [`RED_MOVE_CARDS`].
pub const WHITE_MOVE_CARDS: [(u8, u8, u8); 7] = [
    (24, 20, 27),
    (24, 19, 28),
    (23, 19, 26),
    (23, 18, 27),
    (22, 18, 25),
    (22, 17, 26),
    (21, 17, 25),
];
/// Cards in the deck.
pub const DECK_CARDS: u32 = 8;
/// Ballots: 8 x 8 x 7 x 7.
pub const BALLOTS: u32 = 3136;
/// Distinct positions of the ballots.
pub const POSITIONS: u32 = 2500;

/// One 11-man ballot: the cards drawn for each of the four sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ballot {
    /// Card 1-8 for the man Red removes (square 4 + card).
    pub red_removal: u8,
    /// Card 1-8 for the man White removes (square 29 - card).
    pub white_removal: u8,
    /// Card 1-7 for Red's move.
    pub red_move: u8,
    /// Card 1-7 for White's move.
    pub white_move: u8,
}

impl Ballot {
    /// A ballot from its four cards, checked.
    pub fn new(
        red_removal: u8,
        white_removal: u8,
        red_move: u8,
        white_move: u8,
    ) -> Result<Ballot, OpeningError> {
        let ok = |c: u8, max: u8| (1..=max).contains(&c);
        if !(ok(red_removal, 8) && ok(white_removal, 8) && ok(red_move, 7) && ok(white_move, 7)) {
            return Err(OpeningError::BadCard(format!(
                "11-man ballot ({red_removal}, {white_removal}, {red_move}, {white_move}): \
                 removal cards run 1-8 and move cards 1-7"
            )));
        }
        Ok(Ballot {
            red_removal,
            white_removal,
            red_move,
            white_move,
        })
    }

    /// The ballot with this number, 1-3136.
    pub fn from_number(number: u32) -> Result<Ballot, OpeningError> {
        if number == 0 || number > BALLOTS {
            return Err(OpeningError::NumberOutOfRange {
                system: System::ElevenMan,
                number,
                max: BALLOTS,
            });
        }
        let i = number - 1;
        Ok(Ballot {
            red_removal: (i / 392) as u8 + 1,
            white_removal: (i / 49 % 8) as u8 + 1,
            red_move: (i / 7 % 7) as u8 + 1,
            white_move: (i % 7) as u8 + 1,
        })
    }

    /// The ballot's number, 1-3136.
    pub fn number(self) -> u32 {
        (u32::from(self.red_removal) - 1) * 392
            + (u32::from(self.white_removal) - 1) * 49
            + (u32::from(self.red_move) - 1) * 7
            + u32::from(self.white_move)
    }

    /// The squares of the removed men (Red's, White's).
    pub fn removed(self) -> (u8, u8) {
        (
            RED_REMOVAL_SQUARES[usize::from(self.red_removal) - 1],
            WHITE_REMOVAL_SQUARES[usize::from(self.white_removal) - 1],
        )
    }

    /// Red's move as played (from, to) and whether the substitution rule applied.
    pub fn red_move_played(self) -> ((u8, u8), bool) {
        played(
            RED_MOVE_CARDS[usize::from(self.red_move) - 1],
            self.removed().0,
        )
    }

    /// White's move as played (from, to) and whether the substitution rule applied.
    pub fn white_move_played(self) -> ((u8, u8), bool) {
        played(
            WHITE_MOVE_CARDS[usize::from(self.white_move) - 1],
            self.removed().1,
        )
    }

    /// "Remove 11 and 28; 8-11 24-19": removals and the moves as played.
    pub fn name(self) -> String {
        let (r, w) = self.removed();
        let ((rf, rt), _) = self.red_move_played();
        let ((wf, wt), _) = self.white_move_played();
        format!("Remove {r} and {w}; {rf}-{rt} {wf}-{wt}")
    }

    /// The standard start without the two removed men, Red to move.
    pub fn start(self) -> Position {
        let (r, w) = self.removed();
        let mut pos = Position::start();
        for sq in [r, w].into_iter().filter_map(Square::new) {
            pos.set_piece(sq, None);
        }
        pos
    }

    /// The ballot's opening, from the table built once.
    pub fn opening(self) -> Opening {
        table(System::ElevenMan).openings[self.number() as usize - 1].clone()
    }
}

/// Text of a move card as played: "11-15" or "11-15 (man on 11 removed: 8-11 instead)".
pub(crate) fn move_card_meaning(card: (u8, u8, u8), removed: u8) -> String {
    let (from, to, instead) = card;
    if from == removed {
        format!("{from}-{to} (man on {from} removed: {instead}-{from} instead)")
    } else {
        format!("{from}-{to}")
    }
}

fn played((from, to, instead): (u8, u8, u8), removed: u8) -> ((u8, u8), bool) {
    if from == removed {
        ((instead, from), true)
    } else {
        ((from, to), false)
    }
}

/// One of the 2,500 distinct 11-man positions, with its public id and the ballots giving it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElevenManPosition {
    /// Public id 1-2500 (KingsRow numbering).
    pub id: u32,
    /// The position, Red to move.
    pub position: Position,
    /// KingsRow classes it "lost".
    pub kingsrow_lost: bool,
    /// The ballot numbers giving it (transpositions), ascending.
    pub ballots: Vec<u32>,
    /// The side losing a man at once, by the rules engine.
    pub loses_man: Option<Color>,
    /// The ballot text in the public list, e.g. "Remove 11 and 28; 8-11 24-19".
    pub public_name: String,
    /// How many deck ballots the public list says give this position.
    pub listed_ballots: u32,
}

impl ElevenManPosition {
    /// The lowest-numbered ballot giving this position.
    pub fn opening(&self) -> Opening {
        table(System::ElevenMan).openings[self.ballots[0] as usize - 1].clone()
    }
}

/// The 2,500 positions in public-id order. Positions in the data file that no ballot gives would
/// have no ballots; the tests check there are none.
pub fn eleven_man_positions() -> &'static [ElevenManPosition] {
    static POSITIONS: OnceLock<Vec<ElevenManPosition>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let by_position = &table(System::ElevenMan).by_position;
        public_rows()
            .rows
            .iter()
            .map(|row| {
                let ballots = by_position.get(&row.position).cloned().unwrap_or_default();
                ElevenManPosition {
                    id: row.id,
                    position: row.position,
                    kingsrow_lost: row.lost,
                    loses_man: super::man_down(&row.position),
                    ballots,
                    public_name: row.name.clone(),
                    listed_ballots: row.deck_ballots,
                }
            })
            .collect()
    })
}

/// The 11-man position with this public id (1-2500).
pub fn eleven_man_position(id: u32) -> Result<&'static ElevenManPosition, OpeningError> {
    eleven_man_positions()
        .get((id as usize).wrapping_sub(1))
        .filter(|p| p.id == id)
        .ok_or(OpeningError::NoSuchPublicId(id))
}

/// A row of the public position list.
pub(crate) struct PublicRow {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) position: Position,
    pub(crate) lost: bool,
    pub(crate) deck_ballots: u32,
}

pub(crate) struct PublicRows {
    pub(crate) rows: Vec<PublicRow>,
    pub(crate) by_position: HashMap<Position, usize>,
}

/// The embedded public list (ids, FENs, KingsRow classes), with its source lines.
pub(super) const PUBLIC_LIST: &str = include_str!("../../assets/eleven_man_positions.tsv");

/// The public list parsed once. A malformed embedded file is a build bug: panics, covered by tests.
pub(crate) fn public_rows() -> &'static PublicRows {
    static ROWS: OnceLock<PublicRows> = OnceLock::new();
    ROWS.get_or_init(|| {
        let rows: Vec<PublicRow> = PUBLIC_LIST
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("id\t") && !l.trim().is_empty())
            .map(|line| {
                let f: Vec<&str> = line.split('\t').collect();
                if f.len() != 5 {
                    bad_line(line);
                }
                PublicRow {
                    id: f[0].parse().unwrap_or_else(|_| bad_line(line)),
                    name: f[1].to_string(),
                    position: Position::from_fen(f[2]).unwrap_or_else(|_| bad_line(line)),
                    lost: match f[3] {
                        "lost" => true,
                        "standard" => false,
                        _ => bad_line(line),
                    },
                    deck_ballots: f[4].parse().unwrap_or_else(|_| bad_line(line)),
                }
            })
            .collect();
        let by_position = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.position, i))
            .collect();
        PublicRows { rows, by_position }
    })
}

fn bad_line(line: &str) -> ! {
    panic!("assets/eleven_man_positions.tsv: bad line {line:?}")
}

/// Build the 3,136 ballots from scratch.
pub(crate) fn build() -> Vec<Opening> {
    let public = public_rows();
    (1..=BALLOTS)
        .filter_map(|n| Ballot::from_number(n).ok())
        .map(|b| {
            let step = |(from, to): (u8, u8)| match (Square::new(from), Square::new(to)) {
                (Some(f), Some(t)) => Move::step(f, t),
                _ => panic!("11-man card squares {from}-{to}"),
            };
            let moves = vec![step(b.red_move_played().0), step(b.white_move_played().0)];
            let mut o = with_set_moves(System::ElevenMan, b.number(), b.name(), b.start(), moves);
            if let Some(&i) = public.by_position.get(&o.position) {
                o.public_id = Some(public.rows[i].id);
                o.kingsrow_lost = public.rows[i].lost;
            }
            o
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ballot_numbers_round_trip() {
        for n in 1..=BALLOTS {
            assert_eq!(Ballot::from_number(n).map(Ballot::number), Ok(n));
        }
        assert!(Ballot::from_number(0).is_err());
        assert!(Ballot::from_number(3137).is_err());
        assert_eq!(Ballot::new(1, 1, 1, 1).map(Ballot::number), Ok(1));
        assert_eq!(Ballot::new(8, 8, 7, 7).map(Ballot::number), Ok(3136));
        assert!(Ballot::new(1, 1, 8, 1).is_err());
    }

    #[test]
    fn substitution_names() {
        let b = Ballot::new(7, 1, 5, 2).unwrap();
        assert_eq!(b.name(), "Remove 11 and 28; 8-11 24-19");
        assert_eq!(
            move_card_meaning(RED_MOVE_CARDS[4], 11),
            "11-15 (man on 11 removed: 8-11 instead)"
        );
    }

    #[test]
    fn white_cards_are_red_cards_turned_round() {
        for k in 0..8 {
            assert_eq!(WHITE_REMOVAL_SQUARES[k], 33 - RED_REMOVAL_SQUARES[k]);
        }
        for k in 0..7 {
            let (f, t, i) = RED_MOVE_CARDS[k];
            assert_eq!(WHITE_MOVE_CARDS[k], (33 - f, 33 - t, 33 - i));
        }
    }
}
