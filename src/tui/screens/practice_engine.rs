//! The built-in engine in practice mode: the computer opponent, the hint key and the post-game
//! review marks.
//!
//! [`PracticeEngine`] owns a [`Searcher`] (the search runs on its own thread; the worker is
//! started on first use) and the job in flight. The practice screen calls
//! [`PracticeEngine::poll`] on every message; while a job runs or the engine is due to move the
//! screen ticks (10 Hz), so the reports are picked up without input and the UI never waits.
//! Every job remembers the position it was started for: a report for a position the game has
//! left (take-back, restart, another draw) is dropped.
//!
//! In a huffing game, when the human neglected a capture, the engine first decides what to do
//! about it ([`PracticeEngine::huff_choice`], a short search of each choice on the UI thread,
//! [`crate::search::choose_huff`]) and only then searches its move.

use super::practice_hub::{HubNews, HubPlay, HubRival};
use crate::engine::{Color, Game, Move, Position};
use crate::search::{DEFAULT_GAME_DEPTH, Mark, MoveReview};
use crate::search::{
    Engine, HuffChoice, Level, Options, Report, Request, Score, Searcher, Task, choose_huff,
};
use crate::store::HubEngineConfig;
use crate::tui::theme::Appearance;
use crate::tui::widgets::{BoardView, StatusKind};
use rand::Rng;
use ratatui::text::{Line, Span};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// The deepest search of each huffing choice (at most the level's own depth): a few choices
/// searched on the UI thread, so a fraction of a second in all.
pub const HUFF_DEPTH: u32 = 8;

/// The computer opponent chosen in practice set-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Opponent {
    /// How strongly crossboard's engine plays (also the level that takes over from a Hub
    /// engine stopped for misbehaving).
    pub level: Level,
    /// The side the engine plays.
    pub color: Color,
    /// A Hub engine of the config file playing instead of crossboard's (`None`: crossboard).
    pub hub: Option<HubRival>,
}

impl Opponent {
    /// crossboard's engine at `level`, playing `color`.
    pub fn at_level(level: Level, color: Color) -> Opponent {
        Opponent {
            level,
            color,
            hub: None,
        }
    }

    /// The next choice on a set-up form: none, then each level weakest first, then each Hub
    /// engine of the config (`engines`), then none again; the engine plays `colour`.
    pub fn cycle(
        current: Option<&Opponent>,
        colour: Color,
        engines: &[(String, HubEngineConfig)],
    ) -> Option<Opponent> {
        let Some(o) = current else {
            return Some(Opponent::at_level(Level::ALL[0], colour));
        };
        let o = Opponent {
            color: colour,
            ..o.clone()
        };
        let engine = |i: usize| {
            engines.get(i).map(|(name, config)| Opponent {
                hub: Some(HubRival {
                    move_ms: o.hub.as_ref().map_or(1_000, |h| h.move_ms),
                    ..HubRival::new(name, config)
                }),
                ..o.clone()
            })
        };
        match &o.hub {
            Some(h) => {
                let i = engines.iter().position(|(name, _)| *name == h.name);
                engine(i.map_or(engines.len(), |i| i + 1))
            }
            None => {
                let i = Level::ALL.iter().position(|l| *l == o.level).unwrap_or(0);
                match Level::ALL.get(i + 1) {
                    Some(&level) => Some(Opponent { level, ..o.clone() }),
                    None => engine(0),
                }
            }
        }
    }

    /// "club engine plays White", "kingsrow (Hub) plays White".
    pub fn describe(opponent: Option<&Opponent>) -> String {
        match opponent {
            None => "none (both sides by hand)".into(),
            Some(Opponent {
                hub: Some(h),
                color,
                ..
            }) => format!("{} (Hub) plays {color}", h.name),
            Some(o) => format!("{} engine plays {}", o.level, o.color),
        }
    }
}

