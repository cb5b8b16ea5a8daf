//! [`HubAnalyst`]: a Hub engine on a thread of its own, started there, analysing positions and
//! reviewing games, reporting over a channel, so that a screen never waits for it. Starting a
//! job stops the running one at once (its [`HubStop`]).
//!
//! ```text
//! let mut analyst = HubAnalyst::spawn(program);
//! let job = analyst.start(start, moves, HubTask::Analyse(GameLimits { depth: None, time_ms: None }));
//! // each frame: while let Some(report) = analyst.try_recv() { .. }
//! ```

use super::analysis::{HubAnalysis, HubInfo, HubStop};
use super::client::{HubEngine, Inbox, Incoming};
use super::review::{HubReview, review_game};
use crate::engine::{Move, Position};
use crate::search::GameLimits;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// A Hub engine's program as the config names it: started by [`HubAnalyst::spawn`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubProgram {
    /// The config's name for it (its messages use it until it says its own).
    pub label: String,
    /// The program found.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its parameters, set before `init`.
    pub params: Vec<(String, String)>,
}

impl HubProgram {
    /// Start it (here, waiting for it to be ready).
    pub fn start(&self) -> Result<HubEngine, String> {
        HubEngine::spawn(&self.label, &self.program, &self.args, &self.params)
    }
}

/// What a [`HubAnalyst`] is asked to do with a game's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubTask {
    /// Analyse the position within these limits (neither: until stopped), reporting each
    /// `info` line.
    Analyse(GameLimits),
    /// Review the game up to the position, each position within these limits.
    Review(GameLimits),
}

/// A message from a [`HubAnalyst`], tagged with the job [`HubAnalyst::start`] returned.
#[derive(Clone, Debug, PartialEq)]
pub enum HubReport {
    /// The engine started and said its name (and version).
    Ready {
        /// Its name.
        name: String,
    },
    /// An `info` line of an analysis.
    Info {
        /// Job number.
        job: u64,
        /// The line, read.
        info: HubInfo,
        /// Time since the job was sent to the engine.
        elapsed: Duration,
    },
    /// An analysis ended (its time, its depth, or stopped).
    Done {
        /// Job number.
        job: u64,
        /// What it found.
        analysis: HubAnalysis,
    },
    /// A review advanced: `done` of `total` positions analysed.
    ReviewProgress {
        /// Job number.
        job: u64,
        /// Positions analysed.
        done: usize,
        /// Positions in the game.
        total: usize,
    },
    /// A review ended (stopped: the moves reviewed so far).
    Reviewed {
        /// Job number.
        job: u64,
        /// One review per move, and what was left unread.
        review: HubReview,
    },
    /// The engine could not start, or misbehaved and was stopped (`job`: during that job).
    /// No report follows: the analyst is done.
    Failed {
        /// The job it failed in, if any.
        job: Option<u64>,
        /// What happened, naming the engine.
        why: String,
    },
}

struct Job {
    id: u64,
    start: Position,
    moves: Vec<Move>,
    task: HubTask,
    stop: HubStop,
}

/// A Hub engine on its own thread (see the module's documentation). Dropping it stops the job
/// and lets the engine go (told to quit, killed if it does not).
pub struct HubAnalyst {
    jobs: Sender<Job>,
    reports: Receiver<HubReport>,
    wake: Sender<Incoming>,
    current: Option<HubStop>,
    next_id: u64,
}

impl std::fmt::Debug for HubAnalyst {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubAnalyst")
            .field("next_id", &self.next_id)
            .finish_non_exhaustive()
    }
}

impl HubAnalyst {
    /// Start `program` on a thread of its own; [`HubReport::Ready`] or
    /// [`HubReport::Failed`] tells how the start went.
    pub fn spawn(program: HubProgram) -> HubAnalyst {
        let (jobs, job_rx) = channel::<Job>();
        let (report_tx, reports) = channel();
        let inbox: Inbox = channel();
        let wake = inbox.0.clone();
        let spawned = std::thread::Builder::new()
            .name("crossboard-hub".into())
            .spawn(move || run(&program, inbox, &job_rx, &report_tx));
        let reports = match spawned {
            Ok(_) => reports,
            Err(e) => {
                // No thread: say why on the first poll.
                let (tx, rx) = channel();
                let _ = tx.send(HubReport::Failed {
                    job: None,
                    why: format!("cannot start a thread for the engine: {e}"),
                });
                rx
            }
        };
        HubAnalyst {
            jobs,
            reports,
            wake,
            current: None,
            next_id: 1,
        }
    }

    /// Send a job for the position after `moves` from `start`, stopping the running one;
    /// returns its number.
    pub fn start(&mut self, start: Position, moves: Vec<Move>, task: HubTask) -> u64 {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        let stop = HubStop::new(self.wake.clone());
        self.current = Some(stop.clone());
        let _ = self.jobs.send(Job {
            id,
            start,
            moves,
            task,
            stop,
        });
        id
    }

    /// Stop the running job now (the engine is told `stop`; its end is reported).
    pub fn cancel(&mut self) {
        if let Some(stop) = self.current.take() {
            stop.stop();
        }
    }

    /// The next report, if one is waiting (never blocks).
    pub fn try_recv(&self) -> Option<HubReport> {
        self.reports.try_recv().ok()
    }

    /// The next report, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<HubReport> {
        self.reports.recv_timeout(timeout).ok()
    }
}

impl Drop for HubAnalyst {
    fn drop(&mut self) {
        // The thread ends once the job stops and the job channel is closed; the engine is
        // let go there, so the screen does not wait for it.
        self.cancel();
    }
}

/// The analyst's thread: start the engine, then one job at a time until the handle is gone.
fn run(program: &HubProgram, inbox: Inbox, jobs: &Receiver<Job>, reports: &Sender<HubReport>) {
    let mut engine = match HubEngine::launch(
        &program.label,
        &program.program,
        &program.args,
        &program.params,
        inbox,
    ) {
        Ok(e) => e,
        Err(why) => {
            let _ = reports.send(HubReport::Failed { job: None, why });
            return;
        }
    };
    let name = crate::search::Player::name(&engine);
    if reports.send(HubReport::Ready { name }).is_err() {
        return;
    }
    while let Ok(job) = jobs.recv() {
        let id = job.id;
        let report = match do_job(&mut engine, job, reports) {
            Ok(r) => r,
            Err(why) => {
                let _ = reports.send(HubReport::Failed { job: Some(id), why });
                return;
            }
        };
        if reports.send(report).is_err() {
            return;
        }
    }
}

/// Run one job; its last report.
fn do_job(
    engine: &mut HubEngine,
    job: Job,
    reports: &Sender<HubReport>,
) -> Result<HubReport, String> {
    let Job {
        id,
        start,
        moves,
        task,
        stop,
    } = job;
    let sent = Instant::now();
    match task {
        HubTask::Analyse(limits) => {
            let analysis = engine.analyse(&start, &moves, limits, &stop, |info| {
                let _ = reports.send(HubReport::Info {
                    job: id,
                    info: info.clone(),
                    elapsed: sent.elapsed(),
                });
            })?;
            Ok(HubReport::Done { job: id, analysis })
        }
        HubTask::Review(limits) => {
            let total = moves.len() + 1;
            let review = review_game(engine, &start, &moves, limits, &stop, |done| {
                let _ = reports.send(HubReport::ReviewProgress {
                    job: id,
                    done,
                    total,
                });
            })?;
            Ok(HubReport::Reviewed { job: id, review })
        }
    }
}
