//! Board geometry: the one place that knows how the 32 playing squares are laid out.
//!
//! Squares use the standard numbering 1-32. Seen from White's side (White at the bottom,
//! Red at the top), square 1 is in the top row and squares run left to right, row by row:
//!
//! ```text
//!        col: 0  1  2  3  4  5  6  7
//!   row 0:    .  1  .  2  .  3  .  4      Red's back rank (White crowns here)
//!   row 1:    5  .  6  .  7  .  8  .
//!   row 2:    .  9  . 10  . 11  . 12
//!   row 3:   13  . 14  . 15  . 16  .
//!   row 4:    . 17  . 18  . 19  . 20
//!   row 5:   21  . 22  . 23  . 24  .
//!   row 6:    . 25  . 26  . 27  . 28
//!   row 7:   29  . 30  . 31  . 32  .      White's back rank (Red crowns here)
//! ```
//!
//! Each player has a dark square at the left-hand corner (29 for White, 4 for Red) and the
//! double corner on the right (28/32 for White, 1/5 for Red).
//!
//! Bitboards are `u32` with bit `n - 1` standing for square `n`. Red moves "down" the diagram
//! (towards higher numbers), White moves "up".

use serde::{Deserialize, Serialize};
use std::fmt;

/// A set of squares: bit `n - 1` is square `n`.
pub type Bitboard = u32;

/// The two sides. Red (PDN's "Black", the dark pieces) starts on 1-12 and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Color {
    /// The dark side ("Black" in PDN), on squares 1-12 at the start; moves first.
    Red,
    /// The light side, on squares 21-32 at the start.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Red => Color::White,
            Color::White => Color::Red,
        }
    }

    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::White];

    /// Human name: "Red" or "White".
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::White => "White",
        }
    }

    /// The row (0-7) on which this side's men are crowned.
    pub fn crown_row(self) -> u8 {
        match self {
            Color::Red => 7,
            Color::White => 0,
        }
    }

    /// The squares on which this side's men are crowned.
    #[inline]
    pub fn crown_squares(self) -> Bitboard {
        match self {
            Color::Red => ROW_7,
            Color::White => ROW_0,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the 32 playing squares, numbered 1-32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

impl Square {
    /// The square with standard number `n` (1-32), or `None` when out of range.
    #[inline]
    pub fn new(n: u8) -> Option<Square> {
        (1..=32).contains(&n).then_some(Square(n))
    }

    /// The square numbered `n`, a number of a move's path: 1-32 by construction (every path
    /// is built from squares or from single-bit bitboards), so it is not checked again.
    #[inline(always)]
    pub(crate) const fn of_path_number(n: u8) -> Square {
        Square(n)
    }

    /// The square for bit index `i` (0-31). Panics in debug builds when out of range.
    pub(crate) fn from_index(i: u32) -> Square {
        debug_assert!(i < 32);
        Square(i as u8 + 1)
    }

    /// Standard number, 1-32.
    #[inline(always)]
    pub fn number(self) -> u8 {
        self.0
    }

    /// Bit index, 0-31.
    #[inline(always)]
    pub fn index(self) -> u32 {
        // A square is 1-32: the subtraction never wraps (no overflow check needed).
        u32::from(self.0.wrapping_sub(1))
    }

    /// The single-bit bitboard of this square.
    #[inline(always)]
    pub fn bit(self) -> Bitboard {
        // The index is below 32: the shift never overflows.
        (1 as Bitboard).wrapping_shl(self.index())
    }

    /// Row 0-7, counted from Red's back rank (top of the diagram).
    pub fn row(self) -> u8 {
        (self.0 - 1) / 4
    }

    /// Column 0-7, counted from the left of the diagram (White's left).
    pub fn col(self) -> u8 {
        let within = (self.0 - 1) % 4;
        if self.row().is_multiple_of(2) {
            within * 2 + 1
        } else {
            within * 2
        }
    }

    /// The square at a row and column of the diagram, if it is a playing (dark) square.
    pub fn at(row: u8, col: u8) -> Option<Square> {
        if row > 7 || col > 7 || (row + col).is_multiple_of(2) {
            return None;
        }
        Square::new(row * 4 + col / 2 + 1)
    }

    /// All 32 squares in numeric order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).map(Square)
    }

    /// The neighbouring square one step in `dir`, if on the board.
    pub fn step(self, dir: Direction) -> Option<Square> {
        let (dr, dc) = dir.delta();
        Square::at(
            self.row().checked_add_signed(dr)?,
            self.col().checked_add_signed(dc)?,
        )
    }
}

impl TryFrom<u8> for Square {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Square::new(n).ok_or_else(|| format!("square {n} is not between 1 and 32"))
    }
}

