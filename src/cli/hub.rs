//! `crossboard hub`: the engine speaks the Hub protocol (version 2) on standard input and
//! output, so that a Hub GUI, pydraughts' `HubEngine` or `crossboard engine-match --hub` can
//! drive it. The protocol's text forms live in `search::hub`.
//!
//! Three threads: one reads standard input, one searches, and the main one answers; all of
//! them report to the main one over a single channel, so `stop`, `ping` and `ponder-hit` are
//! answered while a search runs.
//!
//! The hash table is made (and its memory touched) at `init`, before `ready`, and again when
//! `hash` or `threads` is set afterwards; `new-game` clears it, the emptying done beside the
//! next timed search (see `Engine::clear_soon`). None of it takes a `go`'s time.

use super::CliResult;
use crate::egdb::Egdb;
use crate::engine::{Move, Position, Rules};
use crate::search::{
    BOOK_MARGIN, Book, Budget, Engine, Limits, MAX_HASH_MB, MAX_THREADS, Options, SearchInfo,
    SearchResult,
};
use crate::search::{Line, TimeLimit, move_text, parse_hub_move, parse_position, score_text};
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Instant;

/// Arguments of `crossboard hub`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Search threads (the `threads` parameter can change it).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MB (the `hash` parameter can change it).
    #[arg(long)]
    hash: Option<usize>,
    /// The endgame databases' folder (default: the data folder's `egdb`, when built; the
    /// `egdb-dir` parameter can change it).
    #[arg(long, value_name = "DIR", conflicts_with = "no_egdb")]
    egdb: Option<PathBuf>,
    /// Probe no endgame databases (until the `egdb-dir` parameter names a folder).
    #[arg(long)]
    no_egdb: bool,
    /// Play from this opening book where it has the position (docs/opening-book.md): the
    /// book's move at once, without a search.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// The name of the Hub parameter that names the endgame databases' folder (empty: none).
pub(super) const EGDB_PARAM: &str = "egdb-dir";

enum Event {
    Line(String),
    Eof,
    Info(u64, SearchInfo),
    Done(u64, SearchResult),
    /// The search could not start: the engine could not be made (no memory for its table).
    Failed(u64, String),
}

struct Job {
    id: u64,
    position: Position,
    history: Vec<Position>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    options: Options,
    egdb: Option<Arc<Egdb>>,
}

/// What the search thread is asked to do, in order.
enum Work {
    /// Make the engine for `options` now (its hash table allocated and touched) and, with
    /// `clear`, forget what it learned (the table emptied beside the next search); `done` is
    /// told once that is over, or why the engine could not be made.
    Prepare {
        options: Options,
        clear: bool,
        done: Sender<Result<(), String>>,
    },
    /// Search.
    Search(Job),
}

/// The engine for `options`: the one made before if it has them, else a new one (the old
/// one let go first, so that two tables are never held at once); or why it cannot be made.
fn engine_for(engine: &mut Option<Engine>, options: Options) -> Result<&mut Engine, String> {
    if engine.as_ref().is_some_and(|e| e.options() != options) {
        *engine = None;
    }
    if engine.is_none() {
        *engine = Some(Engine::try_new(options)?);
    }
    engine
        .as_mut()
        .ok_or_else(|| "the engine was not made".to_string())
}

/// The search thread: one piece of work at a time, its engine rebuilt when the options change.
fn searcher(work: Receiver<Work>, events: Sender<Event>) {
    let mut engine: Option<Engine> = None;
    while let Ok(w) = work.recv() {
        let job = match w {
            Work::Prepare {
                options,
                clear,
                done,
            } => {
                let made = engine_for(&mut engine, options).map(|e| {
                    if clear {
                        e.clear_soon();
                    }
                });
                let _ = done.send(made);
                continue;
            }
            Work::Search(job) => job,
        };
        let e = match engine_for(&mut engine, job.options) {
            Ok(e) => e,
            Err(why) => {
                if events.send(Event::Failed(job.id, why)).is_err() {
                    return;
                }
                continue;
            }
        };
        e.set_egdb(job.egdb);
        let tx = events.clone();
        let id = job.id;
        let result = e.search(&job.position, &job.history, job.limits, job.stop, |info| {
            let _ = tx.send(Event::Info(id, info.clone()));
        });
        if events.send(Event::Done(id, result)).is_err() {
            return;
        }
    }
}

