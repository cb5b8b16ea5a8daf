//! Engine-versus-engine games: the engine plays a ballot from both sides (for directors
//! preparing events, and for the strength check between levels).

use super::alphabeta::{Engine, Limits, Options};
use super::level::{Level, choose_move};
use crate::engine::{Color, DrawClaim, Game, Outcome, Position, Rules};
use rand::Rng;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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
    /// Red's level.
    pub red: Level,
    /// White's level.
    pub white: Level,
}

/// Plays engine games, one engine per side (each keeps its table through a game).
pub struct SelfPlay {
    engines: [Engine; 2],
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
    /// Two engines built from `options`.
    pub fn new(options: Options) -> SelfPlay {
        SelfPlay {
            engines: [Engine::new(options), Engine::new(options)],
            max_plies: DEFAULT_MAX_PLIES,
        }
    }

    /// The same, with a ply cap of `max_plies`.
    pub fn with_max_plies(mut self, max_plies: usize) -> SelfPlay {
        self.max_plies = max_plies;
        self
    }

    /// Play one game from `start` (either side to move) with `red` and `white` levels.
    /// `limits` is asked before every move for that move's bounds (the caller computes any
    /// deadline); `rng` drives the levels' random choices.
    pub fn play<R: Rng + ?Sized>(
        &mut self,
        start: Position,
        red: Level,
        white: Level,
        limits: impl FnMut() -> Limits,
        rng: &mut R,
        stop: &Arc<AtomicBool>,
    ) -> EngineGame {
        self.play_on(
            Game::new(Rules::English, start),
            red,
            white,
            limits,
            rng,
            stop,
        )
    }

    /// Like [`SelfPlay::play`], continuing `game` (e.g. a ballot start with its set moves
    /// already played, so that the record shows them).
    pub fn play_on<R: Rng + ?Sized>(
        &mut self,
        mut game: Game,
        red: Level,
        white: Level,
        mut limits: impl FnMut() -> Limits,
        rng: &mut R,
        stop: &Arc<AtomicBool>,
    ) -> EngineGame {
        for e in &mut self.engines {
            e.clear();
        }
        let (outcome, reason) = loop {
            if let Some(outcome) = game.result() {
                break (outcome, EndReason::NoMoves);
            }
            match game.claimable_draw() {
                Some(DrawClaim::Repetition) => break (Outcome::Draw, EndReason::Repetition),
                Some(DrawClaim::FortyMoves) => break (Outcome::Draw, EndReason::FortyMoves),
                Some(DrawClaim::ThirteenCount) => {
                    break (Outcome::Draw, EndReason::ThirteenCount);
                }
                None => {}
            }
            if game.moves().len() >= self.max_plies {
                break (Outcome::Draw, EndReason::MoveLimit);
            }
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break (Outcome::Draw, EndReason::Stopped);
            }
            let pos = *game.position();
            let (level, engine) = match pos.turn() {
                Color::Red => (red, &mut self.engines[0]),
                Color::White => (white, &mut self.engines[1]),
            };
            let history = &game.positions()[..game.positions().len() - 1];
            let r = choose_move(engine, &pos, history, level, limits(), stop.clone(), rng);
            let Some(mv) = r.best else {
                break (Outcome::Win(pos.turn().opponent()), EndReason::NoMoves);
            };
            if game.play(&mv).is_err() {
                // Cannot happen: the search only returns legal moves. End rather than loop.
                break (Outcome::Draw, EndReason::Stopped);
            }
        };
        EngineGame {
            game,
            outcome,
            reason,
            red,
            white,
        }
    }
}

/// Points of `level` over `games` (win 1, draw ½), counting only games it took part in.
pub fn points_for(level: Level, games: &[EngineGame]) -> f64 {
    games
        .iter()
        .map(|g| match g.outcome {
            Outcome::Draw if g.red == level || g.white == level => 0.5,
            Outcome::Win(Color::Red) if g.red == level => 1.0,
            Outcome::Win(Color::White) if g.white == level => 1.0,
            _ => 0.0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_won_ending_is_played_out_to_the_end() {
        let start = Position::from_fen("B:WK28:BK18,K19").unwrap();
        let mut sp = SelfPlay::default();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let stop = Arc::new(AtomicBool::new(false));
        let g = sp.play(
            start,
            Level::Expert,
            Level::Expert,
            || Limits::depth(10),
            &mut rng,
            &stop,
        );
        assert_eq!(g.outcome, Outcome::Win(Color::Red), "{:?}", g.game.moves());
        assert_eq!(g.reason, EndReason::NoMoves);
        assert!(g.game.position().is_lost());
    }

    #[test]
    fn games_end_by_the_ply_cap_or_a_draw_rule() {
        // Lone kings in the double corners: neither side can win.
        let start = Position::from_fen("B:WK1:BK32").unwrap();
        let mut sp = SelfPlay::default().with_max_plies(30);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let stop = Arc::new(AtomicBool::new(false));
        let g = sp.play(
            start,
            Level::Expert,
            Level::Expert,
            || Limits::depth(8),
            &mut rng,
            &stop,
        );
        assert_eq!(g.outcome, Outcome::Draw, "{:?}", g.game.moves());
        assert!(matches!(
            g.reason,
            EndReason::Repetition | EndReason::MoveLimit
        ));
        assert!(g.game.moves().len() <= 30);
        assert_eq!(points_for(Level::Expert, &[g]), 0.5);
    }
}
