//! Analysis: scoring a game's moves (where did the evaluation swing?) and scoring opening
//! positions (which ballots lose material by force within the horizon?).

use super::alphabeta::{Engine, Limits, Options};
use super::eval::MAN;
use super::prove::{ProofLimits, ProofResult, Prover};
use super::score::Score;
use super::tt::MoveKey;
use crate::egdb::Egdb;
use crate::engine::{Color, Move, Position};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Default depth of the ballot analysis (plies, before capture extensions).
pub const DEFAULT_BALLOT_DEPTH: u32 = 8;
/// The forcing-line proof the ballot analysis runs for both sides after the full-width
/// searches: the attacker's quiet moves must force (the defender must capture, or a capture is
/// threatened) for 12 plies, captures on top; a man won must hold for 2 more full-width plies.
/// Measured on all 2,500 11-man positions: it proves the same 97 as the depth-8 material search
/// and refutes every other position for both sides, about 21 s of CPU in all (opt-test build).
pub const BALLOT_PROOF: ProofLimits = ProofLimits {
    full: 0,
    threat: 12,
    verify: 2,
    width: 0,
    nodes: 200_000,
};
/// Default depth of the post-game analysis.
pub const DEFAULT_GAME_DEPTH: u32 = 10;
/// Moves of the better line a note shows (the engine's principal variation, cut here).
const NOTE_LINE: usize = 8;

/// How long the post-game analysis searches each position: to a depth, for a time, or
/// whichever comes first. A depth alone gives the same marks on every machine and run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLimits {
    /// Deepest iteration (plies); `None`: the time decides.
    pub depth: Option<u32>,
    /// Milliseconds per position; `None`: the depth decides.
    pub time_ms: Option<u64>,
}

impl From<u32> for GameLimits {
    fn from(depth: u32) -> GameLimits {
        GameLimits {
            depth: Some(depth),
            time_ms: None,
        }
    }
}

impl GameLimits {
    /// The search limits of one position, started now.
    fn limits(self) -> Limits {
        Limits {
            depth: self.depth,
            deadline: self
                .time_ms
                .map(|ms| Instant::now() + Duration::from_millis(ms)),
            ..Limits::default()
        }
    }
}

/// How bad a move was, by how much the mover's score dropped against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// Dropped at least 0.3 men.
    Inaccuracy,
    /// Dropped at least 0.7 men.
    Mistake,
    /// Dropped at least 1.5 men, or turned a win or draw into a forced loss.
    Blunder,
}

impl Mark {
    /// `?!`, `?` or `??`, as annotators write them.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark for a drop of `swing` (hundredths of a man), if any.
    pub fn for_swing(swing: i32) -> Option<Mark> {
        match swing {
            s if s >= 150 => Some(Mark::Blunder),
            s if s >= 70 => Some(Mark::Mistake),
            s if s >= 30 => Some(Mark::Inaccuracy),
            _ => None,
        }
    }
}

/// One move of a game, reviewed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReview {
    /// Index of the move in the game (0 = first move).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The engine's choice in that position.
    pub best: Option<Move>,
    /// The engine's line from that position (its principal variation, the best move first).
    pub line: Vec<Move>,
    /// The best move's score, for the mover.
    pub best_score: Score,
    /// The played move's score, for the mover.
    pub played_score: Score,
    /// Red's score after the move (for an evaluation graph).
    pub red_score_after: Score,
    /// How much the mover lost against the best move (hundredths of a man, never negative;
    /// a forced win or loss counts as 10 men).
    pub swing: i32,
    /// The mark, when the drop is large enough.
    pub mark: Option<Mark>,
}

impl MoveReview {
    /// What an annotator writes beside a marked move: the better move with the scores of both
    /// (for the mover) and the line it starts, `better 15-18 (+2.10, not -0.05): 15-18 22x15
    /// 6-10 15x6 1x10`; `None` for an unmarked move or one without a better move.
    pub fn note(&self) -> Option<String> {
        self.mark?;
        let best = self.best?;
        let line: Vec<String> = self
            .line
            .iter()
            .take(NOTE_LINE)
            .map(ToString::to_string)
            .collect();
        let more = if self.line.len() > NOTE_LINE {
            " …"
        } else {
            ""
        };
        Some(format!(
            "better {best} ({}, not {}): {}{more}",
            self.best_score,
            self.played_score,
            line.join(" ")
        ))
    }
}