impl From<Square> for u8 {
    fn from(s: Square) -> u8 {
        s.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The four diagonal directions, named as seen on the diagram (Red at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher numbers and the left of the diagram (a Red man's forward-left on screen).
    DownLeft,
    /// Towards higher numbers and the right of the diagram.
    DownRight,
    /// Towards lower numbers and the left of the diagram.
    UpLeft,
    /// Towards lower numbers and the right of the diagram.
    UpRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::DownLeft,
        Direction::DownRight,
        Direction::UpLeft,
        Direction::UpRight,
    ];

    /// The directions a man of `color` may move in.
    pub fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::Red => [Direction::DownLeft, Direction::DownRight],
            Color::White => [Direction::UpLeft, Direction::UpRight],
        }
    }

    /// (row, column) change of one step.
    pub fn delta(self) -> (i8, i8) {
        match self {
            Direction::DownLeft => (1, -1),
            Direction::DownRight => (1, 1),
            Direction::UpLeft => (-1, -1),
            Direction::UpRight => (-1, 1),
        }
    }

    #[cfg(test)]
    pub(crate) fn idx(self) -> usize {
        self as usize
    }
}

/// Iterate over the squares of a bitboard in increasing order.
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let i = bb.trailing_zeros();
        bb &= bb.wrapping_sub(1);
        Some(Square::from_index(i))
    })
}

// ---------------------------------------------------------------------------------------------
// Shift masks. In an even row (0, 2, 4, 6) a square's column is odd; in an odd row it is even.
// One step changes the bit index by 3, 4 or 5 depending on the row parity; a jump (two steps in
// one direction) always changes it by 7 or 9.

const fn row_mask(row: u32) -> Bitboard {
    0xF << (row * 4)
}
/// Squares 1-4 (White crowns here).
pub(super) const ROW_0: Bitboard = row_mask(0);
/// Squares 29-32 (Red crowns here).
pub(super) const ROW_7: Bitboard = row_mask(7);
const EVEN_ROWS: Bitboard = row_mask(0) | row_mask(2) | row_mask(4) | row_mask(6);
const ODD_ROWS: Bitboard = !EVEN_ROWS;
/// Squares in the first column of a 4-square row (5, 13, 21, 29 on odd rows; 1, 9, ... on even).
const FIRST_IN_ROW: Bitboard = 0x1111_1111;
/// Squares in the last column of a 4-square row.
const LAST_IN_ROW: Bitboard = 0x8888_8888;

const DL_EVEN: Bitboard = EVEN_ROWS & !ROW_7; // shift +4
const DL_ODD: Bitboard = ODD_ROWS & !FIRST_IN_ROW & !ROW_7; // shift +3
const DR_EVEN: Bitboard = EVEN_ROWS & !LAST_IN_ROW & !ROW_7; // shift +5
const DR_ODD: Bitboard = ODD_ROWS & !ROW_7; // shift +4
const UL_EVEN: Bitboard = EVEN_ROWS & !ROW_0; // shift -4
const UL_ODD: Bitboard = ODD_ROWS & !FIRST_IN_ROW; // shift -5
const UR_EVEN: Bitboard = EVEN_ROWS & !LAST_IN_ROW & !ROW_0; // shift -3
const UR_ODD: Bitboard = ODD_ROWS; // shift -4

