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

use super::limits;
use crate::engine::Color;
use serde::{Deserialize, Serialize};
use thiserror::Error;

const MS_PER_SECOND: u64 = 1000;

/// A time control, as a director sets it up. All durations are in whole seconds.
///
/// The game clock is a list of periods; the last one repeats. With no periods there is no game
/// clock (only the per-move limit, if any). Examples: [`TimeControl::moves_per_period`] (30
/// moves per hour with carry-over, the default), [`TimeControl::apca`] (70 minutes for 35 moves,
/// then 30 minutes per 15 moves), [`TimeControl::sudden_death`], [`TimeControl::fischer`],
/// [`TimeControl::delay`], [`TimeControl::per_move_classic`] and [`TimeControl::none`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct TimeControl {
    /// Game-clock periods in order; the last repeats. Unused time always carries over.
    #[serde(default)]
    pub periods: Vec<Period>,
    /// Fischer increment added to a player's time after each of their moves, seconds.
    #[serde(default)]
    pub increment_seconds: u64,
    /// A delay (simple/US or Bronstein) per move, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay: Option<Delay>,
    /// A limit on each single move, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move: Option<PerMoveLimit>,
}

/// One period of a game clock: `seconds` for the next `moves` moves (or the rest of the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Period {
    /// Moves to make in this period; `None` for the rest of the game (sudden death).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// Time given at the start of the period, seconds (added to what is left).
    pub seconds: u64,
}

/// How a delay works.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelayKind {
    /// Simple (US) delay: the clock starts counting down only after the delay.
    Simple,
    /// Bronstein: the clock counts down at once; the time used, up to the delay, is given back.
    Bronstein,
}

/// A per-move delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Delay {
    /// Simple or Bronstein.
    pub kind: DelayKind,
    /// The delay, seconds.
    pub seconds: u64,
}

/// The classic limit on each move: "Time" is called at `seconds` (`single_jump_seconds` when the
/// only legal move is one jump), and the move is lost on time `grace_seconds` later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct PerMoveLimit {
    /// Time for an ordinary move before the warning, seconds (classic: 300).
    pub seconds: u64,
    /// Time when the only legal move is a single jump, seconds (classic: 60).
    pub single_jump_seconds: u64,
    /// Time after the warning before the move is lost, seconds (classic: 60).
    pub grace_seconds: u64,
}

impl Default for PerMoveLimit {
    fn default() -> Self {
        PerMoveLimit {
            seconds: 300,
            single_jump_seconds: 60,
            grace_seconds: 60,
        }
    }
}

/// A time control that does not make sense.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// A period without a move count is not the last.
    #[error("period {0} has no move count but is not the last period")]
    OpenPeriodNotLast(usize),
    /// A period of zero moves.
    #[error("period {0} has zero moves")]
    ZeroMoves(usize),
    /// A period of zero time.
    #[error("period {0} gives no time")]
    ZeroTime(usize),
    /// An increment or delay without a game clock.
    #[error("an increment or delay needs at least one period of game time")]
    BonusWithoutClock,
    /// A zero per-move limit.
    #[error("the per-move limit must be at least one second")]
    ZeroMoveLimit,
    /// An increment and a delay together.
    #[error("an increment and a delay cannot be combined: choose one")]
    IncrementAndDelay,
    /// More periods than a clock takes.
    #[error("{0} periods: at most {max}", max = limits::PERIODS_MAX)]
    TooManyPeriods(usize),
    /// A period of too many moves.
    #[error("period {0} has {1} moves: at most {max}", max = limits::PERIOD_MOVES_MAX)]
    TooManyMoves(usize, u32),
    /// A period of too much time.
    #[error("period {0} gives {1} s: at most {max} s (a day)", max = limits::PERIOD_SECONDS_MAX)]
    TooMuchTime(usize, u64),
    /// An increment or a delay too long.
    #[error("an increment or delay of {0} s: at most {max} s", max = limits::BONUS_SECONDS_MAX)]
    BonusTooLong(u64),
    /// A delay of zero seconds.
    #[error("a delay must be at least one second")]
    ZeroDelay,
    /// A per-move limit figure too long.
    #[error("a per-move limit of {0} s: at most {max} s", max = limits::MOVE_LIMIT_SECONDS_MAX)]
    MoveLimitTooLong(u64),
}

impl Default for TimeControl {
    /// 30 moves per hour with carry-over.
    fn default() -> Self {
        TimeControl::moves_per_period(30, 3600)
    }
}

