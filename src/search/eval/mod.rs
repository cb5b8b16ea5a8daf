//! The static evaluation: material, kings, back rank, centre, advancement and mobility.
//!
//! Scores are in hundredths of a man, from the point of view of the side to move. Each game
//! has its own: English draughts and huffing (searched as English: see
//! [`crate::engine::Rules::planning_rules`]) share one, a weighted sum of the terms of
//! [`terms`] with the weights of `weights.rs`, tuned on games by `crossboard tune`; American
//! pool checkers weighs the same terms by hand, values a flying king at [`POOL_KING`] and
//! counts its long moves; the losing game wants the opposite of material (fewer pieces and
//! fewer moves of its own).

mod patterns;
mod terms;
mod weights;

pub(crate) use patterns::{
    CONFIGS, Configs, ENTRIES, FULL, PHASES, REGIONS, configs, mirror_config, mirror_region,
};
use terms::POOL;
pub(crate) use terms::{HAND, NAMES, SCALE, TERMS, Weights, term};
pub(crate) use weights::ENGLISH;

use crate::engine::free_run;
use crate::engine::{Bitboard, Color, Position, Rules};
use crate::engine::{step_down_left, step_down_right, step_up_left, step_up_right};

/// Value of a man.
pub const MAN: i32 = 100;
/// Value of a king (kings are worth about 1.3-1.5 men in English draughts).
pub const KING: i32 = 140;
/// Value of a flying king of American pool checkers: it sweeps whole diagonals and takes from
/// afar, and one king often holds several men (worth about three of them).
pub const POOL_KING: i32 = 300;

const fn bits(list: &[u8]) -> Bitboard {
    let mut b = 0;
    let mut i = 0;
    while i < list.len() {
        b |= 1 << (list[i] - 1);
        i += 1;
    }
    b
}

/// The four central squares and the ring around them.
const CENTRE: Bitboard = bits(&[14, 15, 18, 19]);
const NEAR_CENTRE: Bitboard = bits(&[10, 11, 22, 23, 13, 16, 17, 20]);
/// Back-rank squares that guard against crowning: the "bridge" (1 and 3 for Red, 30 and 32
/// for White) and the other two back squares.
const RED_BRIDGE: Bitboard = bits(&[1, 3]);
const RED_BACK_OTHER: Bitboard = bits(&[2, 4]);
const WHITE_BRIDGE: Bitboard = bits(&[30, 32]);
const WHITE_BACK_OTHER: Bitboard = bits(&[29, 31]);
/// The side edges (columns a and h) and the left half of the board (columns a-d).
const SIDE_EDGE: Bitboard = bits(&[4, 5, 12, 13, 20, 21, 28, 29]);
const LEFT: Bitboard = left_half();
/// Edge squares (a king there controls fewer diagonals).
const EDGE: Bitboard = bits(&[1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32]);

/// Row (0-7) mask.
const fn row(r: u32) -> Bitboard {
    0xF << (r * 4)
}

/// Rows 1, 3, 5, 7; rows 2, 3, 6, 7; rows 4-7: the bits of a square's row number.
const ROW_BIT_0: Bitboard = row(1) | row(3) | row(5) | row(7);
const ROW_BIT_1: Bitboard = row(2) | row(3) | row(6) | row(7);
const ROW_BIT_2: Bitboard = row(4) | row(5) | row(6) | row(7);

/// Sum over men of how far each has advanced (rows from its own back rank), three popcounts.
#[inline(always)]
fn advancement(men: Bitboard, color: Color) -> i32 {
    // Men on their own side's crown row are impossible; the sum ignores row 0 as before.
    let men = match color {
        Color::Red => men,
        Color::White => men & !row(0),
    };
    let rows = (men & ROW_BIT_0).count_ones()
        + 2 * (men & ROW_BIT_1).count_ones()
        + 4 * (men & ROW_BIT_2).count_ones();
    match color {
        Color::Red => rows as i32,
        Color::White => (7 * men.count_ones() - rows) as i32,
    }
}

