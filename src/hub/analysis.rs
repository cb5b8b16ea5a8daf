//! A Hub engine's thinking: a position analysed to a depth, for a time or until stopped, its
//! `info` lines read (depth, score, nodes, speed, the principal variation checked move by
//! move from the position) and its best move. What a line holds that cannot be read is named
//! in [`HubInfo::unread`], never dropped in silence.

use super::client::{HubEngine, Incoming};
use crate::engine::{Move, Position};
use crate::search::{GameLimits, Line, Score, TimeLimit, parse_hub_move, parse_score};
use crate::search::{move_text, position_text};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// How long an analysis to a depth alone may run before the engine is declared silent (its
/// grace comes on top), as a move without a time limit.
const DEPTH_BOUND: Duration = Duration::from_secs(600);

/// The keys of an `info` line the protocol defines; any other is named as unread.
const INFO_KEYS: [&str; 7] = ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"];

/// One `info` line of a Hub engine, read for the position it analyses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HubInfo {
    /// Depth reached (plies).
    pub depth: Option<u32>,
    /// The score for the side to move.
    pub score: Option<Score>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Time since the search started, as the engine counts it.
    pub time: Option<Duration>,
    /// Nodes per second: `nps` as the engine reports it (millions a second, as Scan and
    /// crossboard write it), else the nodes over the time.
    pub nps: Option<f64>,
    /// The principal variation, as far as its moves are legal from the position.
    pub pv: Vec<Move>,
    /// What the line holds that could not be read: each named (`pv: move 3 "1-32" is not
    /// legal ...`, `unknown key hashfull=12`).
    pub unread: Vec<String>,
}

impl HubInfo {
    /// Read `line` (an `info` line) for `position`.
    pub fn read(line: &Line, position: &Position) -> HubInfo {
        let mut info = HubInfo::default();
        let number = |key: &str, unread: &mut Vec<String>| -> Option<f64> {
            let text = line.get(key)?;
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
                _ => {
                    unread.push(format!("{key}={text:?} is not a number"));
                    None
                }
            }
        };
        let mut unread = Vec::new();
        info.depth = number("depth", &mut unread).map(|d| d.min(f64::from(u32::MAX)) as u32);
        info.nodes = number("nodes", &mut unread).map(|n| n as u64);
        info.time = number("time", &mut unread)
            .filter(|t| *t < 1e9)
            .map(Duration::from_secs_f64);
        let _ = number("mean-depth", &mut unread);
        info.nps = number("nps", &mut unread).map(|m| m * 1e6).or_else(|| {
            let (n, t) = (info.nodes?, info.time?);
            (t.as_secs_f64() > 0.0).then(|| n as f64 / t.as_secs_f64())
        });
        if let Some(text) = line.get("score") {
            match parse_score(text) {
                Ok(s) => info.score = Some(s),
                Err(e) => unread.push(e),
            }
        }
        if let Some(text) = line.get("pv") {
            let (pv, bad) = read_pv(position, text);
            info.pv = pv;
            unread.extend(bad);
        }
        for (key, value) in &line.args {
            if !INFO_KEYS.contains(&key.as_str()) {
                unread.push(match value {
                    Some(v) => format!("unknown key {key}={v}"),
                    None => format!("unknown word {key}"),
                });
            }
        }
        info.unread = unread;
        info
    }
}

/// The moves of a `pv` as far as they are legal from `position`, and what stopped it.
fn read_pv(position: &Position, text: &str) -> (Vec<Move>, Option<String>) {
    let mut pos = *position;
    let mut pv = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        match parse_hub_move(&pos, word) {
            Ok(mv) => {
                pv.push(mv);
                pos = pos.after(&mv);
            }
            Err(e) => {
                let after = if pv.is_empty() {
                    "in the position".to_string()
                } else {
                    format!("after {}", crate::search::pv_text(&pv))
                };
                return (
                    pv,
                    Some(format!(
                        "pv: move {} {word:?} is not legal {after} ({e})",
                        i + 1
                    )),
                );
            }
        }
    }
    (pv, None)
}

/// What an analysis found: the best move, the last `info` line and everything left unread.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HubAnalysis {
    /// The engine's move (`None`: the position has no legal move, or the engine gave none).
    pub best: Option<Move>,
    /// The last `info` line (the deepest).
    pub info: Option<HubInfo>,
    /// Every different thing left unread over the analysis, each once.
    pub unread: Vec<String>,
    /// The analysis was stopped (by its time, or by its [`HubStop`]).
    pub stopped: bool,
}

