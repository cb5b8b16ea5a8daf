//! Tests of time controls and the running clock.

use super::*;
use crate::engine::Color;

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