/// Number of plain (non-capturing) moves of `color`.
#[inline(always)]
fn mobility(pos: &Position, color: Color) -> i32 {
    let empty = pos.empty_squares();
    let us = pos.pieces(color);
    let kings = pos.kings_of(color);
    let (fwd, back) = match color {
        Color::Red => (us, kings),
        Color::White => (kings, us),
    };
    let down = if fwd == 0 {
        0
    } else {
        (step_down_left(fwd) & empty).count_ones() + (step_down_right(fwd) & empty).count_ones()
    };
    let up = if back == 0 {
        0
    } else {
        (step_up_left(back) & empty).count_ones() + (step_up_right(back) & empty).count_ones()
    };
    (down + up) as i32
}

/// The squares a king on `b` could step to (all four directions).
fn king_steps(b: Bitboard) -> Bitboard {
    step_down_left(b) | step_down_right(b) | step_up_left(b) | step_up_right(b)
}

/// The squares of columns 0-3.
const fn left_half() -> Bitboard {
    let mut b = 0;
    let mut i = 0;
    while i < 32 {
        if row_col(i).1 < 4 {
            b |= 1 << i;
        }
        i += 1;
    }
    b
}

/// Row (0-7, from Red's back rank) and column (0-7) of square index `i`.
const fn row_col(i: usize) -> (i32, i32) {
    let row = (i / 4) as i32;
    let col = 2 * (i % 4) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

/// The squares of `color`'s men that have a piece of `enemy` ahead of them within the cone it
/// could be met in (k rows ahead, at most k columns aside): the squares from which some
/// forward path of diagonal steps reaches an enemy piece, filled backward from those pieces.
/// The fill doubles its reach each round (one step, then two rows, then four), so three rounds
/// cover the seven rows; two rows back is the same column or one square aside in the row
/// (the same as two diagonal steps, edges included).
#[inline(always)]
fn shadow(enemy: Bitboard, color: Color) -> Bitboard {
    const FIRST: Bitboard = 0x1111_1111;
    const LAST: Bitboard = 0x8888_8888;
    match color {
        // Red's men move down the board: the fill goes up.
        Color::Red => {
            let two = |b: Bitboard| (b >> 8) | ((b & !FIRST) >> 9) | ((b & !LAST) >> 7);
            let mut s = step_up_left(enemy) | step_up_right(enemy);
            s |= step_up_left(s) | step_up_right(s);
            s |= two(s);
            s | two(two(s))
        }
        Color::White => {
            let two = |b: Bitboard| (b << 8) | ((b & !LAST) << 9) | ((b & !FIRST) << 7);
            let mut s = step_down_left(enemy) | step_down_right(enemy);
            s |= step_down_left(s) | step_down_right(s);
            s |= two(s);
            s | two(two(s))
        }
    }
}

/// Men of `color` that nothing can stop from crowning (no enemy kings, no enemy piece ahead
/// within the cone): how many, and the rows they still have to go (a king is coming, sooner
/// or later).
#[inline(always)]
fn runaways(pos: &Position, color: Color) -> (i32, i32) {
    let them = color.opponent();
    if pos.kings_of(them) != 0 {
        return (0, 0);
    }
    let free = pos.men(color) & !shadow(pos.pieces(them), color);
    if free == 0 {
        return (0, 0);
    }
    let n = free.count_ones() as i32;
    // Rows still to go: 7 less the rows advanced, for each man.
    (n, 7 * n - advancement(free, color))
}

/// Where the terms of a side go: into a weighted sum (the evaluation) or a feature vector
/// (the tuner). Each term is a whole number whose weight is in 1/[`SCALE`] of a hundredth of
/// a man: the evaluation is the weighted sum over [`SCALE`], linear in the weights.
pub(crate) trait Sink {
    /// Adds `value` of term `term`.
    fn add(&mut self, term: usize, value: i32);
}

/// The weighted sum of the terms.
struct Dot {
    weights: &'static Weights,
    sum: i32,
}

impl Sink for Dot {
    #[inline(always)]
    fn add(&mut self, term: usize, value: i32) {
        self.sum += self.weights[term] * value;
    }
}

/// The terms themselves, Red's less White's: what the tuner fits the weights to.
pub(crate) struct Features(pub(crate) [i32; TERMS]);

impl Sink for Features {
    fn add(&mut self, term: usize, value: i32) {
        self.0[term] += value;
    }
}

/// The tempo term of a board with `men` men: in the opening and middle game a man pushed
/// forward is a man that can no longer guard (the tempo count), in the ending the race to the
/// king row is what counts; each phase has its own weight.
fn tempo_term(men: i32) -> usize {
    match men {
        16.. => term::TEMPO_OPENING,
        12..=15 => term::TEMPO_MIDDLE,
        9..=11 => term::TEMPO_LATE,
        _ => term::TEMPO_ENDING,
    }
}

/// A side's back-rank squares: the bridge (the two that guard best) and the other two; its
/// dog-hole (the edge square next to the opponent's single corner, where a man is stuck while
/// the corner is held) and that corner.
fn home(color: Color) -> (Bitboard, Bitboard, Bitboard, Bitboard) {
    match color {
        Color::Red => (RED_BRIDGE, RED_BACK_OTHER, bits(&[28]), bits(&[32])),
        Color::White => (WHITE_BRIDGE, WHITE_BACK_OTHER, bits(&[5]), bits(&[1])),
    }
}

/// Terms for one side, added with `sign` (1 for Red, -1 for White), material excluded;
/// `mobility` is the side's number of plain moves, `pieces` the pieces on the board.
#[inline(always)]
fn positional<S: Sink>(pos: &Position, color: Color, sign: i32, mobility: i32, sink: &mut S) {
    let mut add = |term: usize, value: i32| sink.add(term, sign * value);
    let men = pos.men(color);
    let kings = pos.kings_of(color);
    let them = color.opponent();
    let opp_men = pos.men(them).count_ones() as i32;
    let men_on_board = (pos.men(Color::Red) | pos.men(Color::White)).count_ones() as i32;
    let pieces = pos.occupied().count_ones() as i32;
    add(tempo_term(men_on_board), SCALE * advancement(men, color));
    let (bridge, other, dog_hole, corner) = home(color);
    // Back-rank guard, while the opponent has men that could crown: worth most with many.
    if opp_men > 0 {
        let guard = opp_men.min(8) * SCALE / 8;
        add(term::BRIDGE, guard * (men & bridge).count_ones() as i32);
        add(term::BACK_OTHER, guard * (men & other).count_ones() as i32);
    }
    let count = |b: Bitboard| SCALE * b.count_ones() as i32;
    add(
        term::DOG_HOLE,
        count(men & dog_hole & step_back_of(pos.pieces(them) & corner, color)),
    );
    add(term::CENTRE, count(men & CENTRE));
    add(term::NEAR_CENTRE, count(men & NEAR_CENTRE));
    add(term::MEN_EDGE, count(men & SIDE_EDGE));
    let left = (men & LEFT).count_ones() as i32;
    add(
        term::BALANCE,
        SCALE * (2 * left - men.count_ones() as i32).abs(),
    );
    // Kings: central, mobile; a king with nowhere to go is nearly lost.
    if kings != 0 {
        add(term::KING_CENTRE, count(kings & CENTRE));
        add(term::KING_EDGE, count(kings & EDGE));
        // A king is trapped when no neighbouring square is empty (the four directions are
        // their own inverses, so the squares next to an empty one are those with a way out).
        add(
            term::KING_TRAPPED,
            count(kings & !king_steps(pos.empty_squares())),
        );
    }
    add(term::MOBILITY, SCALE * mobility);
    add(term::MOBILITY_ENDING, mobility * (24 - pieces));
    let (runaways, rows_to_go) = runaways(pos, color);
    add(term::RUNAWAY, SCALE * runaways);
    add(term::RUNAWAY_ROWS, SCALE * rows_to_go);
}

/// The squares from which a man of `color` steps onto `b` (one row behind it).
#[inline(always)]
fn step_back_of(b: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::Red => step_up_left(b) | step_up_right(b),
        Color::White => step_down_left(b) | step_down_right(b),
    }
}

