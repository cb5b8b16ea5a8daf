//! Pattern tables of the English evaluation: the board cut into 22 overlapping regions of eight
//! squares (the seven bands of two rows, and the fifteen blocks of four rows by two squares a
//! row), each region's men (empty, a Red man or a White man on each square: 3^8 = 6,561
//! configurations) indexing a table of weights, one for a full board and one for an empty one,
//! blended by the pieces on the board. Kings are left to the linear terms, which the tables add
//! to with their own weights (fitted together with them by `crossboard tune --patterns`).
//!
//! The asset `assets/eval/english.bin` holds the [`TERMS`] linear weights (i32, little endian)
//! and then the tables (i16, little endian), in 1/[`SCALE`] of a hundredth of a man, region by
//! region, configuration by configuration, the full board's weight before the empty one's. The
//! tables are symmetric by construction: the board turned half a turn with the colours swapped
//! scores the opposite.
//!
//! In memory the search keeps only the [`KEPT`] regions that are not the mirror of one before
//! them (the four upper bands and the eight upper blocks, the middle ones included): the other
//! ten read their mirror's table with the turned configuration, negated. The same values, in
//! 315 KB where all 22 took 577 KB, so that more of them stay in the processor's caches.

use super::terms::{SCALE, TERMS, Weights};
use crate::engine::{Bitboard, Color, Position};

/// Configurations of a region: 3^8.
pub(crate) const CONFIGS: usize = 6561;
/// The bands of two rows (rows r and r+1, r = 0..6).
const BANDS: usize = 7;
/// The blocks: rows r..r+3 (r = 0..4), the squares 2k0 and 2k0+1 of each row (k0 = 0..2).
const BLOCKS: usize = 15;
/// Regions in all.
pub(crate) const REGIONS: usize = BANDS + BLOCKS;
/// Phases a table has: the full board (24 pieces) and the empty one.
pub(crate) const PHASES: usize = 2;
/// Entries of the tables.
pub(crate) const ENTRIES: usize = REGIONS * CONFIGS * PHASES;
/// Pieces of a full board: the blend's denominator.
pub(crate) const FULL: i32 = 24;

const BYTES: &[u8] = include_bytes!("../../../assets/eval/english.bin");
const _: () = assert!(BYTES.len() == 4 * TERMS + 2 * ENTRIES);

/// The linear weights that go with the tables.
pub(crate) const LINEAR: Weights = {
    let mut w = [0; TERMS];
    let mut i = 0;
    while i < TERMS {
        let b = 4 * i;
        w[i] = i32::from_le_bytes([BYTES[b], BYTES[b + 1], BYTES[b + 2], BYTES[b + 3]]);
        i += 1;
    }
    w
};

/// The table entry `i` (the tests' reading of the asset; the evaluation reads [`TABLES`]).
#[cfg(test)]
pub(super) fn entry(i: usize) -> i32 {
    let b = 4 * TERMS + 2 * i;
    i32::from(i16::from_le_bytes([BYTES[b], BYTES[b + 1]]))
}

/// The base-3 value of each byte's bits (bit i worth 3^i).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// A region's eight squares of `b` as a byte: a band's two rows, or a block's four pairs.
#[inline(always)]
pub(crate) const fn gather(b: Bitboard, region: usize) -> u32 {
    if region < BANDS {
        (b >> (4 * region)) & 0xFF
    } else {
        let r = (region - BANDS) / 3;
        let k0 = (region - BANDS) % 3;
        let x = b >> (4 * r + k0);
        (x & 3) | ((x >> 2) & 0xC) | ((x >> 4) & 0x30) | ((x >> 6) & 0xC0)
    }
}

/// The configuration of a region with Red's men `red` and White's `white` (bytes).
#[inline(always)]
pub(crate) fn config(red: u32, white: u32) -> usize {
    usize::from(TERNARY[red as usize & 0xFF]) + 2 * usize::from(TERNARY[white as usize & 0xFF])
}

/// The region a region becomes when the board is turned half a turn.
pub(crate) const fn mirror_region(region: usize) -> usize {
    if region < BANDS {
        BANDS - 1 - region
    } else {
        let r = (region - BANDS) / 3;
        let k0 = (region - BANDS) % 3;
        BANDS + (4 - r) * 3 + (2 - k0)
    }
}

/// The configuration of the turned region, colours swapped: the squares in reverse order.
pub(crate) fn mirror_config(red: u32, white: u32) -> usize {
    config(
        (white as u8).reverse_bits().into(),
        (red as u8).reverse_bits().into(),
    )
}

/// Each region's configuration in `pos`.
#[inline(always)]
pub(crate) fn configs(pos: &Position) -> [usize; REGIONS] {
    let red = pos.men(Color::Red);
    let white = pos.men(Color::White);
    std::array::from_fn(|r| config(gather(red, r), gather(white, r)))
}

/// The tables' sum for Red, times [`FULL`], in 1/[`SCALE`] of a hundredth of a man, from the
/// board ([`Configs::table_sum`] from configurations kept up to date).
#[inline(always)]
pub(crate) fn table_sum(pos: &Position) -> i32 {
    Configs::of(pos).table_sum(pos.occupied().count_ones() as i32)
}

