//! The search: iterative deepening, principal-variation alpha-beta (negamax) with a shared
//! transposition table, move ordering (table move, captures, killers, history), late-move
//! reductions, a single-reply extension and capture quiescence (a position is only evaluated
//! when the side to move has no capture), repetition detection along the game and search path,
//! and lazy SMP: with several threads, helpers search the same tree and share the table.

use super::eval::{evaluate, evaluate_quiet, material};
use super::probe::Probe;
use super::score::{INFINITY, KNOWN, Score, WIN};
use super::time::Budget;
use super::tt::{Bound, MoveKey, NO_MOVE, Table};
use super::zobrist;
use crate::egdb::Egdb;
use crate::engine::{Move, MoveList, Position};
use crate::engine::{generate, generate_with_jumpers, has_any_move, jumpers};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Deepest ply the search reaches (extensions included).
pub(super) const MAX_PLY: usize = 128;
/// Deepest nominal depth iterative deepening tries.
pub const MAX_DEPTH: u32 = 64;
/// Most search threads an engine runs.
pub const MAX_THREADS: usize = 64;

/// When a search must stop. Every bound that is set applies; with none set, the search runs to
/// [`MAX_DEPTH`] or until its stop flag is raised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies, before extensions and quiescence).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (counted by the main thread).
    pub nodes: Option<u64>,
    /// Stop at this moment (computed by the caller, e.g. `Instant::now() + budget`).
    pub deadline: Option<Instant>,
    /// Start no new iteration after this moment.
    pub soft_deadline: Option<Instant>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search about `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search until `deadline`.
    pub fn deadline(deadline: Instant) -> Limits {
        Limits {
            deadline: Some(deadline),
            ..Limits::default()
        }
    }

    /// Think for `budget` from `start`: no new iteration after its soft time, stop at its hard.
    pub fn budget(budget: Budget, start: Instant) -> Limits {
        let (soft, hard) = budget.deadlines(start);
        Limits {
            soft_deadline: Some(soft),
            deadline: Some(hard),
            ..Limits::default()
        }
    }
}

/// Search features that can be switched off (for tests and comparisons), and the resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Use the transposition table.
    pub use_tt: bool,
    /// Reduce the depth of late quiet moves (re-searched when they turn out good).
    pub reductions: bool,
    /// Take table cutoffs only from entries of exactly the depth asked for: the result then
    /// equals plain alpha-beta to that depth (a verification mode; slower).
    pub strict_tt: bool,
    /// Evaluate material only (men 100, kings 140): the score then says what material a side
    /// wins or loses by force within the horizon. Used by the ballot analysis.
    pub material_only: bool,
    /// Search threads (1: a single thread; more: lazy SMP sharing the table).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            use_tt: true,
            reductions: true,
            strict_tt: false,
            material_only: false,
            threads: 1,
        }
    }
}

/// Progress after one completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: u32,
    /// Score for the side to move at the root (flip it for the other side's view).
    pub score: Score,
    /// Principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
}

impl SearchInfo {
    /// The principal variation in notation, space separated (`11-15 23-19 8-11`).
    pub fn pv_text(&self) -> String {
        pv_text(&self.pv)
    }
}

/// Moves in notation, space separated.
pub fn pv_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` only when the side to move has no legal move).
    pub best: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Deepest iteration completed (0 when stopped before the first finished).
    pub depth: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched (all threads).
    pub nodes: u64,
}

