//! Thinking time: how much of a per-move allowance or of a clock one move may use, and the
//! decisions the search takes by it (start another iteration, stop the running one).
//!
//! A [`Budget`] has four times from the move's start. Iterations start until `soft`. At
//! `target` the running iteration stops once its first root move (the last iteration's best)
//! is searched, or at once when it started after `late` (it had no chance to say much); an
//! iteration whose first move is still unresolved at `target` (the best move is in doubt) may
//! run on to `hard`, where every search stops. So a move takes about `target` and never more
//! than `hard`.

use std::time::{Duration, Instant};

/// Thinking time for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this much time.
    pub soft: Duration,
    /// The time aimed at: the running iteration stops here when its first root move is done.
    pub target: Duration,
    /// An iteration started after this much time stops at `target` even with its first root
    /// move unfinished.
    pub late: Duration,
    /// The search stops at this much time.
    pub hard: Duration,
    /// Time not used is lost (a time per move, not a clock): a move with a single reply is
    /// searched too, to fill the table for the next move, instead of being played at once.
    pub use_all: bool,
}

/// Moves a sudden-death clock is assumed to have to last.
const SUDDEN_DEATH_MOVES: u32 = 30;
/// Kept back on the clock for the time the move takes to reach the other side.
const SAFETY: Duration = Duration::from_millis(30);
/// The largest share of the clock one move may take.
const MAX_SHARE: f64 = 0.4;

impl Budget {
    /// About `t` for every move, never more than `2 t` (a fixed time per move).
    pub fn per_move(t: Duration) -> Budget {
        Budget {
            soft: t,
            target: t,
            late: t / 2,
            hard: t * 2,
            use_all: true,
        }
    }

    /// From a clock: `time` left, `moves` to the next control (none: sudden death), `inc` added
    /// before each move. Aims at `(time - 30 ms) / moves + 0.9 inc` and never goes past 40 % of
    /// what is left on the clock (less the 30 ms kept for the move to reach the other side), so
    /// the clock never runs out: after any move at least 60 % of it is left.
    pub fn clock(time: Duration, moves: Option<u32>, inc: Duration) -> Budget {
        let left = (time + inc).saturating_sub(SAFETY);
        let cap = left.mul_f64(MAX_SHARE);
        let moves = moves.unwrap_or(SUDDEN_DEATH_MOVES).max(1);
        let target = (time.saturating_sub(SAFETY) / moves + inc.mul_f64(0.9)).min(cap);
        Budget {
            soft: target,
            target,
            late: target / 2,
            hard: (target * 2).min(cap),
            use_all: false,
        }
    }

    /// The instants from `start`.
    pub fn deadlines(&self, start: Instant) -> Deadlines {
        Deadlines {
            soft: start + self.soft,
            target: start + self.target,
            late: start + self.late,
            hard: start + self.hard,
            use_all: self.use_all,
        }
    }
}

/// A [`Budget`] from a move's start: the instants the search decides by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// No new iteration starts after this.
    pub soft: Instant,
    /// The running iteration stops here when its first root move is done.
    pub target: Instant,
    /// An iteration started after this stops at `target` in any case.
    pub late: Instant,
    /// Every search stops here.
    pub hard: Instant,
    /// A move with a single reply is searched too (see [`Budget::use_all`]).
    pub use_all: bool,
}

impl Deadlines {
    /// May a new iteration start at `now`?
    pub fn may_start(&self, now: Instant) -> bool {
        now < self.soft
    }

    /// Must the running iteration, started at `began`, stop at `now`, its first root move
    /// searched (`first_done`) or not?
    pub fn must_stop(&self, now: Instant, began: Instant, first_done: bool) -> bool {
        now >= self.hard || (now >= self.target && (first_done || began >= self.late))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn per_move_budget_aims_at_the_time_given() {
        let b = Budget::per_move(MS(150));
        assert_eq!(
            (b.soft, b.target, b.late, b.hard),
            (MS(150), MS(150), MS(75), MS(300))
        );
        assert!(b.use_all);
    }

    #[test]
    fn the_search_stops_by_the_clock_it_is_shown() {
        // A fake clock: instants from a fixed start, no waiting.
        let t0 = Instant::now();
        let at = |ms| t0 + MS(ms);
        let d = Budget::per_move(MS(100)).deadlines(t0);
        // Iterations start until the target.
        assert!(d.may_start(at(0)) && d.may_start(at(99)));
        assert!(!d.may_start(at(100)));
        // Before the target nothing stops.
        assert!(!d.must_stop(at(99), at(10), true));
        // At the target: stop once the first root move is done ...
        assert!(d.must_stop(at(100), at(10), true));
        // ... or when the iteration started late (after half the time), done or not.
        assert!(d.must_stop(at(100), at(60), false));
        // An early iteration still on its first move runs on, to twice the time at most.
        assert!(!d.must_stop(at(100), at(40), false));
        assert!(!d.must_stop(at(199), at(40), false));
        assert!(d.must_stop(at(200), at(40), false));
    }

    #[test]
    fn a_clock_is_never_overspent() {
        // 30 moves in an hour: 2 minutes a move; the first move may run to 4.
        let c = Budget::clock(Duration::from_secs(3600), Some(30), Duration::ZERO);
        assert!(c.target > Duration::from_secs(119) && c.target < Duration::from_secs(120));
        assert_eq!(c.hard, c.target * 2);
        assert!(!c.use_all);
        // Any clock, any increment, any count of moves: the hard stop leaves 60 % of the clock
        // (increment included, less the safety margin).
        for time in [0, 1, 29, 31, 50, 200, 1_000, 60_000, 3_600_000] {
            for inc in [0, 1, 100, 2_000] {
                for moves in [None, Some(1), Some(2), Some(30)] {
                    let b = Budget::clock(MS(time), moves, MS(inc));
                    let left = (MS(time) + MS(inc)).saturating_sub(SAFETY);
                    assert!(b.hard <= left.mul_f64(MAX_SHARE), "{time} {inc} {moves:?}");
                    assert!(b.late <= b.target && b.target <= b.hard && b.soft <= b.hard);
                }
            }
        }
        // Sudden death with an increment: spend about the increment, plus a thirtieth.
        let s = Budget::clock(Duration::from_secs(60), None, Duration::from_secs(1));
        assert!(s.target > MS(2_800) && s.target < MS(3_000));
    }
}
