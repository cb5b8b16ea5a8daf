//! Material slices and the index of a position inside its slice.
//!
//! Every position is first *normalised*: when White is to move the board is turned half round
//! (square `n` becomes `33 - n`) and the colours swapped, so the side to move ("us") always
//! moves like Red, towards higher square numbers, crowning on 29-32. One slice then holds every
//! position of one material ([`Material`]: men and kings of the side to move and of the other
//! side) with that side to move, and a position with White to move is found in the slice of
//! the swapped material.
//!
//! Inside a slice the index is a mixed-radix number, most significant first:
//!
//! 1. our men, a combination of squares 1-28 (a man on 29-32 would be a king);
//! 2. their men, a combination of squares 5-32 (their crowning row is 1-4);
//! 3. our kings, a combination of the squares left empty by the men;
//! 4. their kings, a combination of the squares left empty by the men and our kings.
//!
//! Combinations are numbered in colexicographic order (`sum C(p_i, i + 1)`). Men of the two
//! sides are numbered independently, so an index whose men share a square is *unused*; this
//! costs a few per cent of the slice and keeps the arithmetic simple.

use crate::engine::{Bitboard, Color, Position, Rules};
use std::fmt;

/// The most pieces a database slice may hold (both sides together).
pub const MAX_PIECES: u32 = 6;

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <= 32`.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` for `n, k <= 32`, zero when `k > n`.
#[inline(always)]
pub(super) fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// Squares 1-28: where our men may stand.
const OUR_MEN_SQUARES: u32 = 28;
/// Squares 29-32, our crowning row.
pub(crate) const OUR_CROWN_ROW: Bitboard = 0xF000_0000;

/// The material of a slice, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub us_men: u8,
    /// Kings of the side to move.
    pub us_kings: u8,
    /// Men of the other side.
    pub them_men: u8,
    /// Kings of the other side.
    pub them_kings: u8,
}

impl Material {
    /// A material; `None` unless each side has at least one piece and there are at most
    /// [`MAX_PIECES`] in all.
    pub fn new(us_men: u8, us_kings: u8, them_men: u8, them_kings: u8) -> Option<Material> {
        let m = Material {
            us_men,
            us_kings,
            them_men,
            them_kings,
        };
        let ok = m.us() >= 1 && m.them() >= 1 && m.pieces() <= MAX_PIECES;
        ok.then_some(m)
    }

    /// Pieces of the side to move.
    pub fn us(self) -> u32 {
        u32::from(self.us_men) + u32::from(self.us_kings)
    }

    /// Pieces of the other side.
    pub fn them(self) -> u32 {
        u32::from(self.them_men) + u32::from(self.them_kings)
    }

    /// All pieces.
    pub fn pieces(self) -> u32 {
        self.us() + self.them()
    }

    /// Men of both sides.
    pub fn men(self) -> u32 {
        u32::from(self.us_men) + u32::from(self.them_men)
    }

    /// The same material with the other side to move (the slice a move leads to).
    pub fn swapped(self) -> Material {
        Material {
            us_men: self.them_men,
            us_kings: self.them_kings,
            them_men: self.us_men,
            them_kings: self.us_kings,
        }
    }

    /// The material of a normalised board.
    pub fn of(board: &Board) -> Material {
        let men = board.us & !board.kings;
        let their_men = board.them & !board.kings;
        Material {
            us_men: men.count_ones() as u8,
            us_kings: (board.us & board.kings).count_ones() as u8,
            them_men: their_men.count_ones() as u8,
            them_kings: (board.them & board.kings).count_ones() as u8,
        }
    }

    fn radices(self) -> [u64; 4] {
        let men = self.men();
        let free = 32 - men;
        [
            binomial(OUR_MEN_SQUARES, u32::from(self.us_men)),
            binomial(OUR_MEN_SQUARES, u32::from(self.them_men)),
            binomial(free, u32::from(self.us_kings)),
            binomial(free - u32::from(self.us_kings), u32::from(self.them_kings)),
        ]
    }

