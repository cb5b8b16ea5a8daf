//! American pool checkers move generation (APCA rules 14-24) on bitboards with ray masks.
//!
//! - Men step one square forward and capture forward and backward, over a neighbour.
//! - Kings fly: they slide any distance along a free diagonal, and capture a piece at any
//!   distance along it, landing on any free square beyond; after a capture a king that can
//!   capture again must land where it can (the sequence must be completed), otherwise it may
//!   land on any of the free squares.
//! - A capture is compulsory, but the player chooses any sequence (not bound to the larger
//!   number) and must complete it. No piece is jumped twice, and captured pieces stay on the
//!   board until the move is over: they block the way (and cannot be landed on).
//! - A man that reaches the king row during a capture and can capture on must do so, and is
//!   not crowned unless its move ends there (rule 24).

use super::board::{
    Bitboard, Color, Direction, JUMPS, RAYS, Square, free_run, nearest, squares, step, step_back,
};
use super::moves::{MAX_PATH, Move, MoveList, raw_move, raw_parts};
use super::position::Position;
use super::short_moves::{Red, View, White, count_steps, push_steps};

/// Pieces of the side to move that can capture.
pub(crate) fn jumpers(pos: &Position) -> Bitboard {
    let us = pos.pieces(pos.turn);
    let opp = pos.pieces(pos.turn.opponent());
    let empty = pos.empty_squares();
    // Over a neighbour, any way (men and kings alike), on bitboards.
    let mut out = 0;
    for dir in Direction::ALL {
        let land = step(step(us, dir) & opp, dir) & empty;
        out |= step_back(step_back(land, dir), dir);
    }
    // Kings from afar.
    let occupied = pos.occupied();
    for king in squares(us & pos.kings & !out) {
        if king_can_capture(king.index() as usize, occupied & !king.bit(), opp) {
            out |= king.bit();
        }
    }
    out
}

/// True when a flying king on square index `at` can capture a piece of `prey`: the first piece
/// along some diagonal is prey and the square right behind it is free.
#[inline(always)]
fn king_can_capture(at: usize, occupied: Bitboard, prey: Bitboard) -> bool {
    (0..4).any(|d| {
        let blockers = RAYS[at][d] & occupied;
        if blockers == 0 {
            return false;
        }
        let b = nearest(blockers, d);
        let behind = JUMPS.step[b.trailing_zeros() as usize][d];
        b & prey != 0 && behind != 0 && behind & occupied == 0
    })
}

/// Append every legal move: the captures when there is one, else the steps and king slides.
/// Capture sequences that differ only in route are all listed.
pub(crate) fn generate(pos: &Position, out: &mut MoveList) {
    let jumpers = jumpers(pos);
    if jumpers != 0 {
        for from in squares(jumpers) {
            Capture::new(pos, from).run(out);
        }
        return;
    }
    // Men step as in English draughts (the short-piece generator, kings left out); kings fly.
    let men = View {
        us: pos.men(pos.turn),
        kings: 0,
        them: pos.pieces(pos.turn.opponent()),
        empty: pos.empty_squares(),
    };
    match pos.turn {
        Color::Red => push_steps::<Red>(&men, out),
        Color::White => push_steps::<White>(&men, out),
    }
    let occupied = pos.occupied();
    for from in squares(pos.kings_of(pos.turn)) {
        let i = from.index() as usize;
        for d in 0..4 {
            for to in squares(free_run(i, d, occupied)) {
                out.push(Move::step(from, to));
            }
        }
    }
}

/// The number of moves perft counts (routes with the same result merged), building moves only
/// when there is a capture.
pub(crate) fn perft_count(pos: &Position) -> u64 {
    if jumpers(pos) != 0 {
        let mut list = MoveList::new();
        generate(pos, &mut list);
        merge_routes(&mut list);
        return list.len() as u64;
    }
    let men = View {
        us: pos.men(pos.turn),
        kings: 0,
        them: pos.pieces(pos.turn.opponent()),
        empty: pos.empty_squares(),
    };
    let steps = match pos.turn {
        Color::Red => count_steps::<Red>(&men),
        Color::White => count_steps::<White>(&men),
    };
    let occupied = pos.occupied();
    let slides: u32 = squares(pos.kings_of(pos.turn))
        .map(|k| {
            let i = k.index() as usize;
            (0..4)
                .map(|d| free_run(i, d, occupied).count_ones())
                .sum::<u32>()
        })
        .sum();
    steps + u64::from(slides)
}

