//! The running two-sided clock: starting, charging a move at its commit, flags, pauses,
//! adjustments and take-backs.

use super::{
    ClockError, ClockReading, ClockState, Commit, Delay, DelayKind, Flag, FlagKind, MS_PER_SECOND,
    MoveClock, SideClock, SideReading, TimeControl,
};
use crate::engine::Color;

/// The clock before a committed move, for take-backs: Red's and White's time left (ms) and
/// whether the mover had a single forced jump. Move counts and periods follow from the number
/// of moves taken back.
type Snapshot = (i64, i64, bool);

fn idx(c: Color) -> usize {
    match c {
        Color::Red => 0,
        Color::White => 1,
    }
}

/// Milliseconds in `seconds`, saturating (settings bound every duration far below the limit).
fn ms_of(seconds: u64) -> u64 {
    seconds.saturating_mul(MS_PER_SECOND)
}

/// `ms` as a signed figure, saturating.
fn signed(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// The monotonic instant the current stretch of a move began, when this process saw it begin.
///
/// Runtime only: never saved, and not part of a clock's value (two clocks that differ only in
/// it are equal), so a clock rebuilt from the event log equals the one that was running.
#[derive(Clone, Copy, Debug, Default)]
struct Anchor(Option<u64>);

impl PartialEq for Anchor {
    fn eq(&self, _: &Anchor) -> bool {
        true
    }
}

impl Eq for Anchor {}

/// A two-sided game clock under a [`TimeControl`].
///
/// Its value is what the event log says (times left, moves, periods, paused or not, the time
/// counted on the current move before its current stretch); the monotonic instant the current
/// stretch began is kept beside it for the running process only. Every operation that starts a
/// stretch takes that instant as `at: Option<u64>`: `None` when the clock is rebuilt from the
/// log, where no stretch is running in this process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: [SideClock; 2],
    to_move: Color,
    state: ClockState,
    /// Paused by the director, or held because the match was read back.
    paused: bool,
    /// Time counted on the current move before the current stretch (earlier stretches, between
    /// pauses).
    spent_ms: u64,
    /// The side to move has a single jump as its only move (shorter per-move limit).
    single_jump: bool,
    /// "Time" has been called on the current move (per-move limit reached).
    time_called: bool,
    /// The state before each committed move, for take-backs.
    history: Vec<Snapshot>,
    since: Anchor,
}