/// Regions whose tables are kept in memory: those not the mirror of a region before them.
pub(crate) const KEPT: usize = 12;

/// The region of each lane of [`Configs`]: first the [`KEPT`] regions, those that are not
/// their own mirror first, then the mirrors of these in the same order (so that lane `KEPT + i`
/// reads lane `i`'s table); the two regions that are their own mirror (the middle band and
/// block) are lanes `KEPT - 2` and `KEPT - 1`.
const LANE_REGION: [usize; REGIONS] = {
    let mut lanes = [0; REGIONS];
    let mut n = 0;
    let mut own = 0;
    while own < 2 {
        let mut r = 0;
        while r < REGIONS {
            let m = mirror_region(r);
            if (own == 0 && r < m) || (own == 1 && r == m) {
                lanes[n] = r;
                if r < m {
                    lanes[KEPT + n] = m;
                }
                n += 1;
            }
            r += 1;
        }
        own += 1;
    }
    assert!(n == KEPT);
    lanes
};

/// The kept regions' tables: a configuration's full-board and empty-board weights, side by
/// side (one load).
static TABLES: [[[i16; PHASES]; CONFIGS]; KEPT] = {
    let mut t = [[[0; PHASES]; CONFIGS]; KEPT];
    let mut lane = 0;
    while lane < KEPT {
        let mut c = 0;
        while c < CONFIGS {
            let mut phase = 0;
            while phase < PHASES {
                let b = 4 * TERMS + 2 * ((LANE_REGION[lane] * CONFIGS + c) * PHASES + phase);
                t[lane][c][phase] = i16::from_le_bytes([BYTES[b], BYTES[b + 1]]);
                phase += 1;
            }
            c += 1;
        }
        lane += 1;
    }
    t
};

/// The weights of configuration `config` of lane `lane`'s table (zero out of range, which
/// kept configurations never are).
#[inline(always)]
fn weights(lane: usize, config: u16) -> (i32, i32) {
    match TABLES[lane].get(usize::from(config)) {
        Some(&[full, empty]) => (i32::from(full), i32::from(empty)),
        None => (0, 0),
    }
}

/// Lanes of [`Configs`]: the regions, and two unused to make whole vectors of eight.
const LANES: usize = 24;

/// What a man adds to each lane's configuration, by colour (Red's first) and square: the
/// square's base-3 digit in the lane's region, times 1 for Red and 2 for White (0 where the
/// region lacks the square), so that a configuration is the sum over the men of the region. A
/// lane from [`KEPT`] on holds the configuration of its region turned half a turn with the
/// colours swapped ([`mirror_config`]): the turned square's digit in the mirror region, times
/// 2 for Red and 1 for White.
static DIGITS: [[[u16; LANES]; 32]; 2] = {
    let mut d = [[[0; LANES]; 32]; 2];
    let mut s = 0;
    while s < 32 {
        let mut lane = 0;
        while lane < REGIONS {
            let r = LANE_REGION[lane];
            if lane < KEPT {
                let digit = TERNARY[gather(1 << s, r) as usize];
                d[0][s][lane] = digit;
                d[1][s][lane] = 2 * digit;
            } else {
                let digit = TERNARY[gather(1 << (31 - s), mirror_region(r)) as usize];
                d[0][s][lane] = 2 * digit;
                d[1][s][lane] = digit;
            }
            lane += 1;
        }
        s += 1;
    }
    d
};

/// Each region's configuration of a position (as [`configs`], the regions after the [`KEPT`]
/// turned: see [`DIGITS`]), kept up to date move by move
/// ([`Configs::after`]): a move changes a few men, each a digit in the regions holding its
/// square, where gathering the configurations from the board at every evaluation takes
/// two byte gathers and two base-3 conversions for each of the 22 regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Configs([u16; LANES]);

impl Configs {
    /// The configurations of `pos`.
    pub(crate) fn of(pos: &Position) -> Configs {
        Configs([0; LANES]).changed(0, pos.men(Color::Red), 0, pos.men(Color::White))
    }

    /// The configurations after the move from `before` (whose configurations these are) to
    /// `after`, or back: only the men that differ count (kings are not in the tables).
    #[inline(always)]
    pub(crate) fn after(self, before: &Position, after: &Position) -> Configs {
        let (red, white) = (before.men(Color::Red), before.men(Color::White));
        let (red_now, white_now) = (after.men(Color::Red), after.men(Color::White));
        if red == red_now && white == white_now {
            return self;
        }
        self.changed(red, red_now, white, white_now)
    }

    /// These configurations with Red's men `red` become `red_now` and White's `white`
    /// become `white_now`.
    #[inline(always)]
    fn changed(
        mut self,
        red: Bitboard,
        red_now: Bitboard,
        white: Bitboard,
        white_now: Bitboard,
    ) -> Configs {
        for (color, old, new) in [(0, red, red_now), (1, white, white_now)] {
            let (mut gone, mut came) = (old & !new, new & !old);
            while gone != 0 {
                let digits = &DIGITS[color][gone.trailing_zeros() as usize];
                for (i, c) in self.0.iter_mut().enumerate() {
                    *c = c.wrapping_sub(digits[i]);
                }
                gone &= gone - 1;
            }
            while came != 0 {
                let digits = &DIGITS[color][came.trailing_zeros() as usize];
                for (i, c) in self.0.iter_mut().enumerate() {
                    *c = c.wrapping_add(digits[i]);
                }
                came &= came - 1;
            }
        }
        self
    }

