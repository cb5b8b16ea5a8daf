//! The games of `engine-match`: played side by side on worker threads, one game per worker
//! (both engines of a game think in turn on that worker, so each gets the same share of a
//! core), a Hub opponent process per worker kept from game to game; the results counted over
//! game pairs in ballot order and, with `--sprt`, the match stopped as soon as the test
//! decides.

use crate::egdb::Egdb;
use crate::engine::{Color, Game, Outcome, Rules};
use crate::hub::HubEngine;
use crate::openings::Opening;
use crate::search::selfplay::{EngineGame, EnginePlayer, MoveLimit, Player, SideStats, play_game};
use crate::search::sprt::{Hypothesis, Pentanomial, Sprt};
use crate::search::{Book, EndReason, Level, Options};
use crate::store::PdnResult;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// Who plays one side: the built-in engine at a level (with its opening book, if any), or a
/// Hub program.
#[derive(Clone, Debug)]
pub(super) enum Side {
    Builtin(Level, Option<Arc<Book>>),
    Hub(String),
}

/// One game to play: a ballot from one side.
pub(super) struct Spec {
    /// The game played.
    pub(super) game: Rules,
    /// The ballot's number in the match, from 1.
    pub(super) round: u32,
    /// 0: the first engine has Red; 1: White.
    pub(super) leg: usize,
    pub(super) opening: Opening,
    /// Red's and White's players and their limits.
    pub(super) sides: [(Side, MoveLimit); 2],
    pub(super) seed: u64,
}

/// What every built-in player is built from.
#[derive(Clone)]
pub(super) struct Builtin {
    pub(super) options: Options,
    pub(super) egdb: Option<Arc<Egdb>>,
}

/// How the games are played and when the match stops.
pub(super) struct Plan<'a> {
    pub(super) builtin: &'a Builtin,
    /// Games played at once.
    pub(super) concurrency: usize,
    pub(super) max_plies: usize,
    pub(super) sprt: Option<Sprt>,
    /// A progress line every this many pairs.
    pub(super) report_every: u64,
}

/// The first engine's results, over games and over pairs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// Wins, draws and losses.
    pub(super) wdl: [u64; 3],
    pub(super) pairs: Pentanomial,
    /// The first engine's and the second's time and depth.
    pub(super) stats: [SideStats; 2],
}

impl Tally {
    /// The first engine's half points in `g`, played as `spec` says (counted in).
    fn add_game(&mut self, spec: &Spec, g: &EngineGame) -> usize {
        let first = if spec.leg == 0 {
            Color::Red
        } else {
            Color::White
        };
        let half_points = match g.outcome {
            Outcome::Draw => 1,
            Outcome::Win(c) if c == first => 2,
            Outcome::Win(_) => 0,
        };
        self.wdl[2 - half_points] += 1;
        let (mine, theirs) = if spec.leg == 0 { (0, 1) } else { (1, 0) };
        self.stats[0].add(&g.stats[mine]);
        self.stats[1].add(&g.stats[theirs]);
        half_points
    }

    /// Games counted.
    pub(super) fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// The first engine's points.
    pub(super) fn points(&self) -> f64 {
        self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64
    }

    /// The results in one line: games, W/D/L, pairs, score, Elo with its interval, and the
    /// LLR with its bounds when a test runs.
    pub(super) fn line(&self, sprt: Option<&Sprt>) -> String {
        let [w, d, l] = self.wdl;
        let mut text = format!(
            "{} pairs ({} games): +{w} ={d} -{l}, pentanomial {}",
            self.pairs.pairs(),
            self.games(),
            self.pairs
        );
        if let (Some(score), Some(elo)) = (self.pairs.score(), self.pairs.elo()) {
            text.push_str(&format!(", score {:.1} %, Elo {elo}", 100.0 * score));
        }
        if let Some(test) = sprt {
            let (lower, upper) = test.llr_bounds();
            text.push_str(&format!(
                ", LLR {:.2} ({lower:.2}, {upper:.2})",
                test.llr(&self.pairs)
            ));
        }
        text
    }
}

/// What the games came to.
pub(super) struct Played {
    /// The games of the pairs counted, in ballot order (the first `games.len()` specs).
    pub(super) games: Vec<EngineGame>,
    pub(super) tally: Tally,
    /// The test's decision, when it reached one.
    pub(super) decision: Option<Hypothesis>,
}

