//! Retrograde analysis of one pair of slices (a material and its swap).
//!
//! 1. **Initialise** every position with one byte of work state, in parallel. A position where
//!    the side to move must capture is decided at once from the slices with fewer pieces (the
//!    capture is compulsory, so its quiet moves do not count). So is a position where a crowning
//!    wins (the crowned slice is solved before). A position without a move is lost. Every other
//!    position gets a counter: its quiet moves that stay in the pair, plus one if a crowning
//!    draws (such a position can never be lost).
//! 2. **Propagate** in rounds: each position decided in the previous round visits its
//!    predecessors (un-moves of the side that just moved, kept only when that side had no
//!    capture there): a loss makes each predecessor a win; a win takes one off each
//!    predecessor's counter, and a counter reaching zero makes a loss. Counters are atomic
//!    bytes, so both cores share the rounds.
//! 3. Whatever is still undecided is a draw. The work bytes are packed to two bits a position.

use super::index::{Board, Material, OUR_CROWN_ROW};
use super::plan::dependencies;
use super::{Egdb, UNUSED_CODE, Wdl, table_len};
use crate::engine::{Direction, MoveList};
use crate::engine::{generate, short_jumpers as jumpers};
use crate::engine::{step, step_back};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, Ordering};

/// Positions handled per parallel work item.
const CHUNK: usize = 1 << 14;

// Work states (one byte a position). Below COUNTED: an undecided position's counter.
const COUNTED: u8 = 0x80;
const NEW_LOSS: [u8; 2] = [0xE0, 0xE1];
const NEW_WIN: [u8; 2] = [0xE2, 0xE3];
const LOSS: u8 = 0xF0;
const DRAW: u8 = 0xF1;
const WIN: u8 = 0xF2;
const UNUSED: u8 = 0xFF;

/// The work state of one slice: a byte a position, and for each parity a flag a chunk saying
/// whether the chunk may hold positions decided with that parity, so a round visits only the
/// chunks where the previous round decided something (the long tails of king endings decide a
/// few positions a round for hundreds of rounds).
struct Work {
    cells: Vec<AtomicU8>,
    pending: [Vec<AtomicBool>; 2],
}

impl Work {
    fn new(size: u64) -> Work {
        let chunks = (size as usize).div_ceil(CHUNK);
        let flags = || (0..chunks).map(|_| AtomicBool::new(false)).collect();
        Work {
            cells: (0..size).map(|_| AtomicU8::new(UNUSED)).collect(),
            pending: [flags(), flags()],
        }
    }