impl HubAnalysis {
    /// The engine's line: the last principal variation when it starts with the best move,
    /// else the best move alone.
    pub fn line(&self) -> Vec<Move> {
        match (self.best, &self.info) {
            (Some(b), Some(i)) if i.pv.first() == Some(&b) => i.pv.clone(),
            (b, _) => b.into_iter().collect(),
        }
    }
}

/// Stops a Hub engine's analysis at once, from any thread: the engine is told `stop` and its
/// move awaited. One per analysis ([`HubEngine::stopper`]).
#[derive(Clone)]
pub struct HubStop {
    flag: Arc<AtomicBool>,
    wake: Sender<Incoming>,
}

impl std::fmt::Debug for HubStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubStop")
            .field("stopped", &self.stopped())
            .finish()
    }
}

impl HubStop {
    /// A stop that wakes the client waiting on `wake`.
    pub(super) fn new(wake: Sender<Incoming>) -> HubStop {
        HubStop {
            flag: Arc::new(AtomicBool::new(false)),
            wake,
        }
    }

    /// Stop the analysis (at once: the client waiting for the engine is woken).
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
        let _ = self.wake.send(Incoming::Wake);
    }

    /// True once [`HubStop::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// The `pos` line of the position after `moves` from `start`: the position after the last
/// move that cannot be undone (a man's move or a capture), then the king moves since, all an
/// engine needs to see repetitions.
pub(super) fn pos_line(start: &Position, moves: &[Move]) -> Line {
    let mut positions = vec![*start];
    let mut from = 0;
    for (i, mv) in moves.iter().enumerate() {
        let before = positions[i];
        if mv.is_capture() || before.kings() & mv.from().bit() == 0 {
            from = i + 1;
        }
        positions.push(before.after(mv));
    }
    let mut pos = Line::new("pos").arg("pos", position_text(&positions[from]));
    if from < moves.len() {
        let since: Vec<String> = moves[from..].iter().map(move_text).collect();
        pos = pos.arg("moves", since.join(" "));
    }
    pos
}

/// The `level` line and the time after which the client stops the search itself: a depth
/// with a time is sent as the depth, the client stopping it at the time.
fn level_of(limits: GameLimits) -> (Line, Option<Duration>) {
    let time = limits.time_ms.map(Duration::from_millis);
    let level = match (limits.depth, time) {
        (Some(d), _) => TimeLimit::Depth(d),
        (None, Some(t)) => TimeLimit::MoveTime(t),
        (None, None) => TimeLimit::Infinite,
    };
    (level.to_line(), time.filter(|_| limits.depth.is_some()))
}

impl HubEngine {
    /// A stop for the next analysis.
    pub fn stopper(&self) -> HubStop {
        HubStop::new(self.inbox.clone())
    }

