//! Time controls: the periods, increment, delay and per-move limit a director sets, their
//! validation, and where a move count falls among the periods.

use super::MS_PER_SECOND;
use crate::director::limits;
use serde::{Deserialize, Serialize};
use thiserror::Error;

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

    pub(super) fn period(&self, index: u32) -> Option<&Period> {
        let last = self.periods.len().checked_sub(1)?;
        self.periods.get((index as usize).min(last))
    }

    /// The period index and moves made in it after `moves` moves.
    pub(super) fn locate(&self, moves: u32) -> (u32, u32) {
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

    pub(super) fn delay_ms(&self) -> u64 {
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
