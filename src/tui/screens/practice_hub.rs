//! A Hub engine of the config file as the practice opponent and hint giver.
//!
//! [`HubSeat`] starts the engine on a thread of its own and asks it there for moves, so that
//! the practice screen never waits for it: the screen asks ([`HubSeat::ask`]) and picks the
//! answers up on its ticks ([`HubSeat::poll`]). One question at a time: an answer for a
//! position the game has left is dropped by the caller. An engine that misbehaves (it crashes,
//! plays an illegal move, stays silent past the bound or writes garbage, as
//! [`HubEngine`] finds) is stopped at once, and what it did is kept in words
//! ([`SeatState::Stopped`]). When the seat is dropped (practice ends, the opponent changes) the
//! engine is told to quit, and killed if it is thinking: no process outlives practice.

use super::practice_engine::{Opponent, PracticeEngine};
use crate::engine::{Game, Move, Position, Rules};
use crate::hub::HubEngine;
use crate::search::{MoveLimit, Player};
use crate::store::HubEngineConfig;
use crate::tui::theme::Appearance;
use crate::tui::widgets::StatusKind;
use ratatui::text::{Line, Span};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The thinking times a move offered on the set-up forms, milliseconds (`+` cycles them).
pub const MOVE_TIMES_MS: [u64; 6] = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

/// How long the seat's end waits for the engine to quit before leaving it to its thread.
const END_WAIT: Duration = Duration::from_secs(3);

/// A configured Hub engine chosen as the practice opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct HubRival {
    /// Its name in the config file.
    pub name: String,
    /// Its program, arguments and options.
    pub config: HubEngineConfig,
    /// Its thinking time a move, milliseconds.
    pub move_ms: u64,
}

impl HubRival {
    /// The engine `name` of the config, at a second a move.
    pub fn new(name: &str, config: &HubEngineConfig) -> HubRival {
        HubRival {
            name: name.to_string(),
            config: config.clone(),
            move_ms: 1_000,
        }
    }

    /// The next thinking time of the form's list (after the longest, the shortest).
    pub fn next_time(&mut self) {
        let i = MOVE_TIMES_MS.iter().position(|&t| t > self.move_ms);
        self.move_ms = MOVE_TIMES_MS[i.unwrap_or(0)];
    }

    /// "1.0 s a move".
    pub fn time_text(&self) -> String {
        format!("{:.1} s a move", self.move_ms as f64 / 1_000.0)
    }
}

/// Where the engine stands, as the practice screen says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatState {
    /// Started on its thread; its introduction awaited.
    Starting,
    /// Ready, with the name (and version) it gave.
    Ready(String),
    /// Stopped: what it did, in words naming it.
    Stopped(String),
}

/// The engine's answer to a question ([`HubSeat::ask`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The question answered.
    pub id: u64,
    /// The move it chose (legal in the position asked about: the client checks).
    pub mv: Move,
    /// The depth it reached, when it says.
    pub depth: Option<u32>,
}

/// What the screen asks of the engine's thread.
enum Job {
    /// A new game begins (a restart, another ballot).
    NewGame,
    /// The best move in the game's position, within the limit.
    Think {
        id: u64,
        game: Box<Game>,
        limit: MoveLimit,
    },
}

/// What the engine's thread answers.
enum Answer {
    Ready(String),
    Thought(Thought),
    Failed(String),
}

/// A Hub engine on a thread of its own, asked one question at a time.
pub struct HubSeat {
    /// Where it stands.
    pub state: SeatState,
    jobs: Option<Sender<Job>>,
    answers: Receiver<Answer>,
    /// The engine's process while the thread may be waiting for it (`None` once the thread
    /// ends it itself, so a process id is never killed after the process is gone).
    process: Arc<Mutex<Option<u32>>>,
    /// The thread's end: the engine quit or killed.
    ended: Receiver<()>,
    /// The question asked and not answered yet.
    asked: Option<u64>,
    next_id: u64,
}