/// One thread's search state: ordering statistics, move buffers, the path.
struct Worker {
    history: Box<[[i32; 32]; 32]>,
    killers: Vec<[MoveKey; 2]>,
    /// The moves of the nodes on the current path, one after another: a node generates its
    /// moves at the end and truncates them when it returns (its children's go after its own).
    moves: MoveList,
    /// Their ordering keys, in the same places.
    keys: Vec<i64>,
    /// Their children's hashes, in generation order, in the same places.
    hashes: Vec<u64>,
    pv: Vec<Vec<Move>>,
    path: Vec<u64>,
    reversible: Vec<bool>,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            history: Box::new([[0; 32]; 32]),
            killers: vec![[MoveKey::default(); 2]; MAX_PLY + 1],
            moves: Vec::with_capacity(32 * (MAX_PLY + 1)),
            keys: Vec::with_capacity(32 * (MAX_PLY + 1)),
            hashes: Vec::with_capacity(32 * (MAX_PLY + 1)),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(16)).collect(),
            path: Vec::with_capacity(256),
            reversible: Vec::with_capacity(256),
        }
    }

    fn clear(&mut self) {
        *self.history = [[0; 32]; 32];
        self.killers.fill([MoveKey::default(); 2]);
    }

    /// Ready for a search of `pos` after the game's `history`.
    fn begin(&mut self, pos: &Position, history: &[Position]) {
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }
        self.killers.fill([MoveKey::default(); 2]);
        self.path.clear();
        self.reversible.clear();
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

/// A reusable search engine: its transposition table and ordering tables persist between
/// searches (call [`Engine::clear`] for a fresh start).
pub struct Engine {
    options: Options,
    tt: Table,
    workers: Vec<Worker>,
    egdb: Option<Arc<Egdb>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Options::default())
    }
}

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

