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
    /// Looks two plies ahead and often picks a weaker move (misses shots, never leaves a man
    /// to be taken for nothing).
    Beginner,
    /// Three plies, picks among moves up to about half a man worse than the best.
    Casual,
    /// Four plies, small randomness.
    Club,
    /// Six plies, always the best move it finds.
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
            Level::Casual => 3,
            Level::Club => 4,
            Level::Expert => 6,
            Level::Master => super::MAX_DEPTH,
        }
    }

    /// Deepest search iteration at this level in `pos`: [`Level::max_depth`], except that the
    /// expert looks as deep as it once did (ten plies) in an ending of three pieces or fewer, as a
    /// strong player knows how to win two kings against one (not in the losing game, where
    /// that is no win).
    pub fn depth_in(self, pos: &Position) -> u32 {
        let pieces = pos.count(crate::engine::Color::Red) + pos.count(crate::engine::Color::White);
        let ending = pieces <= ENDING_PIECES && pos.rules() != crate::engine::Rules::Losing;
        match self {
            Level::Expert if ending => ENDING_DEPTH,
            _ => self.max_depth(),
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

/// An ending, for [`Level::depth_in`]: this many pieces or fewer on the board.
const ENDING_PIECES: u32 = 3;
/// The expert's depth in an ending.
const ENDING_DEPTH: u32 = 10;

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
/// scoring within the margin of the best. The pick makes a player's mistakes, not random ones:
/// a move that leaves pieces to be taken at once for nothing (counted piece for piece) is never
/// among them while a move that does not exists (the search's best move always is, a sacrifice
/// it found included). `rng` is the only source of randomness.
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
            depth: Some(limits.depth.unwrap_or(MAX_DEPTH).min(level.depth_in(pos))),
            ..limits
        };
        return engine.search(pos, history, limits, stop, |_| {});
    }
    let depth = limits.depth.unwrap_or(MAX_DEPTH).min(level.depth_in(pos));
    let scored = engine.score_moves(pos, history, depth, stop.clone());
    let Some(&(_, top)) = scored.first() else {
        // No move, or stopped before any was scored: fall back to a plain search.
        return engine.search(pos, history, Limits::depth(1), stop, |_| {});
    };
    let safe = safe_moves(pos);
    let candidates: Vec<_> = scored
        .iter()
        .filter(|(_, s)| !s.is_decisive() || *s == top)
        .filter(|(_, s)| s.0 >= top.0 - level.margin())
        .filter(|(mv, s)| *s == top || safe.contains(mv))
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

/// The moves of `pos` that do not leave pieces to be taken for nothing: those whose `exchange`
/// is as good as the best move's, or at least even. Every move in the losing game, where giving
/// pieces away is the aim.
fn safe_moves(pos: &Position) -> Vec<crate::engine::Move> {
    let moves = pos.legal_moves();
    if pos.rules() == crate::engine::Rules::Losing {
        return moves;
    }
    let gains: Vec<i32> = moves.iter().map(|mv| exchange(pos, mv)).collect();
    let floor = gains.iter().copied().max().unwrap_or(0).min(0);
    moves
        .iter()
        .zip(gains)
        .filter(|&(_, g)| g >= floor)
        .map(|(mv, _)| *mv)
        .collect()
}

/// Pieces won (negative: lost) by playing `mv` and then the captures that follow at once: as
/// long as the side to move can capture, it takes the best of its captures or (where capture is
/// not compulsory) stops. What a player sees at a glance: the man left en prise, the exchange;
/// not the shot that gives a man to take two, which is a deeper search's business. Counted in
/// pieces, not in the evaluation's units.
fn exchange(pos: &Position, mv: &crate::engine::Move) -> i32 {
    mv.captured().count_ones() as i32 - captures_at_once(&pos.after(mv))
}