/// Every square of `b` moved one step down-left (off-board steps vanish).
#[inline(always)]
pub(crate) fn step_down_left(b: Bitboard) -> Bitboard {
    ((b & DL_EVEN) << 4) | ((b & DL_ODD) << 3)
}
/// Every square of `b` moved one step down-right.
#[inline(always)]
pub(crate) fn step_down_right(b: Bitboard) -> Bitboard {
    ((b & DR_EVEN) << 5) | ((b & DR_ODD) << 4)
}
/// Every square of `b` moved one step up-left.
#[inline(always)]
pub(crate) fn step_up_left(b: Bitboard) -> Bitboard {
    ((b & UL_EVEN) >> 4) | ((b & UL_ODD) >> 5)
}
/// Every square of `b` moved one step up-right.
#[inline(always)]
pub(crate) fn step_up_right(b: Bitboard) -> Bitboard {
    ((b & UR_EVEN) >> 3) | ((b & UR_ODD) >> 4)
}

/// Every square of `b` moved one step in `dir`.
#[inline(always)]
pub(crate) fn step(b: Bitboard, dir: Direction) -> Bitboard {
    match dir {
        Direction::DownLeft => step_down_left(b),
        Direction::DownRight => step_down_right(b),
        Direction::UpLeft => step_up_left(b),
        Direction::UpRight => step_up_right(b),
    }
}

/// Every square of `b` moved one step against `dir` (the inverse of [`step`] on valid squares).
#[inline(always)]
pub(crate) fn step_back(b: Bitboard, dir: Direction) -> Bitboard {
    match dir {
        Direction::DownLeft => step_up_right(b),
        Direction::DownRight => step_up_left(b),
        Direction::UpLeft => step_down_right(b),
        Direction::UpRight => step_down_left(b),
    }
}

/// For each square and direction: the square jumped over and the landing square, as bits
/// (both zero when the jump leaves the board).
pub(crate) struct JumpTable {
    pub step: [[Bitboard; 4]; 32],
    pub over: [[Bitboard; 4]; 32],
    pub land: [[Bitboard; 4]; 32],
}

const fn build_jump_table() -> JumpTable {
    let mut step = [[0u32; 4]; 32];
    let mut over = [[0u32; 4]; 32];
    let mut land = [[0u32; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let row = (i / 4) as i32;
        let within = (i % 4) as i32;
        let col = if row % 2 == 0 {
            within * 2 + 1
        } else {
            within * 2
        };
        let deltas = [(1, -1), (1, 1), (-1, -1), (-1, 1)];
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = deltas[d];
            let (r1, c1, r2, c2) = (row + dr, col + dc, row + 2 * dr, col + 2 * dc);
            if r1 >= 0 && r1 < 8 && c1 >= 0 && c1 < 8 {
                step[i][d] = 1 << (r1 * 4 + c1 / 2);
            }
            if r2 >= 0 && r2 < 8 && c2 >= 0 && c2 < 8 {
                over[i][d] = 1 << (r1 * 4 + c1 / 2);
                land[i][d] = 1 << (r2 * 4 + c2 / 2);
            }
            d += 1;
        }
        i += 1;
    }
    JumpTable { step, over, land }
}

pub(crate) static JUMPS: JumpTable = build_jump_table();

/// The long diagonal 4-29 (the "long line" of the pool 13-count, rule 24B).
pub const LONG_DIAGONAL: Bitboard =
    (1 << 3) | (1 << 7) | (1 << 10) | (1 << 14) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 28);

/// For each square and direction, every square along the diagonal beyond it (the square
/// itself excluded), as a bitboard: the ray a flying king moves along.
pub(crate) static RAYS: [[Bitboard; 4]; 32] = build_rays();