/// A search in progress, as the main thread sees it.
struct Running {
    id: u64,
    stop: Arc<AtomicBool>,
    started: Instant,
    /// Pondering: no clock until `ponder-hit`.
    pondering: bool,
    /// The clock once it runs (think, or ponder after the hit): (soft, hard) instants.
    deadlines: Option<(Instant, Instant)>,
    limit: TimeLimit,
}

/// The endgame databases the server hands its searches, and the folder they came from.
struct Databases {
    dir: Option<PathBuf>,
    db: Option<Arc<Egdb>>,
}

struct Server<W: Write> {
    out: W,
    options: Options,
    egdb: Databases,
    /// The position to search; None after a refused `pos`, so that `go` is refused rather than
    /// answered with a move of the position before it.
    position: Option<Position>,
    history: Vec<Position>,
    limit: TimeLimit,
    running: Option<Running>,
    jobs: Sender<Work>,
    next_id: u64,
    /// `init` was received: the table follows the parameters from then on.
    initialised: bool,
    /// The opening book and the generator choosing among its near-equal moves.
    book: Option<(Arc<Book>, ChaCha8Rng)>,
}

fn budget_of(limit: &TimeLimit) -> Option<Budget> {
    match *limit {
        TimeLimit::MoveTime(t) => Some(Budget::per_move(t)),
        TimeLimit::Clock { time, moves, inc } => Some(Budget::clock(time, moves, inc)),
        _ => None,
    }
}

impl<W: Write> Server<W> {
    fn new(out: W, options: Options, egdb: Databases, jobs: Sender<Work>) -> Server<W> {
        Server {
            out,
            options,
            egdb,
            position: Some(Position::start()),
            history: Vec::new(),
            limit: TimeLimit::Infinite,
            running: None,
            jobs,
            next_id: 0,
            initialised: false,
            book: None,
        }
    }

    /// Have the search thread make the engine for the current options (its hash table
    /// allocated and touched) and, with `clear`, forget what it learned. Waits for it when no
    /// search runs (otherwise it follows the search), so the next `go` spends its time
    /// searching. When the engine cannot be made (no memory for its table) the error is said
    /// and the options go back to `fallback`, for which the engine is made instead.
    fn prepare(&mut self, clear: bool, fallback: Options) {
        let (done, ready) = channel();
        let work = Work::Prepare {
            options: self.options,
            clear,
            done,
        };
        if self.jobs.send(work).is_err() {
            return self.error("the search thread has stopped");
        }
        if self.running.is_some() {
            return;
        }
        if let Ok(Err(why)) = ready.recv() {
            let msg = format!("{why}; the table stays at {} MB", fallback.hash_mb);
            self.error(&msg);
            if self.options != fallback {
                self.options = fallback;
                self.prepare(clear, fallback);
            }
        }
    }

    fn say(&mut self, line: &Line) {
        let _ = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
    }

    fn error(&mut self, message: &str) {
        self.say(&Line::new("error").arg("message", message));
    }