/// What the side to move wins, in pieces, by the captures it can start at once (0 when it has
/// none or may decline them).
fn captures_at_once(pos: &Position) -> i32 {
    let moves = pos.legal_moves();
    let best = moves
        .iter()
        .filter(|mv| mv.is_capture())
        .map(|mv| mv.captured().count_ones() as i32 - captures_at_once(&pos.after(mv)))
        .max();
    match best {
        None => 0,
        Some(b) if moves.iter().any(|mv| !mv.is_capture()) => b.max(0),
        Some(b) => b,
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

    /// Red to move; 9-14, 11-15 and 11-16 each leave a man to White's men on 18 and 19 with
    /// nothing back, 3-7, 3-8 and 9-13 leave nothing.
    const HANGING: &str = "B:W18,19,32:B3,9,11";

    #[test]
    fn the_exchange_counts_the_pieces_left_en_prise() {
        let pos = Position::from_fen(HANGING).unwrap();
        let mut gains: Vec<(String, i32)> = pos
            .legal_moves()
            .iter()
            .map(|mv| (mv.to_string(), exchange(&pos, mv)))
            .collect();
        gains.sort();
        let expected = [
            ("11-15", -1),
            ("11-16", -1),
            ("3-7", 0),
            ("3-8", 0),
            ("9-13", 0),
            ("9-14", -1),
        ];
        let expected: Vec<(String, i32)> =
            expected.iter().map(|(m, g)| (m.to_string(), *g)).collect();
        assert_eq!(gains, expected);
        // A man taken and retaken is even: White's 18x9 is answered by 5x14.
        let pos = Position::from_fen("B:W18,32:B3,5,9").unwrap();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "9-14")
            .unwrap();
        assert_eq!(exchange(&pos, &mv), 0);
    }

    /// White to move in an opening: 18-14 and 18-15 each leave a man to be taken for nothing,
    /// yet score within the beginner's margin of the best at its depth (the man is worth less
    /// than the margin). The practice levels never play them.
    const OPENING: &str = "W:W18,21,22,23,24,27,28,29,30,31,32:B2,3,4,5,6,7,8,9,10,11,12";

    #[test]
    fn the_practice_levels_never_leave_a_man_for_nothing() {
        let pos = Position::from_fen(OPENING).unwrap();
        let hanging = ["18-14", "18-15"];
        for mv in pos.legal_moves() {
            let expected = if hanging.contains(&mv.to_string().as_str()) {
                -1
            } else {
                0
            };
            assert_eq!(exchange(&pos, &mv), expected, "{mv}");
        }
        let stop = Arc::new(AtomicBool::new(false));
        let scored =
            Engine::default().score_moves(&pos, &[], Level::Beginner.max_depth(), stop.clone());
        assert!(
            scored
                .iter()
                .any(|(m, s)| hanging.contains(&m.to_string().as_str())
                    && s.0 >= scored[0].1.0 - Level::Beginner.margin()),
            "no longer a test of the filter: no hanging move is within the margin {scored:?}"
        );
        for level in [Level::Beginner, Level::Casual, Level::Club] {
            let mut seen = std::collections::BTreeSet::new();
            for seed in 0..24 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let r = choose_move(
                    &mut Engine::default(),
                    &pos,
                    &[],
                    level,
                    Limits::default(),
                    stop.clone(),
                    &mut rng,
                );
                seen.insert(r.best.unwrap().to_string());
            }
            assert!(
                seen.iter().all(|m| !hanging.contains(&m.as_str())),
                "{level} played {seen:?}"
            );
            if level == Level::Beginner {
                assert!(seen.len() > 2, "the beginner still varies: {seen:?}");
            }
        }
    }

    #[test]
    fn the_expert_looks_deeper_in_an_ending() {
        let ending = Position::from_fen("B:WK28:BK18,K19").unwrap();
        assert_eq!(Level::Expert.depth_in(&ending), 10);
        assert_eq!(Level::Expert.depth_in(&Position::start()), 6);
        assert_eq!(Level::Club.depth_in(&ending), Level::Club.max_depth());
        let losing = ending.with_rules(crate::engine::Rules::Losing);
        assert_eq!(Level::Expert.depth_in(&losing), 6);
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
