//! Short pieces on bitboards: the move generator of English draughts, the huffing game and the
//! losing game (men step and jump forward, kings one square any way, a man that crowns ends its
//! move).
//!
//! One generator serves [`Position::legal_moves`] and perft: the quiet targets, the jumpers and
//! the capture search are written once, generic over the side to move (its directions and
//! crown row are constants) and over what is done with each capture found (a [`Visitor`]:
//! build the move, count it, or descend into it for perft).

use super::board::{
    Bitboard, Color, ROW_0, ROW_7, step_down_left, step_down_right, step_up_left, step_up_right,
};
use super::moves::{MAX_PATH, Move, MoveList, raw_move, raw_parts};
use super::position::Position;

/// One side's view of the board: its pieces, its directions and its crown row as constants.
pub(crate) trait Side {
    /// The opponent.
    type Other: Side;
    /// Its colour.
    const COLOR: Color;
    /// Where its men are crowned.
    const CROWN: Bitboard;
    /// Its pieces.
    fn ours(p: &Position) -> Bitboard;
    /// The opponent's pieces.
    fn theirs(p: &Position) -> Bitboard;
    /// Replace its pieces.
    fn set_ours(p: &mut Position, b: Bitboard);
    /// Replace the opponent's pieces.
    fn set_theirs(p: &mut Position, b: Bitboard);
    /// One step forward to the left (as the diagram shows it).
    fn fwd_a(b: Bitboard) -> Bitboard;
    /// One step forward to the right.
    fn fwd_b(b: Bitboard) -> Bitboard;
    /// One step backward, against `fwd_b`.
    fn back_a(b: Bitboard) -> Bitboard;
    /// One step backward, against `fwd_a`.
    fn back_b(b: Bitboard) -> Bitboard;
}

/// Red: moves down the diagram, crowns on 29-32.
pub(crate) struct Red;
/// White: moves up the diagram, crowns on 1-4.
pub(crate) struct White;

impl Side for Red {
    type Other = White;
    const COLOR: Color = Color::Red;
    const CROWN: Bitboard = ROW_7;
    #[inline(always)]
    fn ours(p: &Position) -> Bitboard {
        p.red
    }
    #[inline(always)]
    fn theirs(p: &Position) -> Bitboard {
        p.white
    }
    #[inline(always)]
    fn set_ours(p: &mut Position, b: Bitboard) {
        p.red = b;
    }
    #[inline(always)]
    fn set_theirs(p: &mut Position, b: Bitboard) {
        p.white = b;
    }
    #[inline(always)]
    fn fwd_a(b: Bitboard) -> Bitboard {
        step_down_left(b)
    }
    #[inline(always)]
    fn fwd_b(b: Bitboard) -> Bitboard {
        step_down_right(b)
    }
    #[inline(always)]
    fn back_a(b: Bitboard) -> Bitboard {
        step_up_left(b)
    }
    #[inline(always)]
    fn back_b(b: Bitboard) -> Bitboard {
        step_up_right(b)
    }
}

impl Side for White {
    type Other = Red;
    const COLOR: Color = Color::White;
    const CROWN: Bitboard = ROW_0;
    #[inline(always)]
    fn ours(p: &Position) -> Bitboard {
        p.white
    }
    #[inline(always)]
    fn theirs(p: &Position) -> Bitboard {
        p.red
    }
    #[inline(always)]
    fn set_ours(p: &mut Position, b: Bitboard) {
        p.white = b;
    }
    #[inline(always)]
    fn set_theirs(p: &mut Position, b: Bitboard) {
        p.red = b;
    }
    #[inline(always)]
    fn fwd_a(b: Bitboard) -> Bitboard {
        step_up_left(b)
    }
    #[inline(always)]
    fn fwd_b(b: Bitboard) -> Bitboard {
        step_up_right(b)
    }
    #[inline(always)]
    fn back_a(b: Bitboard) -> Bitboard {
        step_down_left(b)
    }
    #[inline(always)]
    fn back_b(b: Bitboard) -> Bitboard {
        step_down_right(b)
    }
}

