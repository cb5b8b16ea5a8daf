//! [`Searcher`]: a search on a worker thread, reporting over a channel, so the screen and the
//! clocks never wait for the engine.
//!
//! A UI starts a job and polls for reports on each tick, ignoring reports of older jobs:
//!
//! ```
//! use crossboard::engine::Position;
//! use crossboard::search::{Options, Report, Request, Searcher};
//! use std::time::Duration;
//!
//! let mut searcher = Searcher::spawn(Options { hash_mb: 1, ..Options::default() });
//! let job = searcher.start(Request::hint(Position::start(), vec![], 50));
//! let best = loop {
//!     // In a UI: `try_recv()` once per frame instead of waiting.
//!     match searcher.recv_timeout(Duration::from_millis(10)) {
//!         Some(Report::Progress { job: j, info }) if j == job => {
//!             let _status = format!("depth {} {} {}", info.depth, info.score, info.pv_text());
//!         }
//!         Some(Report::Done { job: j, result }) if j == job => break result.best,
//!         _ => {}
//!     }
//! };
//! assert!(Position::start().legal_moves().contains(&best.unwrap()));
//! ```

use super::alphabeta::{Engine, Limits, MultiInfo, Options, SearchInfo, SearchResult};
use super::analysis::{MoveReview, analyse_game};
use super::level::{Level, choose_move};
use crate::engine::{Move, Position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// The best move and its score (a hint, or analysis): bounded by any of these.
    Best {
        /// Depth limit.
        depth: Option<u32>,
        /// Thinking time in milliseconds, counted from when the worker starts the job.
        time_ms: Option<u64>,
        /// Node limit.
        nodes: Option<u64>,
    },
    /// A move for the practice opponent at `level`; `seed` drives its random choices.
    Play {
        /// Playing level.
        level: Level,
        /// Thinking time in milliseconds (`None`: the level's own).
        time_ms: Option<u64>,
        /// Seed of the level's random choice.
        seed: u64,
    },
    /// Analyse the position until stopped: the best `lines` moves with exact scores
    /// (multi-PV), reported after each depth as [`Report::Analysis`].
    Analyse {
        /// Lines wanted (at least one).
        lines: usize,
    },
    /// Review a finished game for the post-game pass: the game's positions are the request's
    /// `history` followed by its `position`; each move is compared with the engine's best.
    Review {
        /// Search depth per position.
        depth: u32,
    },
}

/// A job for the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The position to search.
    pub position: Position,
    /// The game's earlier positions, oldest first (for repetitions).
    pub history: Vec<Position>,
    /// What to compute.
    pub task: Task,
}

impl Request {
    /// A hint: the best move within `time_ms`.
    pub fn hint(position: Position, history: Vec<Position>, time_ms: u64) -> Request {
        Request {
            position,
            history,
            task: Task::Best {
                depth: None,
                time_ms: Some(time_ms),
                nodes: None,
            },
        }
    }

    /// A post-game review of the game whose positions are `positions` (start first).
    pub fn review(mut positions: Vec<Position>, depth: u32) -> Request {
        let position = positions.pop().unwrap_or_else(Position::start);
        Request {
            position,
            history: positions,
            task: Task::Review { depth },
        }
    }

    /// A practice opponent's move at `level`.
    pub fn play(position: Position, history: Vec<Position>, level: Level, seed: u64) -> Request {
        Request {
            position,
            history,
            task: Task::Play {
                level,
                time_ms: None,
                seed,
            },
        }
    }
}

/// A message from the worker (a review ends with `Reviewed`, every other job with `Done`), tagged with the job number [`Searcher::start`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// An iteration finished (only for [`Task::Best`]).
    Progress {
        /// Job number.
        job: u64,
        /// Depth, score, principal variation and nodes so far.
        info: SearchInfo,
    },
    /// A depth of an analysis finished (only for [`Task::Analyse`]).
    Analysis {
        /// Job number.
        job: u64,
        /// Depth, the lines and nodes so far.
        info: MultiInfo,
        /// Time since the worker started the job (for nodes per second).
        elapsed: Duration,
    },
    /// A review advanced: `done` of `total` positions searched.
    ReviewProgress {
        /// Job number.
        job: u64,
        /// Positions searched.
        done: usize,
        /// Positions in the game.
        total: usize,
    },
    /// A review finished (cancelled: the moves reviewed so far).
    Reviewed {
        /// Job number.
        job: u64,
        /// One review per move.
        moves: Vec<MoveReview>,
    },
    /// The job finished (or was cancelled: then the best found so far).
    Done {
        /// Job number.
        job: u64,
        /// The result.
        result: SearchResult,
    },
}

impl Report {
    /// The job this report belongs to.
    pub fn job(&self) -> u64 {
        match self {
            Report::Progress { job, .. }
            | Report::Analysis { job, .. }
            | Report::Done { job, .. }
            | Report::ReviewProgress { job, .. }
            | Report::Reviewed { job, .. } => *job,
        }
    }
}

struct Job {
    id: u64,
    request: Request,
    stop: Arc<AtomicBool>,
}