    /// Number of indices in the slice (unused ones, where men share a square, included).
    pub fn size(self) -> u64 {
        self.radices().iter().product()
    }

    /// Index of a normalised board of this material (the board must have this material).
    #[inline]
    pub fn index(self, board: &Board) -> u64 {
        let [_, r1, r2, r3] = self.radices();
        let our_men = board.us & !board.kings;
        let their_men = board.them & !board.kings;
        let men = our_men | their_men;
        let our_kings = board.us & board.kings;
        let their_kings = board.them & board.kings;
        let a = rank(our_men);
        let b = rank(their_men >> 4);
        let c = rank_among_free(our_kings, men);
        let d = rank_among_free(their_kings, men | our_kings);
        ((a * r1 + b) * r2 + c) * r3 + d
    }

    /// The board at `index`, or `None` when the index is unused (men sharing a square) or
    /// out of range.
    pub fn board(self, index: u64) -> Option<Board> {
        let [r0, r1, r2, r3] = self.radices();
        if index >= r0 * r1 * r2 * r3 {
            return None;
        }
        let d = index % r3;
        let rest = index / r3;
        let c = rest % r2;
        let rest = rest / r2;
        let b = rest % r1;
        let a = rest / r1;
        let our_men = unrank(a, u32::from(self.us_men));
        let their_men = unrank(b, u32::from(self.them_men)) << 4;
        if our_men & their_men != 0 {
            return None;
        }
        let men = our_men | their_men;
        let our_kings = deposit(unrank(c, u32::from(self.us_kings)), men);
        let their_kings = deposit(unrank(d, u32::from(self.them_kings)), men | our_kings);
        Some(Board {
            us: our_men | our_kings,
            them: their_men | their_kings,
            kings: our_kings | their_kings,
        })
    }
}

impl fmt::Display for Material {
    /// `2m1k-0m2k`: our men and kings, then theirs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.us_men, self.us_kings, self.them_men, self.them_kings
        )
    }
}

/// Colex rank of the set bits of `set`, counting positions from bit 0.
#[inline(always)]
fn rank(mut set: Bitboard) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += binomial(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// Colex rank of `set` counted on the squares not in `taken` (each square's position is its
/// number less the taken squares below it).
#[inline(always)]
fn rank_among_free(mut set: Bitboard, taken: Bitboard) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let sq = set.trailing_zeros();
        let below = taken & ((1u32 << sq) - 1);
        r += binomial(sq - below.count_ones(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The most pieces one side can have in a slice.
const MAX_SIDE: usize = MAX_PIECES as usize - 1;

/// For each `k <= MAX_SIDE`, the `k`-subsets of 0..32 in colex order (the rank is the
/// position in the list; ranks of subsets of 0..28 come first, so men use it too).
fn subsets(k: u32) -> &'static [Bitboard] {
    static TABLES: std::sync::OnceLock<Vec<Vec<Bitboard>>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=MAX_SIDE as u32)
            .map(|k| (0..binomial(32, k)).map(|r| unrank_slow(r, k)).collect())
            .collect()
    });
    &tables[k as usize]
}

/// The `k`-subset with colex rank `r`, as bits (`k <= MAX_SIDE`, `r < C(32, k)`).
#[inline(always)]
fn unrank(r: u64, k: u32) -> Bitboard {
    subsets(k)[r as usize]
}

/// The `k`-subset with colex rank `r`, computed.
fn unrank_slow(mut r: u64, k: u32) -> Bitboard {
    let mut set = 0;
    let mut p = 32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        set |= 1 << p;
    }
    set
}

/// Spread the bits of `bits` (positions counted on the squares not in `taken`) onto the
/// squares not in `taken`: a gap is opened at each taken square, lowest first.
#[inline(always)]
fn deposit(mut bits: Bitboard, mut taken: Bitboard) -> Bitboard {
    while taken != 0 {
        let low = taken & taken.wrapping_neg();
        let below = low - 1;
        bits = (bits & below) | ((bits & !below) << 1);
        taken &= taken - 1;
    }
    bits
}

