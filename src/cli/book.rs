//! `crossboard openings eleven-man --book --out FILE [--depth D] [--nodes N] [--threads T]
//! [--ids A-B]`: builds the 11-man opening book by dropout expansion (`search::Dropout`) from
//! the 2,500 positions (Red to move after the ballot), read back by `search::Book`.
//!
//! Reproducible bit for bit: every position is searched to depth D by one search thread from a
//! cleared table, without endgame databases, and the tree depends only on those scores; so
//! the book is the same on any number of threads (positions of one expansion are searched side
//! by side on a rayon pool).
//!
//! Resumable: each position's score is appended to `FILE.journal` as its search ends (the
//! disk waited for after each expansion's batch); a build started again with the same depth takes the scores it finds
//! there instead of searching, so it grows the same tree and writes the same book as a build
//! made in one go. The journal is removed once FILE is written.

use super::atlas::{Journal, journal_lines, journal_path, open_journal};
use crate::engine::Position;
use crate::openings::eleven_man_positions;
use crate::search::{Dropout, Engine, Limits, Options};
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// The default depth of a book's leaf searches.
pub(super) const BOOK_DEPTH: u32 = 8;
/// The default size of a book build, in positions searched.
pub(super) const BOOK_NODES: usize = 10_000;

/// What a book build grows: the roots (public ids), the leaves' depth, the positions in all.
#[derive(Clone, Debug)]
pub(super) struct BookPlan {
    pub(super) ids: RangeInclusive<u32>,
    pub(super) depth: u32,
    pub(super) nodes: usize,
}

impl BookPlan {
    /// The journal's first line: its scores serve any build at the same depth.
    fn journal_header(&self) -> String {
        format!("# crossboard 11-man book journal: depth {}", self.depth)
    }
}

/// The scores a journal holds (see `atlas::journal_lines`), each line `FEN<TAB>score`.
fn read_journal(path: &Path, plan: &BookPlan) -> Result<HashMap<Position, i32>, String> {
    let name = path.display().to_string();
    let mut found = HashMap::new();
    for (n, raw) in journal_lines(path, &plan.journal_header())? {
        let bad = |field: &str, why: String| format!("{name} line {n}: {field}: {why}");
        let (fen, score) = raw
            .split_once('\t')
            .ok_or_else(|| bad("line", "give FEN<TAB>score".to_string()))?;
        let pos = Position::from_fen(fen).map_err(|e| bad("position", e.to_string()))?;
        let score: i32 = score
            .parse()
            .ok()
            .filter(|s: &i32| s.unsigned_abs() <= 30_000)
            .ok_or_else(|| bad("score", format!("{score:?} is not a score")))?;
        found.insert(pos, score);
    }
    Ok(found)
}

/// Searches positions at a fixed depth on a pool, one engine per pool thread.
struct Searcher {
    pool: rayon::ThreadPool,
    engines: Vec<Mutex<Engine>>,
    depth: u32,
}

impl Searcher {
    fn new(threads: usize, depth: u32) -> Result<Searcher, String> {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("no thread pool: {e}"))?;
        let options = Options {
            threads: 1,
            ..Options::default()
        };
        let engines = (0..threads)
            .map(|_| Mutex::new(Engine::new(options)))
            .collect();
        Ok(Searcher {
            pool,
            engines,
            depth,
        })
    }

    /// The score of each of `positions` (side to move's view), `done` told each as it ends.
    fn scores(&self, positions: &[Position], done: &(dyn Fn(&Position, i32) + Sync)) -> Vec<i32> {
        use rayon::prelude::*;
        self.pool.install(|| {
            positions
                .par_iter()
                .map(|p| {
                    let i = rayon::current_thread_index().unwrap_or(0) % self.engines.len();
                    let mut engine = self.engines[i]
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    engine.clear();
                    let score = engine.search_simple(p, Limits::depth(self.depth)).score.0;
                    done(p, score);
                    score
                })
                .collect()
        })
    }
}

/// Build the book of `plan` into `out`, resuming from its journal, saying on stderr how far
/// it is and how long it took.
pub(super) fn build(out: &Path, plan: &BookPlan, threads: usize) -> super::CliResult {
    let journal = journal_path(out);
    let mut known = read_journal(&journal, plan)?;
    let file = open_journal(&journal, &plan.journal_header(), !known.is_empty())?;
    if !known.is_empty() {
        errln!(
            "resuming: {} positions' scores in {}",
            known.len(),
            journal.display()
        );
    }
    let roots: Vec<Position> = eleven_man_positions()
        .iter()
        .filter(|p| plan.ids.contains(&p.id))
        .map(|p| p.position)
        .collect();
    let searcher = Searcher::new(threads, plan.depth)?;
    // Searches take milliseconds here: the disk is waited for once a batch, not once a line.
    let log = Journal::new(file, &journal, false);
    let (t, cpu) = (Instant::now(), super::cpu_seconds());
    let mut searched = 0usize;
    let mut score = |batch: &[Position]| -> Result<Vec<i32>, String> {
        let mut todo: Vec<Position> = batch
            .iter()
            .filter(|p| !known.contains_key(p))
            .copied()
            .collect();
        todo.sort_by_key(Position::to_fen);
        todo.dedup();
        let scores = searcher.scores(&todo, &|p, s| log.append(&format!("{}\t{s}", p.to_fen())));
        log.sync();
        searched += todo.len();
        known.extend(todo.into_iter().zip(scores));
        Ok(batch.iter().map(|p| known[p]).collect())
    };
    let mut tree = Dropout::new(&roots, plan.depth, &mut score)?;
    let step = (plan.nodes / 20).max(1);
    let mut next = step;
    tree.grow(plan.nodes, &mut score, &mut |n| {
        // An expansion adds all of a position's moves at once: the count jumps.
        if n >= next {
            errln!("{n} of {} positions", plan.nodes);
            next = (n / step + 1) * step;
        }
    })?;
    log.finish()?;
    let book = tree.book();
    let comments = [
        "The 11-man opening book: positions (Red or White to move) with each move's minimaxed score".to_string(),
        format!(
            "Made by `crossboard openings eleven-man --book --depth {} --nodes {} --ids {}-{} --out FILE`: dropout expansion, every leaf searched to a fixed depth by one thread from a cleared table, no endgame databases.",
            plan.depth,
            plan.nodes,
            plan.ids.start(),
            plan.ids.end()
        ),
        "Each move's score: hundredths of a man from the side to move's view, best first; see docs/opening-book.md.".to_string(),
    ];
    crate::store::write_atomic(out, book.to_text(&comments).as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&journal);
    let cpu = match (cpu, super::cpu_seconds()) {
        (Some(a), Some(b)) => format!(", {:.1} s CPU", b - a),
        _ => String::new(),
    };
    errln!(
        "{} positions in the tree ({searched} searched at depth {} on {threads} threads), {} in the book: {:.1} s wall{cpu}; written to {}",
        tree.len(),
        plan.depth,
        book.len(),
        t.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}
