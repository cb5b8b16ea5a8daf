//! Fitting the pattern tables of the English evaluation (see `eval/patterns.rs`) together with
//! their linear weights, on the same positions and results as the linear tuning: logistic
//! regression on sparse features (each position turns on one entry a region and phase, and
//! the entry of the turned board with the opposite sign), by Adam, the tables held near zero by
//! an L2 penalty, the linear weights pulled towards those of `weights.rs`.

use super::{Sample, Split, TuneGame, TuneOptions, fit_k, sigmoid, split_by};
use crate::engine::{Position, Rules};
use crate::search::eval::{
    CONFIGS, ENGLISH, ENTRIES, Evaluation, FULL, HAND, PHASES, REGIONS, SCALE, TERMS, Weights,
    configs, english_features, evaluate_quiet, mirror_config, mirror_region, term,
};

/// A position's linear terms, the table entries it turns on, its phase and its game's result.
#[derive(Clone, Copy, Debug)]
struct PatternSample {
    linear: Sample,
    /// The full board's entry of each region (the empty board's is the next one).
    own: [u32; REGIONS],
    /// The entry of each region of the turned board, colours swapped (counted negatively).
    turned: [u32; REGIONS],
    /// The pieces on the board over [`FULL`]: the full board's share of the blend.
    phase: f32,
}

/// The settings of a fit of the tables, on top of the [`TuneOptions`].
#[derive(Clone, Copy, Debug)]
pub struct PatternOptions {
    /// Step of Adam, in hundredths of a man.
    pub rate: f64,
    /// This times the sum of the squared table entries is added to the loss.
    pub l2: f64,
}

/// What a fit of the tables found.
#[derive(Clone, Debug)]
pub struct PatternReport {
    /// The split of the games (the same as [`super::tune`]'s), and the sigmoid's scale fitted
    /// to the linear weights of `weights.rs`.
    pub split: Split,
    /// Held-out mean squared error: hand-set weights, the linear weights of `weights.rs`, the
    /// tables with their linear weights (as shipped: whole numbers).
    pub held: (f64, f64, f64),
    /// Training mean squared error: `weights.rs`, the tables.
    pub train: (f64, f64),
    /// Held-out mean squared error every 50 rounds.
    pub curve: Vec<(usize, f64)>,
    /// The fitted linear weights.
    pub linear: Weights,
    /// The fitted tables, symmetric, in 1/[`SCALE`] of a hundredth of a man.
    pub tables: Vec<i16>,
}

/// The quiet English positions of a game past its first `skip` plies, as samples.
fn pattern_samples(game: &TuneGame, skip: usize) -> Vec<PatternSample> {
    let mut out = Vec::new();
    let mut pos = game.start;
    for (ply, mv) in game.moves.iter().enumerate() {
        let quiet = !pos.can_capture() && evaluate_quiet(&pos, Evaluation::Linear, None).is_some();
        if ply >= skip && pos.rules() == Rules::English && quiet {
            out.push(sample(&pos, game.result));
        }
        pos = pos.after(mv);
    }
    out
}

fn sample(pos: &Position, result: f32) -> PatternSample {
    let c = configs(pos);
    let own = std::array::from_fn(|r| ((r * CONFIGS + c[r]) * PHASES) as u32);
    let turned = std::array::from_fn(|r| turned_entry(r, c[r]) as u32);
    PatternSample {
        linear: Sample {
            features: english_features(pos).0.map(|x| x as f32),
            result,
        },
        own,
        turned,
        phase: pos.occupied().count_ones() as f32 / FULL as f32,
    }
}

/// Red's and White's men of configuration `c` (bytes).
fn config_bits(mut c: usize) -> (u32, u32) {
    let (mut red, mut white) = (0, 0);
    for i in 0..8 {
        match c % 3 {
            1 => red |= 1 << i,
            2 => white |= 1 << i,
            _ => {}
        }
        c /= 3;
    }
    (red, white)
}

