//! Search scores: hundredths of a man, or a win/loss at a known distance.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The value of a position for one side, in hundredths of a man (a man is worth 100), or a
/// forced win or loss: `WIN - n` is a win in `n` plies, `-(WIN - n)` a loss in `n` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Score(pub i32);

/// The score of a won position at the root (win in 0 plies); larger than any evaluation.
pub const WIN: i32 = 30_000;
/// Scores at or beyond this (in absolute value) are forced wins or losses.
pub const DECISIVE: i32 = WIN - 1_000;
/// Larger than any score: the initial alpha-beta window.
pub const INFINITY: i32 = WIN + 1;

impl Score {
    /// A draw (also the value of a repetition).
    pub const DRAW: Score = Score(0);

    /// A win in `plies` plies for the side this score belongs to.
    pub fn win_in(plies: u32) -> Score {
        Score(WIN - plies as i32)
    }

    /// A loss in `plies` plies.
    pub fn loss_in(plies: u32) -> Score {
        Score(-(WIN - plies as i32))
    }

    /// True for a forced win or loss.
    pub fn is_decisive(self) -> bool {
        self.0.abs() >= DECISIVE
    }

    /// Plies to the end of the game when decisive (positive for a win, negative for a loss).
    pub fn plies_to_end(self) -> Option<i32> {
        if !self.is_decisive() {
            None
        } else if self.0 > 0 {
            Some(WIN - self.0)
        } else {
            Some(-(WIN + self.0))
        }
    }

    /// The same score seen from the other side.
    pub fn flip(self) -> Score {
        Score(-self.0)
    }

    /// The score in men (a win or loss is ±100).
    pub fn men(self) -> f64 {
        match self.plies_to_end() {
            Some(p) if p >= 0 => 100.0,
            Some(_) => -100.0,
            None => f64::from(self.0) / 100.0,
        }
    }
}

impl fmt::Display for Score {
    /// `+1.25`, `-0.40`, `0.00`, `win in 7`, `loss in 4` (plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(p) if p >= 0 => write!(f, "win in {p}"),
            Some(p) => write!(f, "loss in {}", -p),
            None if self.0 == 0 => f.write_str("0.00"),
            None => write!(f, "{:+.2}", f64::from(self.0) / 100.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_distance() {
        assert_eq!(Score(125).to_string(), "+1.25");
        assert_eq!(Score(-40).to_string(), "-0.40");
        assert_eq!(Score::DRAW.to_string(), "0.00");
        assert_eq!(Score::win_in(7).to_string(), "win in 7");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score::loss_in(4).flip(), Score::win_in(4));
        assert_eq!(Score::win_in(3).plies_to_end(), Some(3));
        assert!(!Score(900).is_decisive());
        assert!(Score::win_in(3) > Score::win_in(5));
    }
}