    /// [`table_sum`] of the position with `pieces` pieces these are the configurations of:
    /// the kept regions' weights less those of the turned ones.
    #[inline(always)]
    pub(crate) fn table_sum(&self, pieces: i32) -> i32 {
        let (mut full, mut empty) = (0, 0);
        for lane in 0..KEPT {
            let (f, e) = weights(lane, self.0[lane]);
            full += f;
            empty += e;
        }
        for lane in KEPT..REGIONS {
            let (f, e) = weights(lane - KEPT, self.0[lane]);
            full -= f;
            empty -= e;
        }
        full * pieces + empty * (FULL - pieces)
    }
}

/// The scale the table sum is over: [`FULL`] times [`SCALE`].
pub(crate) const DENOMINATOR: i32 = FULL * SCALE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_region_holds_eight_squares_and_turns_into_its_mirror() {
        for r in 0..REGIONS {
            let squares: Vec<u32> = (0..32).filter(|&s| gather(1 << s, r) != 0).collect();
            assert_eq!(squares.len(), 8, "region {r}");
            // Each square lands on its own bit of the byte.
            let all = squares.iter().fold(0, |acc, &s| acc | 1 << s);
            assert_eq!(gather(all, r), 0xFF, "region {r}");
            let m = mirror_region(r);
            assert_eq!(mirror_region(m), r);
            for (j, &s) in squares.iter().enumerate() {
                // Square s turned is 31 - s, at the mirrored bit of the mirrored region.
                assert_eq!(
                    gather(1 << (31 - s), m),
                    1 << (7 - j),
                    "region {r} square {s}"
                );
            }
        }
    }

    #[test]
    fn configurations_are_distinct_and_in_range() {
        let mut seen = vec![false; CONFIGS];
        for red in 0..256u32 {
            for white in 0..256u32 {
                if red & white == 0 {
                    let c = config(red, white);
                    assert!(!seen[c], "{red} {white}");
                    seen[c] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn configurations_kept_move_by_move_give_the_evaluation_from_the_board() {
        use super::super::{Evaluation, evaluate_quiet};
        use crate::engine::{Rules, has_capture};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(39);
        let (mut quiet, mut crowned) = (0, 0);
        for game in 0..300 {
            let rules = [Rules::English, Rules::Huffing][game % 2];
            let mut p = Position::start_in(rules);
            let mut kept = Configs::of(&p);
            for _ in 0..rng.random_range(0..120) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let next = p.after(&moves[rng.random_range(0..moves.len())]);
                let made = kept.after(&p, &next);
                // Undone: the move taken back gives the configurations before it.
                assert_eq!(made.after(&next, &p), kept, "{}", p.to_fen());
                crowned += usize::from(next.kings().count_ones() > p.kings().count_ones());
                (p, kept) = (next, made);
                let (red, white) = (p.men(Color::Red), p.men(Color::White));
                let gathered = configs(&p);
                assert!(
                    (0..REGIONS).all(|lane| {
                        let r = LANE_REGION[lane];
                        usize::from(kept.0[lane])
                            == if lane < KEPT {
                                gathered[r]
                            } else {
                                mirror_config(gather(red, r), gather(white, r))
                            }
                    }),
                    "{}",
                    p.to_fen()
                );
                assert_eq!(kept, Configs::of(&p));
                if !has_capture(&p) {
                    let eval = Evaluation::Patterns;
                    assert_eq!(
                        evaluate_quiet(&p, eval, Some(&kept)),
                        evaluate_quiet(&p, eval, None),
                        "{}",
                        p.to_fen()
                    );
                    quiet += 1;
                }
            }
        }
        assert!(quiet > 5_000 && crowned > 100, "{quiet} {crowned}");
    }

    #[test]
    fn the_kept_tables_give_every_regions_weights() {
        // Each region is one lane; the lanes after the kept ones read a kept table, negated.
        let mut lanes: Vec<usize> = LANE_REGION.to_vec();
        lanes.sort_unstable();
        assert_eq!(lanes, (0..REGIONS).collect::<Vec<_>>());
        for (lane, &r) in LANE_REGION.iter().enumerate() {
            for red in 0..256u32 {
                for white in (0..256u32).filter(|w| w & red == 0) {
                    let at = (r * CONFIGS + config(red, white)) * PHASES;
                    let (f, e) = if lane < KEPT {
                        weights(lane, config(red, white) as u16)
                    } else {
                        let (f, e) = weights(lane - KEPT, mirror_config(red, white) as u16);
                        (-f, -e)
                    };
                    assert_eq!(
                        (f, e),
                        (entry(at), entry(at + 1)),
                        "region {r} {red} {white}"
                    );
                }
            }
        }
    }
}
