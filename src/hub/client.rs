//! The GUI side of the Hub protocol: another program (or `crossboard hub`) run as a child
//! process and asked for moves, so that `engine-match` can play it (its analysis, the info
//! lines read, is `analysis.rs`).

use crate::engine::Game;
use crate::search::{Choice, MoveLimit, Player};
use crate::search::{Line, TimeLimit, parse_hub_move, position_text};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `hub` and `init`.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// Extra time a move may take beyond its limit before the engine is declared lost.
const MOVE_GRACE: Duration = Duration::from_secs(10);

/// What the engine's reader hands the client: a line the engine wrote, or a wake-up (a
/// [`super::HubStop`] raised while the client waits for the engine).
pub(super) enum Incoming {
    /// A line from the engine.
    Line(String),
    /// Look at the stop flag.
    Wake,
    /// The engine's output ended (the channel stays open: the client holds a sender).
    Closed,
}

/// The channel the client waits on: the engine's lines and the wake-ups.
pub(super) type Inbox = (Sender<Incoming>, Receiver<Incoming>);

/// A running Hub engine.
pub struct HubEngine {
    pub(super) name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Incoming>,
    /// Where a stop's wake-up is sent.
    pub(super) inbox: Sender<Incoming>,
    /// Extra time a move may take beyond four times its limit.
    pub(super) grace: Duration,
}

/// Split a command line into words; double quotes group words with spaces.
fn command_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// The messages an engine may send the GUI; any other line is garbage.
const MESSAGES: [&str; 8] = [
    "id", "param", "wait", "ready", "pong", "info", "done", "error",
];

impl HubEngine {
    /// Start `command` (a program and its arguments), introduce ourselves (`hub`), set
    /// `params` (name, value) and initialise it (`init` ... `ready`).
    pub fn start(command: &str, params: &[(String, String)]) -> Result<HubEngine, String> {
        let words = command_words(command);
        let Some((program, args)) = words.split_first() else {
            return Err("the Hub engine command is empty".into());
        };
        HubEngine::spawn(program, program.as_ref(), args, params)
    }

    /// Start `program` with `args` as [`HubEngine::start`] does; `label` (the config's name
    /// for it) names it in every message until it says its own name.
    pub fn spawn(
        label: &str,
        program: &std::path::Path,
        args: &[String],
        params: &[(String, String)],
    ) -> Result<HubEngine, String> {
        HubEngine::launch(label, program, args, params, channel())
    }

