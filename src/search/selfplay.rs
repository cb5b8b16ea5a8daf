//! Engine-versus-engine games: two [`Player`]s (the built-in engine at a level, or another
//! program) play a game from a ballot position; used by the engine match, for directors
//! preparing events, and by the strength checks.

use super::alphabeta::{Engine, Limits, Options};
use super::book::{BOOK_MARGIN, Book};
use super::level::{Level, choose_move};
use super::time::Budget;
use crate::engine::{Color, DrawClaim, Game, Move, Outcome, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Default cap on a game's length in plies; a game reaching it is adjudicated a draw.
pub const DEFAULT_MAX_PLIES: usize = 250;

/// Why an engine game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The side to move had no pieces or no moves.
    NoMoves,
    /// Threefold repetition (claimed at once).
    Repetition,
    /// Forty moves each without a man move or capture (claimed at once).
    FortyMoves,
    /// The pool 13-count ran out (claimed at once).
    ThirteenCount,
    /// The ply cap was reached: adjudicated a draw.
    MoveLimit,
    /// The stop flag was raised: adjudicated a draw.
    Stopped,
    /// A player failed (no answer, an illegal move, a crash): it loses the game.
    Forfeit,
}

impl EndReason {
    /// How the game ended, in words (for PDN `Termination` and reports).
    pub fn text(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no moves left",
            EndReason::Repetition => "threefold repetition",
            EndReason::FortyMoves => "forty-move rule",
            EndReason::ThirteenCount => "13-count",
            EndReason::MoveLimit => "move limit (adjudicated draw)",
            EndReason::Stopped => "stopped",
            EndReason::Forfeit => "forfeit (the engine failed)",
        }
    }
}

/// The bounds of one move: every bound that is set applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimit {
    /// About this much thinking time per move, on average.
    pub time: Option<Duration>,
    /// About this many nodes (reproducible).
    pub nodes: Option<u64>,
    /// This depth.
    pub depth: Option<u32>,
}

impl MoveLimit {
    /// The search limits for a move started at `start`.
    pub fn limits(&self, start: Instant) -> Limits {
        let timed = self
            .time
            .map(|t| Limits::budget(Budget::per_move(t), start))
            .unwrap_or_default();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..timed
        }
    }
}

/// A move chosen, with what the player said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Depth reached, when the player says.
    pub depth: Option<u32>,
}

/// Something that plays moves: the built-in engine, or another program.
pub trait Player: Send {
    /// The name written in the PDN (`crossboard master`, `Simple Checkers 1.15`).
    fn name(&self) -> String;
    /// A new game starts (forget what was learnt about the last one).
    fn new_game(&mut self) -> Result<(), String>;
    /// The move to play in `game` (not over) within `limit`.
    fn choose(
        &mut self,
        game: &Game,
        limit: &MoveLimit,
        stop: &Arc<AtomicBool>,
    ) -> Result<Choice, String>;
}

/// The built-in engine at a level, its random choices from a seeded generator; with a book,
/// the book's move wherever it has the position.
pub struct EnginePlayer {
    engine: Engine,
    level: Level,
    rng: ChaCha8Rng,
    book: Option<Arc<Book>>,
}

impl EnginePlayer {
    /// The engine at `level`, built from `options`, its random choices from `seed`.
    pub fn new(level: Level, options: Options, seed: u64) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(options),
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            book: None,
        }
    }

    /// The same player with an opening book (`None`: none): in a position of the book it
    /// plays one of the moves within [`BOOK_MARGIN`] of the book's best, chosen by its seeded
    /// generator; out of book it searches.
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> EnginePlayer {
        self.book = book;
        self
    }

    /// The same player probing these endgame databases (`None`: none).
    pub fn with_egdb(mut self, egdb: Option<std::sync::Arc<crate::egdb::Egdb>>) -> EnginePlayer {
        self.engine.set_egdb(egdb);
        self
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        format!("crossboard {}", self.level)
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.engine.clear();
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Game,
        limit: &MoveLimit,
        stop: &Arc<AtomicBool>,
    ) -> Result<Choice, String> {
        let pos = *game.position();
        if let Some(mv) = self
            .book
            .as_ref()
            .and_then(|b| b.choose(&pos, BOOK_MARGIN, &mut self.rng))
        {
            return Ok(Choice { mv, depth: None });
        }
        let history = &game.positions()[..game.positions().len() - 1];
        let limits = limit.limits(Instant::now());
        let r = choose_move(
            &mut self.engine,
            &pos,
            history,
            self.level,
            limits,
            stop.clone(),
            &mut self.rng,
        );
        let mv = r.best.ok_or("no move in a position that has one")?;
        // Depth 0: a single reply played at once under a time limit, not searched.
        Ok(Choice {
            mv,
            depth: (r.depth > 0).then_some(r.depth),
        })
    }
}