/// A normalised board: the side to move ("us") moves towards higher squares like Red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Pieces of the side to move.
    pub us: Bitboard,
    /// Pieces of the other side.
    pub them: Bitboard,
    /// Kings of both sides.
    pub kings: Bitboard,
}

impl Board {
    /// The normalised board of a position.
    #[inline]
    pub fn of(pos: &Position) -> Board {
        match pos.turn() {
            Color::Red => Board {
                us: pos.pieces(Color::Red),
                them: pos.pieces(Color::White),
                kings: pos.kings(),
            },
            Color::White => Board {
                us: pos.pieces(Color::White).reverse_bits(),
                them: pos.pieces(Color::Red).reverse_bits(),
                kings: pos.kings().reverse_bits(),
            },
        }
    }

    /// This board as a position with Red (the side to move) to move.
    #[inline]
    pub fn position(&self) -> Position {
        Position {
            red: self.us,
            white: self.them,
            kings: self.kings,
            turn: Color::Red,
            rules: Rules::English,
        }
    }

    /// The position this board stands for with `turn` to move (the inverse of [`Board::of`]).
    pub fn to_position(&self, turn: Color) -> Position {
        match turn {
            Color::Red => self.position(),
            Color::White => Position {
                red: self.them.reverse_bits(),
                white: self.us.reverse_bits(),
                kings: self.kings.reverse_bits(),
                turn: Color::White,
                rules: Rules::English,
            },
        }
    }

    /// The board seen by the other side: turned half round, colours swapped. For a board
    /// reached by a move of "us", this is the normalised board the opponent then moves on.
    #[inline(always)]
    pub fn flipped(&self) -> Board {
        Board {
            us: self.them.reverse_bits(),
            them: self.us.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }

    /// The normalised board after a move in `pos` (Red to move): the opponent's view.
    #[inline(always)]
    pub(crate) fn after_red_move(pos: &Position) -> Board {
        Board {
            us: pos.white.reverse_bits(),
            them: pos.red.reverse_bits(),
            kings: pos.kings.reverse_bits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(28, 2), 378);
        assert_eq!(binomial(32, 3), 4960);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(0, 0), 1);
    }

    #[test]
    fn rank_unrank_round_trip() {
        for k in 0..=4 {
            for r in 0..binomial(32, k) {
                let set = unrank(r, k);
                assert_eq!(set, unrank_slow(r, k));
                assert_eq!(set.count_ones(), k);
                assert_eq!(rank(set), r);
            }
        }
    }

    #[test]
    fn index_round_trip_in_small_slices() {
        for m in [
            Material::new(1, 0, 1, 0).unwrap(),
            Material::new(0, 2, 0, 1).unwrap(),
            Material::new(1, 1, 1, 0).unwrap(),
            Material::new(2, 0, 0, 1).unwrap(),
        ] {
            let mut used = 0;
            for i in 0..m.size() {
                if let Some(b) = m.board(i) {
                    used += 1;
                    assert_eq!(Material::of(&b), m);
                    assert_eq!(m.index(&b), i, "{m} {b:?}");
                    assert_eq!(b.us & b.them, 0);
                    assert_eq!(b.us & !b.kings & OUR_CROWN_ROW, 0);
                    assert_eq!(b.them & !b.kings & 0xF, 0);
                }
            }
            assert!(used > 0);
        }
    }

    #[test]
    fn normalising_white_to_move_turns_the_board() {
        let p = Position::from_fen("W:W32,K1:B5").unwrap();
        let b = Board::of(&p);
        assert_eq!(b.us, (1 << 0) | (1 << 31));
        assert_eq!(b.them, 1 << 27);
        assert_eq!(b.kings, 1 << 31);
        assert_eq!(b.flipped().flipped(), b);
    }
}