impl std::fmt::Debug for HubSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HubSeat({:?})", self.state)
    }
}

fn lock(process: &Mutex<Option<u32>>) -> MutexGuard<'_, Option<u32>> {
    process.lock().unwrap_or_else(|e| e.into_inner())
}

impl HubSeat {
    /// Start `rival` on a thread of its own; a move may take `grace` beyond four times its
    /// time before the engine is declared silent.
    pub fn start(rival: &HubRival, grace: Duration) -> HubSeat {
        let (jobs, job_rx) = channel();
        let (answer_tx, answers) = channel();
        let (ended_tx, ended) = channel();
        let process = Arc::new(Mutex::new(None));
        let (rival, shared) = (rival.clone(), Arc::clone(&process));
        std::thread::spawn(move || {
            run(&rival, grace, &job_rx, &answer_tx, &shared);
            let _ = ended_tx.send(());
        });
        HubSeat {
            state: SeatState::Starting,
            jobs: Some(jobs),
            answers,
            process,
            ended,
            asked: None,
            next_id: 0,
        }
    }

    /// True when the engine is ready and has no question to answer.
    pub fn free(&self) -> bool {
        matches!(self.state, SeatState::Ready(_)) && self.asked.is_none()
    }

    /// Ask for the best move in `game`'s position within `ms` (`None` unless free).
    pub fn ask(&mut self, game: &Game, ms: u64) -> Option<u64> {
        if !self.free() {
            return None;
        }
        self.next_id += 1;
        let limit = MoveLimit {
            time: Some(Duration::from_millis(ms)),
            nodes: None,
            depth: None,
        };
        let job = Job::Think {
            id: self.next_id,
            game: Box::new(game.clone()),
            limit,
        };
        self.send(job)?;
        self.asked = Some(self.next_id);
        self.asked
    }

    /// Tell the engine a new game begins.
    pub fn new_game(&mut self) {
        if matches!(self.state, SeatState::Ready(_)) {
            let _ = self.send(Job::NewGame);
        }
    }

    fn send(&mut self, job: Job) -> Option<()> {
        let sent = self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok());
        if !sent {
            self.state = SeatState::Stopped("the Hub engine's thread ended".into());
        }
        sent.then_some(())
    }

    /// Take the thread's answers in (never waiting): the state, and the last answer to a
    /// question, if one came.
    pub fn poll(&mut self) -> Option<Thought> {
        let mut thought = None;
        while let Ok(answer) = self.answers.try_recv() {
            match answer {
                Answer::Ready(name) => self.state = SeatState::Ready(name),
                Answer::Thought(t) => {
                    self.asked = None;
                    thought = Some(t);
                }
                Answer::Failed(why) => {
                    self.asked = None;
                    self.state = SeatState::Stopped(why);
                }
            }
        }
        thought
    }
}

impl Drop for HubSeat {
    /// The engine is told to quit (its thread ends when its queue closes); one that is
    /// thinking is killed, since it would answer only after its bound.
    fn drop(&mut self) {
        self.jobs = None;
        if self.asked.is_some()
            && let Ok(mut process) = self.process.try_lock()
            && let Some(id) = process.take()
        {
            kill(id);
        }
        let _ = self.ended.recv_timeout(END_WAIT);
    }
}

/// The engine's thread: start it, then answer the jobs until the queue closes or the engine
/// fails; then end it (quit, or killed after a bound: [`HubEngine`]'s drop).
fn run(
    rival: &HubRival,
    grace: Duration,
    jobs: &Receiver<Job>,
    answers: &Sender<Answer>,
    process: &Mutex<Option<u32>>,
) {
    let started = match rival.config.resolve() {
        None => Err(format!(
            "{}: its program {} is not found",
            rival.name,
            rival.config.path.display()
        )),
        Some(program) => HubEngine::spawn(
            &rival.name,
            &program,
            &rival.config.arguments,
            &rival.config.params(),
        ),
    };
    let mut engine = match started {
        Ok(engine) => engine,
        Err(why) => {
            let _ = answers.send(Answer::Failed(why));
            return;
        }
    };
    engine.set_grace(grace);
    *lock(process) = Some(engine.process_id());
    if answers.send(Answer::Ready(engine.name())).is_ok() {
        serve(&mut engine, jobs, answers);
    }
    // Ended here, with the process id withdrawn first: the seat kills no process now.
    let mut process = lock(process);
    *process = None;
    drop(engine);
}