/// A handle on the engine's worker thread. One job runs at a time; starting a new one cancels
/// the running one. Dropping the handle stops and joins the thread.
pub struct Searcher {
    jobs: Option<Sender<Job>>,
    reports: Receiver<Report>,
    current: Arc<AtomicBool>,
    next_id: u64,
    thread: Option<JoinHandle<()>>,
    egdb: Option<Arc<crate::egdb::Egdb>>,
}

impl Searcher {
    /// Start the worker thread with an engine built from `options`.
    pub fn spawn(options: Options) -> Searcher {
        Searcher::spawn_with(options, None)
    }

    /// Start the worker thread with an engine built from `options` that probes `egdb`.
    pub fn spawn_with(options: Options, egdb: Option<Arc<crate::egdb::Egdb>>) -> Searcher {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (report_tx, report_rx) = mpsc::channel();
        let mut engine = Engine::new(options);
        engine.set_egdb(egdb.clone());
        let thread = std::thread::Builder::new()
            .name("crossboard-search".into())
            .spawn(move || worker(engine, job_rx, report_tx))
            .ok();
        Searcher {
            jobs: Some(job_tx),
            reports: report_rx,
            current: Arc::new(AtomicBool::new(false)),
            next_id: 1,
            thread,
            egdb,
        }
    }

    /// The endgame databases its engine probes.
    pub fn egdb(&self) -> Option<&Arc<crate::egdb::Egdb>> {
        self.egdb.as_ref()
    }

    /// Queue `request`, cancelling the running job; returns its job number.
    pub fn start(&mut self, request: Request) -> u64 {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        self.current = Arc::new(AtomicBool::new(false));
        if let Some(tx) = &self.jobs {
            let _ = tx.send(Job {
                id,
                request,
                stop: self.current.clone(),
            });
        }
        id
    }

    /// Ask the running job to stop now; its `Done` report follows with the best move so far.
    pub fn cancel(&self) {
        self.current.store(true, Ordering::Relaxed);
    }

    /// The next report, if one is waiting (never blocks).
    pub fn try_recv(&self) -> Option<Report> {
        self.reports.try_recv().ok()
    }

    /// The next report, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Report> {
        self.reports.recv_timeout(timeout).ok()
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.cancel();
        self.jobs = None; // closes the channel: the worker loop ends
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The start and the moves of a game given by its successive positions (each move found by its
/// resulting position; the list stops at the first pair no legal move joins).
pub fn moves_between(positions: &[Position]) -> (Position, Vec<Move>) {
    let start = positions.first().copied().unwrap_or_else(Position::start);
    let mut moves = Vec::new();
    for pair in positions.windows(2) {
        match pair[0]
            .legal_moves()
            .into_iter()
            .find(|m| pair[0].after(m) == pair[1])
        {
            Some(m) => moves.push(m),
            None => break,
        }
    }
    (start, moves)
}

fn worker(mut engine: Engine, jobs: Receiver<Job>, reports: Sender<Report>) {
    while let Ok(job) = jobs.recv() {
        let Job { id, request, stop } = job;
        let started = Instant::now();
        let result = match request.task {
            Task::Best {
                depth,
                time_ms,
                nodes,
            } => {
                let limits = Limits {
                    depth,
                    nodes,
                    deadline: time_ms.map(|ms| started + Duration::from_millis(ms)),
                    ..Limits::default()
                };
                let tx = reports.clone();
                engine.search(&request.position, &request.history, limits, stop, |info| {
                    let _ = tx.send(Report::Progress {
                        job: id,
                        info: info.clone(),
                    });
                })
            }
            Task::Analyse { lines } => {
                let tx = reports.clone();
                let info = engine.analyse(
                    &request.position,
                    &request.history,
                    lines,
                    Limits::default(),
                    stop,
                    |info| {
                        let _ = tx.send(Report::Analysis {
                            job: id,
                            info: info.clone(),
                            elapsed: started.elapsed(),
                        });
                    },
                );
                let best = info.lines.first();
                SearchResult {
                    best: best.map(|l| l.pv[0]),
                    score: best.map_or(crate::search::Score::DRAW, |l| l.score),
                    depth: info.depth,
                    pv: best.map(|l| l.pv.clone()).unwrap_or_default(),
                    nodes: info.nodes,
                }
            }
            Task::Review { depth } => {
                let mut positions = request.history.clone();
                positions.push(request.position);
                let (start, moves) = moves_between(&positions);
                let total = moves.len() + 1;
                let tx = reports.clone();
                let moves = analyse_game(&mut engine, &start, &moves, depth, stop, |done| {
                    let _ = tx.send(Report::ReviewProgress {
                        job: id,
                        done,
                        total,
                    });
                });
                if reports.send(Report::Reviewed { job: id, moves }).is_err() {
                    return;
                }
                continue;
            }
            Task::Play {
                level,
                time_ms,
                seed,
            } => {
                let ms = time_ms.unwrap_or(level.think_ms());
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                choose_move(
                    &mut engine,
                    &request.position,
                    &request.history,
                    level,
                    Limits::deadline(started + Duration::from_millis(ms)),
                    stop,
                    &mut rng,
                )
            }
        };
        if reports.send(Report::Done { job: id, result }).is_err() {
            return;
        }
    }
}