/// A score with known results (forced or database) capped at ±10 men, for differences.
fn capped(s: Score) -> i32 {
    if s.is_known() {
        10 * MAN * s.0.signum()
    } else {
        s.0.clamp(-10 * MAN, 10 * MAN)
    }
}

/// What an engine found in one position of a game: its score for the side to move, its best
/// move and the line it starts (the best move first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionScore {
    /// The score for the side to move.
    pub score: Score,
    /// The engine's choice (`None`: no legal move).
    pub best: Option<Move>,
    /// The engine's line, the best move first (at least the best move when there is one).
    pub line: Vec<Move>,
}

/// Review the moves of a game played from `start`: every position is searched within
/// `limits` (a depth, see [`GameLimits`]), and each move is compared with the engine's best
/// ([`review_moves`]). The engine's table is cleared first, so that a game gets the same marks
/// wherever it is analysed (the review screen, `crossboard analyse`, a kept practice game).
/// Stops early (returning the moves reviewed) when `stop` is raised. `progress` gets the number
/// of positions searched so far.
pub fn analyse_game(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    limits: impl Into<GameLimits>,
    stop: Arc<AtomicBool>,
    mut progress: impl FnMut(usize),
) -> Vec<MoveReview> {
    let limits = limits.into();
    engine.clear();
    let positions = game_positions(start, moves);
    let mut scored = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let r = engine.search(pos, &positions[..i], limits.limits(), stop.clone(), |_| {});
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let line = if r.pv.first() == r.best.as_ref() {
            r.pv
        } else {
            r.best.into_iter().collect()
        };
        scored.push(PositionScore {
            score: r.score,
            best: r.best,
            line,
        });
        progress(i + 1);
    }
    review_moves(start, moves, &scored)
}

/// The positions of a game played from `start`, the start first.
fn game_positions(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut positions = vec![*start];
    for mv in moves {
        let next = positions[positions.len() - 1].after(mv);
        positions.push(next);
    }
    positions
}

/// Each move of a game played from `start` compared with the engine's best, from `scored`,
/// what an engine found in each position of the game (the start first; crossboard's or another
/// program's): the one home of the marks' thresholds ([`Mark::for_swing`]) and of what counts
/// as a drop. Moves past the positions scored (an analysis stopped early) are left out.
pub fn review_moves(start: &Position, moves: &[Move], scored: &[PositionScore]) -> Vec<MoveReview> {
    let positions = game_positions(start, moves);
    let mut out = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let (Some(here), Some(next)) = (scored.get(i), scored.get(i + 1)) else {
            break;
        };
        let (best_score, best, next_score) = (here.score, here.best, next.score);
        let mover = positions[i].turn();
        let same = best.is_some_and(|b| MoveKey::of(&b) == MoveKey::of(mv));
        let played_score = if same { best_score } else { next_score.flip() };
        let swing = if same {
            0
        } else {
            (capped(best_score) - capped(played_score)).max(0)
        };
        let mut mark = Mark::for_swing(swing);
        if !best_score.is_known() || best_score.0 > 0 {
            // Walking into a known loss from a position that was not lost is always a blunder.
            if played_score.is_known() && played_score.0 < 0 {
                mark = Some(Mark::Blunder);
            }
        }
        let red_after = match positions[i + 1].turn() {
            Color::Red => next_score,
            Color::White => next_score.flip(),
        };
        out.push(MoveReview {
            ply: i,
            mover,
            played: *mv,
            best,
            line: here.line.clone(),
            best_score,
            played_score,
            red_score_after: red_after,
            swing,
            mark,
        });
    }
    out
}

/// The engine's verdict on an opening position (Red to move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionVerdict {
    /// Score for Red with the full evaluation.
    pub red_score: Score,
    /// Red's best move.
    pub best: Option<Move>,
    /// The principal variation of the full-evaluation search.
    pub pv: Vec<Move>,
    /// Material Red wins (positive) or loses (negative) by force within the horizon, in
    /// hundredths of a man (kings 140), from a material-only search; a known result when the
    /// search reached a forced end or a database win or loss.
    pub red_material: Score,
    /// The forcing-line proof ([`BALLOT_PROOF`]) with Red, then White, as the attacker.
    pub forcing: [ProofResult; 2],
    /// The side that loses at least a man by force within the horizon (the material-only
    /// search or the forcing-line proof), if any.
    pub loses_material: Option<Color>,
    /// Nodes searched (both searches and the proofs).
    pub nodes: u64,
}