    /// Analyse the position after `moves` from `start` within `limits` (a depth, a time, both:
    /// whichever comes first, or neither: until `stop`), handing each `info` line read to
    /// `on_info`; the best move once the engine gives it. An error (the engine quit, sent a
    /// line that is no Hub message, an illegal move or an `error`, or was silent past its
    /// bound: the time and its grace, 600 s for a depth alone, its grace after a stop) names
    /// the engine and what it did; the engine should then be let go.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: GameLimits,
        stop: &HubStop,
        mut on_info: impl FnMut(&HubInfo),
    ) -> Result<HubAnalysis, String> {
        let position = moves.iter().fold(*start, |p, m| p.after(m));
        let mut found = HubAnalysis::default();
        if position.legal_moves().is_empty() {
            return Ok(found);
        }
        let (level, stop_at) = level_of(limits);
        let infinite = limits.depth.is_none() && limits.time_ms.is_none();
        self.send(&pos_line(start, moves))?;
        self.send(&level)?;
        self.send(&Line::new("go").flag(if infinite { "analyze" } else { "think" }))?;
        let started = Instant::now();
        let stop_at = stop_at.map(|t| started + t);
        let mut deadline = match (limits.time_ms, limits.depth) {
            (Some(ms), _) => Some(started + Duration::from_millis(ms) * 2 + self.grace),
            (None, Some(_)) => Some(started + DEPTH_BOUND + self.grace),
            (None, None) => None,
        };
        loop {
            if !found.stopped && (stop.stopped() || stop_at.is_some_and(|t| Instant::now() >= t)) {
                found.stopped = true;
                self.send(&Line::new("stop"))?;
                deadline = Some(Instant::now() + self.grace);
            }
            let wait = match (deadline, stop_at.filter(|_| !found.stopped)) {
                (Some(d), Some(s)) => Some(d.min(s)),
                (d, s) => d.or(s),
            };
            let line = match self.recv_or_wake(wait) {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                // Our own stop time came: stop the search and wait for its move.
                Err(_) if !found.stopped && stop_at.is_some_and(|t| Instant::now() >= t) => {
                    continue;
                }
                Err(e) => return Err(e),
            };
            match line.command.as_str() {
                "info" => {
                    let info = HubInfo::read(&line, &position);
                    for u in &info.unread {
                        if !found.unread.contains(u) {
                            found.unread.push(u.clone());
                        }
                    }
                    on_info(&info);
                    found.info = Some(info);
                }
                "done" => {
                    found.best = self.best_of(&line, &position)?;
                    return Ok(found);
                }
                "error" => {
                    let why = line.get("message").unwrap_or("error");
                    return Err(format!("{}: {why}", self.name));
                }
                _ => {}
            }
        }
    }

    /// The move of a `done` line, checked legal in `position`.
    fn best_of(&self, done: &Line, position: &Position) -> Result<Option<Move>, String> {
        let Some(text) = done.get("move") else {
            return Err(format!(
                "{}: gave no move, though the position has legal moves",
                self.name
            ));
        };
        parse_hub_move(position, text).map(Some).map_err(|e| {
            format!(
                "{}: played {text:?}, not a legal move here ({e})",
                self.name
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::start()
    }

    #[test]
    fn an_info_line_is_read_and_what_is_not_read_is_named() {
        let l = Line::parse(
            "info depth=7 mean-depth=7.5 score=0.25 nodes=50000 time=0.5 nps=0.1 pv=\"11-15 23-19\"",
        );
        let info = HubInfo::read(&l, &start());
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.score, Some(Score(25)));
        assert_eq!(info.nodes, Some(50_000));
        assert_eq!(info.time, Some(Duration::from_millis(500)));
        assert_eq!(info.nps, Some(100_000.0));
        assert_eq!(crate::search::pv_text(&info.pv), "11-15 23-19");
        assert!(info.unread.is_empty(), "{:?}", info.unread);

        let l =
            Line::parse("info depth=x score=99.93 nodes=10 time=2 pv=\"11-15 11-15\" hashfull=9");
        let info = HubInfo::read(&l, &start());
        assert_eq!(info.depth, None);
        assert_eq!(info.score, Some(Score::win_in(7)));
        assert_eq!(info.nps, Some(5.0), "nodes over time without nps");
        assert_eq!(crate::search::pv_text(&info.pv), "11-15", "the legal part");
        assert_eq!(info.unread.len(), 3, "{:?}", info.unread);
        assert_eq!(info.unread[0], "depth=\"x\" is not a number");
        assert!(
            info.unread[1].starts_with("pv: move 2 \"11-15\" is not legal after 11-15 ("),
            "{:?}",
            info.unread
        );
        assert_eq!(info.unread[2], "unknown key hashfull=9");
    }

    #[test]
    fn the_position_sent_starts_after_the_last_move_that_cannot_be_undone() {
        let p = Position::from_fen("B:WK29,K30:BK1,5").unwrap();
        let moves: Vec<Move> = ["5-9", "29-25", "1-6", "25-22"]
            .iter()
            .scan(p, |pos, t| {
                let mv = parse_hub_move(pos, t).unwrap();
                *pos = pos.after(&mv);
                Some(mv)
            })
            .collect();
        // 5-9 is a man's move: the king moves after it are sent, from the position it left.
        let line = pos_line(&p, &moves);
        assert_eq!(line.get("moves"), Some("29-25 1-6 25-22"));
        let base = p.after(&moves[0]);
        assert_eq!(line.get("pos"), Some(position_text(&base).as_str()));
        assert_eq!(pos_line(&p, &[]).get("moves"), None);
    }

    #[test]
    fn a_depth_with_a_time_is_sent_as_the_depth_and_stopped_by_the_client() {
        let both = GameLimits {
            depth: Some(9),
            time_ms: Some(200),
        };
        let (level, stop) = level_of(both);
        assert_eq!(level.to_string(), "level depth=9");
        assert_eq!(stop, Some(Duration::from_millis(200)));
        let time = GameLimits {
            depth: None,
            time_ms: Some(200),
        };
        assert_eq!(level_of(time).0.to_string(), "level move-time=0.200");
        assert_eq!(level_of(time).1, None);
        let none = GameLimits {
            depth: None,
            time_ms: None,
        };
        assert_eq!(level_of(none).0.to_string(), "level infinite");
    }
}
