//! Perft: counting move paths to a depth, the standard correctness test of a move generator.
//!
//! Counts follow each game's published convention: in English draughts (and the huffing and
//! losing games built on its moves) capture paths with the same start, end and captured set
//! are counted separately; in American pool checkers they are counted once. The last ply is
//! bulk-counted (moves counted, not made), and the English hot loop is specialised per side so
//! that directions and crown rows are constants.

use super::board::{
    Bitboard, Color, ROW_0, ROW_7, step_down_left, step_down_right, step_up_left, step_up_right,
};
use super::moves::{
    Move, MoveList, count_compulsory, generate, generate_short_captures, short_jumpers,
};
use super::pool::merge_routes;
use super::position::Position;
use super::rules::Rules;

/// Perft: the number of move paths of length `depth` from `pos`, under its rules.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<MoveList> = (0..depth).map(|_| Vec::with_capacity(32)).collect();
    match (pos.rules(), pos.turn()) {
        (Rules::English | Rules::Losing, Color::Red) => count::<Red>(pos, depth, &mut buffers),
        (Rules::English | Rules::Losing, Color::White) => count::<White>(pos, depth, &mut buffers),
        (Rules::Pool | Rules::Huffing, _) => count_any(pos, depth, &mut buffers),
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
fn count_any(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
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

/// One side's view of the board: its pieces, its directions and its crown row as constants.
trait Side {
    type Other: Side;
    const CROWN: Bitboard;
    fn ours(p: &Position) -> Bitboard;
    fn set_ours(p: &mut Position, b: Bitboard);
    fn theirs(p: &Position) -> Bitboard;
    fn fwd_a(b: Bitboard) -> Bitboard;
    fn fwd_b(b: Bitboard) -> Bitboard;
    fn back_a(b: Bitboard) -> Bitboard;
    fn back_b(b: Bitboard) -> Bitboard;
}

struct Red;
struct White;

impl Side for Red {
    type Other = White;
    const CROWN: Bitboard = ROW_7;
    fn ours(p: &Position) -> Bitboard {
        p.red
    }
    fn set_ours(p: &mut Position, b: Bitboard) {
        p.red = b;
    }
    fn theirs(p: &Position) -> Bitboard {
        p.white
    }
    fn fwd_a(b: Bitboard) -> Bitboard {
        step_down_left(b)
    }
    fn fwd_b(b: Bitboard) -> Bitboard {
        step_down_right(b)
    }
    fn back_a(b: Bitboard) -> Bitboard {
        step_up_left(b)
    }
    fn back_b(b: Bitboard) -> Bitboard {
        step_up_right(b)
    }
}

impl Side for White {
    type Other = Red;
    const CROWN: Bitboard = ROW_0;
    fn ours(p: &Position) -> Bitboard {
        p.white
    }
    fn set_ours(p: &mut Position, b: Bitboard) {
        p.white = b;
    }
    fn theirs(p: &Position) -> Bitboard {
        p.red
    }
    fn fwd_a(b: Bitboard) -> Bitboard {
        step_up_left(b)
    }
    fn fwd_b(b: Bitboard) -> Bitboard {
        step_up_right(b)
    }
    fn back_a(b: Bitboard) -> Bitboard {
        step_down_left(b)
    }
    fn back_b(b: Bitboard) -> Bitboard {
        step_down_right(b)
    }
}

/// The position after a step (no capture) from `from` to `to` by side `S`.
#[inline(always)]
fn step_child<S: Side>(pos: &Position, from: Bitboard, to: Bitboard) -> Position {
    let mut p = *pos;
    S::set_ours(&mut p, (S::ours(pos) & !from) | to);
    if p.kings & from != 0 {
        p.kings = (p.kings & !from) | to;
    } else {
        p.kings |= to & S::CROWN;
    }
    p.turn = p.turn.opponent();
    p
}

/// True when side `S` has a capture.
#[inline(always)]
fn can_capture<S: Side>(us: Bitboard, kings: Bitboard, them: Bitboard, empty: Bitboard) -> bool {
    let landings = S::fwd_a(S::fwd_a(us) & them)
        | S::fwd_b(S::fwd_b(us) & them)
        | S::back_a(S::back_a(kings) & them)
        | S::back_b(S::back_b(kings) & them);
    landings & empty != 0
}

fn count<S: Side>(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let us = S::ours(pos);
    let them = S::theirs(pos);
    let kings = us & pos.kings;
    let empty = !(us | them);
    if can_capture::<S>(us, kings, them, empty) {
        if depth == 1 {
            return count_compulsory(pos);
        }
        let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
        list.clear();
        generate_short_captures(pos, short_jumpers(pos), false, list);
        return list
            .iter()
            .map(|m| count::<S::Other>(&pos.after(m), depth - 1, rest))
            .sum();
    }
    let targets = [
        S::fwd_a(us) & empty,
        S::fwd_b(us) & empty,
        S::back_a(kings) & empty,
        S::back_b(kings) & empty,
    ];
    if depth == 1 {
        return targets.iter().map(|t| u64::from(t.count_ones())).sum();
    }
    let rest = &mut buffers[1..];
    let mut total = 0;
    for (i, &t) in targets.iter().enumerate() {
        let mut t = t;
        while t != 0 {
            let to = t & t.wrapping_neg();
            t &= t - 1;
            // The source square is one step back along the same diagonal.
            let from = match i {
                0 => S::back_b(to),
                1 => S::back_a(to),
                2 => S::fwd_b(to),
                _ => S::fwd_a(to),
            };
            total += count::<S::Other>(&step_child::<S>(pos, from, to), depth - 1, rest);
        }
    }
    total
}