/// The squares the flying kings of `color` can slide to (pool): a king's reach.
fn flying_reach(pos: &Position, color: Color) -> i32 {
    let occupied = pos.occupied();
    crate::engine::squares(pos.kings_of(color))
        .map(|k| {
            (0..4)
                .map(|d| free_run(k.index() as usize, d, occupied).count_ones() as i32)
                .sum::<i32>()
        })
        .sum()
}
/// King steps between two squares ignoring other pieces: the larger of the row and column gaps.
const fn build_distance() -> [[u8; 32]; 32] {
    let mut d = [[0; 32]; 32];
    let mut a = 0;
    while a < 32 {
        let mut b = 0;
        while b < 32 {
            let (ra, ca) = row_col(a);
            let (rb, cb) = row_col(b);
            let dr = if ra > rb { ra - rb } else { rb - ra };
            let dc = if ca > cb { ca - cb } else { cb - ca };
            d[a][b] = if dr > dc { dr as u8 } else { dc as u8 };
            b += 1;
        }
        a += 1;
    }
    d
}

static DISTANCE: [[u8; 32]; 32] = build_distance();

/// In a thin ending where `strong` leads in material: a bonus for its kings closing in on the
/// enemy pieces (a lead in kings is only converted by hunting the last pieces down).
fn hunt(pos: &Position, strong: Color) -> i32 {
    let targets = pos.pieces(strong.opponent());
    let mut total = 0;
    for k in crate::engine::squares(pos.kings_of(strong)) {
        let nearest = crate::engine::squares(targets)
            .map(|t| i32::from(DISTANCE[k.index() as usize][t.index() as usize]))
            .min()
            .unwrap_or(0);
        total += 7 - nearest;
    }
    total
}