/// The board as side `S` sees it before moving.
#[derive(Clone, Copy)]
pub(crate) struct View {
    /// Its pieces.
    pub us: Bitboard,
    /// Its kings.
    pub kings: Bitboard,
    /// The opponent's pieces.
    pub them: Bitboard,
    /// Empty squares.
    pub empty: Bitboard,
}

impl View {
    #[inline(always)]
    pub(crate) fn of<S: Side>(pos: &Position) -> View {
        let us = S::ours(pos);
        let them = S::theirs(pos);
        View {
            us,
            kings: us & pos.kings,
            them,
            empty: !(us | them),
        }
    }
}

/// The squares reached by one step, per direction: forward a and b (every piece), backward
/// a and b (kings only). Step `i`'s source is [`step_source`].
#[inline(always)]
pub(crate) fn step_targets<S: Side>(v: &View) -> [Bitboard; 4] {
    [
        S::fwd_a(v.us) & v.empty,
        S::fwd_b(v.us) & v.empty,
        S::back_a(v.kings) & v.empty,
        S::back_b(v.kings) & v.empty,
    ]
}

/// The square a step of [`step_targets`] direction `i` to `to` came from.
#[inline(always)]
pub(crate) fn step_source<S: Side>(i: usize, to: Bitboard) -> Bitboard {
    match i {
        0 => S::back_b(to),
        1 => S::back_a(to),
        2 => S::fwd_b(to),
        _ => S::fwd_a(to),
    }
}

/// Number of one-square steps.
#[inline(always)]
pub(crate) fn count_steps<S: Side>(v: &View) -> u64 {
    let men = (S::fwd_a(v.us) & v.empty).count_ones() + (S::fwd_b(v.us) & v.empty).count_ones();
    let kings = if v.kings == 0 {
        0
    } else {
        (S::back_a(v.kings) & v.empty).count_ones() + (S::back_b(v.kings) & v.empty).count_ones()
    };
    u64::from(men + kings)
}

/// The pieces of side `S` that have a jump.
#[inline(always)]
pub(crate) fn jumpers<S: Side>(v: &View) -> Bitboard {
    let (t, e) = (v.them, v.empty);
    // Where jumps land, each way; the sources only when there is one (the common case in
    // perft's last plies is none, and kings are often absent).
    let a = S::fwd_a(S::fwd_a(v.us) & t) & e;
    let b = S::fwd_b(S::fwd_b(v.us) & t) & e;
    let (c, d) = if v.kings == 0 {
        (0, 0)
    } else {
        (
            S::back_a(S::back_a(v.kings) & t) & e,
            S::back_b(S::back_b(v.kings) & t) & e,
        )
    };
    if a | b | c | d == 0 {
        return 0;
    }
    S::back_b(S::back_b(a))
        | S::back_a(S::back_a(b))
        | S::fwd_b(S::fwd_b(c))
        | S::fwd_a(S::fwd_a(d))
}

/// What is done with each capture the search finds.
pub(crate) trait Visitor {
    /// The piece jumped to `to`, taking the piece on `over`.
    fn jump(&mut self, to: Bitboard, over: Bitboard);
    /// Undo the last [`Visitor::jump`].
    fn unjump(&mut self);
    /// The jumps so far make a move.
    fn done(&mut self);
}

/// Every jump sequence of side `S`'s piece on `from` (a single bit, a jumper), reported to `v`.
/// `PREFIXES` (huffing): every sequence stopped short is a move too.
#[inline(always)]
pub(crate) fn piece_jumps<S: Side, V: Visitor, const PREFIXES: bool>(
    view: &View,
    from: Bitboard,
    v: &mut V,
) {
    // The piece leaves its square: a king may pass over it or land on it again.
    let empty = view.empty | from;
    if view.kings & from != 0 {
        extend::<S, V, true, PREFIXES>(from, view.them, empty, v, true);
    } else {
        extend::<S, V, false, PREFIXES>(from, view.them, empty, v, true);
    }
}

