//! The search proper: iterative deepening, the root, and the principal-variation negamax with
//! its table cut-offs, move ordering, reductions and capture quiescence.

mod multipv;

use super::ordering::{HISTORY_MAX, Worker, dedup_from, reward, search_moves};
use super::{Limits, MAX_DEPTH, MAX_PLY, Options, SearchInfo, SearchResult};
use crate::engine::{Color, Move, Position, generate_with_jumpers, has_any_move, jumpers};
use crate::search::eval::{evaluate_quiet, evaluate_with, material};
use crate::search::probe::Probe;
use crate::search::score::{INFINITY, KNOWN, Score, WIN};
use crate::search::tt::{Bound, MoveKey, NO_MOVE, Table};
use crate::search::zobrist;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= KNOWN {
        score + ply as i32
    } else if score <= -KNOWN {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= KNOWN {
        score - ply as i32
    } else if score <= -KNOWN {
        score + ply as i32
    } else {
        score
    }
}

/// The score of a position whose side to move has no move, `ply` plies from the root: lost,
/// except in the losing game, where it is won.
#[inline]
fn stuck(pos: &Position, ply: usize) -> i32 {
    if pos.rules().stuck_side_wins() {
        WIN - ply as i32
    } else {
        -WIN + ply as i32
    }
}

/// The full window.
const FULL: (i32, i32) = (-INFINITY, INFINITY);
/// Iterations from this depth on are searched in a window around the last one's score.
const ASPIRATION_DEPTH: u32 = 5;
/// The window's half-width at first (a third of a man); it grows fourfold at each failure.
const ASPIRATION: i32 = 30;
/// A window this wide is opened fully.
const ASPIRATION_MAX: i32 = 1_000;
/// ProbCut: nodes with at least this depth left are tried for a cut...
const PROBCUT_DEPTH: i32 = 3;
/// ...by a search this much shallower...
const PROBCUT_REDUCTION: i32 = 4;
/// ...that must reach beta plus this margin (hundredths of a man).
const PROBCUT_MARGIN: i32 = 30;

/// Plies a late quiet move loses at `depth` as the `i`-th move searched (from 0): about
/// ln(depth) ln(i) / 2, so 1 early and near the leaves, 2 to 3 deep and late.
#[inline]
fn reduction(depth: i32, i: usize) -> i32 {
    static TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.0) as u8;
            }
        }
        t
    });
    i32::from(TABLE[(depth as usize).min(63)][i.min(63)])
}

/// One thread's search in progress.
pub(super) struct Search<'a> {
    tt: &'a Table,
    pub(super) w: &'a mut Worker,
    options: Options,
    pub(super) probe: Probe<'a>,
    limits: Limits,
    stop: &'a AtomicBool,
    /// Raised by the main thread when it finishes (helpers only).
    halt: Option<&'a AtomicBool>,
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    /// Root moves completed in the current iteration.
    root_done: usize,
    /// When the current iteration started (main thread).
    began: Instant,
    /// The root searches only some of its moves (a multi-PV line after the first): no
    /// single-reply extension, and the root's table entry, which would hold the subset's
    /// score, is not stored.
    root_subset: bool,
}

impl<'a> Search<'a> {
    pub(super) fn new(
        tt: &'a Table,
        w: &'a mut Worker,
        options: Options,
        probe: Probe<'a>,
        limits: Limits,
        stop: &'a AtomicBool,
        halt: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        Search {
            tt,
            w,
            options,
            probe,
            limits,
            stop,
            halt,
            nodes: 0,
            aborted: false,
            root_done: 0,
            began: Instant::now(),
            root_subset: false,
        }
    }