/// How long and how deep the engine works in practice (tests make these small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Thinking time of a hint, milliseconds.
    pub hint_ms: u64,
    /// Depth limit of a hint (`None`: the time decides).
    pub hint_depth: Option<u32>,
    /// Thinking time of the opponent's moves (`None`: the level's own).
    pub play_ms: Option<u64>,
    /// Search depth per position of the post-game review.
    pub review_depth: u32,
    /// Transposition table of the worker, megabytes.
    pub hash_mb: usize,
    /// How long a Hub engine may take beyond four times its thinking time before it is
    /// stopped as silent, milliseconds.
    pub hub_grace_ms: u64,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            hint_ms: 1_000,
            hint_depth: None,
            play_ms: None,
            review_depth: DEFAULT_GAME_DEPTH,
            hash_mb: 16,
            hub_grace_ms: 5_000,
        }
    }
}

/// The engine's suggestion for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The position it is for (shown only while the game stands there).
    pub position: Position,
    /// The suggested move.
    pub best: Move,
    /// Its score for the side to move (a Hub engine's is not known).
    pub score: Option<Score>,
    /// Depth reached, when known.
    pub depth: Option<u32>,
    /// The search has finished.
    pub done: bool,
    /// The Hub engine that gave it (`None`: crossboard's).
    pub engine: Option<String>,
}

impl Hint {
    /// "hint: 11-15 (+0.35, depth 12)", "hint from Stubby 1.0: 11-15 (depth 9)".
    pub fn text(&self) -> String {
        let more = if self.done { "" } else { " …" };
        let mut about: Vec<String> = self.score.iter().map(|s| s.to_string()).collect();
        about.extend(self.depth.map(|d| format!("depth {d}")));
        let about = if about.is_empty() {
            String::new()
        } else {
            format!(" ({})", about.join(", "))
        };
        let from = self
            .engine
            .as_ref()
            .map_or(String::new(), |e| format!(" from {e}"));
        format!("hint{from}: {}{about}{more}", self.best)
    }
}

/// The review of a game: a mark per move where the evaluation swung.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewMarks {
    /// The game's start position.
    pub start: Position,
    /// The moves reviewed, with their marks.
    pub moves: Vec<(Move, Option<Mark>)>,
    /// The whole review of each move (scores, swing), for the evaluation graph.
    pub reviewed: Vec<MoveReview>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Play,
    Hint,
    Review,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Running {
    id: u64,
    kind: Kind,
    /// The position searched (play, hint) or the last position of the game reviewed.
    position: Position,
    /// Review: the game reviewed (start, moves).
    game: Option<(Position, Vec<Move>)>,
}

/// The worker, shared by the clones of a practice screen (the review screen keeps one to come
/// back to).
#[derive(Clone)]
struct Shared(Arc<Mutex<Searcher>>);

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Searcher")
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Searcher> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The engine side of the practice screen: opponent, hint, review.
#[derive(Clone, Debug, Default)]
pub struct PracticeEngine {
    /// The computer opponent (`None`: both sides by hand).
    pub opponent: Option<Opponent>,
    /// Times and depths.
    pub settings: EngineSettings,
    hint: Option<Box<Hint>>,
    /// The last review.
    pub review: Option<ReviewMarks>,
    /// A review in progress: positions searched, of how many.
    pub review_progress: Option<(usize, usize)>,
    searcher: Option<Shared>,
    running: Option<Box<Running>>,
    /// The moves of the finished game last reviewed automatically (not twice).
    auto_reviewed: Option<Vec<Move>>,
    /// Huffing: the position whose huff chance the engine has decided on (not twice: after
    /// letting the move stand the chance is still there until the engine moves).
    huff_decided: Option<Box<Position>>,
    /// The Hub engine playing (and hinting) instead of crossboard's, when one is chosen.
    pub hub: HubPlay,
    /// A Hub engine of the config giving the hints while crossboard plays (or nobody does).
    pub hinter: Option<HubRival>,
    /// The hints' Hub engine, when one is chosen.
    pub hint_hub: HubPlay,
}

impl PracticeEngine {
    /// An engine component with this opponent and the default settings.
    pub fn new(opponent: Option<Opponent>) -> PracticeEngine {
        PracticeEngine {
            opponent,
            ..PracticeEngine::default()
        }
    }