impl TimeControl {
    /// No clock at all.
    pub fn none() -> TimeControl {
        TimeControl {
            periods: Vec::new(),
            increment_seconds: 0,
            delay: None,
            per_move: None,
        }
    }

    /// `seconds` for every `moves` moves, unused time carried over (30 moves per hour:
    /// `moves_per_period(30, 3600)`).
    pub fn moves_per_period(moves: u32, seconds: u64) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: Some(moves),
                seconds,
            }],
            ..TimeControl::none()
        }
    }

    /// The APCA control: 70 minutes for the first 35 moves, then 30 minutes per 15 moves.
    pub fn apca() -> TimeControl {
        TimeControl {
            periods: vec![
                Period {
                    moves: Some(35),
                    seconds: 70 * 60,
                },
                Period {
                    moves: Some(15),
                    seconds: 30 * 60,
                },
            ],
            ..TimeControl::none()
        }
    }

    /// `seconds` each for the whole game.
    pub fn sudden_death(seconds: u64) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                seconds,
            }],
            ..TimeControl::none()
        }
    }

    /// `base_seconds` for the game plus `increment_seconds` after each move.
    pub fn fischer(base_seconds: u64, increment_seconds: u64) -> TimeControl {
        TimeControl {
            increment_seconds,
            ..TimeControl::sudden_death(base_seconds)
        }
    }

    /// `base_seconds` for the game with a per-move delay.
    pub fn delay(base_seconds: u64, kind: DelayKind, delay_seconds: u64) -> TimeControl {
        TimeControl {
            delay: Some(Delay {
                kind,
                seconds: delay_seconds,
            }),
            ..TimeControl::sudden_death(base_seconds)
        }
    }

    /// Only the classic per-move limit: 5 minutes a move, 1 minute for a single forced jump,
    /// lost one minute after "Time" is called.
    pub fn per_move_classic() -> TimeControl {
        TimeControl {
            per_move: Some(PerMoveLimit::default()),
            ..TimeControl::none()
        }
    }

    /// True if there is no game clock and no per-move limit.
    pub fn is_none(&self) -> bool {
        self.periods.is_empty() && self.per_move.is_none()
    }

    /// Check that the control makes sense.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        if self.periods.len() > limits::PERIODS_MAX {
            return Err(TimeControlError::TooManyPeriods(self.periods.len()));
        }
        for (i, p) in self.periods.iter().enumerate() {
            let n = i + 1;
            match p.moves {
                None if n != self.periods.len() => {
                    return Err(TimeControlError::OpenPeriodNotLast(n));
                }
                Some(0) => return Err(TimeControlError::ZeroMoves(n)),
                Some(m) if m > limits::PERIOD_MOVES_MAX => {
                    return Err(TimeControlError::TooManyMoves(n, m));
                }
                _ => {}
            }
            if p.seconds == 0 {
                return Err(TimeControlError::ZeroTime(n));
            }
            if p.seconds > limits::PERIOD_SECONDS_MAX {
                return Err(TimeControlError::TooMuchTime(n, p.seconds));
            }
        }
        let delay = self.delay.map_or(0, |d| d.seconds);
        for bonus in [self.increment_seconds, delay] {
            if bonus > limits::BONUS_SECONDS_MAX {
                return Err(TimeControlError::BonusTooLong(bonus));
            }
        }
        if self.delay.is_some() && delay == 0 {
            return Err(TimeControlError::ZeroDelay);
        }
        if let Some(l) = self.per_move {
            for s in [l.seconds, l.single_jump_seconds, l.grace_seconds] {
                if s > limits::MOVE_LIMIT_SECONDS_MAX {
                    return Err(TimeControlError::MoveLimitTooLong(s));
                }
            }
        }
        if self.periods.is_empty() && (self.increment_seconds > 0 || self.delay.is_some()) {
            return Err(TimeControlError::BonusWithoutClock);
        }
        if self.increment_seconds > 0 && self.delay.is_some() {
            return Err(TimeControlError::IncrementAndDelay);
        }
        if let Some(l) = self.per_move
            && (l.seconds == 0 || l.single_jump_seconds == 0)
        {
            return Err(TimeControlError::ZeroMoveLimit);
        }
        Ok(())
    }

    fn period(&self, index: u32) -> Option<&Period> {
        let last = self.periods.len().checked_sub(1)?;
        self.periods.get((index as usize).min(last))
    }

    /// The period index and moves made in it after `moves` moves.
    fn locate(&self, moves: u32) -> (u32, u32) {
        let (mut period, mut left) = (0, moves);
        while let Some(k) = self.period(period).and_then(|p| p.moves) {
            if left < k {
                break;
            }
            left -= k;
            period += 1;
        }
        (period, left)
    }

    fn delay_ms(&self) -> u64 {
        self.delay.map_or(0, |d| d.seconds * MS_PER_SECOND)
    }
}