/// The capture search of one piece.
struct Capture {
    prey: Bitboard,
    /// Occupied squares during the move: the mover's square is free, captured pieces stay.
    occupied: Bitboard,
    king: bool,
    from: Square,
}

impl Capture {
    fn new(pos: &Position, from: Square) -> Capture {
        Capture {
            prey: pos.pieces(pos.turn.opponent()),
            occupied: pos.occupied() & !from.bit(),
            king: pos.kings & from.bit() != 0,
            from,
        }
    }

    fn run(&self, out: &mut MoveList) {
        let mut path = [0; MAX_PATH];
        path[0] = self.from.number();
        let mut mv = raw_move(path, 1, 0);
        if self.king {
            self.king_extend(&mut mv, out);
        } else {
            self.man_extend(&mut mv, out);
        }
    }

    /// A man's jumps over neighbours in all four directions, until none is left.
    fn man_extend(&self, mv: &mut Move, out: &mut MoveList) {
        let (at, captured) = last(mv);
        let mut extended = false;
        for d in 0..4 {
            let over = JUMPS.over[at][d];
            let land = JUMPS.land[at][d];
            if over & self.prey & !captured == 0 || land == 0 || land & self.occupied != 0 {
                continue;
            }
            extended = true;
            let saved = push(mv, land, over);
            self.man_extend(mv, out);
            pop(mv, saved);
        }
        if !extended && mv.path_len() > 1 {
            out.push(*mv);
        }
    }

    /// A flying king's captures: along each diagonal the first piece met, if it is prey not yet
    /// taken and has a free square behind it, is taken; the king lands on one of the free
    /// squares beyond (one from which it can go on capturing, when there is such a square).
    fn king_extend(&self, mv: &mut Move, out: &mut MoveList) {
        let (at, captured) = last(mv);
        let prey = self.prey & !captured;
        for (d, ray) in RAYS[at].iter().enumerate() {
            let blockers = ray & self.occupied;
            if blockers == 0 {
                continue;
            }
            let b = nearest(blockers, d);
            if b & prey == 0 {
                continue;
            }
            let landings = free_run(b.trailing_zeros() as usize, d, self.occupied);
            if landings == 0 {
                continue;
            }
            let prey_after = prey & !b;
            let going_on = squares(landings).fold(0, |acc, l| {
                if king_can_capture(l.index() as usize, self.occupied, prey_after) {
                    acc | l.bit()
                } else {
                    acc
                }
            });
            for l in squares(if going_on != 0 { going_on } else { landings }) {
                let saved = push(mv, l.bit(), b);
                if going_on != 0 {
                    self.king_extend(mv, out);
                } else {
                    out.push(*mv);
                }
                pop(mv, saved);
            }
        }
    }
}

/// The square index the move stands on, and what it has captured.
#[inline(always)]
fn last(mv: &Move) -> (usize, Bitboard) {
    let sq = mv.to();
    (sq.index() as usize, mv.captured())
}

/// Add a landing square and a captured piece; returns what [`pop`] needs.
#[inline(always)]
fn push(mv: &mut Move, land: Bitboard, over: Bitboard) -> (u8, Bitboard) {
    let (path, len, captured) = raw_parts(mv);
    let saved = (*len, *captured);
    path[*len as usize] = land.trailing_zeros() as u8 + 1;
    *len += 1;
    *captured |= over;
    saved
}

#[inline(always)]
fn pop(mv: &mut Move, (len, captured): (u8, Bitboard)) {
    let (path, l, c) = raw_parts(mv);
    *l = len;
    *c = captured;
    path[len as usize] = 0;
}

/// Keep one move of each set of capture routes with the same start, end and captured pieces
/// (the published pool perft convention).
pub(crate) fn merge_routes(list: &mut MoveList) {
    let mut kept = 0;
    for i in 0..list.len() {
        let m = list[i];
        if !list[..kept].iter().any(|k| k.same_result(&m)) {
            list[kept] = m;
            kept += 1;
        }
    }
    list.truncate(kept);
}