    /// Note that the chunk of `index` holds a position decided with `parity`.
    #[inline]
    fn mark(&self, index: usize, parity: usize) {
        let flag = &self.pending[parity][index / CHUNK];
        if !flag.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Why a pair cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A slice that moves lead to is not built yet.
    #[error("slice {needed} must be built before {material}")]
    MissingDependency {
        /// The pair asked for.
        material: Material,
        /// The slice it needs.
        needed: Material,
    },
}

/// Solve `material` and its swap, given every slice they lead to in `deps`. Returns the packed
/// tables (one when the material is its own swap). `progress` is called with numbers of
/// positions done, adding up to both slices' sizes.
pub fn solve(
    material: Material,
    deps: &Egdb,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<(Material, Vec<u8>)>, SolveError> {
    let (a, b) = solve_work(material, deps, progress, None)?;
    let mut out = vec![(material, pack(&a.cells, progress))];
    if let Some(b) = b {
        out.push((material.swapped(), pack(&b.cells, progress)));
    }
    Ok(out)
}

/// A distance to conversion that no position has: draws and unused indices.
pub const NO_DISTANCE: u16 = u16::MAX;

/// Solve `material` and its swap like [`solve`], and say for every won or lost position how
/// many plies it is from leaving the pair: 0 for a position decided at once (a capture, a
/// winning crowning, no move), `n` for one decided in the `n`th round of propagation (a win
/// has a move to a loss at `n - 1`; every move of a loss leads to a win at most `n - 1`).
/// Playing a move to the nearest loss keeps shortening that distance, so it wins: the
/// conversion the search may not see. Draws and unused indices get [`NO_DISTANCE`].
pub fn conversion_distances(
    material: Material,
    deps: &Egdb,
) -> Result<Vec<(Material, Vec<u16>)>, SolveError> {
    let swapped = material.swapped();
    let new = |m: Material| -> Vec<AtomicU16> {
        (0..m.size()).map(|_| AtomicU16::new(NO_DISTANCE)).collect()
    };
    let da = new(material);
    let db = if swapped == material {
        Vec::new()
    } else {
        new(swapped)
    };
    let _ = solve_work(material, deps, &|_| {}, Some([&da, &db]))?;
    let plain = |d: Vec<AtomicU16>| d.into_iter().map(AtomicU16::into_inner).collect();
    let mut out = vec![(material, plain(da))];
    if swapped != material {
        out.push((swapped, plain(db)));
    }
    Ok(out)
}

/// The work bytes of a solved pair (the swap's `None` when the material is its own swap);
/// `distances`, when given, get each decided position's round (see [`conversion_distances`]).
fn solve_work(
    material: Material,
    deps: &Egdb,
    progress: &(dyn Fn(u64) + Sync),
    distances: Option<[&[AtomicU16]; 2]>,
) -> Result<(Work, Option<Work>), SolveError> {
    // Every block of the slices read is checked first: a damaged one is missing here.
    if let Some(needed) = dependencies(material).into_iter().find(|d| !deps.check(*d)) {
        return Err(SolveError::MissingDependency { material, needed });
    }
    let swapped = material.swapped();
    let symmetric = swapped == material;
    let a = initialise(material, deps, progress);
    let b = if symmetric {
        Work::new(0)
    } else {
        initialise(swapped, deps, progress)
    };
    let b_ref = if symmetric { &a } else { &b };
    let mut parity = 0;
    let mut round: u16 = 0;
    loop {
        let mut found = propagate(
            &a,
            material,
            b_ref,
            parity,
            distances.map(|d| (d[0], round)),
        );
        if !symmetric {
            found |= propagate(&b, swapped, &a, parity, distances.map(|d| (d[1], round)));
        }
        if !found {
            break;
        }
        parity ^= 1;
        round = round.saturating_add(1);
    }
    Ok((a, (!symmetric).then_some(b)))
}

/// Half a slice's positions are reported while initialising, half while packing.
fn initialise(m: Material, deps: &Egdb, progress: &(dyn Fn(u64) + Sync)) -> Work {
    let work = Work::new(m.size());
    work.cells
        .par_chunks(CHUNK)
        .zip(work.pending[0].par_iter())
        .enumerate()
        .for_each_init(
            || MoveList::with_capacity(32),
            |moves, (c, (chunk, pending))| {
                let base = (c * CHUNK) as u64;
                let mut decided = false;
                for (j, cell) in chunk.iter().enumerate() {
                    let s = initial_state(m, base + j as u64, deps, moves);
                    decided |= s == NEW_WIN[0] || s == NEW_LOSS[0];
                    cell.store(s, Ordering::Relaxed);
                }
                pending.store(decided, Ordering::Relaxed);
                progress(chunk.len() as u64 / 2);
            },
        );
    work
}

/// The value of a board reached by a move out of the pair (a capture or a crowning).
#[inline]
fn outside(deps: &Egdb, board: &Board) -> Wdl {
    deps.probe_board(board)
        .unwrap_or_else(|| unreachable!("dependencies are checked before solving"))
}

fn initial_state(m: Material, index: u64, deps: &Egdb, moves: &mut MoveList) -> u8 {
    let Some(board) = m.board(index) else {
        return UNUSED;
    };
    let pos = board.position();
    let jumpers = jumpers(&pos);
    if jumpers != 0 {
        moves.clear();
        generate(&pos, moves);
        let mut best = Wdl::Loss;
        for mv in moves.iter() {
            let v = outside(deps, &Board::after_red_move(&pos.after(mv))).negate();
            best = best.max(v);
            if best == Wdl::Win {
                break;
            }
        }
        return match best {
            Wdl::Win => NEW_WIN[0],
            Wdl::Loss => NEW_LOSS[0],
            Wdl::Draw => DRAW,
        };
    }
    let empty = !(board.us | board.them);
    let our_kings = board.us & board.kings;
    let mut inside = 0u8;
    let mut draw_exit = false;
    for dir in Direction::ALL {
        let forward = matches!(dir, Direction::DownLeft | Direction::DownRight);
        let movers = if forward { board.us } else { our_kings };
        let mut targets = step(movers, dir) & empty;
        if forward {
            // Men crowning leave the pair; kings reaching the row stay in it.
            let crowning = targets & OUR_CROWN_ROW & !step(our_kings, dir);
            targets &= !crowning;
            let mut c = crowning;
            while c != 0 {
                let to = c & c.wrapping_neg();
                c &= c - 1;
                let from = step_back(to, dir);
                let after = pos.after_parts(from, to, 0);
                match outside(deps, &Board::after_red_move(&after)).negate() {
                    Wdl::Win => return NEW_WIN[0],
                    Wdl::Draw => draw_exit = true,
                    Wdl::Loss => {}
                }
            }
        }
        inside += targets.count_ones() as u8;
    }
    let counter = inside + u8::from(draw_exit);
    if counter == 0 { NEW_LOSS[0] } else { counter }
}

/// One round: every position of `work` decided in the previous round (marked with `parity`)
/// is made final and visits its predecessors in `pred` (the swapped slice). True when any
/// position was handled.
/// `distance`: where to record the round of each position made final, and the round.
fn propagate(
    work: &Work,
    m: Material,
    pred: &Work,
    parity: usize,
    distance: Option<(&[AtomicU16], u16)>,
) -> bool {
    work.cells
        .par_chunks(CHUNK)
        .zip(work.pending[parity].par_iter())
        .enumerate()
        .map(|(c, (chunk, pending))| {
            if !pending.swap(false, Ordering::Relaxed) {
                return false;
            }
            let mut found = false;
            for (j, cell) in chunk.iter().enumerate() {
                let index = c * CHUNK + j;
                found |= settle(cell, index, m, pred, parity, distance);
            }
            found
        })
        .reduce(|| false, |x, y| x || y)
}

/// Make the position at `index` final if it was decided with `parity`, and pass its value to
/// its predecessors in `pred`. True when it was.
#[inline]
fn settle(
    cell: &AtomicU8,
    index: usize,
    m: Material,
    pred: &Work,
    parity: usize,
    distance: Option<(&[AtomicU16], u16)>,
) -> bool {
    let s = cell.load(Ordering::Relaxed);
    let lost = s == NEW_LOSS[parity];
    if !lost && s != NEW_WIN[parity] {
        return false;
    }
    let next = parity ^ 1;
    let pred_m = m.swapped();
    cell.store(if lost { LOSS } else { WIN }, Ordering::Relaxed);
    if let Some((d, round)) = distance {
        d[index].store(round, Ordering::Relaxed);
    }
    let board = m
        .board(index as u64)
        .unwrap_or_else(|| unreachable!("decided positions are used indices"));
    for_each_predecessor(&board, |q| {
        let i = pred_m.index(&q) as usize;
        let changed = pred.cells[i].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
            if s >= COUNTED {
                None
            } else if lost {
                Some(NEW_WIN[next])
            } else if s == 1 {
                Some(NEW_LOSS[next])
            } else {
                Some(s - 1)
            }
        });
        if let Ok(old) = changed
            && (lost || old == 1)
        {
            pred.mark(i, next);
        }
    });
    true
}

