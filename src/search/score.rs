//! Search scores: hundredths of a man, a win/loss at a known distance, or an endgame database
//! result.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The value of a position for one side, in hundredths of a man (a man is worth 100), or a
/// forced win or loss: `WIN - n` is a win in `n` plies, `-(WIN - n)` a loss in `n` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Score(pub i32);

/// The score of a won position at the root (win in 0 plies); larger than any evaluation.
pub(super) const WIN: i32 = 30_000;
/// Scores at or beyond this (in absolute value) are forced wins or losses.
pub(super) const DECISIVE: i32 = WIN - 1_000;
/// The score of an endgame database win at the root. Database results sit in a band below the
/// forced ones: `DB_WIN - n` is a position the databases call won, reached in `n` plies.
pub(super) const DB_WIN: i32 = 20_000;
/// Scores at or beyond this (in absolute value) are known results: database or forced.
pub(super) const KNOWN: i32 = DB_WIN - 1_000;
/// Larger than any score: the initial alpha-beta window.
pub(super) const INFINITY: i32 = WIN + 1;

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

    /// True for a known result: forced, or a database win or loss.
    pub fn is_known(self) -> bool {
        self.0.abs() >= KNOWN
    }

    /// True for a database win or loss (not a forced result inside the horizon).
    pub fn is_database(self) -> bool {
        self.is_known() && !self.is_decisive()
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

    /// The score in men (a win or loss, forced or from the databases, is ±100).
    pub fn men(self) -> f64 {
        if self.is_known() {
            100.0 * f64::from(self.0.signum())
        } else {
            f64::from(self.0) / 100.0
        }
    }
}

impl fmt::Display for Score {
    /// `+1.25`, `-0.40`, `0.00`, `win in 7`, `loss in 4` (plies), `db win`, `db loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(p) if p >= 0 => write!(f, "win in {p}"),
            Some(p) => write!(f, "loss in {}", -p),
            None if self.is_database() && self.0 > 0 => f.write_str("db win"),
            None if self.is_database() => f.write_str("db loss"),
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
        let db = Score(DB_WIN - 5);
        assert_eq!(db.to_string(), "db win");
        assert_eq!(db.flip().to_string(), "db loss");
        assert!(db.is_known() && db.is_database() && !db.is_decisive());
        assert!(Score::win_in(90) > db && db > Score(2_400));
        assert_eq!(db.plies_to_end(), None);
        assert_eq!(db.flip().men(), -100.0);
    }
}
