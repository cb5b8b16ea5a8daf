//! The time source of the TUI, injected so tests run against a fake clock.
//!
//! The binary uses [`SystemClock`] (monotonic `Instant::now`); tests use [`FakeClock`] and move
//! it forward by hand. Screens never call `Instant::now()` themselves: the event loop reads the
//! clock once per message and hands the value to [`App::update`](super::App::update).

use std::cell::Cell;
use std::time::{Duration, Instant};

/// A source of monotonic time.
pub trait TimeSource {
    /// The current instant.
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl TimeSource for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that only moves when told to.
#[derive(Debug)]
pub struct FakeClock {
    base: Instant,
    offset: Cell<Duration>,
}

impl FakeClock {
    /// A fake clock standing at an arbitrary fixed instant.
    pub fn new() -> FakeClock {
        FakeClock {
            base: Instant::now(),
            offset: Cell::new(Duration::ZERO),
        }
    }

    /// Move the clock forward.
    pub fn advance(&self, by: Duration) {
        self.offset.set(self.offset.get() + by);
    }

    /// Time elapsed since the clock was made.
    pub fn elapsed(&self) -> Duration {
        self.offset.get()
    }
}

impl Default for FakeClock {
    fn default() -> FakeClock {
        FakeClock::new()
    }
}

impl TimeSource for FakeClock {
    fn now(&self) -> Instant {
        self.base + self.offset.get()
    }
}

impl<C: TimeSource + ?Sized> TimeSource for &C {
    fn now(&self) -> Instant {
        (**self).now()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_clock_moves_only_when_advanced() {
        let c = FakeClock::new();
        let t0 = c.now();
        assert_eq!(c.now(), t0);
        c.advance(Duration::from_millis(1500));
        assert_eq!(c.now() - t0, Duration::from_millis(1500));
    }
}