const fn build_rays() -> [[Bitboard; 4]; 32] {
    let steps = build_jump_table().step;
    let mut rays = [[0u32; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let mut d = 0;
        while d < 4 {
            let mut at = i;
            let mut ray = 0;
            while steps[at][d] != 0 {
                let next = steps[at][d];
                ray |= next;
                at = next.trailing_zeros() as usize;
            }
            rays[i][d] = ray;
            d += 1;
        }
        i += 1;
    }
    rays
}

/// True for the directions along which square indices grow (down the diagram).
#[inline(always)]
pub(crate) const fn ascending(dir: usize) -> bool {
    dir < 2
}

/// The square of `set` nearest to the ray's origin, going in direction `dir` (`set` non-empty).
#[inline(always)]
pub(crate) const fn nearest(set: Bitboard, dir: usize) -> Bitboard {
    if ascending(dir) {
        set & set.wrapping_neg()
    } else {
        1 << (31 - set.leading_zeros())
    }
}

/// The squares of the ray from square index `at` in `dir` that come before the first square of
/// `occupied` on it: where a flying king on `at` may move.
#[inline(always)]
pub(crate) fn free_run(at: usize, dir: usize, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[at][dir];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let b = nearest(blockers, dir);
    if ascending(dir) {
        ray & (b - 1)
    } else {
        ray & !(b | (b - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::at(sq.row(), sq.col()), Some(sq));
        }
        assert_eq!(Square::at(0, 0), None);
        assert_eq!(Square::at(7, 0).unwrap().number(), 29);
        assert_eq!(Square::at(7, 6).unwrap().number(), 32);
        assert_eq!(Square::at(6, 7).unwrap().number(), 28);
        assert_eq!(Square::at(0, 7).unwrap().number(), 4);
        assert_eq!(Square::at(1, 0).unwrap().number(), 5);
    }

    #[test]
    fn bit_steps_match_coordinate_steps() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let expected = sq.step(dir).map_or(0, Square::bit);
                assert_eq!(step(sq.bit(), dir), expected, "{sq} {dir:?}");
                if let Some(to) = sq.step(dir) {
                    assert_eq!(step_back(to.bit(), dir), sq.bit());
                }
            }
        }
    }

    #[test]
    fn jump_table_matches_steps() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let over = sq.step(dir);
                let land = over.and_then(|o| o.step(dir));
                let (eo, el) = match (over, land) {
                    (Some(o), Some(l)) => (o.bit(), l.bit()),
                    _ => (0, 0),
                };
                assert_eq!(JUMPS.over[sq.index() as usize][dir.idx()], eo);
                assert_eq!(JUMPS.land[sq.index() as usize][dir.idx()], el);
            }
        }
    }

    #[test]
    fn rays_follow_steps() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let mut expected = 0;
                let mut at = sq;
                while let Some(next) = at.step(dir) {
                    expected |= next.bit();
                    at = next;
                }
                let i = sq.index() as usize;
                assert_eq!(RAYS[i][dir.idx()], expected, "{sq} {dir:?}");
                assert_eq!(free_run(i, dir.idx(), 0), expected);
                if expected != 0 {
                    let first = nearest(expected, dir.idx());
                    assert_eq!(Some(first), sq.step(dir).map(Square::bit));
                    assert_eq!(free_run(i, dir.idx(), first), 0);
                }
            }
        }
        // From 1 down-right: 6, 10, 15, 19, 24, 28; blocked on 15 leaves 6 and 10.
        let s = |n: u8| Square::new(n).unwrap().bit();
        let i = Square::new(1).unwrap().index() as usize;
        let dr = Direction::DownRight.idx();
        assert_eq!(free_run(i, dr, s(15) | s(24)), s(6) | s(10));
        assert_eq!(
            LONG_DIAGONAL,
            [4, 8, 11, 15, 18, 22, 25, 29]
                .iter()
                .map(|&n| s(n))
                .sum::<u32>()
        );
    }

    #[test]
    fn known_neighbours() {
        let s = |n| Square::new(n).unwrap();
        assert_eq!(s(11).step(Direction::DownLeft), Some(s(15)));
        assert_eq!(s(11).step(Direction::DownRight), Some(s(16)));
        assert_eq!(s(12).step(Direction::DownRight), None);
        assert_eq!(s(9).step(Direction::DownLeft), Some(s(13)));
        assert_eq!(s(5).step(Direction::DownLeft), None);
        assert_eq!(s(22).step(Direction::UpLeft), Some(s(17)));
        assert_eq!(s(22).step(Direction::UpRight), Some(s(18)));
    }
}