    /// Iterative deepening on the main thread.
    pub(super) fn iterate(
        &mut self,
        pos: &Position,
        mut progress: impl FnMut(&SearchInfo),
        helper_nodes: &AtomicU64,
    ) -> SearchResult {
        let root_hash = zobrist::hash(pos);
        let mut root_moves = search_moves(pos);
        let mut result = SearchResult {
            best: None,
            score: Score(0),
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
        };
        if root_moves.is_empty() {
            result.score = Score(stuck(pos, 0));
            return result;
        }
        // Whatever happens, a legal move: the table's move if it has one, else the first.
        let tt_best = self
            .tt
            .probe(root_hash)
            .map(|h| h.best as usize)
            .filter(|&i| i < root_moves.len());
        if let Some(i) = tt_best {
            root_moves[..=i].rotate_right(1);
        }
        self.probe.keep_best(pos, &mut root_moves);
        result.best = Some(root_moves[0]);
        result.score = Score(self.evaluate(pos));
        // A single reply under a time limit: nothing to choose, so it is played at once (on a
        // clock its time is kept for the moves to come; under a time per move the game goes
        // on sooner). A search bounded by depth or nodes alone searches it (reproducible, and
        // its figures are asked for).
        if root_moves.len() == 1 && self.limits.deadline.is_some() {
            return result;
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            self.began = Instant::now();
            let guess =
                (self.options.aspiration && depth >= ASPIRATION_DEPTH).then_some(result.score.0);
            let score = self.aspirate(pos, root_hash, &mut root_moves, depth as i32, guess);
            let score = self.probe.root_score(Score(score)).0;
            if self.aborted {
                // A move completed in the unfinished iteration, and better than the first,
                // is a deeper answer than the last iteration's.
                if self.root_done > 1 && self.w.pv[0].first() != result.best.as_ref() {
                    result.best = self.w.pv[0].first().copied();
                    result.pv = self.w.pv[0].clone();
                    result.score = Score(score);
                }
                break;
            }
            let pv = self.w.pv[0].clone();
            result = SearchResult {
                best: pv.first().copied().or(result.best),
                score: Score(score),
                depth,
                pv,
                nodes: self.nodes,
            };
            progress(&SearchInfo {
                depth,
                score: result.score,
                pv: result.pv.clone(),
                nodes: self.nodes + helper_nodes.load(Ordering::Relaxed),
            });
            // A forced result inside the horizon will not change with more depth.
            let decided = result
                .score
                .plies_to_end()
                .is_some_and(|p| p.unsigned_abs() <= depth);
            let may_start = match self.limits.plan {
                Some(p) => p.may_start(Instant::now(), decided),
                None => !decided,
            };
            if self.out_of_budget() || !may_start {
                break;
            }
        }
        result
    }

    /// A helper thread: iterative deepening, starting one ply deeper every other helper, until
    /// the main thread halts it. Its only output is what it leaves in the table.
    pub(super) fn helper(&mut self, pos: &Position, max_depth: u32, id: usize) {
        let root_hash = zobrist::hash(pos);
        let mut root_moves = search_moves(pos);
        self.probe.keep_best(pos, &mut root_moves);
        if root_moves.is_empty() {
            return;
        }
        let first = 1 + (id % 2) as u32;
        for depth in first..=max_depth.clamp(1, MAX_DEPTH) {
            // Different helpers try the root moves in different orders.
            if id > 1 && root_moves.len() > 1 {
                let k = id % (root_moves.len() - 1);
                root_moves[1..].rotate_left(k);
            }
            let _ = self.root(pos, root_hash, &mut root_moves, depth as i32, FULL);
            if self.aborted {
                break;
            }
        }
    }

    /// One iteration in an aspiration window around `guess` (the last iteration's score),
    /// widened and searched again when the score falls outside it; without a guess, or one
    /// that is a known result, in the full window.
    fn aspirate(
        &mut self,
        pos: &Position,
        hash: u64,
        moves: &mut [Move],
        depth: i32,
        guess: Option<i32>,
    ) -> i32 {
        let Some(guess) = guess.filter(|g| g.abs() < KNOWN) else {
            return self.root(pos, hash, moves, depth, FULL);
        };
        let mut delta = ASPIRATION;
        let (mut lo, mut hi) = (guess - delta, guess + delta);
        loop {
            let score = self.root(pos, hash, moves, depth, (lo, hi));
            if self.aborted || (score > lo && score < hi) {
                return score;
            }
            delta *= 4;
            let wide = delta >= ASPIRATION_MAX;
            if score <= lo {
                lo = if wide { -INFINITY } else { guess - delta };
            } else {
                hi = if wide { INFINITY } else { guess + delta };
            }
        }
    }