/// Time and depth one side used over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves chosen.
    pub moves: u32,
    /// Wall time spent choosing them.
    pub time: Duration,
    /// Sum of the depths reported (moves without a depth count 0).
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_moves: u32,
}

impl SideStats {
    /// Add another game's figures.
    pub fn add(&mut self, other: &SideStats) {
        self.moves += other.moves;
        self.time += other.time;
        self.depth_sum += other.depth_sum;
        self.depth_moves += other.depth_moves;
    }

    /// Mean thinking time per move in milliseconds.
    pub fn mean_ms(&self) -> f64 {
        self.time.as_secs_f64() * 1000.0 / f64::from(self.moves.max(1))
    }

    /// Mean depth over the moves that reported one.
    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / f64::from(self.depth_moves.max(1))
    }
}

/// A finished engine game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineGame {
    /// The moves from the ballot position.
    pub game: Game,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: EndReason,
    /// Red's player.
    pub red: String,
    /// White's player.
    pub white: String,
    /// Red's and White's time and depth.
    pub stats: [SideStats; 2],
    /// What went wrong, when a player forfeited.
    pub error: Option<String>,
}

/// Play `game` (continued from where it stands) to the end: `players[0]` is Red,
/// `players[1]` White, each within its own limit. A game longer than `max_plies` is a draw; a
/// player that fails loses.
pub fn play_game(
    mut game: Game,
    players: [&mut dyn Player; 2],
    limits: [MoveLimit; 2],
    max_plies: usize,
    stop: &Arc<AtomicBool>,
) -> EngineGame {
    let [red, white] = players;
    let names = [red.name(), white.name()];
    let mut players: [&mut dyn Player; 2] = [red, white];
    let mut stats = [SideStats::default(); 2];
    let mut error = None;
    let mut started = Ok(());
    for p in &mut players {
        started = started.and_then(|()| p.new_game());
    }
    let (outcome, reason) = loop {
        if let Err(e) = &started {
            error = Some(e.clone());
            break (Outcome::Draw, EndReason::Stopped);
        }
        if let Some(outcome) = game.result() {
            break (outcome, EndReason::NoMoves);
        }
        match game.claimable_draw() {
            Some(DrawClaim::Repetition) => break (Outcome::Draw, EndReason::Repetition),
            Some(DrawClaim::FortyMoves) => break (Outcome::Draw, EndReason::FortyMoves),
            Some(DrawClaim::ThirteenCount) => break (Outcome::Draw, EndReason::ThirteenCount),
            None => {}
        }
        if game.moves().len() >= max_plies {
            break (Outcome::Draw, EndReason::MoveLimit);
        }
        if stop.load(Ordering::Relaxed) {
            break (Outcome::Draw, EndReason::Stopped);
        }
        let mover = game.position().turn();
        let side = match mover {
            Color::Red => 0,
            Color::White => 1,
        };
        let t = Instant::now();
        let choice = players[side].choose(&game, &limits[side], stop);
        let s = &mut stats[side];
        s.moves += 1;
        s.time += t.elapsed();
        let played = choice.and_then(|c| {
            if let Some(d) = c.depth {
                s.depth_sum += u64::from(d);
                s.depth_moves += 1;
            }
            game.play(&c.mv)
                .map_err(|e| format!("{}: {e}", names[side]))
        });
        if let Err(e) = played {
            error = Some(e);
            break (Outcome::Win(mover.opponent()), EndReason::Forfeit);
        }
    };
    let [red, white] = names;
    EngineGame {
        game,
        outcome,
        reason,
        red,
        white,
        stats,
        error,
    }
}

/// Plays games between two levels of the built-in engine, one engine per side (each keeps its
/// table through a game).
pub struct SelfPlay {
    options: Options,
    /// Ply cap per game.
    pub max_plies: usize,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay::new(Options {
            hash_mb: 8,
            ..Options::default()
        })
    }
}

impl SelfPlay {
    /// Engines built from `options`.
    pub fn new(options: Options) -> SelfPlay {
        SelfPlay {
            options,
            max_plies: DEFAULT_MAX_PLIES,
        }
    }

    /// The same, with a ply cap of `max_plies`.
    pub fn with_max_plies(mut self, max_plies: usize) -> SelfPlay {
        self.max_plies = max_plies;
        self
    }