/// One step in direction `D` of side `S`: 0 and 1 forward (a, b), 2 and 3 backward (a, b).
#[inline(always)]
fn shift<S: Side, const D: usize>(b: Bitboard) -> Bitboard {
    match D {
        0 => S::fwd_a(b),
        1 => S::fwd_b(b),
        2 => S::back_a(b),
        _ => S::back_b(b),
    }
}

/// The jumps from `at` over pieces of `them` not taken yet; captured pieces stay on the board
/// (not in `empty`) until the move ends. Crowning ends a man's move.
#[inline(always)]
fn extend<S: Side, V: Visitor, const KING: bool, const PREFIXES: bool>(
    at: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    v: &mut V,
    root: bool,
) {
    // The board's direction order (down-left, down-right, up-left, up-right), which the
    // search's move ordering breaks ties by: White's forward directions are up the board.
    let mut extended = false;
    if KING && matches!(S::COLOR, Color::White) {
        extended |= hop::<S, V, KING, PREFIXES, 2>(at, them, empty, v);
        extended |= hop::<S, V, KING, PREFIXES, 3>(at, them, empty, v);
    }
    extended |= hop::<S, V, KING, PREFIXES, 0>(at, them, empty, v);
    extended |= hop::<S, V, KING, PREFIXES, 1>(at, them, empty, v);
    if KING && matches!(S::COLOR, Color::Red) {
        extended |= hop::<S, V, KING, PREFIXES, 2>(at, them, empty, v);
        extended |= hop::<S, V, KING, PREFIXES, 3>(at, them, empty, v);
    }
    if !extended && !PREFIXES && !root {
        v.done();
    }
}

/// The jump from `at` in direction `D`, if there is one, and every sequence after it; true when
/// there was one.
#[inline(always)]
fn hop<S: Side, V: Visitor, const KING: bool, const PREFIXES: bool, const D: usize>(
    at: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    v: &mut V,
) -> bool {
    let over = shift::<S, D>(at) & them;
    if over == 0 {
        return false;
    }
    let land = shift::<S, D>(over) & empty;
    if land == 0 {
        return false;
    }
    v.jump(land, over);
    if !KING && land & S::CROWN != 0 {
        v.done(); // a man that crowns ends its move
    } else {
        if PREFIXES {
            v.done();
        }
        extend_again::<S, V, KING, PREFIXES>(land, them & !over, empty, v);
    }
    v.unjump();
    true
}

/// [`extend`] after the first jump, not inlined (it recurses).
fn extend_again<S: Side, V: Visitor, const KING: bool, const PREFIXES: bool>(
    at: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    v: &mut V,
) {
    extend::<S, V, KING, PREFIXES>(at, them, empty, v, false);
}

/// Counts the moves.
pub(crate) struct Counter(pub u64);

impl Visitor for Counter {
    #[inline(always)]
    fn jump(&mut self, _: Bitboard, _: Bitboard) {}
    #[inline(always)]
    fn unjump(&mut self) {}
    #[inline(always)]
    fn done(&mut self) {
        self.0 += 1;
    }
}

/// Builds each move with its path and pushes it.
struct Builder<'a> {
    mv: Move,
    /// The captured set before each jump, to undo it.
    before: [Bitboard; MAX_PATH],
    out: &'a mut MoveList,
}

impl Visitor for Builder<'_> {
    #[inline(always)]
    fn jump(&mut self, to: Bitboard, over: Bitboard) {
        let (path, len, captured) = raw_parts(&mut self.mv);
        self.before[*len as usize] = *captured;
        path[*len as usize] = to.trailing_zeros() as u8 + 1;
        *len += 1;
        *captured |= over;
    }
    #[inline(always)]
    fn unjump(&mut self) {
        let (path, len, captured) = raw_parts(&mut self.mv);
        *len -= 1;
        path[*len as usize] = 0;
        *captured = self.before[*len as usize];
    }
    #[inline(always)]
    fn done(&mut self) {
        self.out.push(self.mv);
    }
}