/// Which evaluation of English draughts the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The linear terms and the pattern tables (the default).
    #[default]
    Patterns,
    /// The linear terms alone, with the weights of `weights.rs` (the evaluation the self-play
    /// games the tables are fitted to are played with).
    Linear,
}

/// Static evaluation of `pos` for the side to move, by the rules of its game.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, Evaluation::Patterns)
}

/// [`evaluate`] with the English evaluation `eval`.
#[inline]
pub(crate) fn evaluate_with(pos: &Position, eval: Evaluation) -> i32 {
    for_side_to_move(
        pos,
        for_red(
            pos,
            mobility(pos, Color::Red),
            mobility(pos, Color::White),
            eval,
            None,
        ),
    )
}

/// The evaluation of a position whose side to move has no capture, or `None` when it has no
/// move at all (lost, or won in the losing game): the mobility the evaluation counts anyway
/// answers that. `configs`: the pattern tables' configurations of `pos` when they are at hand (the search
/// keeps them up to date move by move): the same value, without gathering them from the board.
#[inline]
pub(crate) fn evaluate_quiet(
    pos: &Position,
    eval: Evaluation,
    configs: Option<&Configs>,
) -> Option<i32> {
    let red = mobility(pos, Color::Red);
    let white = mobility(pos, Color::White);
    let own = match pos.turn() {
        Color::Red => red,
        Color::White => white,
    };
    (own != 0).then(|| for_side_to_move(pos, for_red(pos, red, white, eval, configs)))
}

/// The terms of the English evaluation of `pos`, Red's less White's: the evaluation for Red
/// is their sum weighted by [`weights::ENGLISH`], over [`SCALE`].
pub(crate) fn english_features(pos: &Position) -> Features {
    let mut f = Features([0; TERMS]);
    let (red, white) = (mobility(pos, Color::Red), mobility(pos, Color::White));
    standard(pos, KING, red, white, &mut f);
    f
}

/// Red's score turned to the side to move's.
#[inline(always)]
fn for_side_to_move(pos: &Position, red: i32) -> i32 {
    match pos.turn() {
        Color::Red => red,
        Color::White => -red,
    }
}

/// The weighted sum of the standard terms with `weights` (for Red).
#[inline(always)]
fn weighted(pos: &Position, weights: &'static Weights, king: i32, red: i32, white: i32) -> i32 {
    let mut dot = Dot { weights, sum: 0 };
    standard(pos, king, red, white, &mut dot);
    dot.sum / SCALE
}

/// The linear weights that go with the tables, but the hunt's, which stays hand-set: the games
/// hold too few thin endings with a lead to fit it, and a side ahead with kings must hunt
/// the last pieces down to win (see BENCHMARKS.md, "Evaluation tuning").
const WITH_PATTERNS: Weights = {
    let mut w = patterns::LINEAR;
    w[term::HUNT] = HAND[term::HUNT];
    w
};

/// The linear terms with the tables' own weights plus the tables (for Red), from `configs` when
/// they are given.
#[inline(always)]
fn with_patterns(pos: &Position, red: i32, white: i32, configs: Option<&Configs>) -> i32 {
    let mut dot = Dot {
        weights: &WITH_PATTERNS,
        sum: 0,
    };
    standard(pos, KING, red, white, &mut dot);
    let table = match configs {
        Some(c) => c.table_sum(pos.occupied().count_ones() as i32),
        None => patterns::table_sum(pos),
    };
    (dot.sum * FULL + table) / patterns::DENOMINATOR
}

