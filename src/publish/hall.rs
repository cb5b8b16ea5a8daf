//! The hall in the desk's words: a board's state as the desk's files tell it
//! ([`crate::store::board_hall`]), in a few characters for a board's row at 80 columns or in
//! words, for the desk screen and serve's director page alike; and a board's result entered
//! from the floor, in the same two lengths.

use crate::director::Player;
use crate::event::{Board, Division, FloorState};
use crate::publish::sentences::result_text;
use crate::store::{BoardHall, BoardRefusal, Stand};
use std::time::SystemTime;

/// `secs` as a short age: `40s`, `12m`, `3h05`.
pub fn age_text(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        _ => format!("{}h{:02}", secs / 3600, secs / 60 % 60),
    }
}

/// How long before `now` the board last pushed, as [`age_text`] says it.
pub fn pushed_age(pushed: SystemTime, now: SystemTime) -> String {
    age_text(now.duration_since(pushed).map_or(0, |d| d.as_secs()))
}

/// A time of day as the hall shows it (`14:03:11`, local time).
pub fn time_of_day(at: impl Into<chrono::DateTime<chrono::Local>>) -> String {
    at.into().format("%H:%M:%S").to_string()
}

/// Where a board stands, in a few characters (`wide`: in words).
pub fn stand_text(stand: &Stand, wide: bool) -> String {
    match (stand, wide) {
        (Stand::NotJoined, _) => "not joined".into(),
        (Stand::Unreadable, false) => "unreadable".into(),
        (Stand::Unreadable, true) => "copy unreadable".into(),
        (Stand::Joined, _) => "joined".into(),
        (Stand::Playing { game, mv }, false) => format!("g{game} m{mv}"),
        (Stand::Playing { game, mv }, true) => format!("game {game} move {mv}"),
        (Stand::Pending { .. }, false) => "pending".into(),
        (Stand::Pending { game, mv }, true) => format!("game {game} move {mv}, result pending"),
        (Stand::Recorded, false) => "recorded".into(),
        (Stand::Recorded, true) => "over, result recorded".into(),
    }
}

/// Red's and White's time left (ms): `12:03 11:40` (minutes and seconds), or in words
/// `Red 0:12:03, White 0:11:40`.
pub fn clocks_text(clocks: [i64; 2], wide: bool) -> String {
    let [red, white] = clocks.map(|ms| ms.max(0) / 1000);
    if wide {
        let hms = |s: i64| format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
        format!("Red {}, White {}", hms(red), hms(white))
    } else {
        let ms = |s: i64| format!("{}:{:02}", s / 60, s % 60);
        format!("{} {}", ms(red), ms(white))
    }
}

/// The refusal's line: `line 3`, or `a push` when it names none.
fn refused_where(r: &BoardRefusal) -> String {
    r.line
        .map_or_else(|| "a push".into(), |l| format!("line {l}"))
}

/// A refusal in a few characters (`refused l3`), or in words with its time (`refused line 3
/// at 14:03:11`).
pub fn refusal_short(r: &BoardRefusal, wide: bool) -> String {
    if wide {
        format!("refused {} at {}", refused_where(r), time_of_day(r.at))
    } else {
        r.line
            .map_or_else(|| "refused".into(), |l| format!("refused l{l}"))
    }
}

/// A refusal in words, with the reason and what the director does about it.
pub fn refusal_text(r: &BoardRefusal) -> String {
    let status = match r.status {
        0 => String::new(),
        s => format!(" ({s})"),
    };
    format!(
        "refused {} at {}{status}: {}",
        refused_where(r),
        time_of_day(r.at),
        r.reason
    )
}

/// A board's state in one piece for its row: where it stands, both clocks and how long ago
/// it pushed, and a refusal in short (`g1 m12 12:03 11:40 40s ago refused l3`); `wide`: in
/// words, with the push's time (`game 1 move 12, Red 0:12:03, White 0:11:40, pushed 14:03:11
/// (40s ago), refused line 3 at 14:03:20`).
pub fn hall_text(h: &BoardHall, wide: bool, now: SystemTime) -> String {
    let mut parts = vec![stand_text(&h.stand, wide)];
    parts.extend(h.clocks.map(|c| clocks_text(c, wide)));
    if let Some(pushed) = h.pushed {
        let age = pushed_age(pushed, now);
        parts.push(if wide {
            format!("pushed {} ({age} ago)", time_of_day(pushed))
        } else {
            format!("{age} ago")
        });
    }
    parts.extend(h.refusal.as_ref().map(|r| refusal_short(r, wide)));
    parts.join(if wide { ", " } else { " " })
}

/// A board's result from the floor ([`crate::event::Floor`]) in a few characters for its row
/// (`floor: conflict`), or in words with the players' names and what each entered; `None`:
/// nothing was entered from the floor.
pub fn floor_text(d: &Division, b: &Board, wide: bool) -> Option<String> {
    let name = |s: Player| d.name(b.player(s));
    let entered = |s: Player| result_text(b.floor.entry(s));
    let said = match (b.floor.state(b.result.as_ref()), wide) {
        (FloorState::Empty, _) => return None,
        (FloorState::Waiting { by, .. }, false) => format!("floor: {} entered", name(by)),
        (FloorState::Waiting { by, result }, true) => format!(
            "from the floor: {} entered {}, {} to confirm",
            name(by),
            result_text(Some(result)),
            name(by.other())
        ),
        (FloorState::Agreed, false) => "floor: agreed".into(),
        (FloorState::Agreed, true) => format!(
            "from the floor: entered by both, {} and {}",
            name(Player::First),
            name(Player::Second)
        ),
        (FloorState::Conflict, false) => "floor: CONFLICT".into(),
        (FloorState::Conflict, true) => format!(
            "CONFLICT from the floor: {} entered {}, {} entered {}; the director decides",
            name(Player::First),
            entered(Player::First),
            name(Player::Second),
            entered(Player::Second)
        ),
        (FloorState::Overruled(_), false) => "floor: overruled".into(),
        (FloorState::Overruled(why), true) => format!(
            "overruled by the director ({} entered {}, {} entered {}): {why}",
            name(Player::First),
            entered(Player::First),
            name(Player::Second),
            entered(Player::Second)
        ),
    };
    Some(said)
}