/// Answer the jobs one by one; the first failure ends the engine.
fn serve(engine: &mut HubEngine, jobs: &Receiver<Job>, answers: &Sender<Answer>) {
    let stop = Arc::new(AtomicBool::new(false));
    while let Ok(job) = jobs.recv() {
        let answer = match job {
            Job::NewGame => match engine.new_game() {
                Ok(()) => continue,
                Err(why) => Answer::Failed(why),
            },
            Job::Think { id, game, limit } => match engine.choose(&game, &limit, &stop) {
                Ok(c) => Answer::Thought(Thought {
                    id,
                    mv: c.mv,
                    depth: c.depth,
                }),
                Err(why) => Answer::Failed(why),
            },
        };
        let failed = matches!(answer, Answer::Failed(_));
        if answers.send(answer).is_err() || failed {
            return;
        }
    }
}

/// The shared seat (the practice screen's clones share its engine).
type Shared = Arc<Mutex<HubSeat>>;

/// A question for the Hub engine: asked (`id`) or waiting for the engine to be free.
#[derive(Clone, Debug)]
struct Question {
    id: Option<u64>,
    /// A hint for the player (else the engine's own move).
    hint: bool,
    /// The position it is about: an answer for another is dropped.
    position: Position,
    /// Its thinking time, milliseconds.
    ms: u64,
}

/// What the Hub engine brought to the practice screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubNews {
    /// Its move, to play.
    Move(Move),
    /// A hint for the player: the move, and the depth when it says.
    Hint(Move, Option<u32>),
}

/// The practice screen's side of a Hub opponent: its seat, the question in flight, and why it
/// was stopped.
#[derive(Clone, Debug, Default)]
pub struct HubPlay {
    seat: Option<Shared>,
    question: Option<Question>,
    /// Why the engine was stopped (it misbehaved), in words naming it: kept on the screen
    /// until the player plays on against crossboard.
    pub stopped: Option<String>,
}

fn seat_lock(seat: &Shared) -> MutexGuard<'_, HubSeat> {
    seat.lock().unwrap_or_else(|e| e.into_inner())
}

impl HubPlay {
    /// Where the engine stands (`None`: not started).
    pub fn state(&self) -> Option<SeatState> {
        if let Some(why) = &self.stopped {
            return Some(SeatState::Stopped(why.clone()));
        }
        self.seat.as_ref().map(|s| seat_lock(s).state.clone())
    }

    /// The name (and version) the engine gave, or its name in the config.
    pub fn name_or(&self, rival: &HubRival) -> String {
        match self.state() {
            Some(SeatState::Ready(name)) => name,
            _ => rival.name.clone(),
        }
    }

    /// True while the engine is to be started, starts, or has a question out: the screen
    /// then ticks.
    pub fn busy(&self) -> bool {
        self.question.is_some() || matches!(self.state(), None | Some(SeatState::Starting))
    }

    /// True while the engine thinks about its own move.
    pub fn thinking(&self) -> bool {
        self.question.as_ref().is_some_and(|q| !q.hint)
    }

    /// True while the engine thinks about a hint.
    pub fn hinting(&self) -> bool {
        self.question.as_ref().is_some_and(|q| q.hint)
    }

    /// Forget the question out (its answer will be dropped).
    pub fn cancel(&mut self) {
        self.question = None;
    }

