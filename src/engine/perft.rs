//! Perft: counting move paths to a depth, the standard correctness test of a move generator.
//!
//! Counts follow each game's published convention: in English draughts (and the huffing and
//! losing games built on its moves) capture paths with the same start, end and captured set
//! are counted separately; in American pool checkers they are counted once. The last ply is
//! bulk-counted (moves counted, not made), and the English hot loop is specialised per side so
//! that directions and crown rows are constants.

use super::board::{Bitboard, Color};
use super::moves::{MAX_PATH, Move, MoveList, generate};
use super::pool::{self, merge_routes};
use super::position::Position;
use super::rules::Rules;
use super::short_moves::{self, Side, View, Visitor};
use std::marker::PhantomData;

/// The deepest perft a command accepts. Counts grow about fivefold a ply, so depths past it
/// would not finish in a lifetime; it also bounds the recursion's stack.
pub const PERFT_MAX_DEPTH: u32 = 30;

/// Perft: the number of move paths of length `depth` from `pos`, under its rules.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    use short_moves::{Red, White};
    match (pos.rules(), pos.turn()) {
        (Rules::English | Rules::Losing, Color::Red) => count::<Red, false>(pos, depth),
        (Rules::English | Rules::Losing, Color::White) => count::<White, false>(pos, depth),
        (Rules::Huffing, Color::Red) => count::<Red, true>(pos, depth),
        (Rules::Huffing, Color::White) => count::<White, true>(pos, depth),
        (Rules::Pool, _) => {
            let mut buffers: Vec<MoveList> = (0..depth).map(|_| Vec::with_capacity(32)).collect();
            count_any(pos, depth, &mut buffers)
        }
    }
}

/// Perft split by first move: each move perft counts at the first ply, with the count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = pos.legal_moves();
    if pos.rules().perft_merges_routes() {
        merge_routes(&mut moves);
    }
    moves
        .into_iter()
        .map(|m| (m, perft(&pos.after(&m), depth - 1)))
        .collect()
}

/// Perft of any rule set through the general generator (pool routes merged).
#[allow(
    clippy::expect_used,
    reason = "perft is handed one buffer per ply of its depth"
)]
fn count_any(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 && pos.rules() == Rules::Pool {
        return pool::perft_count(pos);
    }
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    list.clear();
    generate(pos, list);
    if pos.rules().perft_merges_routes() && list.first().is_some_and(Move::is_capture) {
        merge_routes(list);
    }
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .map(|m| count_any(&pos.after(m), depth - 1, rest))
        .sum()
}

/// Perft of the short-piece games for side `S` to move, on the shared generator: the last
/// ply is counted ([`short_moves::count`]), captures are descended into as the search finds them
/// (no move is built), steps from the step targets.
fn count<S: Side, const HUFF: bool>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let v = View::of::<S>(pos);
    if depth == 1 {
        return short_moves::count::<S, HUFF>(&v);
    }
    let jumpers = short_moves::jumpers::<S>(&v);
    let mut total = 0;
    if jumpers != 0 {
        let mut d = Descend::<S, HUFF> {
            pos,
            from: 0,
            len: 0,
            to: [0; MAX_PATH],
            captured: [0; MAX_PATH],
            depth: depth - 1,
            total: 0,
            side: PhantomData,
        };
        let mut rest = jumpers;
        while rest != 0 {
            let from = rest & rest.wrapping_neg();
            rest &= rest - 1;
            d.from = from;
            short_moves::piece_jumps::<S, _, HUFF>(&v, from, &mut d);
        }
        total = d.total;
        if !HUFF {
            return total;
        }
    }
    let replies = (depth == 2).then(|| Replies::<S::Other>::facing(pos));
    for (i, targets) in short_moves::step_targets::<S>(&v).into_iter().enumerate() {
        let mut t = targets;
        while t != 0 {
            let to = t & t.wrapping_neg();
            t &= t - 1;
            let from = short_moves::step_source::<S>(i, to);
            total += match &replies {
                Some(r) => r.count_after::<S, HUFF>(pos, &v, from, to),
                None => {
                    count::<S::Other, HUFF>(&short_moves::child::<S>(pos, from, to, 0), depth - 1)
                }
            };
        }
    }
    total
}

/// Perft's last two plies at once: the replies of side `O` after each step of its opponent.
/// A step moves none of `O`'s pieces, so where they could go (one square on, each way) is
/// computed once; each step then only changes which squares are free.
struct Replies<O> {
    /// `O`'s pieces moved one square in each direction (backward: kings only).
    reach: [Bitboard; 4],
    side: PhantomData<O>,
}

impl<O: Side> Replies<O> {
    #[inline(always)]
    fn facing(pos: &Position) -> Replies<O> {
        let v = View::of::<O>(pos);
        Replies {
            reach: [
                O::fwd_a(v.us),
                O::fwd_b(v.us),
                O::back_a(v.kings),
                O::back_b(v.kings),
            ],
            side: PhantomData,
        }
    }

    /// The number of `O`'s moves after side `S` (`O`'s opponent) steps from `from` to `to`.
    #[inline(always)]
    fn count_after<S: Side<Other = O>, const HUFF: bool>(
        &self,
        pos: &Position,
        v: &View,
        from: Bitboard,
        to: Bitboard,
    ) -> u64 {
        let prey = (v.us & !from) | to;
        let empty = (v.empty | from) & !to;
        let [a, b, c, d] = self.reach;
        let mut jump = (O::fwd_a(a & prey) | O::fwd_b(b & prey)) & empty;
        let mut steps = (a & empty).count_ones() + (b & empty).count_ones();
        if c | d != 0 {
            jump |= (O::back_a(c & prey) | O::back_b(d & prey)) & empty;
            steps += (c & empty).count_ones() + (d & empty).count_ones();
        }
        if jump != 0 {
            let next = short_moves::child::<S>(pos, from, to, 0);
            return short_moves::count::<O, HUFF>(&View::of::<O>(&next));
        }
        u64::from(steps)
    }
}

/// Perft's capture visitor: each capture found is played and counted below at once.
struct Descend<'a, S, const HUFF: bool> {
    pos: &'a Position,
    from: Bitboard,
    len: usize,
    to: [Bitboard; MAX_PATH],
    captured: [Bitboard; MAX_PATH],
    depth: u32,
    total: u64,
    side: PhantomData<S>,
}

impl<S: Side, const HUFF: bool> Visitor for Descend<'_, S, HUFF> {
    #[inline(always)]
    fn jump(&mut self, to: Bitboard, over: Bitboard) {
        let before = if self.len == 0 {
            0
        } else {
            self.captured[self.len - 1]
        };
        self.to[self.len] = to;
        self.captured[self.len] = before | over;
        self.len += 1;
    }
    #[inline(always)]
    fn unjump(&mut self) {
        self.len -= 1;
    }
    #[inline(always)]
    fn done(&mut self) {
        let i = self.len - 1;
        let next = short_moves::child::<S>(self.pos, self.from, self.to[i], self.captured[i]);
        self.total += count::<S::Other, HUFF>(&next, self.depth);
    }
}