    /// The declaration answered to `hub`.
    fn introduce(&mut self) {
        let version = env!("CARGO_PKG_VERSION");
        self.say(
            &Line::new("id")
                .arg("name", "crossboard")
                .arg("version", version)
                .arg("author", "the crossboard authors"),
        );
        self.say(
            &Line::new("param")
                .arg("name", "variant")
                .arg("value", "english")
                .arg("type", "enum")
                .arg("values", "english"),
        );
        let (threads, hash) = (self.options.threads, self.options.hash_mb);
        self.say(
            &Line::new("param")
                .arg("name", "threads")
                .arg("value", threads)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_THREADS),
        );
        self.say(
            &Line::new("param")
                .arg("name", "hash")
                .arg("value", hash)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_HASH_MB),
        );
        let dir = self.egdb_dir_text();
        self.say(
            &Line::new("param")
                .arg("name", EGDB_PARAM)
                .arg("value", dir)
                .arg("type", "string"),
        );
        self.say(&Line::new("wait"));
    }

    /// The databases' folder as the `egdb-dir` parameter shows it (empty: none loaded).
    fn egdb_dir_text(&self) -> String {
        match (&self.egdb.dir, &self.egdb.db) {
            (Some(d), Some(_)) => d.display().to_string(),
            _ => String::new(),
        }
    }

    /// `set-param name=egdb-dir`: load the folder's databases (empty: probe none). A folder
    /// without complete databases is refused and changes nothing.
    fn set_egdb_dir(&mut self, value: &str) {
        if value.trim().is_empty() {
            self.egdb = Databases {
                dir: None,
                db: None,
            };
            return;
        }
        let dir = PathBuf::from(value);
        match super::egdb::for_engine(Some(&dir)) {
            Some(db) => {
                self.egdb = Databases {
                    dir: Some(dir),
                    db: Some(db),
                }
            }
            None => {
                let msg = format!(
                    "no endgame databases in {value:?} (build them with `crossboard egdb build --dir DIR`)"
                );
                self.error(&msg);
            }
        }
    }

    fn set_param(&mut self, line: &Line) {
        let (Some(name), Some(value)) = (line.get("name"), line.get("value")) else {
            return self.error("set-param needs name= and value=");
        };
        let number = value.parse::<usize>();
        match (name, number) {
            ("threads", Ok(n)) if (1..=MAX_THREADS).contains(&n) => {
                let before = self.options;
                self.options.threads = n;
                if self.initialised {
                    self.prepare(false, before);
                }
            }
            ("hash", Ok(n)) if (1..=MAX_HASH_MB).contains(&n) => {
                let before = self.options;
                self.options.hash_mb = n;
                if self.initialised {
                    self.prepare(false, before);
                }
            }
            ("threads" | "hash", _) => {
                let msg = format!("{name}={value:?} is out of range");
                self.error(&msg);
            }
            (EGDB_PARAM, _) => {
                let value = value.to_string();
                self.set_egdb_dir(&value);
            }
            ("variant", _) if value != "english" => {
                let msg = format!("variant {value:?} is not supported (english only)");
                self.error(&msg);
            }
            _ => {}
        }
    }

    fn set_position(&mut self, line: &Line) {
        self.position = None;
        let Some(text) = line.get("pos") else {
            return self.error("pos needs pos=");
        };
        let mut pos = match parse_position(text) {
            Ok(p) => p,
            Err(e) => return self.error(&e.to_string()),
        };
        let mut history = Vec::new();
        for mv in line.get("moves").unwrap_or("").split_whitespace() {
            match parse_hub_move(&pos, mv) {
                Ok(m) => {
                    history.push(pos);
                    pos = pos.after(&m);
                }
                Err(e) => return self.error(&e.to_string()),
            }
        }
        self.position = Some(pos);
        self.history = history;
    }

    fn go(&mut self, line: &Line) {
        self.stop_search();
        let Some(position) = self.position else {
            self.error("no position to search: the last pos was refused");
            return self.say(&Line::new("done"));
        };
        if position.legal_moves().is_empty() {
            self.error("no legal move in this position");
            return self.say(&Line::new("done"));
        }
        let pondering = line.has("ponder");
        if let Some((book, rng)) = self.book.as_mut().filter(|_| !pondering)
            && let Some(mv) = book.choose(&position, BOOK_MARGIN, rng)
        {
            return self.say(&Line::new("done").arg("move", move_text(&mv)));
        }
        let now = Instant::now();
        let mut limits = Limits::default();
        match self.limit {
            TimeLimit::Depth(d) => limits.depth = Some(d),
            TimeLimit::Nodes(n) => limits.nodes = Some(n),
            _ => {}
        }
        let mut deadlines = None;
        if !pondering && let Some(b) = budget_of(&self.limit) {
            let d = b.deadlines(now);
            limits.plan = Some(d);
            limits.deadline = Some(d.hard);
            deadlines = Some((d.soft, d.hard));
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.next_id += 1;
        let id = self.next_id;
        let job = Job {
            id,
            position,
            history: self.history.clone(),
            limits,
            stop: stop.clone(),
            options: self.options,
            egdb: self.egdb.db.clone(),
        };
        if self.jobs.send(Work::Search(job)).is_err() {
            return self.error("the search thread has stopped");
        }
        self.running = Some(Running {
            id,
            stop,
            started: now,
            pondering,
            deadlines,
            limit: self.limit,
        });
    }

    fn stop_search(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    fn ponder_hit(&mut self) {
        if let Some(r) = &mut self.running
            && r.pondering
        {
            r.pondering = false;
            r.deadlines = budget_of(&r.limit).map(|b| {
                let d = b.deadlines(Instant::now());
                (d.soft, d.hard)
            });
        }
    }

    fn info(&mut self, id: u64, info: &SearchInfo) {
        let Some(r) = self.running.as_ref().filter(|r| r.id == id) else {
            return;
        };
        let secs = r.started.elapsed().as_secs_f64();
        // After the soft time (pondering over), no new iteration is worth starting.
        if !r.pondering && r.deadlines.is_some_and(|(soft, _)| Instant::now() >= soft) {
            r.stop.store(true, Ordering::Relaxed);
        }
        let line = Line::new("info")
            .arg("depth", info.depth)
            .arg("score", score_text(info.score))
            .arg("nodes", info.nodes)
            .arg("time", format!("{secs:.3}"))
            .arg(
                "nps",
                format!("{:.1}", info.nodes as f64 / secs.max(1e-6) / 1e6),
            )
            .arg("pv", pv_hub(&info.pv));
        self.say(&line);
    }

    /// The search `id` could not start: why, then `done` without a move.
    fn failed(&mut self, id: u64, why: &str) {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        self.running = None;
        self.error(why);
        self.say(&Line::new("done"));
    }

    fn done(&mut self, id: u64, result: &SearchResult) {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        self.running = None;
        let Some(best) = result.best else {
            return self.say(&Line::new("done"));
        };
        let mut line = Line::new("done").arg("move", move_text(&best));
        if let Some(p) = result
            .pv
            .get(1)
            .filter(|_| result.pv.first() == Some(&best))
        {
            line = line.arg("ponder", move_text(p));
        }
        self.say(&line);
    }

    /// How long the main loop may sleep: until the running search's hard time, if the server
    /// is the one keeping it (after a ponder hit).
    fn wake_at(&self) -> Option<Instant> {
        let r = self.running.as_ref()?;
        if r.pondering {
            return None;
        }
        r.deadlines.map(|(_, hard)| hard)
    }

    /// Handle one line; false on `quit`.
    fn line(&mut self, text: &str) -> bool {
        let line = Line::parse(text);
        match line.command.as_str() {
            "hub" => self.introduce(),
            "set-param" => self.set_param(&line),
            "init" => {
                self.initialised = true;
                // Short of memory for the table asked for, the default one.
                let fallback = Options {
                    hash_mb: Options::default().hash_mb,
                    ..self.options
                };
                self.prepare(false, fallback);
                self.say(&Line::new("ready"));
            }
            "new-game" => self.prepare(true, self.options),
            "pos" => self.set_position(&line),
            "level" => match TimeLimit::from_line(&line) {
                Ok(l) => self.limit = l,
                Err(e) => self.error(&e.to_string()),
            },
            "go" => self.go(&line),
            "stop" => self.stop_search(),
            "ponder-hit" => self.ponder_hit(),
            "ping" => self.say(&Line::new("pong")),
            "quit" => return false,
            _ => {}
        }
        true
    }
}

fn pv_hub(pv: &[Move]) -> String {
    pv.iter().map(move_text).collect::<Vec<_>>().join(" ")
}

/// Run `crossboard hub` on standard input and output until `quit` or end of input.
pub(super) fn run(args: Args, defaults: crate::store::EngineSettings) -> CliResult {
    let (events, rx) = channel();
    let input = events.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if input.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = input.send(Event::Eof);
    });
    let (jobs, job_rx) = channel();
    let search_events = events.clone();
    std::thread::spawn(move || searcher(job_rx, search_events));
    let egdb = if args.no_egdb {
        Databases {
            dir: None,
            db: None,
        }
    } else {
        let dir = args.egdb.or_else(crate::store::default_egdb_dir);
        let db = super::egdb::for_engine(dir.as_deref());
        Databases { dir, db }
    };
    // Refused as `set-param` refuses them; the config's values are checked as it is read.
    if let Some(n) = args.threads {
        super::in_range("--threads", n, 1..=MAX_THREADS)?;
    }
    if let Some(n) = args.hash {
        super::in_range("--hash", n, 1..=MAX_HASH_MB)?;
    }
    let options = Options {
        threads: args
            .threads
            .unwrap_or(defaults.threads)
            .clamp(1, MAX_THREADS),
        hash_mb: args.hash.unwrap_or(defaults.hash_mb).clamp(1, MAX_HASH_MB),
        ..Options::default()
    };
    let book = super::engine_match::read_book(args.book.as_deref(), Rules::English)?;
    let mut server = Server::new(std::io::stdout().lock(), options, egdb, jobs);
    server.book = book.map(|b| (b, ChaCha8Rng::seed_from_u64(rand::rng().next_u64())));
    loop {
        let event = match server.wake_at() {
            Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    server.stop_search();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
        };
        match event {
            Event::Line(text) => {
                if !server.line(&text) {
                    break;
                }
            }
            Event::Eof => break,
            Event::Info(id, info) => server.info(id, &info),
            Event::Done(id, result) => server.done(id, &result),
            Event::Failed(id, why) => server.failed(id, &why),
        }
    }
    // Stop a running search so that the process ends at once.
    server.stop_search();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is made at `init` and when `hash` or `threads` changes after it, and cleared
    /// at `new-game`, each before the next line is handled (`ready` is said once it is made);
    /// a `go` then finds the engine made.
    #[test]
    fn the_table_is_made_before_the_next_line_not_at_go() {
        let (jobs, work) = channel();
        let searcher = std::thread::spawn(move || {
            let mut seen = Vec::new();
            while let Ok(w) = work.recv() {
                match w {
                    Work::Prepare {
                        options,
                        clear,
                        done,
                    } => {
                        seen.push(format!("prepare hash={} clear={clear}", options.hash_mb));
                        let _ = done.send(Ok(()));
                    }
                    Work::Search(job) => seen.push(format!("search hash={}", job.options.hash_mb)),
                }
            }
            seen
        });
        let options = Options {
            hash_mb: 4,
            ..Options::default()
        };
        let none = Databases {
            dir: None,
            db: None,
        };
        let mut server = Server::new(Vec::new(), options, none, jobs);
        for line in [
            "set-param name=hash value=8",
            "init",
            "new-game",
            "set-param name=threads value=2",
            "set-param name=hash value=16",
            "go think",
        ] {
            server.line(line);
        }
        let said = String::from_utf8(std::mem::take(&mut server.out)).unwrap();
        drop(server);
        assert_eq!(
            searcher.join().unwrap(),
            [
                "prepare hash=8 clear=false",
                "prepare hash=8 clear=true",
                "prepare hash=8 clear=false",
                "prepare hash=16 clear=false",
                "search hash=16",
            ]
        );
        assert_eq!(said, "ready\n");
    }
}