/// The evaluation for Red by the rules of the position's game, given both sides' plain moves
/// (and the pattern configurations, when at hand).
#[inline(always)]
fn for_red(
    pos: &Position,
    red_mobility: i32,
    white_mobility: i32,
    eval: Evaluation,
    configs: Option<&Configs>,
) -> i32 {
    match pos.rules() {
        Rules::English | Rules::Huffing => match eval {
            Evaluation::Patterns => with_patterns(pos, red_mobility, white_mobility, configs),
            Evaluation::Linear => {
                weighted(pos, &weights::ENGLISH, KING, red_mobility, white_mobility)
            }
        },
        Rules::Pool => {
            weighted(pos, &POOL, POOL_KING, red_mobility, white_mobility) + 3 * reach_balance(pos)
        }
        Rules::Losing => losing(pos, red_mobility, white_mobility),
    }
}

/// The terms of English draughts (and pool) for Red into `sink`; `king` is the value of a
/// king in the game played, which decides when a side leads in material (the hunt).
#[inline(always)]
fn standard<S: Sink>(pos: &Position, king: i32, red_mob: i32, white_mob: i32, sink: &mut S) {
    let rm = pos.men(Color::Red).count_ones() as i32;
    let rk = pos.kings_of(Color::Red).count_ones() as i32;
    let wm = pos.men(Color::White).count_ones() as i32;
    let wk = pos.kings_of(Color::White).count_ones() as i32;
    let total = rm + rk + wm + wk;
    sink.add(term::MAN, SCALE * (rm - wm));
    sink.add(term::KING, SCALE * (rk - wk));
    // When ahead, trading down helps: the same lead counts more on an emptier board.
    sink.add(term::TRADE_MAN, (rm - wm) * (24 - total));
    sink.add(term::TRADE_KING, (rk - wk) * (24 - total));
    positional(pos, Color::Red, 1, red_mob, sink);
    positional(pos, Color::White, -1, white_mob, sink);
    let red_material = MAN * rm + king * rk;
    let white_material = MAN * wm + king * wk;
    if total <= 10 && red_material != white_material {
        if red_material > white_material {
            sink.add(term::HUNT, SCALE * hunt(pos, Color::Red));
        } else {
            sink.add(term::HUNT, -SCALE * hunt(pos, Color::White));
        }
    }
}

/// Red's flying kings' reach less White's (pool).
fn reach_balance(pos: &Position) -> i32 {
    if pos.kings() == 0 {
        return 0;
    }
    flying_reach(pos, Color::Red) - flying_reach(pos, Color::White)
}

/// The losing game for Red: every piece given away is a step towards winning, and so is every
/// move of one's own taken away (the side left without a move wins); kings count as men (a king
/// is a piece to get rid of, however mobile).
fn losing(pos: &Position, red_mobility: i32, white_mobility: i32) -> i32 {
    let pieces = |c: Color| pos.pieces(c).count_ones() as i32;
    let red = -MAN * (pieces(Color::Red) - pieces(Color::White));
    red - 3 * (red_mobility - white_mobility)
}