impl PositionVerdict {
    /// The side the forcing-line proof shows winning a man, and in how many forcing plies.
    pub fn forcing_win(&self) -> Option<(Color, u32)> {
        Color::ALL
            .into_iter()
            .zip(self.forcing)
            .find_map(|(c, r)| match r {
                ProofResult::Proved { plies } => Some((c, plies)),
                _ => None,
            })
    }
}

/// Scores opening positions at a fixed depth with two searches: the full evaluation (the
/// score shown) and material only (the verdict: does a side lose a man by force?), then
/// looks further along forcing lines with the proof search ([`BALLOT_PROOF`]). Each keeps
/// its own table across positions, which speeds up a batch of similar positions.
pub struct PositionAnalyser {
    full: Engine,
    material: Engine,
    prover: Prover,
    proof: ProofLimits,
    depth: u32,
}

impl PositionAnalyser {
    /// An analyser searching to `depth` (two 16 MB tables).
    pub fn new(depth: u32) -> PositionAnalyser {
        PositionAnalyser::with_hash(depth, Options::default().hash_mb)
    }

    /// Probe these endgame databases in both searches.
    pub fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>) {
        self.full.set_egdb(egdb.clone());
        self.material.set_egdb(egdb);
    }

    /// An analyser searching to `depth` with tables of `hash_mb` MB each.
    pub fn with_hash(depth: u32, hash_mb: usize) -> PositionAnalyser {
        let options = Options {
            hash_mb,
            ..Options::default()
        };
        PositionAnalyser {
            full: Engine::new(options),
            // What material is won or lost by force: no cut on an evaluation's word.
            material: Engine::new(Options {
                material_only: true,
                probcut: false,
                ..options
            }),
            prover: Prover::new(18),
            proof: BALLOT_PROOF,
            depth,
        }
    }

    /// The depth searched.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Analyse one position.
    pub fn analyse(&mut self, pos: &Position, stop: &Arc<AtomicBool>) -> PositionVerdict {
        let limits = Limits::depth(self.depth);
        let full = self.full.search(pos, &[], limits, stop.clone(), |_| {});
        let mat = self.material.search(pos, &[], limits, stop.clone(), |_| {});
        let for_red = |s: Score| match pos.turn() {
            Color::Red => s,
            Color::White => s.flip(),
        };
        let red_material = for_red(mat.score);
        // A man is 100; a forced or database win counts too. A lost man partly won back by
        // crowning (-100 + 40) is still a man down in men.
        let mut nodes = full.nodes + mat.nodes;
        let forcing = Color::ALL.map(|attacker| {
            let r = self.prover.prove(pos, attacker, self.proof);
            nodes += self.prover.nodes();
            r
        });
        let searched = if red_material.0 <= -MAN + 40 {
            Some(Color::Red)
        } else if red_material.0 >= MAN - 40 {
            Some(Color::White)
        } else {
            None
        };
        let mut verdict = PositionVerdict {
            red_score: for_red(full.score),
            best: full.best,
            pv: full.pv,
            red_material,
            forcing,
            loses_material: searched,
            nodes,
        };
        verdict.loses_material =
            searched.or_else(|| verdict.forcing_win().map(|(winner, _)| winner.opponent()));
        verdict
    }
}

/// Positions one analyser takes in turn (its tables help with the next similar positions).
const CHUNK: usize = 25;

/// Analyse `positions` at `depth`, spread over the threads of the current rayon pool (all
/// cores unless the caller installs a smaller pool), probing `egdb` when given; the verdicts
/// come back in order. `progress` is called (from any thread) with the number of positions
/// done so far.
pub fn analyse_all(
    positions: &[Position],
    depth: u32,
    egdb: Option<&Arc<Egdb>>,
    stop: &Arc<AtomicBool>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<PositionVerdict> {
    use rayon::prelude::*;
    let done = std::sync::atomic::AtomicUsize::new(0);
    positions
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut analyser = PositionAnalyser::with_hash(depth, 8);
            analyser.set_egdb(egdb.cloned());
            let verdicts: Vec<_> = chunk.iter().map(|p| analyser.analyse(p, stop)).collect();
            let n = done.fetch_add(chunk.len(), std::sync::atomic::Ordering::Relaxed);
            progress(n + chunk.len());
            verdicts
        })
        .collect()
}