/// Format milliseconds as a clock face: `h:mm:ss`, or `m:ss` under an hour; negative times get
/// a minus sign. Tenths are not shown; the value is rounded down to the second.
pub fn format_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let s = ms.unsigned_abs() / MS_PER_SECOND;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{sign}{h}:{m:02}:{s:02}")
    } else {
        format!("{sign}{m}:{s:02}")
    }
}

/// One side's clock state between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SideClock {
    /// Game time left at the start of this side's current (or next) move, ms.
    pub remaining_ms: i64,
    /// Moves this side has completed in this game.
    pub moves: u32,
    /// Time controls passed (0-based period number; past the list, the last period repeats).
    pub period: u32,
    /// Moves made in the current period.
    pub period_moves: u32,
}

/// Why a flag fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlagKind {
    /// The game time ran out.
    GameTime,
    /// The per-move limit (including its grace) ran out.
    MoveTime,
}

/// A side ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Flag {
    /// Who ran out of time.
    pub color: Color,
    /// Game time or per-move limit.
    pub kind: FlagKind,
    /// Time spent on the move when the flag was decided, ms.
    pub spent_ms: u64,
}

/// The clock figures recorded with each committed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MoveClock {
    /// Time spent on the move (pauses excluded), ms.
    pub spent_ms: u64,
    /// The mover's game time left after the move, increments and new periods included; `None`
    /// without a game clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<i64>,
    /// The period (1-based) the mover is in after the move.
    pub period: u32,
}

/// What committing a move did to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// In time: the figures to record with the move.
    Moved(MoveClock),
    /// Out of time: the move does not count.
    Flag(Flag),
}

/// A clock operation that does not fit the clock's state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    /// The clock has not been started, or has been stopped.
    #[error("the clock is not running")]
    NotRunning,
    /// The clock is already running.
    #[error("the clock is already running")]
    AlreadyStarted,
    /// The clocks are paused.
    #[error("the clocks are paused")]
    Paused,
    /// Resume when not paused.
    #[error("the clocks are not paused")]
    NotPaused,
    /// An adjustment would leave negative time.
    #[error("{color} would have negative time left ({ms} ms)")]
    Negative {
        /// The side.
        color: Color,
        /// The time it would have.
        ms: i64,
    },
    /// An adjustment beyond what a clock can hold.
    #[error("{color} would have more time than a clock holds")]
    TooMuch {
        /// The side.
        color: Color,
    },
    /// An adjustment on a clock without game time.
    #[error("there is no game clock to adjust")]
    NoGameClock,
    /// A take-back of more moves than the clock has seen.
    #[error("cannot take back {asked} moves: only {made} made")]
    TakeBack {
        /// Moves asked for.
        asked: usize,
        /// Moves made.
        made: usize,
    },
    /// A time on the current move shorter than what was already counted (or, while paused,
    /// different from it): time does not run backwards, nor while the clocks are stopped.
    #[error("{spent_ms} ms on the move does not follow the {counted_ms} ms already counted")]
    Backwards {
        /// The time given.
        spent_ms: u64,
        /// The time already counted on the move.
        counted_ms: u64,
    },
}

/// The clock before a committed move, for take-backs: Red's and White's time left (ms) and
/// whether the mover had a single forced jump. Move counts and periods follow from the number
/// of moves taken back.
type Snapshot = (i64, i64, bool);

/// Where a clock is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockState {
    /// Set but not started.
    Ready,
    /// Running (or paused, see [`Clock::is_paused`]).
    Running,
    /// Stopped for good: the game is over.
    Stopped,
}

/// One side's figures for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SideReading {
    /// Game time left now, ms, never below zero; `None` without a game clock.
    pub remaining_ms: Option<i64>,
    /// Game time left now without the floor at zero: negative by the overrun of a side whose
    /// flag fell; `None` without a game clock.
    pub balance_ms: Option<i64>,
    /// Moves completed.
    pub moves: u32,
    /// Period (1-based).
    pub period: u32,
    /// Moves still to make before the next time control, if the period has a move count.
    pub moves_to_control: Option<u32>,
    /// Time spent on the current move, if this side is to move.
    pub move_ms: Option<u64>,
    /// Per-move limit left before "Time" is called (negative: into the grace), if any and to
    /// move.
    pub move_limit_left_ms: Option<i64>,
    /// "Time" has been called on this move (per-move limit reached, grace running).
    pub warning: bool,
    /// Out of time (a flag is due, or fell).
    pub expired: bool,
}