/// True when the move from `a` to `b` could be undone later: no man moved and nothing was
/// captured (only a king stepped). Such moves are the only ones that allow repetitions.
pub(crate) fn is_reversible(a: &Position, b: &Position) -> bool {
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
fn dedup_from(moves: &mut MoveList, base: usize) {
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

/// `pos` under the rules the engine plans its game by ([`crate::engine::Rules::planning_rules`]): its moves
/// are legal moves of the game.
fn planned(pos: &Position) -> Position {
    pos.with_rules(pos.rules().planning_rules())
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

/// The moves the search considers, in the order table entries refer to.
fn search_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::with_capacity(16);
    generate(pos, &mut moves);
    dedup(&mut moves);
    moves
}

impl Engine {
    /// A new engine with `options`.
    pub fn new(options: Options) -> Engine {
        let threads = options.threads.clamp(1, MAX_THREADS);
        Engine {
            options: Options { threads, ..options },
            tt: Table::new(if options.use_tt { options.hash_mb } else { 0 }),
            workers: (0..threads).map(|_| Worker::new()).collect(),
            egdb: None,
        }
    }

    /// Probe these endgame databases in the search (see `search::probe`); `None`: none.
    pub fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>) {
        self.egdb = egdb;
    }

    /// The endgame databases the search probes.
    pub fn egdb(&self) -> Option<&Arc<Egdb>> {
        self.egdb.as_ref()
    }

    /// The options this engine was built with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Size of the transposition table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forget the transposition table and ordering statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Forget as [`Engine::clear`] does, without spending the time to empty the table now:
    /// the next search with a time limit (or none) empties it beside its search, costing the
    /// move none of its time; a search limited by depth or nodes only, whose result must not
    /// depend on timing, empties it first.
    pub fn clear_soon(&mut self) {
        self.tt.clear_later();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Search `pos` within `limits` without a stop flag or progress reports.
    pub fn search_simple(&mut self, pos: &Position, limits: Limits) -> SearchResult {
        self.search(pos, &[], limits, Arc::new(AtomicBool::new(false)), |_| {})
    }

    /// Search `pos`. `history` holds the game's earlier positions (oldest first, `pos`
    /// excluded) so that repetitions are seen; raising `stop` ends the search at once (the
    /// result is then the best found so far). `progress` is called after each completed
    /// iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[Position],
        limits: Limits,
        stop: Arc<AtomicBool>,
        progress: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let pos = &planned(pos);
        let reproducible = limits.deadline.is_none()
            && limits.soft_deadline.is_none()
            && (limits.depth.is_some() || limits.nodes.is_some());
        if reproducible {
            self.tt.clear_pending(None);
        }
        self.tt.new_search();
        for w in &mut self.workers {
            w.begin(pos, history);
        }
        let options = self.options;
        let tt = &self.tt;
        let probe = Probe::new(self.egdb.as_deref(), pos);
        let halt = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let (main, helpers) = self
            .workers
            .split_first_mut()
            .unwrap_or_else(|| unreachable!("an engine has at least one worker"));
        let pos = *pos;
        let mut result = std::thread::scope(|scope| {
            if tt.is_clearing() {
                let halt = &halt;
                scope.spawn(move || tt.clear_pending(Some(halt)));
            }
            for (i, w) in helpers.iter_mut().enumerate() {
                let (stop, halt, helper_nodes) = (&*stop, &halt, &helper_nodes);
                scope.spawn(move || {
                    let mut s =
                        Search::new(tt, w, options, probe, Limits::default(), stop, Some(halt));
                    s.helper(&pos, limits.depth.unwrap_or(MAX_DEPTH), i + 1);
                    helper_nodes.fetch_add(s.nodes, Ordering::Relaxed);
                });
            }
            let mut s = Search::new(tt, main, options, probe, limits, &stop, None);
            let mut result = s.iterate(&pos, progress, &helper_nodes);
            halt.store(true, Ordering::Relaxed);
            result.nodes = s.nodes;
            result
        });
        result.nodes += helper_nodes.load(Ordering::Relaxed);
        result
    }

    /// Score every distinct legal move of `pos` at `depth` (full window, each move exact),
    /// best first. Used for deliberately imperfect play; stops early when `stop` is raised
    /// (the moves not yet scored are then left out). Runs on one thread.
    pub fn score_moves(
        &mut self,
        pos: &Position,
        history: &[Position],
        depth: u32,
        stop: Arc<AtomicBool>,
    ) -> Vec<(Move, Score)> {
        let depth = depth.clamp(1, MAX_DEPTH);
        let pos = &planned(pos);
        // A first pass fills the table and ordering statistics.
        let _ = self.search(pos, history, Limits::depth(depth), stop.clone(), |_| {});
        let worker = &mut self.workers[0];
        worker.begin(pos, history);
        let mut s = Search::new(
            &self.tt,
            worker,
            self.options,
            Probe::new(self.egdb.as_deref(), pos),
            Limits::default(),
            &stop,
            None,
        );
        let root_hash = zobrist::hash(pos);
        let mut out = Vec::new();
        for mv in search_moves(pos) {
            let child = pos.after(&mv);
            let child_hash = zobrist::hash_after(root_hash, pos, &mv);
            s.w.path.push(child_hash);
            s.w.reversible.push(is_reversible(pos, &child));
            let score = -s.negamax(
                &child,
                child_hash,
                depth as i32 - 1,
                -INFINITY,
                INFINITY,
                1,
                true,
            );
            s.w.path.pop();
            s.w.reversible.pop();
            if s.aborted {
                break;
            }
            out.push((mv, s.probe.move_score(pos, &mv, Score(score))));
        }
        out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        out
    }
}

/// One thread's search in progress.
struct Search<'a> {
    tt: &'a Table,
    w: &'a mut Worker,
    options: Options,
    probe: Probe<'a>,
    limits: Limits,
    stop: &'a AtomicBool,
    /// Raised by the main thread when it finishes (helpers only).
    halt: Option<&'a AtomicBool>,
    nodes: u64,
    aborted: bool,
    /// Root moves completed in the current iteration.
    root_done: usize,
}

