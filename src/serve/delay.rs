//! `serve --delay SECONDS`: the public addresses show the games as they were SECONDS ago, so
//! that a move cannot be relayed back to a player from the broadcast.
//!
//! The cut is made where the served data is read, once for every public reader
//! ([`super::view::Served`]): the event is the desk's log replayed up to its last action at
//! the cut ([`event_until`]: a result recorded since, or a pairing, is not there yet), and
//! each match file is its log up to its last record at the cut ([`cut_match`]: the moves, the
//! clocks, the draw offers and the results of later records are not there). Both files carry
//! each record's time (the match file to the second, the desk's log to the microsecond). The
//! director's page and the boards' `/push` read the files as they are.

use crate::director::Match;
use crate::event::{Action, Tournament};
use crate::store::{Desk, DeskError};
use chrono::{DateTime, TimeDelta, Utc};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How far behind the files the public addresses are (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delay(u32);

impl Delay {
    /// A delay of `seconds` (0: none).
    pub fn seconds(seconds: u32) -> Delay {
        Delay(seconds)
    }

    /// The delay in seconds.
    pub fn get(self) -> u32 {
        self.0
    }

    /// The time the public addresses show when it is `now`: `None` without a delay.
    pub(super) fn cut_at(self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        (self.0 > 0).then(|| now - TimeDelta::seconds(i64::from(self.0)))
    }

    /// The time the public addresses show now.
    pub(super) fn cut(self) -> Option<DateTime<Utc>> {
        self.cut_at(Utc::now())
    }

    /// The time the public pages show now, in ms since 1970 (their running clocks run from
    /// it).
    pub(super) fn shown_ms(self) -> i64 {
        Utc::now().timestamp_millis() - self.lag_ms()
    }

    /// How far behind the server's clock the public pages are, ms.
    pub(super) fn lag_ms(self) -> i64 {
        i64::from(self.0) * 1000
    }
}

/// Match `m` as its log stood at `cut`, and the time of its first record after the cut (when
/// the match shown changes next; `None`: every record is shown). Its first record (its
/// creation: the players and the settings, no move) is always shown.
pub(super) fn cut_match(
    m: Match,
    cut: Option<DateTime<Utc>>,
) -> Result<(Match, Option<DateTime<Utc>>), String> {
    let Some(cut) = cut else {
        return Ok((m, None));
    };
    let log = m.log();
    let shown = log.partition_point(|e| e.at <= cut).max(1);
    let Some(next) = log.get(shown).map(|e| e.at) else {
        return Ok((m, None));
    };
    let replayed = Match::from_log(m.settings().clone(), &log[..shown])
        .map_err(|e| format!("the match's first {shown} records do not read back ({e})"))?;
    Ok((replayed.the_match, Some(next)))
}

/// Event `id` of `desk` as its log stood at `cut`: its actions recorded at the cut or before,
/// replayed; and the time of the first action after the cut (`None`: every action is in).
pub(super) fn event_until(
    desk: &Desk,
    id: i64,
    cut: DateTime<Utc>,
) -> Result<(Tournament, Option<DateTime<Utc>>), DeskError> {
    let mut event = Tournament::new();
    for (seq, at, text) in desk.log(id)? {
        let damaged = |why: String| DeskError::Damaged {
            path: desk.path().display().to_string(),
            event: id,
            seq,
            why,
        };
        let at = DateTime::parse_from_rfc3339(&at)
            .map_err(|e| damaged(format!("its time {at:?} does not read ({e})")))?
            .with_timezone(&Utc);
        if at > cut {
            return Ok((event, Some(at)));
        }
        let action: Action = serde_json::from_str(&text)
            .map_err(|e| damaged(format!("its text does not read as an action ({e})")))?;
        event
            .apply(&action)
            .map_err(|e| damaged(format!("the event refuses it ({e})")))?;
    }
    Ok((event, None))
}

/// The changes the watcher found, held until the delay has passed over them: a change seen at
/// an instant is announced to the public feeds `delay` later.
#[derive(Debug, Default)]
pub(super) struct Held {
    delay: Duration,
    seen: VecDeque<Instant>,
}

impl Held {
    pub(super) fn new(delay: Delay) -> Held {
        Held {
            delay: Duration::from_secs(u64::from(delay.get())),
            seen: VecDeque::new(),
        }
    }

    /// The files were looked at `now` and found `changed`: whether a change is due to be
    /// announced now (one seen at least the delay ago).
    pub(super) fn due(&mut self, now: Instant, changed: bool) -> bool {
        if self.delay.is_zero() {
            return changed;
        }
        if changed {
            self.seen.push_back(now);
        }
        let mut due = false;
        while self.seen.front().is_some_and(|&at| at + self.delay <= now) {
            self.seen.pop_front();
            due = true;
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_due_the_delay_after_it_was_seen() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut none = Held::new(Delay::default());
        assert!(none.due(t0, true) && !none.due(t0, false));
        let mut held = Held::new(Delay::seconds(30));
        assert!(!held.due(t0, true), "a move: held");
        assert!(!held.due(t0 + s(1), false));
        assert!(!held.due(t0 + s(2), true), "another: held");
        assert!(!held.due(t0 + s(29), false));
        assert!(held.due(t0 + s(30), false), "the first move is due");
        assert!(held.due(t0 + s(32), false), "then the second");
        assert!(!held.due(t0 + s(33), false), "nothing more");
    }
}
