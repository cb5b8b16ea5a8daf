//! The move restrictions: 2-move (Red's first move and White's reply) and 3-move (the 174
//! three-move openings of `assets/three_move_openings.tsv`, with their ballot-deck flags).

use super::{Opening, System, with_moves};
use crate::engine::Position;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Red's seven first moves, in numbering order.
pub(super) const RED_FIRST_MOVES: [&str; 7] =
    ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
/// White's seven replies, in numbering order (the same for every Red move).
pub(super) const WHITE_REPLIES: [&str; 7] = [
    "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
];

/// The 49 two-move openings: number = 7 x (Red move index) + (White reply index) + 1, so 1 is
/// "9-13 21-17" and 49 is "12-16 24-20".
pub(crate) fn two_move() -> Vec<Opening> {
    let mut out = Vec::with_capacity(49);
    for (i, r) in RED_FIRST_MOVES.iter().enumerate() {
        for (j, w) in WHITE_REPLIES.iter().enumerate() {
            let number = (i * 7 + j + 1) as u32;
            out.push(with_moves(
                System::TwoMove,
                number,
                format!("{r} {w}"),
                Position::start(),
                &[r, w],
            ));
        }
    }
    out
}

/// Where a 3-move opening stands in the ACF ballot decks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreeMoveClass {
    /// In the 144-ballot crossboard deck.
    Crossboard,
    /// One of the 12 later additions (with the 144: the current 156-ballot deck).
    Addition,
    /// Barred: not in any deck (18).
    Barred,
}

/// A 3-move opening's flags from the data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreeMoveFlags {
    /// The opening's number 1-174.
    pub number: u32,
    /// The three moves, e.g. "9-13 22-18 6-9".
    pub moves: String,
    /// Its deck class.
    pub class: ThreeMoveClass,
    /// In the 50-ballot "computer tough deck".
    pub tough: bool,
    /// Its traditional name, when it has one ("Dreaded Edinburgh").
    pub common_name: Option<String>,
}

/// The embedded 3-move list, with its source lines.
pub(super) const THREE_MOVE_LIST: &str = include_str!("../../assets/three_move_openings.tsv");

fn three_move_rows() -> &'static [ThreeMoveFlags] {
    static ROWS: OnceLock<Vec<ThreeMoveFlags>> = OnceLock::new();
    ROWS.get_or_init(|| {
        THREE_MOVE_LIST
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("number\t") && !l.trim().is_empty())
            .map(|line| {
                let f: Vec<&str> = line.split('\t').collect();
                let field = |i: usize| f.get(i).map_or("", |s| s.trim());
                ThreeMoveFlags {
                    number: field(0).parse().unwrap_or_else(|_| bad_line(line)),
                    moves: field(1).to_string(),
                    class: match field(2) {
                        "X" => ThreeMoveClass::Crossboard,
                        "M" => ThreeMoveClass::Addition,
                        "B" => ThreeMoveClass::Barred,
                        _ => bad_line(line),
                    },
                    tough: match field(3) {
                        "T" => true,
                        "" => false,
                        _ => bad_line(line),
                    },
                    common_name: Some(field(4)).filter(|s| !s.is_empty()).map(str::to_string),
                }
            })
            .collect()
    })
}

fn bad_line(line: &str) -> ! {
    panic!("assets/three_move_openings.tsv: bad line {line:?}")
}

/// The flags of 3-move opening `number` (1-174).
pub fn three_move_flags(number: u32) -> Option<&'static ThreeMoveFlags> {
    three_move_rows()
        .get((number as usize).wrapping_sub(1))
        .filter(|r| r.number == number)
}

/// The 174 three-move openings, played out from the start.
pub(crate) fn three_move() -> Vec<Opening> {
    three_move_rows()
        .iter()
        .map(|r| {
            let moves: Vec<&str> = r.moves.split_whitespace().collect();
            with_moves(
                System::ThreeMove,
                r.number,
                r.moves.clone(),
                Position::start(),
                &moves,
            )
        })
        .collect()
}