/// Every board (in the swapped slice) from which a quiet move that stays in the slice leads
/// to `board`: the last mover's piece steps back to an empty square, and the last mover must
/// not have had a capture there.
#[inline]
fn for_each_predecessor(board: &Board, mut visit: impl FnMut(Board)) {
    // Seen by the side that just moved (now "us", moving towards higher squares).
    let f = board.flipped();
    let empty = !(f.us | f.them);
    let kings = f.us & f.kings;
    for dir in Direction::ALL {
        let forward = matches!(dir, Direction::DownLeft | Direction::DownRight);
        // A man now on the crowning row would be a king; a king there may have been a man
        // that crowned, but that move came from another slice.
        let movers = if forward { f.us } else { kings };
        let mut now = movers & step(step_back(movers, dir) & empty, dir);
        while now != 0 {
            let to = now & now.wrapping_neg();
            now &= now - 1;
            let from = step_back(to, dir);
            let king = kings & to != 0;
            let q = Board {
                us: (f.us & !to) | from,
                them: f.them,
                kings: if king {
                    (f.kings & !to) | from
                } else {
                    f.kings
                },
            };
            if jumpers(&q.position()) == 0 {
                visit(q);
            }
        }
    }
}

/// Pack the work bytes to two bits a position.
fn pack(work: &[AtomicU8], progress: &(dyn Fn(u64) + Sync)) -> Vec<u8> {
    let mut out = vec![0u8; table_len(work.len() as u64) as usize];
    out.par_chunks_mut(CHUNK / 4)
        .zip(work.par_chunks(CHUNK))
        .for_each(|(bytes, cells)| {
            for (byte, four) in bytes.iter_mut().zip(cells.chunks(4)) {
                let mut b = 0u8;
                for (k, cell) in four.iter().enumerate() {
                    b |= code(cell.load(Ordering::Relaxed)) << (2 * k);
                }
                *byte = b;
            }
            progress(cells.len() as u64 - cells.len() as u64 / 2);
        });
    out
}

fn code(state: u8) -> u8 {
    match state {
        LOSS => Wdl::Loss.code(),
        WIN => Wdl::Win.code(),
        UNUSED => UNUSED_CODE,
        _ => Wdl::Draw.code(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predecessors_lead_back_by_a_legal_move() {
        let m = Material::new(1, 1, 1, 1).unwrap();
        for index in (0..m.size()).step_by(997) {
            let Some(board) = m.board(index) else {
                continue;
            };
            let target = board.position();
            for_each_predecessor(&board, |q| {
                let from = q.position();
                let reached = from
                    .legal_moves()
                    .iter()
                    .any(|mv| Board::after_red_move(&from.after(mv)) == board);
                assert!(reached, "{from} does not lead to {target}");
            });
        }
    }

    #[test]
    fn a_pair_needs_its_dependencies() {
        let db = Egdb::new();
        let m = Material::new(1, 0, 1, 0).unwrap();
        assert!(matches!(
            solve(m, &db, &|_| {}),
            Err(SolveError::MissingDependency { .. })
        ));
    }
}