    /// Let the engine probe these endgame databases (a new worker when they change).
    pub fn set_egdb(&mut self, egdb: Option<Arc<crate::egdb::Egdb>>) {
        let current = self
            .searcher
            .as_ref()
            .and_then(|s| s.lock().egdb().cloned());
        let same = match (&current, &egdb) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.cancel();
            let options = Options {
                hash_mb: self.settings.hash_mb,
                ..Options::default()
            };
            self.searcher = Some(Shared(Arc::new(Mutex::new(Searcher::spawn_with(
                options, egdb,
            )))));
        }
    }

    /// The endgame databases the engine probes, if any.
    pub fn egdb(&self) -> Option<Arc<crate::egdb::Egdb>> {
        self.searcher
            .as_ref()
            .and_then(|s| s.lock().egdb().cloned())
    }

    /// The Hub engine playing, unless none is chosen or it was stopped.
    fn hub_rival(&self) -> Option<&HubRival> {
        let o = self.opponent.as_ref()?;
        o.hub.as_ref().filter(|_| self.hub.stopped.is_none())
    }

    /// True when it is the engine's turn in `game` (the game not over); a Hub engine stopped
    /// for misbehaving moves no more.
    pub fn engine_to_move(&self, game: &Game) -> bool {
        let stopped = self.hub.stopped.is_some();
        self.opponent.as_ref().is_some_and(|o| {
            !(o.hub.is_some() && stopped)
                && game.result().is_none()
                && game.position().turn() == o.color
                && !game.position().legal_moves().is_empty()
        })
    }

    /// Huffing: what the engine does about the capture the human neglected, when the engine
    /// is to move and has not decided yet for this position (once per chance). The caller
    /// applies the choice ([`HuffChoice::apply`]) before the engine's move is searched.
    pub fn huff_choice(&mut self, game: &Game) -> Option<HuffChoice> {
        let o = self.opponent.clone()?;
        if !self.engine_to_move(game) || self.huff_decided.as_deref() == Some(game.position()) {
            return None;
        }
        game.huff_chance()?;
        self.huff_decided = Some(Box::new(*game.position()));
        if self.thinking() {
            self.cancel();
        }
        let mut engine = Engine::new(Options {
            hash_mb: 1,
            ..Options::default()
        });
        let depth = o.level.max_depth().min(HUFF_DEPTH);
        let stop = Arc::new(AtomicBool::new(false));
        choose_huff(&mut engine, game, depth, stop).map(|(choice, _)| choice)
    }

    /// True while the engine searches for its move.
    pub fn thinking(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.kind == Kind::Play) || self.hub.thinking()
    }

    /// True while any job runs or the engine is due to move: the screen then ticks.
    pub fn busy(&self, game: &Game) -> bool {
        self.running.is_some()
            || (self.hub_rival().is_some() && self.hub.busy())
            || (self.hub_rival().is_none() && self.hinter.is_some() && self.hint_hub.busy())
            || self.engine_to_move(game)
            || self.auto_review_due(game)
    }

    /// An engine game just ended and has not been reviewed yet.
    fn auto_review_due(&self, game: &Game) -> bool {
        self.opponent.is_some()
            && game.result().is_some()
            && !game.moves().is_empty()
            && self.auto_reviewed.as_deref() != Some(game.moves())
    }

    fn searcher(&mut self) -> Shared {
        let hash_mb = self.settings.hash_mb;
        self.searcher
            .get_or_insert_with(|| {
                Shared(Arc::new(Mutex::new(Searcher::spawn(Options {
                    hash_mb,
                    ..Options::default()
                }))))
            })
            .clone()
    }

    fn start(&mut self, request: Request, kind: Kind, game: Option<(Position, Vec<Move>)>) {
        let position = request.position;
        let id = self.searcher().lock().start(request);
        self.running = Some(Box::new(Running {
            id,
            kind,
            position,
            game,
        }));
    }

    /// Stop the running job, whatever it is.
    pub fn cancel(&mut self) {
        self.hub.cancel();
        if let (Some(_), Some(s)) = (self.running.take(), &self.searcher) {
            s.lock().cancel();
        }
        self.review_progress = None;
    }

    /// How many plies a take-back removes so that the human is to move again: 1 without an
    /// opponent; otherwise back past the engine's moves (0: nothing the human can take back).
    /// Cancels a running search for the engine's move.
    pub fn take_back_plies(&mut self, game: &Game) -> usize {
        self.huff_decided = None;
        if self.thinking() {
            self.cancel();
        }
        let Some(o) = &self.opponent else {
            return 1;
        };
        let positions = game.positions();
        (1..positions.len())
            .find(|&k| positions[positions.len() - 1 - k].turn() != o.color)
            .unwrap_or(0)
    }

    /// Ask for a hint in the current position.
    pub fn request_hint(&mut self, game: &Game) -> Result<(), String> {
        if game.result().is_some() || game.position().legal_moves().is_empty() {
            return Err("the game is over: no hint".into());
        }
        if self.engine_to_move(game) {
            return Err("the engine is thinking; ask for a hint on your turn".into());
        }
        if let Some((done, total)) = self.review_progress {
            return Err(format!(
                "the analysis is running ({done}/{total}); hint after it"
            ));
        }
        let mut history = game.positions().to_vec();
        history.pop();
        let request = Request {
            position: *game.position(),
            history,
            task: Task::Best {
                depth: self.settings.hint_depth,
                time_ms: Some(self.settings.hint_ms),
                nodes: None,
            },
        };
        self.hint = None;
        if self.hub_rival().is_some() {
            self.hub.hint(game, self.settings.hint_ms);
        } else if self.hinter.is_some() && self.hint_hub.stopped.is_none() {
            self.hint_hub.hint(game, self.settings.hint_ms);
        } else {
            self.start(request, Kind::Hint, None);
        }
        Ok(())
    }

    /// Start the review of the game's moves.
    pub fn request_review(&mut self, game: &Game) -> Result<(), String> {
        if game.moves().is_empty() {
            return Err("no moves to analyse yet".into());
        }
        if self.engine_to_move(game) {
            return Err("the engine is thinking; analyse on your turn".into());
        }
        let request = Request::review(game.positions().to_vec(), self.settings.review_depth);
        self.review_progress = Some((0, game.positions().len()));
        self.start(
            request,
            Kind::Review,
            Some((*game.start(), game.moves().to_vec())),
        );
        Ok(())
    }

    /// Pick up the worker's reports and start the engine's move when it is due. Returns the
    /// engine's move to play, if one is ready for the current position.
    pub fn poll(&mut self, game: &Game, rng: &mut dyn Rng) -> Option<Move> {
        // A search for a position the game has left is of no use.
        if let Some(r) = &self.running
            && matches!(r.kind, Kind::Play | Kind::Hint)
            && r.position != *game.position()
        {
            self.cancel();
        }
        let mut play = self.poll_hub(game);
        if let Some(s) = self.searcher.clone() {
            while let Some(report) = s.lock().try_recv() {
                if let Some(mv) = self.report(report, game) {
                    play = Some(mv);
                }
            }
        }
        // The engine's move goes first: it interrupts an analysis the player started.
        if play.is_none()
            && self.engine_to_move(game)
            && self
                .running
                .as_ref()
                .is_some_and(|r| r.kind == Kind::Review)
        {
            self.cancel();
        }
        if play.is_none() && self.running.is_none() {
            if self.engine_to_move(game) {
                self.start_move(game, rng);
            } else if self.auto_review_due(game) {
                self.auto_reviewed = Some(game.moves().to_vec());
                let _ = self.request_review(game);
            }
        }
        play
    }

    /// The Hub engine's part of [`PracticeEngine::poll`]: its move, or its hint taken in.
    /// The hints' Hub engine's too, when crossboard plays (or nobody does).
    fn poll_hub(&mut self, game: &Game) -> Option<Move> {
        let grace = std::time::Duration::from_millis(self.settings.hub_grace_ms);
        if let Some(rival) = self.hinter.clone().filter(|_| self.hub_rival().is_none())
            && let Some(HubNews::Hint(best, depth)) = self.hint_hub.poll(&rival, grace, game, false)
        {
            let engine = self.hint_hub.name_or(&rival);
            self.hub_hint(game, best, depth, engine);
        }
        let rival = self.hub_rival()?.clone();
        let to_move = self.engine_to_move(game);
        match self.hub.poll(&rival, grace, game, to_move)? {
            HubNews::Move(mv) => Some(mv),
            HubNews::Hint(best, depth) => {
                let engine = self.hub.name_or(&rival);
                self.hub_hint(game, best, depth, engine);
                None
            }
        }
    }

    /// A Hub engine's hint for the position on the board.
    fn hub_hint(&mut self, game: &Game, best: Move, depth: Option<u32>, engine: String) {
        self.hint = Some(Box::new(Hint {
            position: *game.position(),
            best,
            score: None,
            depth,
            done: true,
            engine: Some(engine),
        }));
    }

    /// After a Hub engine was stopped: crossboard's engine at the opponent's level plays on
    /// from the position on the board. Says what changed, or why nothing did.
    pub fn play_on_with_crossboard(&mut self) -> Result<String, String> {
        let Some(o) = self.opponent.as_mut().filter(|o| o.hub.is_some()) else {
            return Err("crossboard's engine is already the opponent".into());
        };
        if self.hub.stopped.is_none() {
            return Err("the Hub engine is playing; crossboard takes over only if it stops".into());
        }
        o.hub = None;
        self.hub = HubPlay::default();
        Ok(format!(
            "crossboard's {} engine plays {} from here",
            o.level, o.color
        ))
    }

    /// A new game begins: a Hub engine is told.
    pub fn new_game(&mut self) {
        self.hub.new_game();
    }

    fn start_move(&mut self, game: &Game, rng: &mut dyn Rng) {
        let Some(o) = self.opponent.clone().filter(|o| o.hub.is_none()) else {
            return;
        };
        let mut history = game.positions().to_vec();
        history.pop();
        let request = Request {
            position: *game.position(),
            history,
            task: Task::Play {
                level: o.level,
                time_ms: self.settings.play_ms,
                seed: rng.next_u64(),
            },
        };
        self.start(request, Kind::Play, None);
    }

    fn report(&mut self, report: Report, game: &Game) -> Option<Move> {
        let running = self.running.as_ref()?;
        if report.job() != running.id {
            return None;
        }
        match report {
            Report::Progress { info, .. } if running.kind == Kind::Hint => {
                if let Some(&best) = info.pv.first() {
                    self.hint = Some(Box::new(Hint {
                        position: running.position,
                        best,
                        score: Some(info.score),
                        depth: Some(info.depth),
                        done: false,
                        engine: None,
                    }));
                }
                None
            }
            Report::Progress { .. } | Report::Analysis { .. } => None,
            Report::ReviewProgress { done, total, .. } => {
                self.review_progress = Some((done, total));
                None
            }
            Report::Reviewed { moves, .. } => {
                let start = running.game.as_ref().map_or(*game.start(), |g| g.0);
                self.review = Some(ReviewMarks {
                    start,
                    moves: moves.iter().map(|m| (m.played, m.mark)).collect(),
                    reviewed: moves,
                });
                self.running = None;
                self.review_progress = None;
                None
            }
            Report::Done { result, .. } => {
                let kind = running.kind;
                let position = running.position;
                self.running = None;
                match kind {
                    Kind::Play if position == *game.position() => result.best,
                    Kind::Hint => {
                        if let Some(best) = result.best {
                            self.hint = Some(Box::new(Hint {
                                position,
                                best,
                                score: Some(result.score),
                                depth: Some(result.depth),
                                done: true,
                                engine: None,
                            }));
                        }
                        None
                    }
                    _ => None,
                }
            }
        }
    }

    /// The hint for the game's current position, if any.
    pub fn current_hint(&self, game: &Game) -> Option<&Hint> {
        self.hint
            .as_deref()
            .filter(|h| h.position == *game.position())
    }

    /// The board with the current hint shown as a selected piece and its destination (unless
    /// the player has a selection of their own).
    pub fn show_hint<'a>(&self, game: &Game, mut board: BoardView<'a>) -> BoardView<'a> {
        if let Some(h) = self.current_hint(game)
            && board.selected.is_none()
            && board.targets == 0
        {
            board.selected = Some(h.best.from());
            board.targets = 1 << (h.best.to().number() - 1);
        }
        board
    }

    /// The review mark of move `i` of `game` (only while the game still has the move reviewed).
    pub fn mark(&self, game: &Game, i: usize) -> Option<Mark> {
        let r = self
            .review
            .as_ref()
            .filter(|r| r.start == *game.start() && i < game.moves().len())?;
        let prefix_agrees = r
            .moves
            .iter()
            .zip(game.moves())
            .take(i + 1)
            .all(|((a, _), b)| a == b);
        if !prefix_agrees {
            return None;
        }
        r.moves.get(i).and_then(|(_, m)| *m)
    }

    /// What the status line says about the engine, when it has something to say.
    pub fn status(&self, game: &Game) -> Option<(String, StatusKind)> {
        if let Some(said) = self.hub_status(game) {
            return Some(said);
        }
        if self.thinking() || self.engine_to_move(game) {
            return Some(("engine thinking…".into(), StatusKind::Info));
        }
        if let Some(h) = self.current_hint(game) {
            return Some((h.text(), StatusKind::Info));
        }
        if let Some(said) = self.hinter_status() {
            return Some(said);
        }
        if self.running.as_ref().is_some_and(|r| r.kind == Kind::Hint) {
            return Some(("hint: thinking…".into(), StatusKind::Info));
        }
        if let Some((done, total)) = self.review_progress {
            return Some((
                format!("analysing the game… {done}/{total} positions"),
                StatusKind::Info,
            ));
        }
        None
    }

    /// Lines for the side panel: the opponent and the review's summary.
    pub fn info(&self, game: &Game, look: &Appearance) -> Vec<Line<'static>> {
        let mut lines = self.opponent_lines(look);
        if let Some((done, total)) = self.review_progress {
            lines.push(Line::from(Span::styled(
                format!("Analysing {done}/{total}"),
                look.dim(),
            )));
        } else if self
            .review
            .as_ref()
            .is_some_and(|r| r.start == *game.start())
        {
            let count = |m: Mark| {
                (0..game.moves().len())
                    .filter(|&i| self.mark(game, i) == Some(m))
                    .count()
            };
            lines.push(Line::from(vec![
                Span::styled("Analysis ", look.dim()),
                Span::raw(format!(
                    "{} ??  {} ?  {} ?!",
                    count(Mark::Blunder),
                    count(Mark::Mistake),
                    count(Mark::Inaccuracy)
                )),
            ]));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_cycles_through_the_levels_and_back_to_none() {
        let mut o = None;
        let mut seen = Vec::new();
        for _ in 0..6 {
            o = Opponent::cycle(o.as_ref(), Color::White, &[]);
            seen.push(o.as_ref().map(|o| o.level));
        }
        assert_eq!(
            seen,
            [
                Some(Level::Beginner),
                Some(Level::Casual),
                Some(Level::Club),
                Some(Level::Expert),
                Some(Level::Master),
                None
            ]
        );
    }

    #[test]
    fn take_back_goes_back_to_the_humans_turn() {
        let mut game = Game::standard();
        for m in ["11-15", "23-19", "8-11"] {
            game.play_text(m).unwrap();
        }
        let mut e = PracticeEngine::new(Some(Opponent::at_level(Level::Beginner, Color::White)));
        // White (engine) to move: undo Red's move only.
        assert_eq!(e.take_back_plies(&game), 1);
        game.play_text("22-17").unwrap();
        // Red (human) to move: undo the engine's move and Red's.
        assert_eq!(e.take_back_plies(&game), 2);
        e.opponent = None;
        assert_eq!(e.take_back_plies(&game), 1);
        // The engine opened: nothing of the human's to take back.
        let mut game = Game::standard();
        game.play_text("11-15").unwrap();
        e.opponent = Some(Opponent::at_level(Level::Beginner, Color::Red));
        assert_eq!(e.take_back_plies(&game), 0);
    }
}
