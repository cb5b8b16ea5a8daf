//! [`Searcher`]: a search on a worker thread, reporting over a channel, so the screen and the
//! clocks never wait for the engine.

use super::alphabeta::{Engine, Limits, Options, SearchInfo, SearchResult};
use super::level::{Level, choose_move};
use crate::engine::Position;
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

/// A message from the worker, tagged with the job number [`Searcher::start`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// An iteration finished (only for [`Task::Best`]).
    Progress {
        /// Job number.
        job: u64,
        /// Depth, score, principal variation and nodes so far.
        info: SearchInfo,
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
            Report::Progress { job, .. } | Report::Done { job, .. } => *job,
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
}

impl Searcher {
    /// Start the worker thread with an engine built from `options`.
    pub fn spawn(options: Options) -> Searcher {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (report_tx, report_rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("crossboard-search".into())
            .spawn(move || worker(Engine::new(options), job_rx, report_tx))
            .ok();
        Searcher {
            jobs: Some(job_tx),
            reports: report_rx,
            current: Arc::new(AtomicBool::new(false)),
            next_id: 1,
            thread,
        }
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
                };
                let tx = reports.clone();
                engine.search(&request.position, &request.history, limits, stop, |info| {
                    let _ = tx.send(Report::Progress {
                        job: id,
                        info: info.clone(),
                    });
                })
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
