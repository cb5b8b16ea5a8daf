//! Each search thread's move buffers and ordering statistics (history, killers, counter-moves), the path
//! kept for repetitions, and the move lists the search works on (capture paths to the same
//! position counted once).

use super::MAX_PLY;
use crate::engine::{Move, MoveList, Position, generate};
use crate::search::eval::Configs;
use crate::search::tt::MoveKey;
use crate::search::zobrist;

/// One thread's search state: ordering statistics, move buffers, the path.
pub(super) struct Worker {
    /// Quiet moves' history by side to move, start and end square: raised when the move
    /// cuts off, lowered when it was searched before the move that did (see [`reward`]).
    pub(super) history: Box<[[[i32; 32]; 32]; 2]>,
    pub(super) killers: Vec<[MoveKey; 2]>,
    /// The quiet move that last refuted a move, by that move's start and end square.
    pub(super) counters: Box<[[MoveKey; 32]; 32]>,
    /// The move that led to the position at each ply (start and end square).
    pub(super) came_by: Vec<(u8, u8)>,
    /// The moves of the nodes on the current path, one after another: a node generates its
    /// moves at the end and truncates them when it returns (its children's go after its own).
    pub(super) moves: MoveList,
    /// Their ordering keys, in the same places.
    pub(super) keys: Vec<i64>,
    /// Their children's hashes, in generation order, in the same places.
    pub(super) hashes: Vec<u64>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) path: Vec<u64>,
    pub(super) reversible: Vec<bool>,
    /// The pattern tables' configurations of the position at each ply of the current path,
    /// each made from its parent's as the move is made ([`Configs::after`]).
    pub(super) configs: Vec<Configs>,
}

impl Worker {
    pub(super) fn new() -> Worker {
        Worker {
            history: Box::new([[[0; 32]; 32]; 2]),
            killers: vec![[MoveKey::default(); 2]; MAX_PLY + 1],
            counters: Box::new([[MoveKey::default(); 32]; 32]),
            came_by: vec![(0, 0); MAX_PLY + 2],
            moves: Vec::with_capacity(32 * (MAX_PLY + 1)),
            keys: Vec::with_capacity(32 * (MAX_PLY + 1)),
            hashes: Vec::with_capacity(32 * (MAX_PLY + 1)),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(16)).collect(),
            path: Vec::with_capacity(256),
            reversible: Vec::with_capacity(256),
            configs: vec![Configs::of(&Position::start()); MAX_PLY + 2],
        }
    }

    pub(super) fn clear(&mut self) {
        *self.history = [[[0; 32]; 32]; 2];
        self.killers.fill([MoveKey::default(); 2]);
        *self.counters = [[MoveKey::default(); 32]; 32];
    }

    /// Ready for a search of `pos` after the game's `history`.
    pub(super) fn begin(&mut self, pos: &Position, history: &[Position]) {
        for h in self.history.iter_mut().flatten().flatten() {
            *h /= 8;
        }
        self.killers.fill([MoveKey::default(); 2]);
        self.path.clear();
        self.reversible.clear();
        self.configs[0] = Configs::of(pos);
        let mut prev: Option<&Position> = None;
        for p in history.iter().chain(std::iter::once(pos)) {
            // Under the rules searched (a huffing game is planned as English).
            self.path.push(zobrist::hash(&p.with_rules(pos.rules())));
            self.reversible
                .push(prev.is_some_and(|q| is_reversible(q, p)));
            prev = Some(p);
        }
    }
}

/// The bound of a history value.
pub(super) const HISTORY_MAX: i32 = 1 << 14;

/// A history value moved by `bonus` (negative: a penalty), the step shrinking as the value
/// nears [`HISTORY_MAX`] in that direction, so that it stays within it and old successes fade.
#[inline]
pub(super) fn reward(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// True when the move from `a` to `b` could be undone later: no man moved and nothing was
/// captured (only a king stepped). Such moves are the only ones that allow repetitions.
pub(super) fn is_reversible(a: &Position, b: &Position) -> bool {
    use crate::engine::Color::{Red, White};
    a.men(Red) == b.men(Red)
        && a.men(White) == b.men(White)
        && a.occupied().count_ones() == b.occupied().count_ones()
}

/// Remove capture paths that end in the same position as an earlier one (same start, end and
/// captured pieces), keeping the first.
#[inline(always)]
fn dedup(moves: &mut MoveList) {
    dedup_from(moves, 0);
}

/// [`dedup`] of the moves at `base..` (the rest of the list is left alone).
#[inline(always)]
pub(super) fn dedup_from(moves: &mut MoveList, base: usize) {
    if moves.len() > base + 1 && moves[base].is_capture() {
        dedup_captures(moves, base);
    }
}

fn dedup_captures(moves: &mut MoveList, base: usize) {
    let mut i = base + 1;
    while i < moves.len() {
        let k = MoveKey::of(&moves[i]);
        if moves[base..i].iter().any(|m| k.matches(m)) {
            moves.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The moves the search considers, in the order table entries refer to.
pub(super) fn search_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::with_capacity(16);
    generate(pos, &mut moves);
    dedup(&mut moves);
    moves
}