    /// Play one game from `start` (either side to move), under the rules `start` carries, with
    /// `red` and `white` levels within `limit` per move; `rng` seeds the levels' random choices.
    pub fn play<R: Rng + ?Sized>(
        &mut self,
        start: Position,
        red: Level,
        white: Level,
        limit: MoveLimit,
        rng: &mut R,
        stop: &Arc<AtomicBool>,
    ) -> EngineGame {
        let mut r = EnginePlayer::new(red, self.options, rng.next_u64());
        let mut w = EnginePlayer::new(white, self.options, rng.next_u64());
        play_game(
            Game::new(start.rules(), start),
            [&mut r, &mut w],
            [limit; 2],
            self.max_plies,
            stop,
        )
    }
}

/// Points of the player named `name` over `games` (win 1, draw ½), counting only games it
/// took part in.
pub fn points_for(name: &str, games: &[EngineGame]) -> f64 {
    games
        .iter()
        .map(|g| match g.outcome {
            Outcome::Draw if g.red == name || g.white == name => 0.5,
            Outcome::Win(Color::Red) if g.red == name => 1.0,
            Outcome::Win(Color::White) if g.white == name => 1.0,
            _ => 0.0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(d: u32) -> MoveLimit {
        MoveLimit {
            depth: Some(d),
            ..MoveLimit::default()
        }
    }

    /// A game of expert against expert from `fen` at `depth_limit` plies, within `max_plies`.
    fn expert_game(fen: &str, depth_limit: u32, max_plies: usize) -> EngineGame {
        let start = Position::from_fen(fen).unwrap();
        let mut sp = SelfPlay::default().with_max_plies(max_plies);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let stop = Arc::new(AtomicBool::new(false));
        sp.play(
            start,
            Level::Expert,
            Level::Expert,
            depth(depth_limit),
            &mut rng,
            &stop,
        )
    }

    #[test]
    fn two_kings_beat_one_from_nearly_every_start() {
        // The defending king on or beside the double corner (28, 32, 27, 24), the two
        // attacking kings on a third of the other pairs of squares: without databases the
        // search at depth 10 must find the way in, led by the hunt. The shipped tables win 568,
        // the first generation's 541.
        let (mut wins, mut games) = (0, 0);
        for d in [28u8, 32, 27, 24] {
            for a in 1..=32u8 {
                for b in a + 1..=32 {
                    if a == d || b == d || (a + b) % 3 != 0 {
                        continue;
                    }
                    let g = expert_game(&format!("B:WK{d}:BK{a},K{b}"), 10, 80);
                    games += 1;
                    wins += usize::from(g.outcome == Outcome::Win(Color::Red));
                }
            }
        }
        assert_eq!(games, 624);
        assert!(wins >= 560, "{wins} of {games} won");
    }

    #[test]
    fn a_won_ending_is_played_out_to_the_end() {
        let g = expert_game("B:WK28:BK17,K19", 10, DEFAULT_MAX_PLIES);
        assert_eq!(g.outcome, Outcome::Win(Color::Red), "{:?}", g.game.moves());
        assert_eq!(g.reason, EndReason::NoMoves);
        assert!(g.game.position().is_lost());
        assert_eq!(g.stats[0].moves as usize, g.game.moves().len().div_ceil(2));
        assert!(g.stats[0].mean_depth() >= 1.0);
    }

    #[test]
    fn games_end_by_the_ply_cap_or_a_draw_rule() {
        // Lone kings in the double corners: neither side can win.
        let g = expert_game("B:WK1:BK32", 8, 30);
        assert_eq!(g.outcome, Outcome::Draw, "{:?}", g.game.moves());
        assert!(matches!(
            g.reason,
            EndReason::Repetition | EndReason::MoveLimit
        ));
        assert!(g.game.moves().len() <= 30);
        assert_eq!(points_for("crossboard expert", &[g]), 0.5);
    }

    struct Broken;
    impl Player for Broken {
        fn name(&self) -> String {
            "broken".into()
        }
        fn new_game(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn choose(
            &mut self,
            _: &Game,
            _: &MoveLimit,
            _: &Arc<AtomicBool>,
        ) -> Result<Choice, String> {
            Ok(Choice {
                mv: Move::from_notation_path("1-5").map_err(|e| e.to_string())?,
                depth: None,
            })
        }
    }

    #[test]
    fn a_player_that_plays_an_illegal_move_forfeits() {
        let mut good = EnginePlayer::new(Level::Club, Options::default(), 1);
        let stop = Arc::new(AtomicBool::new(false));
        let g = play_game(
            Game::standard(),
            [&mut good, &mut Broken],
            [depth(2); 2],
            100,
            &stop,
        );
        assert_eq!(g.outcome, Outcome::Win(Color::Red));
        assert_eq!(g.reason, EndReason::Forfeit);
        assert!(
            g.error.as_deref().unwrap_or("").starts_with("broken"),
            "{:?}",
            g.error
        );
        assert_eq!(g.game.moves().len(), 1, "the illegal move is not recorded");
    }
}
