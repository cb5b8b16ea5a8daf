//! The statistics of an engine match: results counted over game pairs (the two colours of one
//! ballot), the Elo difference with its 95 % interval, and the generalised sequential
//! probability ratio test (GSPRT) that stops a match once it can tell.
//!
//! The model is the pentanomial one: a pair scores 0, ½, 1, 1½ or 2 points, and the five
//! frequencies are the data. Pairs, not games, are the independent trials: the two games of a
//! ballot are correlated (a lopsided ballot tends to be won by whoever has the good side), and
//! counting them as independent games overstates the noise. Elo is logistic Elo (a score `s`
//! is `-400 log10(1/s - 1)` Elo), as BayesElo-free tools (fastchess, OpenBench, fishtest's
//! logistic mode) print it.
//!
//! The log-likelihood ratio is Michel Van den Bergh's generalised one: for each hypothesis the
//! maximum-likelihood distribution of the five outcomes whose mean score is the hypothesis's,
//! and the ratio of the data's likelihoods under the two ("Computing the GSPRT LLR",
//! hardy.uhasselt.be/Toga/computeLLR.pdf, proposition 1.1). Pure arithmetic: no I/O.

use std::fmt;

/// The points a pair can score, per game: index `i` of the counts is a pair worth `i` half
/// points, whose score per game is `i / 4`.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The two-sided 95 % normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Weight of the prior mixed into counts with an empty outcome, so that every outcome has some
/// probability and no logarithm sees a zero (the regularisation fishtest uses).
const PRIOR: f64 = 1e-3;

/// The expected score of a side `elo` logistic Elo stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference a score (0 to 1) stands for: infinite at 0 and 1, +0 (never
/// -0) at ½.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        0.0 - 400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Results counted over game pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs worth 0, ½, 1, 1½ and 2 points to the first engine.
    pub counts: [u64; 5],
}

/// An Elo difference with its 95 % interval (logistic Elo; the ends may be infinite when the
/// interval reaches a score of 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Pentanomial {
    /// The counts of a pair worth `half_points` (0 to 4) added.
    pub fn add(&mut self, half_points: usize) {
        if let Some(c) = self.counts.get_mut(half_points) {
            *c += 1;
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean score per game and its variance per pair (`None` without a pair).
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean = self
            .counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, a)| c as f64 * a)
            .sum::<f64>()
            / n;
        let var = self
            .counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, a)| c as f64 * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The first engine's mean score per game (0 to 1).
    pub fn score(&self) -> Option<f64> {
        self.mean_and_variance().map(|(mean, _)| mean)
    }

    /// The Elo difference and its 95 % interval, from the pairs' mean and its standard error.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mean, var) = self.mean_and_variance()?;
        let margin = Z95 * (var / self.pairs() as f64).sqrt();
        Some(EloEstimate {
            elo: elo_of_score(mean),
            low: elo_of_score(mean - margin),
            high: elo_of_score(mean + margin),
        })
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// An Elo figure in words: signed with one decimal, `+inf`/`-inf` at the ends, never NaN.
pub fn elo_text(elo: f64) -> String {
    if elo.is_nan() {
        "?".into()
    } else if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{elo:+.1}")
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (95 %: {} to {})",
            elo_text(self.elo),
            elo_text(self.low),
            elo_text(self.high)
        )
    }
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// The first engine is `elo0` stronger (or less): no gain shown.
    H0,
    /// The first engine is `elo1` stronger (or more).
    H1,
}

/// Why an SPRT's parameters are refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// The bounds are not two finite Elo figures, the first below the second.
    #[error("the SPRT's Elo bounds must be finite, ELO0 below ELO1, within ±2000 (not {0} {1})")]
    Bounds(f64, f64),
    /// An error rate outside (0, 0.5].
    #[error("{0} {1} is out of range: above 0, at most 0.5")]
    Rate(&'static str, f64),
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`, with
/// false-positive rate `alpha` and false-negative rate `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    /// The test, its parameters checked.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let finite = |e: f64| e.is_finite() && e.abs() <= 2000.0;
        if !(finite(elo0) && finite(elo1) && elo0 < elo1) {
            return Err(SprtError::Bounds(elo0, elo1));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate <= 0.5) {
                return Err(SprtError::Rate(name, rate));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The Elo bounds `(elo0, elo1)`.
    pub fn elo_bounds(&self) -> (f64, f64) {
        (self.elo0, self.elo1)
    }

    /// The error rates `(alpha, beta)`.
    pub fn rates(&self) -> (f64, f64) {
        (self.alpha, self.beta)
    }

    /// The LLR's bounds: H0 is accepted at or below `log(beta / (1 - alpha))`, H1 at or above
    /// `log((1 - beta) / alpha)` (Wald's).
    pub fn llr_bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of H1 against H0 for these pairs (0 without one).
    pub fn llr(&self, results: &Pentanomial) -> f64 {
        let n = results.pairs();
        if n == 0 {
            return 0.0;
        }
        let n = n as f64;
        let counts = results.counts.map(|c| c as f64);
        // A prior mixed in when an outcome is empty, keeping the total (fishtest's `priorize`).
        let counts = if counts.contains(&0.0) {
            counts.map(|c| c * (1.0 - PRIOR / n) + PRIOR / 5.0)
        } else {
            counts
        };
        let p = counts.map(|c| c / n);
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (log_likelihood(&p, s1) - log_likelihood(&p, s0))
    }

    /// The decision an LLR reaches, if any.
    pub fn decision(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.llr_bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// The mean log-likelihood of the empirical distribution `p` (over [`PAIR_SCORES`], every
/// entry positive) under the maximum-likelihood distribution with mean score `s` (0 < s < 1).
///
/// That distribution is `p_i / (1 + x (a_i - s))`, with `x` the root of
/// `f(x) = sum p_i (a_i - s) / (1 + x (a_i - s))` between `-1 / (1 - s)` and `1 / s`, where
/// every weight stays positive; `f` falls from +inf to -inf there, so bisection finds it.
fn log_likelihood(p: &[f64; 5], s: f64) -> f64 {
    let f = |x: f64| -> f64 {
        p.iter()
            .zip(PAIR_SCORES)
            .map(|(pi, a)| pi * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    p.iter()
        .zip(PAIR_SCORES)
        .map(|(pi, a)| pi * (pi / (1.0 + x * (a - s))).ln())
        .sum()
}
