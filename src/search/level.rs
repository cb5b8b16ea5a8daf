//! Playing levels, from a deliberately imperfect beginner to full strength.

use super::MAX_DEPTH;
use super::alphabeta::{Engine, Limits, SearchResult};
use super::score::Score;
use crate::engine::Position;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// How strongly the engine plays, chosen in practice set-up.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Looks two plies ahead and often picks a weaker move (may drop a man).
    Beginner,
    /// Four plies, picks among moves up to about half a man worse than the best.
    Casual,
    /// Six plies, small randomness.
    Club,
    /// Ten plies, always the best move it finds.
    Expert,
    /// Full strength: as deep as the time allows.
    #[default]
    Master,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Club,
        Level::Expert,
        Level::Master,
    ];

    /// Lower-case name, as in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Expert => "expert",
            Level::Master => "master",
        }
    }

    /// Deepest search iteration at this level.
    pub fn max_depth(self) -> u32 {
        match self {
            Level::Beginner => 2,
            Level::Casual => 4,
            Level::Club => 6,
            Level::Expert => 10,
            Level::Master => super::MAX_DEPTH,
        }
    }

    /// How much worse than the best (hundredths of a man) a move may be and still be chosen.
    /// Zero means the level always plays its best move.
    pub fn margin(self) -> i32 {
        match self {
            Level::Beginner => 160,
            Level::Casual => 50,
            Level::Club => 15,
            Level::Expert | Level::Master => 0,
        }
    }

    /// Suggested thinking time per move in milliseconds (the master level uses what it gets).
    pub fn think_ms(self) -> u64 {
        match self {
            Level::Beginner => 200,
            Level::Casual => 300,
            Level::Club => 500,
            Level::Expert => 1_000,
            Level::Master => 2_000,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = Level::ALL.iter().map(|l| l.name()).collect();
                format!("unknown level {s:?}; one of {}", names.join(", "))
            })
    }
}

/// Choose a move for `pos` at `level`: a search to the level's depth (bounded also by the
/// caller's `limits` and by `stop`), then, for the levels with a margin, a random pick among the moves
/// scoring within the margin of the best. `rng` is the only source of randomness.
pub fn choose_move<R: Rng + ?Sized>(
    engine: &mut Engine,
    pos: &Position,
    history: &[Position],
    level: Level,
    limits: Limits,
    stop: Arc<AtomicBool>,
    rng: &mut R,
) -> SearchResult {
    if level.margin() == 0 {
        let limits = Limits {
            depth: Some(limits.depth.unwrap_or(MAX_DEPTH).min(level.max_depth())),
            ..limits
        };
        return engine.search(pos, history, limits, stop, |_| {});
    }
    let depth = limits.depth.unwrap_or(MAX_DEPTH).min(level.max_depth());
    let scored = engine.score_moves(pos, history, depth, stop.clone());
    let Some(&(_, top)) = scored.first() else {
        // No move, or stopped before any was scored: fall back to a plain search.
        return engine.search(pos, history, Limits::depth(1), stop, |_| {});
    };
    let candidates: Vec<_> = scored
        .iter()
        .filter(|(_, s)| !s.is_decisive() || *s == top)
        .filter(|(_, s)| s.0 >= top.0 - level.margin())
        .collect();
    let &(mv, score) = if candidates.is_empty() {
        &scored[0]
    } else {
        candidates[rng.random_range(0..candidates.len())]
    };
    SearchResult {
        best: Some(mv),
        score: Score(score.0),
        depth,
        pv: vec![mv],
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
            let json = format!("\"{}\"", l.name());
            assert_eq!(
                toml::Value::String(l.name().into()).as_str(),
                Some(l.name())
            );
            assert!(json.contains(l.name()));
        }
        assert!("grandmaster".parse::<Level>().is_err());
        assert!(Level::Beginner < Level::Master);
    }

    #[test]
    fn beginner_varies_and_is_reproducible() {
        let pos = Position::start();
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = Engine::default();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let r = choose_move(
                &mut engine,
                &pos,
                &[],
                Level::Beginner,
                Limits::default(),
                stop.clone(),
                &mut rng,
            );
            let mv = r.best.unwrap();
            assert!(pos.legal_moves().contains(&mv));
            seen.insert(mv);
        }
        assert!(
            seen.len() > 2,
            "beginner picks among several moves: {seen:?}"
        );
        // Same seed, same move: the choice is reproducible.
        let pick = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            choose_move(
                &mut Engine::default(),
                &pos,
                &[],
                Level::Casual,
                Limits::default(),
                stop.clone(),
                &mut rng,
            )
            .best
        };
        assert_eq!(pick(5), pick(5));
    }

    #[test]
    fn every_level_takes_a_free_man_it_sees() {
        // The 2-for-1 shot: even the beginner's random pick never ignores a forced win of two.
        let pos = Position::from_fen("B:W22,23,29,32:B6,7,10,15").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        for level in [Level::Club, Level::Expert, Level::Master] {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let r = choose_move(
                &mut Engine::default(),
                &pos,
                &[],
                level,
                Limits::deadline(std::time::Instant::now() + std::time::Duration::from_millis(300)),
                stop.clone(),
                &mut rng,
            );
            assert_eq!(r.best.unwrap().to_string(), "15-18", "{level}");
        }
    }
}