    /// One iteration at the root in `window`: every move searched (PVS), the best moved to
    /// the front. A move that fails high ends it; when every move fails low, the order stays.
    fn root(
        &mut self,
        pos: &Position,
        hash: u64,
        moves: &mut [Move],
        depth: i32,
        window: (i32, i32),
    ) -> i32 {
        self.w.pv[0].clear();
        self.root_done = 0;
        self.nodes += 1;
        let new_depth = if moves.len() == 1 && !self.root_subset {
            depth
        } else {
            depth - 1
        };
        let (mut alpha, beta) = window;
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_i = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.after(&mv);
            self.w.configs[1] = self.w.configs[0].after(pos, &child);
            let child_hash = zobrist::hash_after(hash, pos, &mv);
            self.tt.prefetch(child_hash);
            self.w.path.push(child_hash);
            self.w
                .reversible
                .push(!mv.is_capture() && pos.kings() & mv.from().bit() != 0);
            self.w.came_by[1] = (mv.from().index() as u8, mv.to().index() as u8);
            let score = if i == 0 {
                -self.negamax(&child, child_hash, new_depth, -beta, -alpha, 1, true)
            } else {
                let mut s =
                    -self.negamax(&child, child_hash, new_depth, -alpha - 1, -alpha, 1, false);
                if s > alpha && !self.aborted {
                    s = -self.negamax(&child, child_hash, new_depth, -beta, -alpha, 1, true);
                }
                s
            };
            self.w.path.pop();
            self.w.reversible.pop();
            if self.aborted {
                break;
            }
            self.root_done += 1;
            // After the first move, only a move that beats the window's floor is a better
            // one (a fail-low's score is only a bound).
            if score > best && (i == 0 || score > alpha) {
                best = score;
                best_i = i;
                alpha = alpha.max(score);
                let (head, tail) = self.w.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(mv);
                head[0].extend_from_slice(&tail[0]);
                if score >= beta {
                    break;
                }
            }
        }
        if self.root_done > 0 {
            if best > orig_alpha {
                moves[..=best_i].rotate_right(1);
            }
            if !self.aborted && self.options.use_tt && !self.root_subset {
                // Store the move's index in generation order (the table's convention).
                let index = search_moves(pos)
                    .iter()
                    .position(|m| *m == moves[0])
                    .map_or(NO_MOVE, |i| i as u8);
                let bound = if best >= beta {
                    Bound::Lower
                } else if best <= orig_alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                self.tt.store(hash, depth, to_tt(best, 0), bound, index);
            }
        }
        best
    }

    /// The quiet move `mv`, the `i`-th searched at `ply` (moves at `base..`), cut off: it
    /// becomes a killer and the counter-move of the move before it, and its history rises by
    /// `depth`² while the quiet moves searched before it fall by as much.
    fn refuted_by(
        &mut self,
        mv: &Move,
        ply: usize,
        side: usize,
        depth: i32,
        base: usize,
        i: usize,
    ) {
        let w = &mut *self.w;
        let killers = w.killers[ply];
        if !killers[0].matches(mv) {
            w.killers[ply] = [MoveKey::of(mv), killers[0]];
        }
        let (came_from, came_to) = w.came_by[ply];
        w.counters[came_from as usize][came_to as usize] = MoveKey::of(mv);
        let bonus = (depth * depth).min(1_024);
        let history = &mut w.history[side];
        reward(
            &mut history[mv.from().index() as usize][mv.to().index() as usize],
            bonus,
        );
        if !self.options.history_malus {
            return;
        }
        for &key in &w.keys[base..base + i] {
            let tried = w.moves[base + (key & 0xFF) as usize];
            if !tried.is_capture() {
                reward(
                    &mut history[tried.from().index() as usize][tried.to().index() as usize],
                    -bonus,
                );
            }
        }
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        if self.options.material_only {
            material(pos)
        } else {
            evaluate_with(pos, self.options.eval)
        }
    }

    /// The evaluation of a position without captures at `ply`, `None` when the side to move is
    /// stuck.
    #[inline(always)]
    fn evaluate_quiet(&self, pos: &Position, ply: usize) -> Option<i32> {
        if self.options.material_only {
            has_any_move(pos).then(|| material(pos))
        } else {
            evaluate_quiet(pos, self.options.eval, Some(&self.w.configs[ply]))
        }
    }

    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.out_of_time()
    }

    /// The clock says stop: the hard deadline, or the budget's target (see [`crate::search::Deadlines`]).
    fn out_of_time(&self) -> bool {
        let (deadline, plan) = (self.limits.deadline, self.limits.plan);
        if deadline.is_none() && plan.is_none() {
            return false;
        }
        let now = Instant::now();
        deadline.is_some_and(|d| now >= d)
            || plan.is_some_and(|p| p.must_stop(now, self.began, self.root_done >= 1))
    }

    /// True when the current position (last on the path) occurred before with only reversible
    /// moves in between.
    #[inline]
    fn repeated(&self) -> bool {
        let path = &self.w.path;
        let rev = &self.w.reversible;
        let n = path.len() - 1;
        let h = path[n];
        let mut i = n;
        while i >= 2 && rev[i] && rev[i - 1] {
            i -= 2;
            if path[i] == h {
                return true;
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    #[expect(
        clippy::cognitive_complexity,
        reason = "the search's hot loop: one function keeps its state in registers"
    )]
    #[expect(
        clippy::too_many_lines,
        reason = "the search's hot loop: one function keeps its state in registers"
    )]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        hash: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        is_pv: bool,
    ) -> i32 {
        self.w.pv[ply].clear();
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.out_of_budget() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if self.repeated() {
            return 0;
        }
        // Mate-distance pruning: no result here beats a shorter one found already.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if let Some(score) = self.probe.score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let capturers = jumpers(pos);
        let must_capture = capturers != 0;
        if depth <= 0 && !must_capture {
            let Some(eval) = self.evaluate_quiet(pos, ply) else {
                return stuck(pos, ply);
            };
            return self.probe.leaf(pos, || eval).unwrap_or(eval);
        }

        let mut tt_move = NO_MOVE;
        if self.options.use_tt
            && let Some(hit) = self.tt.probe(hash)
        {
            tt_move = hit.best;
            let deep_enough = if self.options.strict_tt {
                hit.depth == depth
            } else {
                hit.depth >= depth
            };
            if !is_pv && deep_enough {
                let s = from_tt(hit.score, ply);
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        // A quiet position whose evaluation is well above beta: when a shallower search in a
        // window raised by a margin agrees, the node is cut (ProbCut, verified).
        if self.options.probcut
            && !is_pv
            && !must_capture
            && depth >= PROBCUT_DEPTH
            && ply >= 2
            && beta.abs() < KNOWN
        {
            let bar = beta + PROBCUT_MARGIN;
            if self.evaluate_quiet(pos, ply).is_some_and(|e| e >= bar) {
                let verify = (depth - PROBCUT_REDUCTION).max(1);
                let s = self.negamax(pos, hash, verify, bar - 1, bar, ply, false);
                if self.aborted {
                    return 0;
                }
                if s >= bar {
                    return s;
                }
            }
        }

        // This node's moves, keys and children's hashes are at `base..` of the worker's stacks.
        let base = self.w.moves.len();
        debug_assert!(self.w.keys.len() == base && self.w.hashes.len() == base);
        generate_with_jumpers(pos, capturers, &mut self.w.moves);
        if self.w.moves.len() == base {
            return stuck(pos, ply);
        }
        dedup_from(&mut self.w.moves, base);
        let n = self.w.moves.len() - base;
        let new_depth = if n == 1 { depth } else { depth - 1 };

        // Ordering keys: the score in the high bits, the move's index in the low 8.
        let killers = self.w.killers[ply];
        let side = usize::from(pos.turn() == Color::White);
        let (came_from, came_to) = self.w.came_by[ply];
        let counter = self.w.counters[came_from as usize][came_to as usize];
        // The children's hashes, and a prefetch of their table buckets (the load takes longer
        // than the ordering and the first child's set-up, and most children are probed: in the
        // capture quiescence too, a child at depth 0 probes when it has a capture). With a
        // table move, that move is searched first and most often refutes: only its child is
        // hashed now, the others when it did not cut off.
        let lazy = (tt_move as usize) < n;
        let w = &mut *self.w;
        let moves = &w.moves[base..];
        if lazy {
            w.hashes.resize(base + n, 0);
            let t = tt_move as usize;
            let child_hash = zobrist::hash_after(hash, pos, &moves[t]);
            w.hashes[base + t] = child_hash;
            self.tt.prefetch(child_hash);
        } else {
            for mv in moves {
                let child_hash = zobrist::hash_after(hash, pos, mv);
                w.hashes.push(child_hash);
                self.tt.prefetch(child_hash);
            }
        }
        for (i, mv) in moves.iter().enumerate() {
            let s: i64 = if i == tt_move as usize {
                1 << 30
            } else if mv.is_capture() {
                (1 << 24)
                    + 1000 * i64::from(mv.captured().count_ones())
                    + 10 * i64::from((mv.captured() & pos.kings()).count_ones())
            } else if killers[0].matches(mv) {
                (1 << 22) + 1
            } else if killers[1].matches(mv) {
                1 << 22
            } else if self.options.counter_moves && counter.matches(mv) {
                1 << 21
            } else {
                i64::from(w.history[side][mv.from().index() as usize][mv.to().index() as usize])
            };
            w.keys.push(s << 8 | i as i64);
        }

        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = NO_MOVE;
        for i in 0..n {
            let w = &mut *self.w;
            if i == 1 && lazy {
                let t = tt_move as usize;
                for (k, mv) in w.moves[base..base + n].iter().enumerate() {
                    if k != t {
                        let child_hash = zobrist::hash_after(hash, pos, mv);
                        w.hashes[base + k] = child_hash;
                        self.tt.prefetch(child_hash);
                    }
                }
            }
            // Selection sort: bring the best remaining key to position i. The keys are
            // distinct (the move's index is in their low bits): the largest is found without
            // a branch, then where it is.
            let order = &mut w.keys[base + i..base + n];
            let key = order.iter().copied().fold(i64::MIN, i64::max);
            if let Some(j) = order.iter().position(|&k| k == key) {
                order.swap(0, j);
            }
            let index = (key & 0xFF) as usize;
            let mv = w.moves[base + index];
            let quiet = !mv.is_capture();
            // A man that crowns, or will crown next move, is never reduced.
            let nears_crown = pos.men(pos.turn()) & mv.from().bit() != 0
                && mv.to().row().abs_diff(pos.turn().crown_row()) <= 1;
            let child_hash = w.hashes[base + index];
            let child = pos.after(&mv);
            self.w.configs[ply + 1] = self.w.configs[ply].after(pos, &child);
            self.w.path.push(child_hash);
            self.w
                .reversible
                .push(quiet && pos.kings() & mv.from().bit() != 0);
            self.w.came_by[ply + 1] = (mv.from().index() as u8, mv.to().index() as u8);
            let score = if i == 0 {
                -self.negamax(&child, child_hash, new_depth, -beta, -alpha, ply + 1, is_pv)
            } else {
                let reduce = self.options.reductions
                    && quiet
                    && depth >= 3
                    && i >= 3
                    && (key >> 8) < (1 << 21)
                    && !must_capture
                    && !nears_crown;
                let mut s = if reduce {
                    // Later moves and deeper nodes are reduced more, a move with a good
                    // history less; at least one ply is left.
                    let r = if self.options.graded_reductions {
                        let good = (key >> 8) > i64::from(HISTORY_MAX / 2);
                        (reduction(depth, i) - i32::from(good)).clamp(1, new_depth - 1)
                    } else if depth >= 6 && i >= 6 {
                        2
                    } else {
                        1
                    };
                    -self.negamax(
                        &child,
                        child_hash,
                        new_depth - r,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                    )
                } else {
                    alpha + 1
                };
                if s > alpha {
                    s = -self.negamax(
                        &child,
                        child_hash,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                    );
                }
                if s > alpha && s < beta && is_pv {
                    s = -self.negamax(&child, child_hash, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.w.path.pop();
            self.w.reversible.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_index = index as u8;
                if score > alpha {
                    alpha = score;
                    if is_pv {
                        let (head, tail) = self.w.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            self.refuted_by(&mv, ply, side, depth, base, i);
                        }
                        break;
                    }
                }
            }
        }
        self.w.moves.truncate(base);
        self.w.keys.truncate(base);
        self.w.hashes.truncate(base);
        if self.aborted {
            return 0;
        }
        if self.options.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(hash, depth, to_tt(best, ply), bound, best_index);
        }
        best
    }
}