impl Clock {
    /// A clock set for a game where `to_move` moves first; not started.
    pub fn new(control: &TimeControl, to_move: Color) -> Clock {
        let first = control.periods.first().map_or(0, |p| ms_of(p.seconds));
        let side = SideClock {
            remaining_ms: signed(first),
            moves: 0,
            period: 0,
            period_moves: 0,
        };
        Clock {
            control: control.clone(),
            sides: [side; 2],
            to_move,
            state: ClockState::Ready,
            paused: false,
            spent_ms: 0,
            single_jump: false,
            time_called: false,
            history: Vec::new(),
            since: Anchor(None),
        }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose clock runs.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Ready, running or stopped.
    pub fn state(&self) -> ClockState {
        self.state
    }

    /// One side's state as of its last committed move.
    pub fn side(&self, color: Color) -> &SideClock {
        &self.sides[idx(color)]
    }

    /// True if running but not counting: paused by the director, or held since the match was
    /// read back.
    pub fn is_paused(&self) -> bool {
        self.state == ClockState::Running && self.paused
    }

    /// True if running and counting.
    pub fn is_running(&self) -> bool {
        self.state == ClockState::Running && !self.paused
    }

    /// "Time" has been called on the current move.
    pub fn time_called(&self) -> bool {
        self.time_called
    }

    /// Time counted on the current move before its current stretch.
    pub fn counted_ms(&self) -> u64 {
        self.spent_ms
    }

    /// Count `spent` ms on the current move as of an event recorded during it (checked with
    /// [`Clock::check_spent`]); a running clock's new stretch runs from `at`. So the time
    /// thought before the event is in the log, not only in this process.
    pub fn mark(&mut self, spent: u64, at: Option<u64>) {
        if self.state == ClockState::Running {
            self.spent_ms = spent;
            if !self.paused {
                self.since = Anchor(at);
            }
        }
    }

    /// Start the clock of the side to move (its stretch from `at`). `single_jump`: its only
    /// legal move is one jump.
    pub fn start(&mut self, at: Option<u64>, single_jump: bool) -> Result<(), ClockError> {
        if self.state != ClockState::Ready {
            return Err(ClockError::AlreadyStarted);
        }
        self.state = ClockState::Running;
        self.paused = false;
        self.spent_ms = 0;
        self.single_jump = single_jump;
        self.since = Anchor(at);
        Ok(())
    }

    /// Time spent on the current move at `now_ms`, pauses excluded.
    pub fn move_ms(&self, now_ms: u64) -> u64 {
        let running = match (self.is_running(), self.since.0) {
            (true, Some(since)) => now_ms.saturating_sub(since),
            _ => 0,
        };
        self.spent_ms.saturating_add(running)
    }

    /// Whether `spent_ms` can be the time on the current move now: not less than what was
    /// already counted, and exactly that while the clock does not run.
    pub fn check_spent(&self, spent_ms: u64) -> Result<(), ClockError> {
        let ok = if self.is_running() {
            spent_ms >= self.spent_ms
        } else {
            spent_ms == self.spent_ms
        };
        if ok {
            Ok(())
        } else {
            Err(ClockError::Backwards {
                spent_ms,
                counted_ms: self.spent_ms,
            })
        }
    }

    /// The per-move limit that applies to the current move (before the grace), ms.
    fn move_limit_ms(&self) -> Option<u64> {
        self.control.per_move.map(|l| {
            let s = if self.single_jump {
                l.single_jump_seconds
            } else {
                l.seconds
            };
            ms_of(s)
        })
    }

    /// Game time charged for a move that took `spent` ms, before bonuses.
    fn chargeable(&self, spent: u64) -> u64 {
        match self.control.delay {
            Some(Delay {
                kind: DelayKind::Simple,
                ..
            }) => spent.saturating_sub(self.control.delay_ms()),
            _ => spent,
        }
    }

    /// The flag due if the side to move had spent `spent` ms on its move (none unless running).
    pub fn flag_for(&self, spent: u64) -> Option<Flag> {
        if self.state != ClockState::Running {
            return None;
        }
        let color = self.to_move;
        if !self.control.periods.is_empty()
            && signed(self.chargeable(spent)) > self.sides[idx(color)].remaining_ms
        {
            return Some(Flag {
                color,
                kind: FlagKind::GameTime,
                spent_ms: spent,
            });
        }
        if let (Some(limit), Some(l)) = (self.move_limit_ms(), self.control.per_move)
            && spent > limit.saturating_add(ms_of(l.grace_seconds))
        {
            return Some(Flag {
                color,
                kind: FlagKind::MoveTime,
                spent_ms: spent,
            });
        }
        None
    }

    /// The flag that has fallen by `now_ms`, if any: more time spent than was left (exactly
    /// all of it is still in time). Does not change the clock.
    pub fn check_flag(&self, now_ms: u64) -> Option<Flag> {
        self.flag_for(self.move_ms(now_ms))
    }

    /// What committing a move by the side to move after `spent` ms would do: the figures to
    /// record, or the flag when the time ran out. Changes nothing.
    pub fn figures(&self, spent: u64) -> Result<Commit, ClockError> {
        match self.state {
            ClockState::Running if self.paused => return Err(ClockError::Paused),
            ClockState::Running => {}
            _ => return Err(ClockError::NotRunning),
        }
        if let Some(flag) = self.flag_for(spent) {
            return Ok(Commit::Flag(flag));
        }
        let (side, _) = self.after_commit(spent);
        Ok(Commit::Moved(MoveClock {
            spent_ms: spent,
            remaining_ms: (!self.control.periods.is_empty()).then_some(side.remaining_ms),
            period: side.period + 1,
        }))
    }

    /// The mover's side after a move of `spent` ms, and whether a new period began.
    fn after_commit(&self, spent: u64) -> (SideClock, bool) {
        let charge = signed(self.chargeable(spent));
        let bonus = signed(ms_of(self.control.increment_seconds)).saturating_add(
            match self.control.delay {
                Some(Delay {
                    kind: DelayKind::Bronstein,
                    ..
                }) => signed(spent.min(self.control.delay_ms())),
                _ => 0,
            },
        );
        let mut side = self.sides[idx(self.to_move)];
        if !self.control.periods.is_empty() {
            side.remaining_ms = side
                .remaining_ms
                .saturating_sub(charge)
                .saturating_add(bonus);
        }
        side.moves = side.moves.saturating_add(1);
        side.period_moves = side.period_moves.saturating_add(1);
        let mut new_period = false;
        if let Some(p) = self.control.period(side.period)
            && p.moves == Some(side.period_moves)
        {
            // Counts every control passed; the last period repeats (see `TimeControl::period`).
            side.period = side.period.saturating_add(1);
            side.period_moves = 0;
            new_period = true;
            if let Some(next) = self.control.period(side.period) {
                side.remaining_ms = side
                    .remaining_ms
                    .saturating_add(signed(ms_of(next.seconds)));
            }
        }
        (side, new_period)
    }

    /// Commit a move by the side to move that took `spent` ms: charge its time, add increments
    /// and new periods, and start the opponent's clock (its stretch from `at`).
    /// `single_jump_next`: the opponent's only legal move is one jump. Call only when
    /// [`Clock::figures`] says the move was in time.
    pub fn commit(&mut self, spent: u64, single_jump_next: bool, at: Option<u64>) {
        self.history.push((
            self.sides[0].remaining_ms,
            self.sides[1].remaining_ms,
            self.single_jump,
        ));
        let (side, _) = self.after_commit(spent);
        self.sides[idx(self.to_move)] = side;
        self.to_move = self.to_move.opponent();
        self.spent_ms = 0;
        self.time_called = false;
        self.single_jump = single_jump_next;
        self.since = Anchor(if self.paused { None } else { at });
    }

    /// The side whose per-move limit is reached after `spent` ms and on whom "Time" has not
    /// been called yet on this move. The move is lost when the grace runs out.
    pub fn time_call_due(&self, spent: u64) -> Option<Color> {
        if self.time_called || !self.is_running() {
            return None;
        }
        let limit = self.move_limit_ms()?;
        (spent >= limit).then_some(self.to_move)
    }

    /// Record that "Time" was called on the current move.
    pub fn call_time(&mut self) {
        self.time_called = true;
    }

    /// Stop the clock for good (the game is over) after `spent` ms on the move being made.
    pub fn stop(&mut self, spent: u64) {
        if self.state == ClockState::Running {
            self.spent_ms = spent;
            self.since = Anchor(None);
            self.state = ClockState::Stopped;
        }
    }

    /// Pause both clocks (a dispute) after `spent` ms on the current move, kept for when the
    /// clocks resume.
    pub fn pause(&mut self, spent: u64) -> Result<(), ClockError> {
        if self.state != ClockState::Running {
            return Err(ClockError::NotRunning);
        }
        if self.paused {
            return Err(ClockError::Paused);
        }
        self.spent_ms = spent;
        self.since = Anchor(None);
        self.paused = true;
        Ok(())
    }

    /// Resume after a pause, or after the match was read back (the stretch runs from `at`).
    pub fn resume(&mut self, at: Option<u64>) -> Result<(), ClockError> {
        if !self.is_paused() {
            return Err(if self.state == ClockState::Running {
                ClockError::NotPaused
            } else {
                ClockError::NotRunning
            });
        }
        self.paused = false;
        self.since = Anchor(at);
        Ok(())
    }

    /// Hold a running clock at what it had counted (the match was read back in a new process:
    /// the stretch since the last recorded event is unknown); the director resumes it.
    pub fn hold(&mut self) {
        if self.state == ClockState::Running {
            self.since = Anchor(None);
            self.paused = true;
        }
    }

    /// Make a stopped clock (a finished game) run again, paused, with the time it had when it
    /// stopped; the director resumes it.
    pub fn reopen(&mut self) {
        if self.state == ClockState::Stopped {
            self.state = ClockState::Running;
            self.paused = true;
            self.since = Anchor(None);
        }
    }

    /// What adding (positive) or removing (negative) game time for one side would leave.
    pub fn adjusted(&self, color: Color, delta_ms: i64) -> Result<i64, ClockError> {
        if self.control.periods.is_empty() {
            return Err(ClockError::NoGameClock);
        }
        let side = &self.sides[idx(color)];
        let ms = side
            .remaining_ms
            .checked_add(delta_ms)
            .ok_or(ClockError::TooMuch { color })?;
        if ms < 0 {
            return Err(ClockError::Negative { color, ms });
        }
        Ok(ms)
    }

    /// Set one side's game time left (an adjustment checked with [`Clock::adjusted`]).
    pub fn set_remaining(&mut self, color: Color, remaining_ms: i64) {
        self.sides[idx(color)].remaining_ms = remaining_ms;
    }

    /// Moves the clock has seen committed (what a take-back can undo).
    pub fn committed(&self) -> usize {
        self.history.len()
    }

    /// Undo the last `n` committed moves: restore both sides' times and counts as they were
    /// before them, and start the move afresh (its stretch from `at` if the clock runs).
    pub fn take_back(&mut self, n: usize, at: Option<u64>) -> Result<(), ClockError> {
        if n > self.history.len() {
            return Err(ClockError::TakeBack {
                asked: n,
                made: self.history.len(),
            });
        }
        if n == 0 {
            return Ok(());
        }
        let keep = self.history.len() - n;
        let (red_ms, white_ms, single_jump) = self.history[keep];
        self.history.truncate(keep);
        for _ in 0..n {
            self.to_move = self.to_move.opponent();
            let side = &mut self.sides[idx(self.to_move)];
            side.moves = side.moves.saturating_sub(1);
        }
        for (i, ms) in [red_ms, white_ms].into_iter().enumerate() {
            let side = &mut self.sides[i];
            side.remaining_ms = ms;
            (side.period, side.period_moves) = self.control.locate(side.moves);
        }
        self.single_jump = single_jump;
        self.time_called = false;
        self.spent_ms = 0;
        self.since = Anchor(self.is_running().then_some(at).flatten());
        Ok(())
    }

    /// The figures for display at `now_ms`. A stopped clock shows the time its last move took
    /// from the side that was to move (a fallen flag reads zero, its overrun in `balance_ms`).
    pub fn reading(&self, now_ms: u64) -> ClockReading {
        let spent = self.move_ms(now_ms);
        let has_clock = !self.control.periods.is_empty();
        let side = |c: Color| {
            let s = &self.sides[idx(c)];
            let to_move = c == self.to_move && self.state != ClockState::Ready;
            let to_move_running = c == self.to_move && self.state == ClockState::Running;
            let used = if to_move {
                signed(self.chargeable(spent))
            } else {
                0
            };
            let balance = has_clock.then(|| s.remaining_ms.saturating_sub(used));
            let limit_left = if to_move_running {
                self.move_limit_ms()
                    .map(|l| signed(l).saturating_sub(signed(spent)))
            } else {
                None
            };
            let expired = to_move
                && (self.state == ClockState::Running || self.state == ClockState::Stopped)
                && self.flag_kind_for(spent).is_some();
            SideReading {
                remaining_ms: balance.map(|b| b.max(0)),
                balance_ms: balance,
                moves: s.moves,
                period: s.period + 1,
                moves_to_control: self
                    .control
                    .period(s.period)
                    .and_then(|p| p.moves)
                    .map(|m| m.saturating_sub(s.period_moves)),
                move_ms: to_move.then_some(spent),
                move_limit_left_ms: limit_left,
                warning: limit_left.is_some_and(|l| l <= 0),
                expired,
            }
        };
        ClockReading {
            red: side(Color::Red),
            white: side(Color::White),
            to_move: self.to_move,
            running: self.is_running(),
            paused: self.is_paused(),
        }
    }

    /// The flag `spent` ms would make fall on the side to move, whatever the clock's state.
    fn flag_kind_for(&self, spent: u64) -> Option<FlagKind> {
        if !self.control.periods.is_empty()
            && signed(self.chargeable(spent)) > self.sides[idx(self.to_move)].remaining_ms
        {
            return Some(FlagKind::GameTime);
        }
        match (self.move_limit_ms(), self.control.per_move) {
            (Some(limit), Some(l)) if spent > limit.saturating_add(ms_of(l.grace_seconds)) => {
                Some(FlagKind::MoveTime)
            }
            _ => None,
        }
    }
}