    /// Ask for a hint in `game`'s position, thinking `ms`.
    pub fn hint(&mut self, game: &Game, ms: u64) {
        self.question = Some(Question {
            id: None,
            hint: true,
            position: *game.position(),
            ms,
        });
    }

    /// Tell the engine a new game begins.
    pub fn new_game(&mut self) {
        if let Some(seat) = &self.seat {
            seat_lock(seat).new_game();
        }
    }

    /// Start the engine if it is not, take its answers in and ask the next question: its move
    /// when `to_move`. Never waits.
    pub fn poll(
        &mut self,
        rival: &HubRival,
        grace: Duration,
        game: &Game,
        to_move: bool,
    ) -> Option<HubNews> {
        if self.stopped.is_some() {
            return None;
        }
        let seat = Arc::clone(
            self.seat
                .get_or_insert_with(|| Arc::new(Mutex::new(HubSeat::start(rival, grace)))),
        );
        let mut seat = seat_lock(&seat);
        let thought = seat.poll();
        if let SeatState::Stopped(why) = &seat.state {
            self.stopped = Some(why.clone());
            self.question = None;
            drop(seat);
            self.seat = None; // the engine is ended
            return None;
        }
        let position = *game.position();
        let mut news = None;
        if let (Some(t), Some(q)) = (thought, &self.question)
            && q.id == Some(t.id)
        {
            if q.position == position {
                news = Some(if q.hint {
                    HubNews::Hint(t.mv, t.depth)
                } else {
                    HubNews::Move(t.mv)
                });
            }
            self.question = None;
        }
        // A question about a position the game has left is of no use.
        if self
            .question
            .as_ref()
            .is_some_and(|q| q.position != position)
        {
            self.question = None;
        }
        if news.is_none() && self.question.is_none() && to_move {
            self.question = Some(Question {
                id: None,
                hint: false,
                position,
                ms: rival.move_ms,
            });
        }
        if let Some(q) = &mut self.question
            && q.id.is_none()
        {
            q.id = seat.ask(game, q.ms);
        }
        news
    }
}

impl Opponent {
    /// The set-up forms' `+`: the Hub engine's next thinking time; says it, or why not.
    pub fn next_time(opponent: Option<&mut Opponent>) -> Result<String, String> {
        match opponent.and_then(|o| o.hub.as_mut()) {
            Some(h) => {
                h.next_time();
                Ok(format!("{}: {}", h.name, h.time_text()))
            }
            None => Err("the time a move is a Hub engine's: o chooses one".into()),
        }
    }

    /// Whether the opponent plays the game `rules`: a Hub engine plays English draughts only.
    pub fn plays(opponent: Option<&Opponent>, rules: Rules) -> Result<(), String> {
        match opponent.and_then(|o| o.hub.as_ref()) {
            Some(h) if rules != Rules::English => Err(format!(
                "the Hub engine {} plays English draughts only: choose that game or another opponent",
                h.name
            )),
            _ => Ok(()),
        }
    }
}

impl PracticeEngine {
    /// What the status line says about a Hub opponent: starting, thinking, or stopped.
    pub(super) fn hub_status(&self, game: &Game) -> Option<(String, StatusKind)> {
        let rival = self.opponent.as_ref()?.hub.as_ref()?;
        let said = match self.hub.state() {
            Some(SeatState::Stopped(why)) => (
                format!("{why}: stopped, the game is kept"),
                StatusKind::Error,
            ),
            None | Some(SeatState::Starting) => (
                format!("starting the Hub engine {}…", rival.name),
                StatusKind::Info,
            ),
            Some(SeatState::Ready(name)) if self.thinking() || self.engine_to_move(game) => (
                format!("{name} thinking… ({})", rival.time_text()),
                StatusKind::Info,
            ),
            Some(SeatState::Ready(name)) if self.hub.hinting() => {
                (format!("hint: {name} thinking…"), StatusKind::Info)
            }
            Some(SeatState::Ready(_)) => return None,
        };
        Some(said)
    }

