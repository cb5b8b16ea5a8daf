//! Time controls and the two-sided game clock.
//!
//! The clock never reads time itself: every call takes `now_ms`, a monotonic reading in
//! milliseconds from whatever source the caller injects. Remaining time is kept in integer
//! milliseconds and is charged only when a move is committed ([`Clock::commit`]), from the
//! monotonic instant the turn started (pauses excluded), never by summing ticks. A move
//! committed after the time has run out is a flag, decided at that moment; [`Clock::check_flag`]
//! lets a UI notice a flag between moves.
//!
//! The instant the current turn started is not serialised: a clock read back from disk is
//! stopped at its last committed state and must be resumed with [`Clock::resume`].

mod control;
mod figures;
mod running;
#[cfg(test)]
mod tests;

pub use control::{
    Delay, DelayKind, PerMoveLimit, Period, TimeControl, TimeControlError, format_ms,
};
pub use figures::{ClockError, ClockReading, ClockState, Flag, FlagKind, MoveClock, SideReading};
pub(super) use figures::{Commit, SideClock};
pub use running::Clock;

const MS_PER_SECOND: u64 = 1000;
