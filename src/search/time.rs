//! Thinking time: how much of a per-move allowance or of a clock one move may use, and the
//! decisions the search takes by it (start another iteration, stop the running one).
//!
//! A [`Budget`] has four times from the move's start. Iterations start until `soft`. At
//! `target` the running iteration stops once its first root move (the last iteration's best)
//! is searched, or at once when it started after `late` (it had no chance to say much); an
//! iteration whose first move is still unresolved at `target` (the best move is in doubt) may
//! run on to `hard`, where every search stops. So a move takes about `target` and never more
//! than `hard`. A forced result inside the horizon ends a search on a clock at once; with a
//! time per move, whose unused time is lost, the search goes on until `soft` all the same. A
//! move with a single reply is played at once under either (the search does not start).

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
    /// Time not used is lost (a time per move, not a clock): a search whose result is forced
    /// goes on all the same, to fill the table for the next move.
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
    /// A forced result does not end the search (see [`Budget::use_all`]).
    pub use_all: bool,
}

impl Deadlines {
    /// May a new iteration start at `now`? `decided`: the last one found a forced result
    /// inside its horizon, which more depth will not change; it then stops the search, unless
    /// the time is lost when not used ([`Deadlines::use_all`]): the deeper iterations then
    /// fill the table for the next move.
    pub fn may_start(&self, now: Instant, decided: bool) -> bool {
        now < self.soft && (!decided || self.use_all)
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
        assert!(d.may_start(at(0), false) && d.may_start(at(99), false));
        assert!(!d.may_start(at(100), false));
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

    /// A search run by the rule on a fake clock (whole milliseconds, no waiting): iteration `k`
    /// takes `first * growth^k` ms, its first root move `share` of that; from iteration
    /// `decided_from` on the result is forced. Returns the time the move took.
    fn simulate(b: Budget, first: f64, growth: f64, share: f64, decided_from: u32) -> Duration {
        let t0 = Instant::now();
        let d = b.deadlines(t0);
        let mut now = 0u64;
        for k in 1..=64 {
            let began = now;
            let took = (first * growth.powi(k as i32)).ceil() as u64;
            let first_done = began + (took as f64 * share).ceil() as u64;
            while now < began + took {
                now += 1;
                if d.must_stop(t0 + MS(now), t0 + MS(began), now >= first_done) {
                    return MS(now);
                }
            }
            if !d.may_start(t0 + MS(now), k >= decided_from) {
                break;
            }
        }
        MS(now)
    }

    #[test]
    fn a_move_time_is_used_and_never_overrun() {
        let t = MS(150);
        let (mut sum, mut n) = (Duration::ZERO, 0u32);
        let (mut shortest, mut longest) = (Duration::MAX, Duration::ZERO);
        // Searches of every speed: iterations that double, or grow by half, from a fraction
        // of a millisecond to 40 ms; the first root move settled early or late; some results
        // forced from the sixth iteration.
        for first in (1..=400).map(|i| f64::from(i) * 0.1) {
            for growth in [1.5, 2.0] {
                for share in [0.2, 0.9] {
                    for decided_from in [6, 99] {
                        let used =
                            simulate(Budget::per_move(t), first, growth, share, decided_from);
                        sum += used;
                        n += 1;
                        shortest = shortest.min(used);
                        longest = longest.max(used);
                    }
                }
            }
        }
        let mean = sum / n;
        assert!(mean >= t.mul_f64(0.95), "mean {mean:?} of {t:?}");
        // No search stops before the time given (every one has depth left to go), none runs
        // past twice it.
        assert!(shortest >= t, "shortest {shortest:?}");
        assert!(longest <= t * 2, "longest {longest:?}");
        // A forced result on a clock ends the search at once: the clock's time is kept.
        let c = Budget::clock(Duration::from_secs(60), None, Duration::ZERO);
        assert_eq!(simulate(c, 0.1, 2.0, 0.5, 3), MS(3));
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