/// The number of moves of side `S` (every capture path, or every step): perft's last ply.
#[inline(always)]
pub(crate) fn count<S: Side, const HUFF: bool>(v: &View) -> u64 {
    let jumpers = jumpers::<S>(v);
    if jumpers == 0 {
        return count_steps::<S>(v);
    }
    let mut c = Counter(0);
    let mut rest = jumpers;
    while rest != 0 {
        let from = rest & rest.wrapping_neg();
        rest &= rest.wrapping_sub(1);
        piece_jumps::<S, Counter, HUFF>(v, from, &mut c);
    }
    if HUFF { c.0 + count_steps::<S>(v) } else { c.0 }
}

/// Every legal move of side `S`: under compulsory capture (`HUFF` false) the captures when
/// there is one, else the steps; under huffing the steps and every capture, stopped short or
/// not.
pub(crate) fn generate<S: Side, const HUFF: bool>(pos: &Position, out: &mut MoveList) {
    let v = View::of::<S>(pos);
    generate_given::<S, HUFF>(&v, jumpers::<S>(&v), out);
}

/// [`generate`] when the jumpers of side `S` ([`jumpers`]) are known already.
#[inline(always)]
pub(crate) fn generate_given<S: Side, const HUFF: bool>(
    v: &View,
    jumpers: Bitboard,
    out: &mut MoveList,
) {
    let v = *v;
    let mut rest = jumpers;
    while rest != 0 {
        let from = rest & rest.wrapping_neg();
        rest &= rest.wrapping_sub(1);
        let mut path = [0; MAX_PATH];
        path[0] = bit_square(from);
        let mut b = Builder {
            mv: raw_move(path, 1, 0),
            before: [0; MAX_PATH],
            out: &mut *out,
        };
        piece_jumps::<S, Builder, HUFF>(&v, from, &mut b);
    }
    if jumpers != 0 && !HUFF {
        return;
    }
    push_steps::<S>(&v, out);
}

/// Push every one-square step of side `S` (men forward; kings any way, those in `v.kings`),
/// direction by direction in the board's order (down-left, down-right, up-left, up-right).
pub(crate) fn push_steps<S: Side>(v: &View, out: &mut MoveList) {
    let targets = step_targets::<S>(v);
    let order = match S::COLOR {
        Color::Red => [0, 1, 2, 3],
        Color::White => [2, 3, 0, 1],
    };
    for i in order {
        let mut t = targets[i];
        while t != 0 {
            let to = t & t.wrapping_neg();
            t &= t.wrapping_sub(1);
            let from = step_source::<S>(i, to);
            let mut path = [0; MAX_PATH];
            path[0] = bit_square(from);
            path[1] = bit_square(to);
            out.push(raw_move(path, 2, 0));
        }
    }
}

/// The square number (1-32) of a single-bit bitboard.
#[inline(always)]
fn bit_square(b: Bitboard) -> u8 {
    b.trailing_zeros() as u8 + 1
}

/// The position after side `S` moves the piece on `from` to `to` taking `captured` (all single
/// bits but `captured`); a man ending on the crown row is crowned.
#[inline(always)]
pub(crate) fn child<S: Side>(
    pos: &Position,
    from: Bitboard,
    to: Bitboard,
    captured: Bitboard,
) -> Position {
    let mut p = *pos;
    S::set_ours(&mut p, (S::ours(pos) & !from) | to);
    if captured != 0 {
        S::set_theirs(&mut p, S::theirs(pos) & !captured);
    }
    let was_king = pos.kings & from != 0;
    p.kings &= !(from | captured);
    if was_king || to & S::CROWN != 0 {
        p.kings |= to;
    }
    p.turn = <S::Other as Side>::COLOR;
    p
}
