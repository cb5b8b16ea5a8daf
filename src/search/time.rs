//! Thinking time: how much of a per-move allowance or of a clock one move may use.
//!
//! A search given a [`Budget`] starts no new iteration after `soft` and stops at `hard`, so that
//! over a game it uses about the allowance on average (an iteration started just before `soft`
//! usually ends before `hard`).

use std::time::{Duration, Instant};

/// Thinking time for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this much time.
    pub soft: Duration,
    /// The search stops at this much time.
    pub hard: Duration,
}

/// Moves a sudden-death clock is assumed to have to last.
const SUDDEN_DEATH_MOVES: u32 = 30;
/// Kept back on the clock for the time the move takes to reach the other side.
const SAFETY: Duration = Duration::from_millis(30);

impl Budget {
    /// About `t` per move on average (a fixed time per move).
    pub fn per_move(t: Duration) -> Budget {
        Budget {
            soft: t.mul_f64(0.6),
            hard: t.mul_f64(2.0),
        }
    }

    /// From a clock: `time` left, `moves` to the next control (none: sudden death), `inc` added
    /// before each move. Never plans to use more than 40 % of what is left.
    pub fn clock(time: Duration, moves: Option<u32>, inc: Duration) -> Budget {
        let left = (time + inc).saturating_sub(SAFETY);
        let moves = moves.unwrap_or(SUDDEN_DEATH_MOVES).max(1);
        let target = (time / moves + inc.mul_f64(0.9)).min(left.mul_f64(0.4));
        Budget {
            soft: target.mul_f64(0.6),
            hard: target.mul_f64(2.0).min(left.mul_f64(0.4)),
        }
    }

    /// The two instants from `start`: (soft, hard).
    pub fn deadlines(&self, start: Instant) -> (Instant, Instant) {
        (start + self.soft, start + self.hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_move_and_clock_budgets() {
        let b = Budget::per_move(Duration::from_millis(100));
        assert_eq!(b.soft, Duration::from_millis(60));
        assert_eq!(b.hard, Duration::from_millis(200));
        // 30 moves in 10 minutes: about 20 s a move, at most 40 % of the clock.
        let c = Budget::clock(Duration::from_secs(600), Some(30), Duration::ZERO);
        assert_eq!(c.soft, Duration::from_secs(12));
        assert!(c.hard <= Duration::from_secs(240) && c.hard >= c.soft);
        // Almost out of time: never more than what is left.
        let d = Budget::clock(Duration::from_millis(50), None, Duration::ZERO);
        assert!(d.hard < Duration::from_millis(50));
        let e = Budget::clock(Duration::ZERO, None, Duration::ZERO);
        assert_eq!(e.hard, Duration::ZERO);
    }
}
