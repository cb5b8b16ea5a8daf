//! Tuning the weights of the English evaluation on games (Texel's method): the quiet
//! positions of the games, each labelled with its game's result, and the weights that make
//! `sigmoid(k * eval)` predict the results best (least mean squared error).
//!
//! The evaluation is linear in its weights, so each position's terms are computed once
//! ([`Sample`]); the fit is then gradient descent (Adam) on those, the weight of a man held at
//! 100 so that scores keep their scale. Pure: games in, weights and losses out; the games are
//! split into training and held-out ones by game, from a seed.

use super::eval::{
    Evaluation, HAND, NAMES, SCALE, TERMS, Weights, english_features, evaluate_quiet, term,
};
use crate::engine::{Move, Position, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod patterns;
pub use patterns::{PatternOptions, PatternReport, asset_bytes, tune_patterns};

/// One game to learn from: where it starts, its moves, its result for Red (1, 1/2 or 0).
#[derive(Clone, Debug)]
pub struct TuneGame {
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// Red's score: 1 a win, 0.5 a draw, 0 a loss.
    pub result: f32,
}

/// A position's terms (Red's less White's) and its game's result for Red.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    features: [f32; TERMS],
    result: f32,
}

/// The settings of a tuning run.
#[derive(Clone, Copy, Debug)]
pub struct TuneOptions {
    /// Seed of the split into training and held-out games.
    pub seed: u64,
    /// Plies from the start of each game whose positions are left out.
    pub skip_plies: usize,
    /// One game in this many is held out.
    pub held_out_every: u32,
    /// Rounds of gradient descent.
    pub epochs: usize,
    /// Weight of the pull towards the hand-set weights: this times the sum of the squared
    /// differences is added to the loss that is minimised (0: none).
    pub prior: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            seed: 27,
            skip_plies: 8,
            held_out_every: 10,
            epochs: 600,
            prior: 0.0,
        }
    }
}

/// How the games were split into training and held-out ones, and the scale of the sigmoid
/// fitted to the starting weights: `1 / (1 + e^(-k * eval))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// Training games.
    pub train_games: usize,
    /// Training positions.
    pub train_positions: usize,
    /// Held-out games.
    pub held_games: usize,
    /// Held-out positions.
    pub held_positions: usize,
    /// The sigmoid's scale.
    pub k: f64,
}

impl std::fmt::Display for Split {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "training: {} games, {} positions; held out: {} games, {} positions; k = {:.6}",
            self.train_games, self.train_positions, self.held_games, self.held_positions, self.k
        )
    }
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The split of the games, and the sigmoid's scale fitted to the starting weights.
    pub split: Split,
    /// Mean squared error with the starting weights: training, held out.
    pub before: (f64, f64),
    /// Mean squared error with the tuned weights (whole numbers): training, held out.
    pub after: (f64, f64),
    /// The tuned weights.
    pub weights: Weights,
}

/// The quiet positions of a game past its first `skip` plies (no capture for the side to
/// move, a move to make), with the game's result.
pub fn samples_of(game: &TuneGame, skip: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut pos = game.start;
    for (ply, mv) in game.moves.iter().enumerate() {
        let quiet = !pos.can_capture() && evaluate_quiet(&pos, Evaluation::Linear, None).is_some();
        if ply >= skip && pos.rules() == Rules::English && quiet {
            let f = english_features(&pos).0;
            out.push(Sample {
                features: f.map(|x| x as f32),
                result: game.result,
            });
        }
        pos = pos.after(mv);
    }
    out
}