    /// The hint key's `T`: the next engine to give the hints (crossboard, then each Hub engine
    /// of the config, `engines`); says which.
    pub fn next_hinter(&mut self, engines: &[(String, HubEngineConfig)]) -> String {
        if let Some(h) = self.opponent.as_ref().and_then(|o| o.hub.as_ref()) {
            return format!("the Hub engine playing, {}, gives the hints", h.name);
        }
        let i = match &self.hinter {
            None => 0,
            Some(h) => engines
                .iter()
                .position(|(name, _)| *name == h.name)
                .map_or(engines.len(), |i| i + 1),
        };
        self.hint_hub = HubPlay::default();
        self.hinter = engines
            .get(i)
            .map(|(name, config)| HubRival::new(name, config));
        match &self.hinter {
            Some(h) => format!("hints from {} (Hub)", h.name),
            None if engines.is_empty() => {
                "hints from crossboard: no Hub engine in the config".into()
            }
            None => "hints from crossboard".into(),
        }
    }

    /// What the status line says about the hints' Hub engine: thinking, or stopped.
    pub(super) fn hinter_status(&self) -> Option<(String, StatusKind)> {
        let rival = self.hinter.as_ref()?;
        match self.hint_hub.state() {
            Some(SeatState::Stopped(why)) => Some((
                format!("{why}: stopped; hints from crossboard"),
                StatusKind::Error,
            )),
            _ if self.hint_hub.hinting() => Some((
                format!("hint: {} thinking…", self.hint_hub.name_or(rival)),
                StatusKind::Info,
            )),
            _ => None,
        }
    }

    /// The side panel's lines about the opponent.
    pub(super) fn opponent_lines(&self, look: &Appearance) -> Vec<Line<'static>> {
        let Some(o) = &self.opponent else {
            return Vec::new();
        };
        let Some(rival) = &o.hub else {
            let who = Opponent::describe(Some(o)).replace(" engine", "");
            return vec![Line::from(vec![
                Span::styled("Engine ", look.dim()),
                Span::raw(who),
            ])];
        };
        let head =
            |text: String| Line::from(vec![Span::styled("Engine ", look.dim()), text.into()]);
        let dim = |text: String| Line::from(Span::styled(format!("       {text}"), look.dim()));
        match self.hub.state() {
            Some(SeatState::Stopped(_)) => vec![
                Line::from(vec![
                    Span::styled("Engine ", look.dim()),
                    Span::styled(format!("{} stopped", rival.name), look.alert()),
                ]),
                dim(format!("o: crossboard {} plays on", o.level)),
                dim("w: keep the game (PDN)".into()),
            ],
            Some(SeatState::Ready(name)) => vec![
                head(format!("{name} plays {}", o.color)),
                dim(format!("Hub engine, {}", rival.time_text())),
            ],
            None | Some(SeatState::Starting) => vec![
                head(format!("{} plays {}", rival.name, o.color)),
                dim("Hub engine, starting…".into()),
            ],
        }
    }
}

/// End a process that does not answer (Unix; elsewhere its thread ends it after the bound).
#[cfg(unix)]
fn kill(id: u32) {
    if let Ok(pid) = libc::pid_t::try_from(id) {
        // SAFETY: a plain system call on a process id this program started and has not reaped.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill(_id: u32) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_a_move_cycles_through_the_list() {
        let mut r = HubRival::new(
            "x",
            &HubEngineConfig {
                path: "x".into(),
                arguments: vec![],
                options: Default::default(),
            },
        );
        assert_eq!(r.time_text(), "1.0 s a move");
        let mut seen = Vec::new();
        for _ in 0..6 {
            r.next_time();
            seen.push(r.move_ms);
        }
        assert_eq!(seen, [2_000, 5_000, 10_000, 30_000, 500, 1_000]);
    }
}