/// Material only (men 100, kings [`KING`], or [`POOL_KING`] in pool), for the side to move;
/// negated in the losing game, where material is what one wants rid of.
pub fn material(pos: &Position) -> i32 {
    let king = match pos.rules() {
        Rules::Pool => POOL_KING,
        _ => KING,
    };
    let side = |c: Color| {
        MAN * pos.men(c).count_ones() as i32 + king * pos.kings_of(c).count_ones() as i32
    };
    let mut red = side(Color::Red) - side(Color::White);
    if pos.rules() == Rules::Losing {
        red = -red;
    }
    match pos.turn() {
        Color::Red => red,
        Color::White => -red,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let p = Position::start();
        assert_eq!(evaluate(&p), -evaluate(&p.with_turn(Color::White)));
        assert_eq!(evaluate(&p), 0, "the start position is symmetric");
    }

    #[test]
    fn material_dominates() {
        // Red a man up.
        let p = Position::from_fen("B:W21-31:B1-12").unwrap();
        assert!(evaluate(&p) > 70, "{}", evaluate(&p));
        assert!(evaluate(&p.with_turn(Color::White)) < -70);
        // A king is worth more than a man but less than two.
        let k = Position::from_fen("B:W30:BK15").unwrap();
        let m = Position::from_fen("B:W30:B15").unwrap();
        assert!(material(&k) > material(&m));
        const { assert!(KING > MAN && KING < 2 * MAN) };
    }

    /// For each colour and square: the squares ahead of a man there, within the cone it could
    /// be met in (k rows ahead, at most k columns aside).
    fn cones() -> [[Bitboard; 32]; 2] {
        let mut cones = [[0; 32]; 2];
        for (c, cone) in cones.iter_mut().enumerate() {
            for (a, squares) in cone.iter_mut().enumerate() {
                let (ra, ca) = row_col(a);
                for b in 0..32 {
                    let (rb, cb) = row_col(b);
                    let ahead = if c == 0 { rb - ra } else { ra - rb };
                    if ahead > 0 && (cb - ca).abs() <= ahead {
                        *squares |= 1 << b;
                    }
                }
            }
        }
        cones
    }

    /// The runaway bonus by its plain definition: each man with a clear cone.
    fn plain_runaways(pos: &Position, color: Color, king: i32, cones: &[[Bitboard; 32]; 2]) -> i32 {
        let them = color.opponent();
        if pos.kings_of(them) != 0 {
            return 0;
        }
        let enemy = pos.pieces(them);
        let mut bonus = 0;
        for sq in crate::engine::squares(pos.men(color)) {
            if cones[color as usize][sq.index() as usize] & enemy == 0 {
                let (r, _) = row_col(sq.index() as usize);
                let to_go = match color {
                    Color::Red => 7 - r,
                    Color::White => r,
                };
                bonus += (king - MAN) - 4 * to_go;
            }
        }
        bonus
    }

    #[test]
    fn a_shadow_is_the_set_of_squares_whose_cone_holds_the_piece() {
        let cones = cones();
        for color in Color::ALL {
            for b in 0..32 {
                let behind = (0..32)
                    .filter(|&a| cones[color as usize][a] & 1 << b != 0)
                    .fold(0, |acc, a| acc | 1 << a);
                assert_eq!(shadow(1 << b, color), behind, "{color:?} square index {b}");
            }
        }
    }

    #[test]
    fn the_fast_terms_equal_their_plain_definitions() {
        use crate::engine::{has_any_move, has_capture};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let mut seen = [0; Rules::ALL.len()];
        let cones = cones();
        for game in 0..400 {
            let rules = Rules::ALL[game % Rules::ALL.len()];
            let mut p = Position::start_in(rules);
            for _ in 0..rng.random_range(0..80) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.after(&moves[rng.random_range(0..moves.len())]);
                for color in Color::ALL {
                    let men = p.men(color);
                    let plain: i32 = crate::engine::squares(men)
                        .map(|sq| {
                            let r = row_col(sq.index() as usize).0;
                            if color == Color::Red { r } else { 7 - r }
                        })
                        .sum();
                    assert_eq!(advancement(men, color), plain, "{}", p.to_fen());
                    for king in [KING, POOL_KING] {
                        let (n, rows) = runaways(&p, color);
                        assert_eq!(
                            n * (king - MAN) - 4 * rows,
                            plain_runaways(&p, color, king, &cones),
                            "{}",
                            p.to_fen()
                        );
                    }
                }
                let trapped = crate::engine::squares(p.kings())
                    .filter(|k| king_steps(k.bit()) & p.empty_squares() == 0)
                    .count() as u32;
                assert_eq!(
                    (p.kings() & !king_steps(p.empty_squares())).count_ones(),
                    trapped
                );
                if !has_capture(&p) {
                    for eval in [Evaluation::Patterns, Evaluation::Linear] {
                        let expected = has_any_move(&p).then(|| evaluate_with(&p, eval));
                        assert_eq!(
                            evaluate_quiet(&p, eval, None),
                            expected,
                            "{rules:?} {}",
                            p.to_fen()
                        );
                    }
                    seen[rules as usize] += 1;
                }
            }
        }
        assert!(
            seen.iter().all(|&n| n > 500),
            "quiet positions checked: {seen:?}"
        );
    }

    /// Random English positions along random games.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut p = Position::start();
            for _ in 0..rng.random_range(0..90) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.after(&moves[rng.random_range(0..moves.len())]);
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn the_english_evaluation_is_its_terms_weighted_by_the_table() {
        let mut kings = 0;
        for p in random_positions(5, 200) {
            let f = english_features(&p).0;
            let sign = match p.turn() {
                Color::Red => 1,
                Color::White => -1,
            };
            let dot: i32 = f.iter().zip(weights::ENGLISH).map(|(x, w)| x * w).sum();
            assert_eq!(
                dot / SCALE,
                sign * evaluate_with(&p, Evaluation::Linear),
                "{}",
                p.to_fen()
            );
            // With the tables: their own linear weights, and one entry a region and phase.
            let dot: i32 = f.iter().zip(WITH_PATTERNS).map(|(x, w)| x * w).sum();
            let pieces = p.occupied().count_ones() as i32;
            let table: i32 = configs(&p)
                .iter()
                .enumerate()
                .map(|(r, &c)| {
                    let at = (r * CONFIGS + c) * PHASES;
                    patterns::entry(at) * pieces + patterns::entry(at + 1) * (FULL - pieces)
                })
                .sum();
            assert_eq!(
                (dot * FULL + table) / (FULL * SCALE),
                sign * evaluate(&p),
                "{}",
                p.to_fen()
            );
            kings += usize::from(p.kings() != 0);
        }
        assert!(kings > 500, "positions with kings: {kings}");
    }

    #[test]
    fn a_man_in_the_dog_hole_counts_only_while_the_corner_is_held() {
        let stuck = english_features(&Position::from_fen("B:W32,K1:B28,K6").unwrap()).0;
        assert_eq!(stuck[term::DOG_HOLE], SCALE);
        let free = english_features(&Position::from_fen("B:W31,K1:B28,K6").unwrap()).0;
        assert_eq!(free[term::DOG_HOLE], 0);
        // White's dog-hole is square 5, under Red's corner square 1.
        let white = english_features(&Position::from_fen("W:W5,K30:B1,K27").unwrap()).0;
        assert_eq!(white[term::DOG_HOLE], -SCALE);
    }

    #[test]
    fn balance_counts_the_men_of_one_half_less_the_other() {
        // Red men on 9 and 13 (columns b and a), 12 (column h): two left, one right.
        let f = english_features(&Position::from_fen("B:WK30:B9,12,13").unwrap()).0;
        assert_eq!(f[term::BALANCE], SCALE);
        assert_eq!(f[term::MEN_EDGE], 2 * SCALE, "12 and 13 are on the edges");
    }

    #[test]
    fn the_hand_table_names_every_term_once() {
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TERMS);
        assert_eq!(HAND[term::MAN], MAN);
        assert_eq!(
            weights::ENGLISH[term::MAN],
            MAN,
            "the man is the unit of the scale"
        );
        assert_eq!(patterns::LINEAR[term::MAN], MAN);
        assert_eq!(POOL[term::KING], POOL_KING);
    }

    #[test]
    fn distances() {
        let sq = |n: u8| crate::engine::Square::new(n).unwrap().index() as usize;
        assert_eq!(DISTANCE[sq(1)][sq(1)], 0);
        assert_eq!(DISTANCE[sq(1)][sq(5)], 1);
        assert_eq!(DISTANCE[sq(1)][sq(32)], 7);
        assert_eq!(DISTANCE[sq(14)][sq(23)], 2);
    }

    #[test]
    fn the_stronger_side_likes_its_kings_near_the_enemy() {
        let far = Position::from_fen("B:WK4:BK29,K25").unwrap();
        let near = Position::from_fen("B:WK4:BK7,K25").unwrap();
        assert!(evaluate(&near) > evaluate(&far));
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        // Rotating the board 180 degrees and swapping colours maps square n to 33 - n.
        let fens = ["B:W18,22,23,K7:B9,10,14,K26", "W:W17,21,30:B3,8,12,K27"];
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            let mut q = Position::empty(p.turn().opponent());
            for sq in crate::engine::Square::all() {
                if let Some(mut pc) = p.piece_at(sq) {
                    pc.color = pc.color.opponent();
                    q.set_piece(
                        crate::engine::Square::new(33 - sq.number()).unwrap(),
                        Some(pc),
                    );
                }
            }
            assert_eq!(evaluate(&p), evaluate(&q), "{fen} vs {}", q.to_fen());
        }
    }
}
