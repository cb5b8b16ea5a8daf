//! The search: iterative deepening, principal-variation alpha-beta (negamax) with a shared
//! transposition table, move ordering (table move, captures, killers, counter-moves, history), late-move
//! reductions, ProbCut (a quiet node far above beta cut once a shallower search agrees), a
//! single-reply extension and capture quiescence (a position is only evaluated when the side
//! to move has no capture), repetition detection along the game and search path, and lazy SMP:
//! with several threads, helpers search the same tree and share the table.

mod negamax;
mod ordering;

use super::probe::Probe;
use super::score::{INFINITY, Score};
use super::time::{Budget, Deadlines};
use super::tt::Table;
use super::zobrist;
use crate::egdb::Egdb;
use crate::engine::{Move, Position};
use negamax::Search;
use ordering::{Worker, is_reversible, search_moves};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Deepest ply the search reaches (extensions included).
pub(super) const MAX_PLY: usize = 128;
/// Deepest nominal depth iterative deepening tries.
pub const MAX_DEPTH: u32 = 64;
/// Most search threads an engine runs.
pub const MAX_THREADS: usize = 64;
/// Largest transposition table an engine makes, in MB.
pub const MAX_HASH_MB: usize = 4096;
/// Longest thinking time a move may be given, in milliseconds (an hour).
pub const MAX_MOVE_MS: u64 = 60 * 60 * 1000;

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
    /// A time budget's instants: when iterations may start and the running one stops (see
    /// [`Deadlines`]); `deadline` is then its hard one.
    pub plan: Option<Deadlines>,
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

    /// Think for `budget` from `start` (see [`Budget`]).
    pub fn budget(budget: Budget, start: Instant) -> Limits {
        let plan = budget.deadlines(start);
        Limits {
            plan: Some(plan),
            deadline: Some(plan.hard),
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
    /// Reductions that grow with the depth left and the move's place, less for a move with a
    /// good history (else one ply, two from the seventh move with six plies left).
    pub graded_reductions: bool,
    /// Search iterations from depth 5 in a window around the last one's score, widened and
    /// searched again when the score falls outside.
    pub aspiration: bool,
    /// Try the quiet move that last refuted the opponent's move before other quiet moves.
    pub counter_moves: bool,
    /// Lower the history of the quiet moves searched before the one that cut off.
    pub history_malus: bool,
    /// Cut a quiet non-PV node whose evaluation is well above beta when a shallower search
    /// confirms it (ProbCut).
    pub probcut: bool,
    /// Take table cutoffs only from entries of exactly the depth asked for: the result then
    /// equals plain alpha-beta to that depth (a verification mode; slower).
    pub strict_tt: bool,
    /// Evaluate material only (men 100, kings 140): the score then says what material a side
    /// wins or loses by force within the horizon. Used by the ballot analysis.
    pub material_only: bool,
    /// The evaluation of English draughts (the pattern tables by default).
    pub eval: crate::search::eval::Evaluation,
    /// Search threads (1: a single thread; more: lazy SMP sharing the table).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            use_tt: true,
            reductions: true,
            graded_reductions: true,
            aspiration: true,
            counter_moves: true,
            history_malus: true,
            probcut: true,
            strict_tt: false,
            material_only: false,
            eval: crate::search::eval::Evaluation::Patterns,
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

/// One line of a multi-line analysis: a root move's exact score and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Score for the side to move at the root.
    pub score: Score,
    /// Principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

/// Progress of a multi-line analysis ([`Engine::analyse`]) after one completed depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiInfo {
    /// Nominal depth completed (0: none yet).
    pub depth: u32,
    /// The best root moves, best first, each with a different first move (empty when the
    /// side to move has no move).
    pub lines: Vec<PvLine>,
    /// Nodes searched so far.
    pub nodes: u64,
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

/// `pos` under the rules the engine plans its game by ([`crate::engine::Rules::planning_rules`]): its moves
/// are legal moves of the game.
fn planned(pos: &Position) -> Position {
    pos.with_rules(pos.rules().planning_rules())
}

impl Engine {
    /// A new engine with `options` (aborting, as any allocation does, when the memory for its
    /// table cannot be had: [`Engine::try_new`] says so instead).
    #[allow(
        clippy::expect_used,
        reason = "an engine made inside crossboard has a table of a size it chose"
    )]
    pub fn new(options: Options) -> Engine {
        Engine::try_new(options).expect("memory for the transposition table")
    }

    /// A new engine with `options`, or why not: its transposition table is allocated
    /// fallibly, so that a program answering a GUI can say the memory is short instead of
    /// aborting.
    pub fn try_new(options: Options) -> Result<Engine, String> {
        let threads = options.threads.clamp(1, MAX_THREADS);
        let mb = if options.use_tt { options.hash_mb } else { 0 };
        let tt = Table::try_new(mb)
            .map_err(|e| format!("no memory for a {mb} MB transposition table ({e})"))?;
        Ok(Engine {
            options: Options { threads, ..options },
            tt,
            workers: (0..threads).map(|_| Worker::new()).collect(),
            egdb: None,
        })
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
            && limits.plan.is_none()
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

    /// The best `lines` root moves of `pos` with exact scores (multi-PV), by iterative
    /// deepening: at each depth the best move is searched for, then the best of the moves
    /// not yet found, and so on. `progress` is called after each completed depth; raising
    /// `stop` ends the analysis at once (the result is the last completed depth). With one
    /// line, the first line is what [`Engine::search`] finds. Runs on one thread.
    pub fn analyse(
        &mut self,
        pos: &Position,
        history: &[Position],
        lines: usize,
        limits: Limits,
        stop: Arc<AtomicBool>,
        progress: impl FnMut(&MultiInfo),
    ) -> MultiInfo {
        let pos = &planned(pos);
        self.tt.clear_pending(None);
        self.tt.new_search();
        self.one_thread(pos, history, limits, &stop)
            .iterate_lines(pos, lines, progress)
    }

    /// A search of `pos` (planned) after `history` on the first worker alone.
    fn one_thread<'a>(
        &'a mut self,
        pos: &Position,
        history: &[Position],
        limits: Limits,
        stop: &'a AtomicBool,
    ) -> Search<'a> {
        let worker = &mut self.workers[0];
        worker.begin(pos, history);
        Search::new(
            &self.tt,
            worker,
            self.options,
            Probe::new(self.egdb.as_deref(), pos),
            limits,
            stop,
            None,
        )
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
        let mut s = self.one_thread(pos, history, Limits::default(), &stop);
        let root_hash = zobrist::hash(pos);
        let mut out = Vec::new();
        for mv in search_moves(pos) {
            let child = pos.after(&mv);
            s.w.configs[1] = s.w.configs[0].after(pos, &child);
            let child_hash = zobrist::hash_after(root_hash, pos, &mv);
            s.w.path.push(child_hash);
            s.w.reversible.push(is_reversible(pos, &child));
            s.w.came_by[1] = (mv.from().index() as u8, mv.to().index() as u8);
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