/// Play `specs` (pairs of games, the two colours of each ballot, in order) as `plan` says. The
/// pairs are counted in ballot order whatever order their games end in, so that a node-limited
/// match reaches the same figures, and the same decision at the same pair, from its seed at
/// any concurrency; once the test decides, the games under way are stopped and not counted.
/// An engine that cannot start is an error.
pub(super) fn play_all(specs: &[Spec], plan: &Plan<'_>) -> Result<Played, String> {
    let next = AtomicUsize::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<(usize, EngineGame)>();
    std::thread::scope(|scope| {
        for _ in 0..plan.concurrency.max(1) {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || {
                let mut hub = None;
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(spec) = specs.get(i) else { break };
                    let g = play_one(spec, plan, &mut hub, stop);
                    if tx.send((i, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut counter = PairCounter::new(specs, plan);
        let mut result = Ok(());
        for (i, g) in rx {
            if result.is_err() || counter.decision.is_some() {
                continue; // stopped: the workers finish their games unheard
            }
            result = counter.add(i, g);
            if result.is_err() || counter.decision.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        result.map(|()| counter.played())
    })
}

/// Counts pairs in order as their games come in.
struct PairCounter<'a> {
    specs: &'a [Spec],
    plan: &'a Plan<'a>,
    slots: Vec<Option<EngineGame>>,
    /// Pairs counted so far.
    counted: usize,
    tally: Tally,
    decision: Option<Hypothesis>,
}

impl<'a> PairCounter<'a> {
    fn new(specs: &'a [Spec], plan: &'a Plan<'a>) -> PairCounter<'a> {
        PairCounter {
            specs,
            plan,
            slots: specs.iter().map(|_| None).collect(),
            counted: 0,
            tally: Tally::default(),
            decision: None,
        }
    }

    /// Game `i` ended: say so, and count every pair now complete, in order.
    fn add(&mut self, i: usize, g: EngineGame) -> Result<(), String> {
        if let Some(e) = g.error.as_ref().filter(|_| g.red.is_empty()) {
            return Err(e.clone());
        }
        errln!("{}", game_line(&self.specs[i], &g));
        self.slots[i] = Some(g);
        while self.decision.is_none() {
            let at = 2 * self.counted;
            let (Some(Some(a)), Some(Some(b))) = (self.slots.get(at), self.slots.get(at + 1))
            else {
                break;
            };
            let half_points = self.tally.add_game(&self.specs[at], a)
                + self.tally.add_game(&self.specs[at + 1], b);
            self.tally.pairs.add(half_points);
            self.counted += 1;
            let test = self.plan.sprt.as_ref();
            self.decision = test.and_then(|t| t.decision(t.llr(&self.tally.pairs)));
            let pairs = self.tally.pairs.pairs();
            if self.decision.is_none() && pairs.is_multiple_of(self.plan.report_every.max(1)) {
                errln!("after {}", self.tally.line(test));
            }
        }
        Ok(())
    }

    fn played(self) -> Played {
        let games = self.slots.into_iter().take(2 * self.counted).flatten();
        Played {
            games: games.collect(),
            tally: self.tally,
            decision: self.decision,
        }
    }
}

/// Play one game on a worker; `hub` is the worker's Hub engine, started at its first game and
/// started again after a game it failed in.
fn play_one(
    spec: &Spec,
    plan: &Plan<'_>,
    hub: &mut Option<HubEngine>,
    stop: &Arc<AtomicBool>,
) -> EngineGame {
    let mut game = Game::new(spec.game, spec.opening.start);
    for mv in &spec.opening.set_moves {
        // Ballot moves were checked when the tables were built.
        let _ = game.play(mv);
    }
    let builtin = |i: usize| match &spec.sides[i].0 {
        Side::Builtin(level, book) => Some(
            EnginePlayer::new(
                *level,
                plan.builtin.options,
                spec.seed.wrapping_add(i as u64),
            )
            .with_egdb(plan.builtin.egdb.clone())
            .with_book(book.clone()),
        ),
        Side::Hub(_) => None,
    };
    let mut engines = [builtin(0), builtin(1)];
    let hub_command = spec.sides.iter().find_map(|(s, _)| match s {
        Side::Hub(c) => Some(c),
        Side::Builtin(..) => None,
    });
    if let (Some(command), None) = (hub_command, hub.as_ref()) {
        match HubEngine::start(command, &[]) {
            Ok(engine) => *hub = Some(engine),
            Err(e) => return not_started(game, e),
        }
    }
    let limits = [spec.sides[0].1, spec.sides[1].1];
    let [red, white] = &mut engines;
    let players: [&mut dyn Player; 2] = match (red.as_mut(), white.as_mut(), hub.as_mut()) {
        (Some(r), Some(w), _) => [r, w],
        (Some(r), None, Some(h)) => [r, h],
        (None, Some(w), Some(h)) => [h, w],
        _ => return not_started(game, "two Hub engines in one game".into()),
    };
    let g = play_game(game, players, limits, plan.max_plies, stop);
    if g.error.is_some() {
        // An engine that failed (crashed, timed out) is not trusted with the next game.
        *hub = None;
    }
    g
}

/// A game that could not start: an error that ends the match.
fn not_started(game: Game, error: String) -> EngineGame {
    EngineGame {
        game,
        outcome: Outcome::Draw,
        reason: EndReason::Stopped,
        red: String::new(),
        white: String::new(),
        stats: [SideStats::default(); 2],
        error: Some(error),
    }
}

/// One finished game in a line.
fn game_line(spec: &Spec, g: &EngineGame) -> String {
    let result = PdnResult::from(Some(g.outcome));
    let mut line = format!(
        "{}.{}: {} ({}) {} - {}: {result} ({}, {} plies)",
        spec.round,
        spec.leg + 1,
        spec.opening.reference(),
        spec.opening.name,
        g.red,
        g.white,
        g.reason.text(),
        g.game.moves().len()
    );
    if let Some(e) = &g.error {
        line.push_str(&format!(" [{e}]"));
    }
    line
}