/// The evaluation for Red of a sample with `weights`, in hundredths of a man.
fn eval(s: &Sample, weights: &[f64; TERMS]) -> f64 {
    let dot: f64 = (0..TERMS)
        .map(|i| f64::from(s.features[i]) * weights[i])
        .sum();
    dot / f64::from(SCALE)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn loss(samples: &[Sample], weights: &[f64; TERMS], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(k * eval(s, weights)) - f64::from(s.result)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The `k` that fits `weights` best, by golden-section search on its logarithm.
pub fn fit_k(samples: &[Sample], weights: &[f64; TERMS]) -> f64 {
    let f = |lk: f64| loss(samples, weights, lk.exp());
    let (mut a, mut b) = (1e-4f64.ln(), 1e-1f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// The gradient of the loss with respect to each weight.
fn gradient(samples: &[Sample], weights: &[f64; TERMS], k: f64) -> [f64; TERMS] {
    let mut g = [0.0; TERMS];
    for s in samples {
        let p = sigmoid(k * eval(s, weights));
        let d = 2.0 * (p - f64::from(s.result)) * p * (1.0 - p) * k / f64::from(SCALE);
        for (gi, &x) in g.iter_mut().zip(&s.features) {
            *gi += d * f64::from(x);
        }
    }
    let n = samples.len().max(1) as f64;
    g.map(|x| x / n)
}

/// The gradient over both cores: the samples in two halves.
fn gradient_parallel(samples: &[Sample], weights: &[f64; TERMS], k: f64) -> [f64; TERMS] {
    let (a, b) = samples.split_at(samples.len() / 2);
    let (ga, gb) = std::thread::scope(|scope| {
        let h = scope.spawn(|| gradient(b, weights, k));
        let ga = gradient(a, weights, k);
        (ga, h.join().unwrap_or([0.0; TERMS]))
    });
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let n = (na + nb).max(1.0);
    std::array::from_fn(|i| (ga[i] * na + gb[i] * nb) / n)
}

/// Adam from `start` for `epochs` rounds, the man's weight held, each weight pulled towards
/// its start by `prior` (see [`TuneOptions::prior`]).
pub fn descend(
    samples: &[Sample],
    start: &[f64; TERMS],
    k: f64,
    (epochs, prior): (usize, f64),
) -> [f64; TERMS] {
    const RATE: f64 = 0.5;
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;
    let mut w = *start;
    let (mut m, mut v) = ([0.0; TERMS], [0.0; TERMS]);
    for t in 1..=epochs {
        let mut g = gradient_parallel(samples, &w, k);
        for i in 0..TERMS {
            g[i] += 2.0 * prior * (w[i] - start[i]);
            if i == term::MAN {
                continue;
            }
            m[i] = B1 * m[i] + (1.0 - B1) * g[i];
            v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
            let mh = m[i] / (1.0 - B1.powi(t as i32));
            let vh = v[i] / (1.0 - B2.powi(t as i32));
            w[i] -= RATE * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}

/// The games split by `options.seed` into training and held-out ones, as samples.
pub fn split(games: &[TuneGame], options: &TuneOptions) -> (Vec<Sample>, Vec<Sample>, usize) {
    let (train, held, held_games, _) =
        split_by(games, options, |g| samples_of(g, options.skip_plies));
    (train, held, held_games)
}

/// The games split by `options.seed` into training and held-out ones (one in
/// `held_out_every`, drawn game by game), each game turned into samples by `samples`: the
/// training and held-out samples, the held-out and the training games.
fn split_by<T>(
    games: &[TuneGame],
    options: &TuneOptions,
    samples: impl Fn(&TuneGame) -> Vec<T>,
) -> (Vec<T>, Vec<T>, usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let (mut train, mut held, mut held_games, mut train_games) = (Vec::new(), Vec::new(), 0, 0);
    let mut seen = std::collections::HashSet::new();
    for g in games {
        // A game played twice (two copies of one engine give the same game from both sides
        // of a ballot) counts once, so that no held-out game is also a training game.
        let text: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
        if !seen.insert((g.start.to_fen(), text)) {
            continue;
        }
        let samples = samples(g);
        if rng.random_range(0..options.held_out_every.max(1)) == 0 {
            held_games += 1;
            held.extend(samples);
        } else {
            train_games += 1;
            train.extend(samples);
        }
    }
    (train, held, held_games, train_games)
}

fn as_f64(w: &Weights) -> [f64; TERMS] {
    w.map(f64::from)
}

/// Tunes the English weights on `games`, starting from the hand-set ones.
pub fn tune(games: &[TuneGame], options: &TuneOptions) -> TuneReport {
    let (train, held, held_games, train_games) =
        split_by(games, options, |g| samples_of(g, options.skip_plies));
    let start = as_f64(&HAND);
    let k = fit_k(&train, &start);
    let tuned = descend(&train, &start, k, (options.epochs, options.prior));
    let weights: Weights = tuned.map(|x| x.round() as i32);
    let rounded = as_f64(&weights);
    TuneReport {
        split: Split {
            train_games,
            train_positions: train.len(),
            held_games,
            held_positions: held.len(),
            k,
        },
        before: (loss(&train, &start, k), loss(&held, &start, k)),
        after: (loss(&train, &rounded, k), loss(&held, &rounded, k)),
        weights,
    }
}

/// The weight table as the Rust source of `src/search/eval/weights.rs`, with how it was made.
pub fn weights_source(report: &TuneReport, how: &str) -> String {
    let mut s = String::from(
        "//! The weights of the English evaluation (see `terms.rs` for the terms).\n\
         //! Written by `crossboard tune`: see docs/engine.md. Do not edit by hand.\n",
    );
    s += &format!("//!\n//! {how}\n");
    s += &format!(
        "//! {} training games ({} positions), {} held out ({} positions); k = {:.6}.\n",
        report.split.train_games,
        report.split.train_positions,
        report.split.held_games,
        report.split.held_positions,
        report.split.k
    );
    s += &format!(
        "//! Mean squared error, held out: {:.6} hand-set, {:.6} tuned.\n\n",
        report.before.1, report.after.1
    );
    s += "use super::terms::Weights;\n\n";
    s += "/// The weights of English draughts, in the order of `terms::NAMES`.\n";
    s += "pub(crate) const ENGLISH: Weights = [\n";
    for (name, w) in NAMES.iter().zip(report.weights) {
        s += &format!("    {w}, // {name}\n");
    }
    s += "];\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Random games whose result is decided by material after the last move: the lead in
    /// men wins.
    pub(super) fn games(seed: u64, n: usize) -> Vec<TuneGame> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut pos = Position::start();
                let mut moves = Vec::new();
                for _ in 0..rng.random_range(20..60) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    pos = pos.after(&mv);
                    moves.push(mv);
                }
                let lead = crate::search::material(&pos)
                    * if pos.turn() == crate::engine::Color::Red {
                        1
                    } else {
                        -1
                    };
                let result = match lead {
                    l if l > 0 => 1.0,
                    l if l < 0 => 0.0,
                    _ => 0.5,
                };
                TuneGame {
                    start: Position::start(),
                    moves,
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn tuning_lowers_the_loss_and_is_reproducible_from_its_seed() {
        let games = games(3, 300);
        let options = TuneOptions {
            epochs: 60,
            ..TuneOptions::default()
        };
        let a = tune(&games, &options);
        assert!(
            a.after.0 < a.before.0,
            "training {:?} -> {:?}",
            a.before,
            a.after
        );
        let held = a.split.held_games;
        assert!(held > 10 && held < 60, "{held}");
        assert_eq!(a.weights[term::MAN], 100, "the man's weight is held");
        let b = tune(&games, &options);
        assert_eq!(a.weights, b.weights);
        assert_eq!(a.split, b.split);
    }

    #[test]
    fn samples_are_quiet_positions_past_the_opening() {
        let games = games(4, 20);
        for g in &games {
            let samples = samples_of(g, 8);
            let mut pos = g.start;
            let mut quiet = 0;
            for (ply, mv) in g.moves.iter().enumerate() {
                if ply >= 8 && !crate::engine::has_capture(&pos) && !pos.legal_moves().is_empty() {
                    quiet += 1;
                }
                pos = pos.after(mv);
            }
            assert_eq!(samples.len(), quiet);
            assert!(samples.iter().all(|s| s.result == g.result));
        }
    }

    #[test]
    fn a_game_played_twice_counts_once() {
        // Two copies of one engine play the same game from both sides of a ballot: the twin
        // must not land in the held-out games while its copy trains.
        let once = games(8, 50);
        let mut twice = once.clone();
        twice.extend(once.clone());
        let options = TuneOptions::default();
        let (train, held, _) = split(&once, &options);
        let (train2, held2, _) = split(&twice, &options);
        assert_eq!(train2.len() + held2.len(), train.len() + held.len());
        assert!(!train.is_empty() && !held.is_empty());
    }

    #[test]
    fn k_fits_the_scale_of_the_evaluation() {
        let games = games(5, 200);
        let (train, _, _) = split(&games, &TuneOptions::default());
        let start = as_f64(&HAND);
        let k = fit_k(&train, &start);
        let best = loss(&train, &start, k);
        assert!(best <= loss(&train, &start, k * 1.5));
        assert!(best <= loss(&train, &start, k / 1.5));
    }

    #[test]
    fn the_weights_source_names_each_weight() {
        let report = TuneReport {
            split: Split {
                train_games: 9,
                train_positions: 90,
                held_games: 1,
                held_positions: 10,
                k: 0.01,
            },
            before: (0.2, 0.21),
            after: (0.1, 0.11),
            weights: HAND,
        };
        let s = weights_source(&report, "crossboard tune --pdn a.pdn");
        assert!(s.contains("    140, // king\n"), "{s}");
        assert!(s.contains("0.210000 hand-set, 0.110000 tuned"), "{s}");
        assert_eq!(s.matches(" // ").count(), TERMS);
    }
}