/// The full board's entry of region `r`'s configuration `c` on the turned board.
fn turned_entry(r: usize, c: usize) -> usize {
    let (red, white) = config_bits(c);
    (mirror_region(r) * CONFIGS + mirror_config(red, white)) * PHASES
}

/// The evaluation for Red of a sample, in hundredths of a man.
fn eval(s: &PatternSample, w: &[f64; TERMS], t: &[f64]) -> f64 {
    let dot: f64 = (0..TERMS)
        .map(|i| f64::from(s.linear.features[i]) * w[i])
        .sum();
    let a = f64::from(s.phase);
    let mut table = 0.0;
    for r in 0..REGIONS {
        let (o, m) = (s.own[r] as usize, s.turned[r] as usize);
        table += a * (t[o] - t[m]) + (1.0 - a) * (t[o + 1] - t[m + 1]);
    }
    dot / f64::from(SCALE) + table
}

fn loss(samples: &[PatternSample], w: &[f64; TERMS], t: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(k * eval(s, w, t)) - f64::from(s.linear.result)).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The gradient's sums (not yet over the samples' number): linear weights, table entries.
fn gradient(samples: &[PatternSample], w: &[f64; TERMS], t: &[f64], k: f64) -> Vec<f64> {
    let mut g = vec![0.0; TERMS + ENTRIES];
    for s in samples {
        let p = sigmoid(k * eval(s, w, t));
        let d = 2.0 * (p - f64::from(s.linear.result)) * p * (1.0 - p) * k;
        for (gi, &x) in g.iter_mut().zip(&s.linear.features) {
            *gi += d * f64::from(x) / f64::from(SCALE);
        }
        let a = f64::from(s.phase);
        let tg = &mut g[TERMS..];
        for r in 0..REGIONS {
            let (o, m) = (s.own[r] as usize, s.turned[r] as usize);
            tg[o] += d * a;
            tg[o + 1] += d * (1.0 - a);
            tg[m] -= d * a;
            tg[m + 1] -= d * (1.0 - a);
        }
    }
    g
}

/// The mean gradient over both cores.
fn gradient_parallel(samples: &[PatternSample], w: &[f64; TERMS], t: &[f64], k: f64) -> Vec<f64> {
    let (a, b) = samples.split_at(samples.len() / 2);
    let (mut ga, gb) = std::thread::scope(|scope| {
        let h = scope.spawn(|| gradient(b, w, t, k));
        let ga = gradient(a, w, t, k);
        (ga, h.join().unwrap_or_default())
    });
    let n = samples.len().max(1) as f64;
    for (x, y) in ga.iter_mut().zip(gb.iter().chain(std::iter::repeat(&0.0))) {
        *x = (*x + y) / n;
    }
    ga
}

/// The entries as shipped: each the difference of its own and its turned entry's, in
/// 1/[`SCALE`] of a hundredth of a man, whole.
fn symmetric(t: &[f64]) -> Vec<i16> {
    (0..ENTRIES)
        .map(|i| {
            let (phase, base) = (i % PHASES, i - i % PHASES);
            let (r, c) = (base / PHASES / CONFIGS, base / PHASES % CONFIGS);
            let m = turned_entry(r, c) + phase;
            (f64::from(SCALE) * (t[i] - t[m]))
                .round()
                .clamp(-32767.0, 32767.0) as i16
        })
        .collect()
}

/// Adam state: the first and second moments of each parameter.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f64], g: &[f64], rate: f64) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for i in 0..params.len() {
            if g[i] == 0.0 && self.v[i] == 0.0 {
                continue;
            }
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            params[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-12);
        }
    }
}