impl<'a> Search<'a> {
    fn new(
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
        }
    }

    /// Iterative deepening on the main thread.
    fn iterate(
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
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let score = self.root(pos, root_hash, &mut root_moves, depth as i32);
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
            if self.out_of_budget()
                || self
                    .limits
                    .soft_deadline
                    .is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            // A forced result inside the horizon will not change with more depth.
            if let Some(p) = result.score.plies_to_end()
                && p.unsigned_abs() <= depth
            {
                break;
            }
            // With one move to choose from, a timed search has nothing to think about.
            if root_moves.len() == 1 && self.limits.deadline.is_some() {
                break;
            }
        }
        result
    }

    /// A helper thread: iterative deepening, starting one ply deeper every other helper, until
    /// the main thread halts it. Its only output is what it leaves in the table.
    fn helper(&mut self, pos: &Position, max_depth: u32, id: usize) {
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
            let _ = self.root(pos, root_hash, &mut root_moves, depth as i32);
            if self.aborted {
                break;
            }
        }
    }

    /// One iteration at the root: every move searched (PVS), the best moved to the front.
    fn root(&mut self, pos: &Position, hash: u64, moves: &mut [Move], depth: i32) -> i32 {
        self.w.pv[0].clear();
        self.root_done = 0;
        self.nodes += 1;
        let new_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = -INFINITY;
        let mut best_i = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.after(&mv);
            let child_hash = zobrist::hash_after(hash, pos, &mv);
            self.tt.prefetch(child_hash);
            self.w.path.push(child_hash);
            self.w
                .reversible
                .push(!mv.is_capture() && pos.kings() & mv.from().bit() != 0);
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
            if score > best {
                best = score;
                best_i = i;
                alpha = alpha.max(score);
                let (head, tail) = self.w.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(mv);
                head[0].extend_from_slice(&tail[0]);
            }
        }
        if self.root_done > 0 {
            moves[..=best_i].rotate_right(1);
            if !self.aborted && self.options.use_tt {
                // Store the move's index in generation order (the table's convention).
                let index = search_moves(pos)
                    .iter()
                    .position(|m| *m == moves[0])
                    .map_or(NO_MOVE, |i| i as u8);
                self.tt
                    .store(hash, depth, to_tt(best, 0), Bound::Exact, index);
            }
        }
        best
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        if self.options.material_only {
            material(pos)
        } else {
            evaluate(pos)
        }
    }

    /// The evaluation of a position without captures, `None` when the side to move is stuck.
    #[inline(always)]
    fn evaluate_quiet(&self, pos: &Position) -> Option<i32> {
        if self.options.material_only {
            has_any_move(pos).then(|| material(pos))
        } else {
            evaluate_quiet(pos)
        }
    }

    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
            || self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
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
    fn negamax(
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
            let Some(eval) = self.evaluate_quiet(pos) else {
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
            } else {
                i64::from(w.history[mv.from().index() as usize][mv.to().index() as usize])
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
            // Selection sort: bring the best remaining key to position i.
            let order = &mut w.keys[base..base + n];
            let mut j = i;
            for k in i + 1..n {
                if order[k] > order[j] {
                    j = k;
                }
            }
            order.swap(i, j);
            let key = order[i];
            let index = (key & 0xFF) as usize;
            let mv = w.moves[base + index];
            let quiet = !mv.is_capture();
            let child_hash = w.hashes[base + index];
            let child = pos.after(&mv);
            self.w.path.push(child_hash);
            self.w
                .reversible
                .push(quiet && pos.kings() & mv.from().bit() != 0);
            let score = if i == 0 {
                -self.negamax(&child, child_hash, new_depth, -beta, -alpha, ply + 1, is_pv)
            } else {
                let reduce = self.options.reductions
                    && quiet
                    && depth >= 3
                    && i >= 3
                    && (key >> 8) < (1 << 22)
                    && !must_capture;
                let mut s = if reduce {
                    -self.negamax(
                        &child,
                        child_hash,
                        new_depth - 1,
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
                            if !killers[0].matches(&mv) {
                                self.w.killers[ply] = [MoveKey::of(&mv), killers[0]];
                            }
                            let h = &mut self.w.history[mv.from().index() as usize]
                                [mv.to().index() as usize];
                            *h += depth * depth;
                            if *h > 1 << 20 {
                                for row in self.w.history.iter_mut() {
                                    for v in row.iter_mut() {
                                        *v /= 2;
                                    }
                                }
                            }
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