/// Both sides' figures at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ClockReading {
    /// Red's figures.
    pub red: SideReading,
    /// White's figures.
    pub white: SideReading,
    /// The side whose clock runs (or would run).
    pub to_move: Color,
    /// Running and not paused.
    pub running: bool,
    /// Paused by the director (or held since the match was read back).
    pub paused: bool,
}

impl ClockReading {
    /// The figures of one side.
    pub fn side(&self, color: Color) -> &SideReading {
        match color {
            Color::Red => &self.red,
            Color::White => &self.white,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    fn started(tc: &TimeControl) -> Clock {
        let mut c = Clock::new(tc, Color::Red);
        c.start(Some(0), false).unwrap();
        c
    }

    /// Commit the move of the side to move at `now_ms`, as the director does: the figures,
    /// then the commit (or the stop, on a flag).
    trait At {
        fn commit_at(&mut self, now_ms: u64, single_jump_next: bool) -> Result<Commit, ClockError>;
        fn pause_at(&mut self, now_ms: u64) -> Result<(), ClockError>;
        fn adjust(&mut self, color: Color, delta_ms: i64) -> Result<i64, ClockError>;
    }

    impl At for Clock {
        fn commit_at(&mut self, now_ms: u64, single_jump_next: bool) -> Result<Commit, ClockError> {
            let spent = self.move_ms(now_ms);
            let c = self.figures(spent)?;
            match c {
                Commit::Moved(_) => self.commit(spent, single_jump_next, Some(now_ms)),
                Commit::Flag(_) => self.stop(spent),
            }
            Ok(c)
        }

        fn pause_at(&mut self, now_ms: u64) -> Result<(), ClockError> {
            let spent = self.move_ms(now_ms);
            self.pause(spent)
        }

        fn adjust(&mut self, color: Color, delta_ms: i64) -> Result<i64, ClockError> {
            let ms = self.adjusted(color, delta_ms)?;
            self.set_remaining(color, ms);
            Ok(ms)
        }
    }

    #[test]
    fn charged_at_commit_not_by_ticks() {
        let mut c = started(&TimeControl::default());
        // Readings do not change the state.
        let r = c.reading(10 * MIN);
        assert_eq!(r.red.remaining_ms, Some((50 * MIN) as i64));
        assert_eq!(c.side(Color::Red).remaining_ms, (60 * MIN) as i64);
        let Commit::Moved(m) = c.commit_at(10 * MIN, false).unwrap() else {
            panic!("flag")
        };
        assert_eq!(m.spent_ms, 10 * MIN);
        assert_eq!(m.remaining_ms, Some((50 * MIN) as i64));
        assert_eq!(c.to_move(), Color::White);
        // White's time runs from the commit.
        assert_eq!(
            c.reading(11 * MIN).white.remaining_ms,
            Some((59 * MIN) as i64)
        );
    }

    #[test]
    fn flag_exactly_at_limit_is_in_time_one_ms_later_is_not() {
        let tc = TimeControl::sudden_death(60);
        let c = started(&tc);
        assert_eq!(c.check_flag(60_000), None);
        assert!(c.check_flag(60_001).is_some());
        let mut a = c.clone();
        assert!(matches!(a.commit_at(60_000, false), Ok(Commit::Moved(_))));
        assert_eq!(a.side(Color::Red).remaining_ms, 0);
        let mut b = c.clone();
        let Ok(Commit::Flag(f)) = b.commit_at(60_001, false) else {
            panic!("no flag")
        };
        assert_eq!(f.color, Color::Red);
        assert_eq!(f.kind, FlagKind::GameTime);
        assert_eq!(b.state(), ClockState::Stopped);
    }

    #[test]
    fn carry_over_adds_a_period_on_the_thirtieth_move() {
        let mut c = started(&TimeControl::default());
        let mut t = 0;
        for n in 1..=30 {
            t += MIN; // Red thinks a minute
            c.commit_at(t, false).unwrap();
            if n < 30 {
                assert_eq!(c.reading(t).red.moves_to_control, Some(30 - n));
            }
            t += 1000; // White answers in a second
            c.commit_at(t, false).unwrap();
        }
        // 60 - 30 + 60 minutes, carried over.
        assert_eq!(c.side(Color::Red).remaining_ms, (90 * MIN) as i64);
        assert_eq!(c.reading(t).red.period, 2);
        assert_eq!(c.reading(t).red.moves_to_control, Some(30));
        assert_eq!(
            c.side(Color::White).remaining_ms,
            (120 * MIN - 30_000) as i64
        );
    }

    #[test]
    fn stacked_apca_periods() {
        let mut c = started(&TimeControl::apca());
        let mut t = 0;
        for _ in 0..35 {
            t += MIN;
            c.commit_at(t, false).unwrap();
            c.commit_at(t, false).unwrap();
        }
        assert_eq!(
            c.side(Color::Red).remaining_ms,
            ((70 - 35 + 30) * MIN) as i64
        );
        assert_eq!(c.reading(t).red.moves_to_control, Some(15));
        for _ in 0..15 {
            t += MIN;
            c.commit_at(t, false).unwrap();
            c.commit_at(t, false).unwrap();
        }
        assert_eq!(
            c.side(Color::Red).remaining_ms,
            ((65 - 15 + 30) * MIN) as i64
        );
        assert_eq!(c.reading(t).red.period, 3);
    }

    #[test]
    fn paused_clock_does_not_run() {
        let mut c = started(&TimeControl::sudden_death(600));
        c.pause_at(MIN).unwrap();
        assert!(c.is_paused());
        assert_eq!(c.commit_at(2 * MIN, false), Err(ClockError::Paused));
        // Ten minutes of pause: no flag, no time used.
        assert_eq!(c.check_flag(20 * MIN), None);
        assert_eq!(c.reading(20 * MIN).red.remaining_ms, Some((9 * MIN) as i64));
        c.resume(Some(20 * MIN)).unwrap();
        let Commit::Moved(m) = c.commit_at(21 * MIN, false).unwrap() else {
            panic!()
        };
        assert_eq!(m.spent_ms, 2 * MIN);
        assert_eq!(m.remaining_ms, Some((8 * MIN) as i64));
        assert_eq!(c.resume(Some(22 * MIN)), Err(ClockError::NotPaused));
    }

    #[test]
    fn fischer_and_delays() {
        let mut f = started(&TimeControl::fischer(60, 5));
        f.commit_at(10_000, false).unwrap();
        assert_eq!(f.side(Color::Red).remaining_ms, 55_000);

        let mut s = started(&TimeControl::delay(60, DelayKind::Simple, 5));
        assert_eq!(s.reading(3_000).red.remaining_ms, Some(60_000));
        // Simple delay: flag only after base + delay.
        assert_eq!(s.check_flag(65_000), None);
        assert!(s.check_flag(65_001).is_some());
        s.commit_at(8_000, false).unwrap();
        assert_eq!(s.side(Color::Red).remaining_ms, 57_000);

        let mut b = started(&TimeControl::delay(60, DelayKind::Bronstein, 5));
        assert_eq!(b.reading(3_000).red.remaining_ms, Some(57_000));
        assert!(b.check_flag(60_001).is_some());
        b.commit_at(3_000, false).unwrap();
        assert_eq!(b.side(Color::Red).remaining_ms, 60_000);
        b.commit_at(10_000, false).unwrap();
        b.commit_at(18_000, false).unwrap();
        assert_eq!(b.side(Color::Red).remaining_ms, 57_000);
    }

    #[test]
    fn per_move_limit_warns_then_flags_after_grace() {
        let mut c = started(&TimeControl::per_move_classic());
        let r = c.reading(5 * MIN - 1);
        assert!(!r.red.warning);
        assert_eq!(r.red.move_limit_left_ms, Some(1));
        assert!(c.reading(5 * MIN).red.warning);
        assert_eq!(c.check_flag(6 * MIN), None);
        assert_eq!(
            c.check_flag(6 * MIN + 1).map(|f| f.kind),
            Some(FlagKind::MoveTime)
        );
        // A single forced jump next: one minute plus grace.
        c.commit_at(6 * MIN, true).unwrap();
        let t = 6 * MIN;
        assert!(c.reading(t + MIN).white.warning);
        assert!(c.check_flag(t + 2 * MIN).is_none());
        let Ok(Commit::Flag(f)) = c.commit_at(t + 2 * MIN + 1, false) else {
            panic!()
        };
        assert_eq!((f.color, f.kind), (Color::White, FlagKind::MoveTime));
    }

    #[test]
    fn no_clock_never_flags() {
        let mut c = started(&TimeControl::none());
        assert_eq!(c.check_flag(u64::MAX / 2), None);
        let Commit::Moved(m) = c.commit_at(1_000_000_000, false).unwrap() else {
            panic!()
        };
        assert_eq!(m.remaining_ms, None);
        assert_eq!(c.reading(0).red.remaining_ms, None);
        assert_eq!(c.adjust(Color::Red, 1000), Err(ClockError::NoGameClock));
    }

    #[test]
    fn adjust_and_take_back() {
        let mut c = started(&TimeControl::default());
        c.commit_at(MIN, false).unwrap();
        c.commit_at(2 * MIN, false).unwrap();
        assert_eq!(c.adjust(Color::White, -(MIN as i64)), Ok((58 * MIN) as i64));
        assert!(matches!(
            c.adjust(Color::White, -(100 * MIN as i64)),
            Err(ClockError::Negative { .. })
        ));
        c.take_back(1, Some(3 * MIN)).unwrap();
        assert_eq!(c.to_move(), Color::White);
        assert_eq!(c.side(Color::White).remaining_ms, (60 * MIN) as i64);
        assert_eq!(c.side(Color::White).moves, 0);
        assert_eq!(c.reading(4 * MIN).white.move_ms, Some(MIN));
        assert!(c.take_back(5, Some(0)).is_err());
    }

    #[test]
    fn take_back_across_a_time_control() {
        let mut c = started(&TimeControl::apca());
        for i in 1..=72 {
            c.commit_at(i * 1000, false).unwrap();
        }
        let at_72 = c.clone();
        // 36 moves each: Red passed the 35-move control.
        assert_eq!(c.reading(72_000).red.period, 2);
        c.commit_at(73_000, false).unwrap();
        c.commit_at(74_000, false).unwrap();
        c.commit_at(75_000, false).unwrap();
        c.take_back(3, Some(75_000)).unwrap();
        assert_eq!(c.side(Color::Red), at_72.side(Color::Red));
        assert_eq!(c.side(Color::White), at_72.side(Color::White));
        c.take_back(4, Some(75_000)).unwrap();
        assert_eq!(c.reading(75_000).red.period, 1);
        assert_eq!(c.reading(75_000).red.moves_to_control, Some(1));
        assert_eq!(c.side(Color::Red).remaining_ms, (70 * MIN - 34_000) as i64);
    }

    #[test]
    fn a_held_clock_is_paused_at_last_commit() {
        let mut c = started(&TimeControl::default());
        c.commit_at(MIN, false).unwrap();
        // Rebuilt in a new process (no stretch running here) and held.
        let mut back = c.clone();
        back.hold();
        assert_eq!(back, {
            let mut p = c.clone();
            p.pause_at(MIN).unwrap();
            p
        });
        assert!(back.is_paused());
        // A new process: its monotonic clock starts again at small values.
        assert_eq!(back.reading(5).white.remaining_ms, Some((60 * MIN) as i64));
        back.resume(Some(5)).unwrap();
        back.commit_at(5 + MIN, false).unwrap();
        assert_eq!(back.side(Color::White).remaining_ms, (59 * MIN) as i64);
    }

    #[test]
    fn time_does_not_run_backwards() {
        let mut c = started(&TimeControl::default());
        c.pause_at(MIN).unwrap();
        assert!(c.check_spent(MIN).is_ok());
        assert!(c.check_spent(MIN + 1).is_err());
        c.resume(Some(2 * MIN)).unwrap();
        assert!(c.check_spent(MIN - 1).is_err());
        assert_eq!(c.move_ms(3 * MIN), 2 * MIN);
        assert_eq!(
            c.adjusted(Color::Red, i64::MAX),
            Err(ClockError::TooMuch { color: Color::Red })
        );
    }

    #[test]
    fn validation_and_clock_format() {
        // The words of a time control are tested beside them, in time_control_text.
        assert!(TimeControl::default().validate().is_ok());
        let mut bad = TimeControl::apca();
        bad.periods[0].moves = None;
        assert_eq!(bad.validate(), Err(TimeControlError::OpenPeriodNotLast(1)));
        let bad = TimeControl {
            increment_seconds: 3,
            ..TimeControl::none()
        };
        assert_eq!(bad.validate(), Err(TimeControlError::BonusWithoutClock));
        assert_eq!(format_ms(3_723_999), "1:02:03");
        assert_eq!(format_ms(59_999), "0:59");
        assert_eq!(format_ms(-1_000), "-0:01");
    }
}