/// Fits the tables and their linear weights on `games`, starting from the weights of
/// `weights.rs` and empty tables; the same split of the games as [`super::tune`].
pub fn tune_patterns(
    games: &[TuneGame],
    options: &TuneOptions,
    fit: &PatternOptions,
) -> PatternReport {
    let (train, held, held_games, train_games) =
        split_by(games, options, |g| pattern_samples(g, options.skip_plies));
    let linear = |s: &[PatternSample]| s.iter().map(|p| p.linear).collect::<Vec<_>>();
    let (train_linear, held_linear) = (linear(&train), linear(&held));
    let start = ENGLISH.map(f64::from);
    let k = fit_k(&train_linear, &start);
    let mut params = vec![0.0; TERMS + ENTRIES];
    params[..TERMS].copy_from_slice(&start);
    let mut adam = Adam {
        m: vec![0.0; params.len()],
        v: vec![0.0; params.len()],
        t: 0,
    };
    let mut curve = Vec::new();
    for epoch in 1..=options.epochs {
        let (w, t) = params.split_at(TERMS);
        let w: [f64; TERMS] = std::array::from_fn(|i| w[i]);
        let mut g = gradient_parallel(&train, &w, t, k);
        for i in 0..TERMS {
            g[i] += 2.0 * options.prior * (w[i] - start[i]);
        }
        g[term::MAN] = 0.0;
        for (gi, ti) in g[TERMS..].iter_mut().zip(t) {
            *gi += 2.0 * fit.l2 * ti;
        }
        adam.step(&mut params, &g, fit.rate);
        if epoch % 50 == 0 {
            let (w, t) = params.split_at(TERMS);
            let w: [f64; TERMS] = std::array::from_fn(|i| w[i]);
            curve.push((epoch, loss(&held, &w, t, k)));
        }
    }
    let weights: Weights = std::array::from_fn(|i| params[i].round() as i32);
    let tables = symmetric(&params[TERMS..]);
    // The shipped tables already hold both halves of each entry: evaluated with the turned
    // entries at zero, they give the shipped evaluation.
    let shipped: Vec<f64> = tables
        .iter()
        .map(|&x| f64::from(x) / f64::from(SCALE) / 2.0)
        .collect();
    let (wf, hand) = (weights.map(f64::from), HAND.map(f64::from));
    PatternReport {
        split: Split {
            train_games,
            train_positions: train.len(),
            held_games,
            held_positions: held.len(),
            k,
        },
        held: (
            super::loss(&held_linear, &hand, k),
            super::loss(&held_linear, &start, k),
            loss(&held, &wf, &shipped, k),
        ),
        train: (
            super::loss(&train_linear, &start, k),
            loss(&train, &wf, &shipped, k),
        ),
        curve,
        linear: weights,
        tables,
    }
}

/// The asset `assets/eval/english.bin`: the linear weights (i32), then the tables (i16),
/// little endian.
pub fn asset_bytes(report: &PatternReport) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 * TERMS + 2 * ENTRIES);
    for w in report.linear {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for t in &report.tables {
        out.extend_from_slice(&t.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_the_tables_lowers_the_loss_reproducibly_and_keeps_them_symmetric() {
        let games = super::super::tests::games(7, 300);
        let options = TuneOptions {
            epochs: 40,
            ..TuneOptions::default()
        };
        let fit = PatternOptions {
            rate: 0.5,
            l2: 1e-9,
        };
        let a = tune_patterns(&games, &options, &fit);
        assert!(a.train.1 < a.train.0, "training {:?}", a.train);
        assert_eq!(a.linear[term::MAN], 100, "the man's weight is held");
        assert!(a.tables.iter().any(|&t| t != 0), "the tables moved");
        for (i, &t) in a.tables.iter().enumerate() {
            let (phase, base) = (i % PHASES, i - i % PHASES);
            let m = turned_entry(base / PHASES / CONFIGS, base / PHASES % CONFIGS) + phase;
            assert_eq!(a.tables[m], -t, "entry {i}");
        }
        let b = tune_patterns(&games, &options, &fit);
        assert_eq!(a.tables, b.tables);
        assert_eq!(a.linear, b.linear);
        let bytes = asset_bytes(&a);
        assert_eq!(bytes.len(), 4 * TERMS + 2 * ENTRIES);
        assert_eq!(&bytes[..4], &100i32.to_le_bytes());
    }
}