    /// [`HubEngine::spawn`] with the channel its lines arrive on (whose sender may wake it).
    pub(super) fn launch(
        label: &str,
        program: &std::path::Path,
        args: &[String],
        params: &[(String, String)],
        (tx, lines): Inbox,
    ) -> Result<HubEngine, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{label}: cannot start {}: {e}", program.display()))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let inbox = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Incoming::Line(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Incoming::Closed);
        });
        let mut engine = HubEngine {
            name: label.to_string(),
            child,
            stdin,
            lines,
            inbox,
            grace: MOVE_GRACE,
        };
        engine.send(&Line::new("hub"))?;
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let l = engine.recv(deadline)?;
            match l.command.as_str() {
                "id" => {
                    if let Some(n) = l.get("name") {
                        engine.name = match l.get("version") {
                            Some(v) if !v.is_empty() => format!("{n} {v}"),
                            _ => n.to_string(),
                        };
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        for (name, value) in params {
            engine.send(&Line::new("set-param").arg("name", name).arg("value", value))?;
        }
        engine.send(&Line::new("init"))?;
        while engine.recv(deadline)?.command != "ready" {}
        Ok(engine)
    }

    /// Give a move `grace` beyond four times its limit before the engine is declared silent
    /// (10 s unless set).
    pub fn set_grace(&mut self, grace: Duration) {
        self.grace = grace;
    }

    /// The engine's process id (to end it from another thread while it does not answer).
    pub fn process_id(&self) -> u32 {
        self.child.id()
    }

    pub(super) fn send(&mut self, line: &Line) -> Result<(), String> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.quit_message())
    }

    fn recv(&mut self, deadline: Instant) -> Result<Line, String> {
        loop {
            if let Some(line) = self.recv_or_wake(Some(deadline))? {
                return Ok(line);
            }
        }
    }

    /// The next message of the engine before `deadline` (`None`: no bound), or `None` when
    /// woken; a line that is no Hub message, silence past the deadline or the engine's end is
    /// an error naming it.
    pub(super) fn recv_or_wake(
        &mut self,
        deadline: Option<Instant>,
    ) -> Result<Option<Line>, String> {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let received = match left {
            Some(left) => self.lines.recv_timeout(left),
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Incoming::Wake) => Ok(None),
            Ok(Incoming::Line(text)) if text.trim().is_empty() => self.recv_or_wake(deadline),
            Ok(Incoming::Line(text)) => {
                let line = Line::parse(&text);
                if MESSAGES.contains(&line.command.as_str()) {
                    Ok(Some(line))
                } else {
                    let shown: String = text.chars().take(60).collect();
                    Err(format!(
                        "{}: sent a line that is no Hub message: {shown:?}",
                        self.name
                    ))
                }
            }
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{}: silent, no answer within {:.1} s",
                self.name,
                left.unwrap_or_default().as_secs_f64()
            )),
            Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => Err(self.quit_message()),
        }
    }

    /// What the engine's end says: its exit status when it has one.
    fn quit_message(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("{}: the engine quit ({status})", self.name);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        format!(
            "{}: the engine stopped talking (its pipes are closed)",
            self.name
        )
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        let _ = self.send(&Line::new("quit"));
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `level` a move limit asks for (nodes first: the reproducible one).
fn level_of(limit: &MoveLimit) -> TimeLimit {
    if let Some(n) = limit.nodes {
        TimeLimit::Nodes(n)
    } else if let Some(d) = limit.depth {
        TimeLimit::Depth(d)
    } else if let Some(t) = limit.time {
        TimeLimit::MoveTime(t)
    } else {
        TimeLimit::Infinite
    }
}

impl Player for HubEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.send(&Line::new("new-game"))
    }

    fn choose(
        &mut self,
        game: &Game,
        limit: &MoveLimit,
        _stop: &Arc<AtomicBool>,
    ) -> Result<Choice, String> {
        // The position after the last move that cannot be undone, then the king moves since:
        // all an engine needs to see repetitions.
        let quiet = game.quiet_plies() as usize;
        let n = game.moves().len();
        let from = n - quiet.min(n);
        let base = game.positions()[from];
        let moves: Vec<String> = game.moves()[from..]
            .iter()
            .map(crate::search::move_text)
            .collect();
        let mut pos = Line::new("pos").arg("pos", position_text(&base));
        if !moves.is_empty() {
            pos = pos.arg("moves", moves.join(" "));
        }
        self.send(&pos)?;
        self.send(&level_of(limit).to_line())?;
        self.send(&Line::new("go").flag("think"))?;
        let allowed = limit.time.map_or(Duration::from_secs(600), |t| t * 4) + self.grace;
        let deadline = Instant::now() + allowed;
        let mut depth = None;
        loop {
            let l = self.recv(deadline)?;
            match l.command.as_str() {
                "info" => {
                    if let Ok(Some(d)) = l.number::<u32>("depth") {
                        depth = Some(d);
                    }
                }
                "done" => {
                    let text = l.get("move").unwrap_or("");
                    let mv = parse_hub_move(game.position(), text).map_err(|e| {
                        format!(
                            "{}: played {text:?}, not a legal move here ({e})",
                            self.name
                        )
                    })?;
                    return Ok(Choice { mv, depth });
                }
                "error" => {
                    return Err(format!(
                        "{}: {}",
                        self.name,
                        l.get("message").unwrap_or("error")
                    ));
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_into_words() {
        assert_eq!(command_words("a b  c"), ["a", "b", "c"]);
        assert_eq!(command_words(r#""/x y/z" hub"#), ["/x y/z", "hub"]);
        assert_eq!(command_words(r#"e """#), ["e", ""]);
        assert!(command_words("  ").is_empty());
    }

    #[test]
    fn the_level_sent_prefers_nodes() {
        let l = MoveLimit {
            time: Some(Duration::from_millis(100)),
            nodes: Some(5),
            depth: None,
        };
        assert_eq!(level_of(&l), TimeLimit::Nodes(5));
        assert_eq!(level_of(&MoveLimit::default()), TimeLimit::Infinite);
    }
}
