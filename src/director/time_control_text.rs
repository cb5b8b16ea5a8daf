//! Time-control text, in one place: the typed form ([`FromStr`] and [`Display`] of
//! [`TimeControl`]), the words ([`TimeControl::describe`]) and the PGN form
//! ([`TimeControl::pgn`]); and the config file's field that takes either the typed form or a
//! table ([`string_or_table`]).
//!
//! # The typed form
//!
//! Words separated by spaces (or commas):
//!
//! | word | meaning |
//! | --- | --- |
//! | `30/60` | 30 moves in 60 minutes; several make stacked periods, the last repeats |
//! | `20` | 20 minutes for the rest of the game (sudden death; only as the last period) |
//! | `90s`, `30/90s` | a period given in seconds instead of minutes |
//! | `20+5` | 5 seconds' Fischer increment (on the last period) |
//! | `d5`, `b5` | a simple (US) or Bronstein delay of 5 seconds |
//! | `move` | the classic per-move limit: 5 min a move, 1 for a single jump, 1 more of grace |
//! | `move/300/60/60` | a per-move limit in seconds: move, single jump, grace |
//! | `apca` | `35/70 15/30` |
//! | `none` | no clock at all (alone) |
//!
//! Contradictory forms are refused with the reason: `none` with anything else, two delays, an
//! increment with a delay, an increment that is not on the last period, `move` twice.
//! [`Display`] writes the shortest typed form, and reading it back gives the same control.
//!
//! [`Display`]: std::fmt::Display

use super::clock::{Delay, DelayKind, PerMoveLimit, Period, TimeControl, TimeControlError};
use super::limits;
use serde::Deserializer;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The longest period accepted, in minutes (a day: [`limits::PERIOD_SECONDS_MAX`]).
pub(super) const MAX_PERIOD_MINUTES: u64 = limits::PERIOD_SECONDS_MAX / 60;
/// The longest increment, delay or per-move limit accepted, in seconds (an hour:
/// [`limits::BONUS_SECONDS_MAX`], [`limits::MOVE_LIMIT_SECONDS_MAX`]).
pub(super) const MAX_BONUS_SECONDS: u64 = limits::BONUS_SECONDS_MAX;

/// Why a typed time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeControlTextError {
    /// Nothing typed.
    #[error("type a time control, e.g. 30/60 (or none)")]
    Empty,
    /// A word that is none of the forms.
    #[error("{0:?} is not a time-control word (30/60, 20, 20+5, d5, b5, move, apca, none)")]
    UnknownWord(String),
    /// Not a number of minutes in range.
    #[error("{0:?} is not a number of minutes (1-1440; or seconds, as in 90s)")]
    BadMinutes(String),
    /// Not a number of seconds in range.
    #[error("{0:?} is not a number of seconds (0-3600)")]
    BadSeconds(String),
    /// Not a number of moves.
    #[error("{0:?} is not a number of moves (at least 1)")]
    BadMoves(String),
    /// `none` with other words.
    #[error("none means no clock: it cannot go with {0:?}")]
    NoneWithOthers(String),
    /// Two delays.
    #[error("two delays ({0} and {1}): choose one")]
    TwoDelays(String, String),
    /// Two increments.
    #[error("two increments: give one, on the last period")]
    TwoIncrements,
    /// An increment on a period that is not the last.
    #[error("the increment goes on the last period (e.g. 30/60 15/30+5)")]
    IncrementNotLast,
    /// Two per-move limits.
    #[error("the per-move limit is given twice")]
    MoveTwice,
    /// The words make a control that does not hold together (an open period before another).
    #[error(transparent)]
    Invalid(#[from] TimeControlError),
}

fn minutes(word: &str) -> Result<u64, TimeControlTextError> {
    let bad = || TimeControlTextError::BadMinutes(word.to_string());
    if let Some(s) = word.strip_suffix('s') {
        return s
            .parse::<u64>()
            .ok()
            .filter(|&s| (1..=MAX_PERIOD_MINUTES * 60).contains(&s))
            .ok_or_else(bad);
    }
    word.parse::<u64>()
        .ok()
        .filter(|&m| (1..=MAX_PERIOD_MINUTES).contains(&m))
        .map(|m| m * 60)
        .ok_or_else(bad)
}

fn seconds(word: &str) -> Result<u64, TimeControlTextError> {
    word.parse::<u64>()
        .ok()
        .filter(|&s| s <= MAX_BONUS_SECONDS)
        .ok_or_else(|| TimeControlTextError::BadSeconds(word.to_string()))
}

fn period(word: &str) -> Result<Period, TimeControlTextError> {
    match word.split_once('/') {
        Some((m, t)) => {
            let moves = m
                .parse::<u32>()
                .ok()
                .filter(|&m| m > 0)
                .ok_or_else(|| TimeControlTextError::BadMoves(m.to_string()))?;
            Ok(Period {
                moves: Some(moves),
                seconds: minutes(t)?,
            })
        }
        None => Ok(Period {
            moves: None,
            seconds: minutes(word)?,
        }),
    }
}

fn per_move(word: &str) -> Result<PerMoveLimit, TimeControlTextError> {
    let Some(rest) = word.strip_prefix("move/") else {
        return Ok(PerMoveLimit::default());
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let [s, j, g] = parts[..] else {
        return Err(TimeControlTextError::UnknownWord(word.to_string()));
    };
    Ok(PerMoveLimit {
        seconds: seconds(s)?,
        single_jump_seconds: seconds(j)?,
        grace_seconds: seconds(g)?,
    })
}

impl FromStr for TimeControl {
    type Err = TimeControlTextError;

    /// Read the typed form (see the module documentation).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlTextError> {
        let words: Vec<String> = text
            .split([' ', ',', '\t'])
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        if words.is_empty() {
            return Err(TimeControlTextError::Empty);
        }
        if words.len() > 1
            && let Some(other) = words.iter().find(|w| *w != "none")
            && words.iter().any(|w| w == "none")
        {
            return Err(TimeControlTextError::NoneWithOthers(other.clone()));
        }
        let mut tc = TimeControl::none();
        let mut delay_word: Option<String> = None;
        let mut increment_at: Option<usize> = None;
        for w in &words {
            match w.as_str() {
                "none" => {}
                "apca" => tc.periods.extend(TimeControl::apca().periods),
                _ if w == "move" || w.starts_with("move/") => {
                    if tc.per_move.is_some() {
                        return Err(TimeControlTextError::MoveTwice);
                    }
                    tc.per_move = Some(per_move(w)?);
                }
                _ if w.starts_with(['d', 'b']) => {
                    if let Some(first) = &delay_word {
                        return Err(TimeControlTextError::TwoDelays(first.clone(), w.clone()));
                    }
                    let kind = if w.starts_with('d') {
                        DelayKind::Simple
                    } else {
                        DelayKind::Bronstein
                    };
                    tc.delay = Some(Delay {
                        kind,
                        seconds: seconds(&w[1..])?,
                    });
                    delay_word = Some(w.clone());
                }
                _ if w.starts_with(|c: char| c.is_ascii_digit() || c == '+') => {
                    let (main, inc) = match w.split_once('+') {
                        Some((a, b)) => (a, Some(b)),
                        None => (w.as_str(), None),
                    };
                    if !main.is_empty() {
                        tc.periods.push(period(main)?);
                    }
                    if let Some(b) = inc {
                        if increment_at.is_some() {
                            return Err(TimeControlTextError::TwoIncrements);
                        }
                        tc.increment_seconds = seconds(b)?;
                        increment_at = Some(tc.periods.len());
                    }
                }
                _ => return Err(TimeControlTextError::UnknownWord(w.clone())),
            }
        }
        if increment_at.is_some_and(|at| at != tc.periods.len()) {
            return Err(TimeControlTextError::IncrementNotLast);
        }
        tc.validate()?;
        Ok(tc)
    }
}

fn period_time(seconds: u64) -> String {
    if seconds.is_multiple_of(60) {
        (seconds / 60).to_string()
    } else {
        format!("{seconds}s")
    }
}

impl fmt::Display for TimeControl {
    /// The typed form: `30/60`, `35/70 15/30`, `20+5`, `20 d5`, `move`, `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = self
            .periods
            .iter()
            .map(|p| match p.moves {
                Some(m) => format!("{m}/{}", period_time(p.seconds)),
                None => period_time(p.seconds),
            })
            .collect();
        if self.increment_seconds > 0 {
            match words.last_mut() {
                Some(w) => w.push_str(&format!("+{}", self.increment_seconds)),
                None => words.push(format!("+{}", self.increment_seconds)),
            }
        }
        if let Some(d) = self.delay {
            let k = match d.kind {
                DelayKind::Simple => 'd',
                DelayKind::Bronstein => 'b',
            };
            words.push(format!("{k}{}", d.seconds));
        }
        if let Some(l) = self.per_move {
            words.push(if l == PerMoveLimit::default() {
                "move".to_string()
            } else {
                format!(
                    "move/{}/{}/{}",
                    l.seconds, l.single_jump_seconds, l.grace_seconds
                )
            });
        }
        if words.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&words.join(" "))
        }
    }
}

fn fmt_duration(seconds: u64) -> String {
    if seconds >= 60 && seconds.is_multiple_of(60) {
        format!("{} min", seconds / 60)
    } else {
        format!("{seconds} s")
    }
}

impl TimeControl {
    /// The control in words, e.g. "30 moves in 60 min, repeating" or "20 min for the game,
    /// +5 s/move" (the set-up summary and the PDN `Clock` tag).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let last = self.periods.len();
        for (i, p) in self.periods.iter().enumerate() {
            let time = fmt_duration(p.seconds);
            let text = match p.moves {
                Some(m) if i + 1 == last && last == 1 => format!("{m} moves in {time}, repeating"),
                Some(m) if i + 1 == last => format!("then {m} moves in {time}, repeating"),
                Some(m) if i == 0 => format!("{m} moves in {time}"),
                Some(m) => format!("then {m} moves in {time}"),
                None if i == 0 => format!("{time} for the game"),
                None => format!("then {time} for the rest"),
            };
            parts.push(text);
        }
        if self.increment_seconds > 0 {
            parts.push(format!("+{} s/move", self.increment_seconds));
        }
        if let Some(d) = self.delay {
            let kind = match d.kind {
                DelayKind::Simple => "delay",
                DelayKind::Bronstein => "Bronstein delay",
            };
            parts.push(format!("{} s {kind}", d.seconds));
        }
        if let Some(l) = self.per_move {
            parts.push(format!(
                "{} a move ({} for a single jump), +{} grace",
                fmt_duration(l.seconds),
                fmt_duration(l.single_jump_seconds),
                fmt_duration(l.grace_seconds)
            ));
        }
        if parts.is_empty() {
            "no clock".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// The PGN/PDN `TimeControl` tag: periods as `moves/seconds` or `seconds` joined by `:`
    /// (the last repeats), an increment as `+seconds`, `-` without a game clock. Delays and
    /// per-move limits have no PGN form (the `Clock` tag has [`TimeControl::describe`]).
    pub fn pgn(&self) -> String {
        if self.periods.is_empty() {
            return "-".to_string();
        }
        let mut parts: Vec<String> = self
            .periods
            .iter()
            .map(|p| match p.moves {
                Some(m) => format!("{m}/{}", p.seconds),
                None => p.seconds.to_string(),
            })
            .collect();
        if self.increment_seconds > 0
            && let Some(last) = parts.last_mut()
        {
            last.push_str(&format!("+{}", self.increment_seconds));
        }
        parts.join(":")
    }
}

/// Serde `deserialize_with` for a time-control field: the typed form as a string
/// (`time-control = "35/70 15/30"`) or the table of [`TimeControl`]'s fields.
pub(super) fn string_or_table<'de, D: Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
    struct Visitor;
    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = TimeControl;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a time control: text such as \"30/60\" or a table of periods")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TimeControl, E> {
            v.parse().map_err(E::custom)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<TimeControl, A::Error> {
            serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_any(Visitor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TimeControlTextError as E;

    fn tc(s: &str) -> Result<TimeControl, TimeControlTextError> {
        s.parse()
    }

    #[test]
    fn the_typed_forms() {
        assert_eq!(tc("30/60"), Ok(TimeControl::default()));
        assert_eq!(tc("35/70 15/30"), Ok(TimeControl::apca()));
        assert_eq!(tc("APCA"), Ok(TimeControl::apca()));
        assert_eq!(tc("20"), Ok(TimeControl::sudden_death(1200)));
        assert_eq!(tc("90s"), Ok(TimeControl::sudden_death(90)));
        assert_eq!(tc("20+5"), Ok(TimeControl::fischer(1200, 5)));
        assert_eq!(
            tc("20 d5"),
            Ok(TimeControl::delay(1200, DelayKind::Simple, 5))
        );
        assert_eq!(
            tc("20 b5"),
            Ok(TimeControl::delay(1200, DelayKind::Bronstein, 5))
        );
        assert_eq!(tc("move"), Ok(TimeControl::per_move_classic()));
        assert_eq!(tc("none"), Ok(TimeControl::none()));
        assert_eq!(
            tc(" 30/60,  none ").map(|_| ()),
            Err(E::NoneWithOthers("30/60".into()))
        );
        let custom = tc("move/120/30/10").unwrap();
        assert_eq!(
            custom.per_move,
            Some(PerMoveLimit {
                seconds: 120,
                single_jump_seconds: 30,
                grace_seconds: 10
            })
        );
    }

    #[test]
    fn contradictory_forms_are_refused_with_the_reason() {
        assert_eq!(tc("20 d5 b5"), Err(E::TwoDelays("d5".into(), "b5".into())));
        assert_eq!(tc("none 20"), Err(E::NoneWithOthers("20".into())));
        assert_eq!(tc("30/60 none"), Err(E::NoneWithOthers("30/60".into())));
        assert_eq!(
            tc("20+5 d5"),
            Err(E::Invalid(TimeControlError::IncrementAndDelay))
        );
        assert_eq!(tc("30/60+5 15/30"), Err(E::IncrementNotLast));
        assert_eq!(tc("20+5 +5"), Err(E::TwoIncrements));
        assert_eq!(tc("move move"), Err(E::MoveTwice));
        assert_eq!(
            tc("20 30/60"),
            Err(E::Invalid(TimeControlError::OpenPeriodNotLast(1)))
        );
        assert_eq!(
            tc("+5"),
            Err(E::Invalid(TimeControlError::BonusWithoutClock))
        );
        assert_eq!(tc(""), Err(E::Empty));
        assert_eq!(tc("30/"), Err(E::BadMinutes(String::new())));
        assert_eq!(tc("0/60"), Err(E::BadMoves("0".into())));
        assert_eq!(tc("1441"), Err(E::BadMinutes("1441".into())));
        assert_eq!(tc("20+3601"), Err(E::BadSeconds("3601".into())));
        assert_eq!(tc("x"), Err(E::UnknownWord("x".into())));
        assert_eq!(
            tc("99999999999999999999"),
            Err(E::BadMinutes("99999999999999999999".into()))
        );
        for bad in ["20 d5 b5", "none 20", "30/60 none", "20+5 d5"] {
            let why = tc(bad).unwrap_err().to_string();
            assert!(why.len() > 20, "{bad}: {why}");
        }
    }

    #[test]
    fn display_reads_back_the_same() {
        for text in [
            "30/60",
            "35/70 15/30",
            "20",
            "20+5",
            "20 d5",
            "20 b5",
            "move",
            "none",
            "90s",
            "30/90s 10+3",
            "20 move",
            "move/120/30/10",
        ] {
            let t = tc(text).unwrap();
            assert_eq!(t.to_string(), text);
            assert_eq!(tc(&t.to_string()), Ok(t));
        }
        assert_eq!(tc("apca").unwrap().to_string(), "35/70 15/30");
    }

    #[test]
    fn the_words_and_the_pgn_form() {
        assert_eq!(
            TimeControl::default().describe(),
            "30 moves in 60 min, repeating"
        );
        assert_eq!(
            TimeControl::apca().describe(),
            "35 moves in 70 min, then 15 moves in 30 min, repeating"
        );
        assert_eq!(
            TimeControl::fischer(1200, 5).describe(),
            "20 min for the game, +5 s/move"
        );
        assert_eq!(TimeControl::none().describe(), "no clock");
        assert_eq!(TimeControl::default().pgn(), "30/3600");
        assert_eq!(TimeControl::apca().pgn(), "35/4200:15/1800");
        assert_eq!(TimeControl::fischer(1200, 5).pgn(), "1200+5");
        assert_eq!(TimeControl::none().pgn(), "-");
        assert_eq!(TimeControl::per_move_classic().pgn(), "-");
    }

    #[test]
    fn a_field_takes_the_typed_form_or_a_table() {
        #[derive(serde::Deserialize, Debug)]
        struct S {
            #[serde(deserialize_with = "string_or_table")]
            tc: TimeControl,
        }
        let s: S = toml::from_str("tc = \"35/70 15/30\"\n").unwrap();
        assert_eq!(s.tc, TimeControl::apca());
        let s: S = toml::from_str("[tc]\nincrement-seconds = 5\n[[tc.periods]]\nseconds = 1200\n")
            .unwrap();
        assert_eq!(s.tc, TimeControl::fischer(1200, 5));
        let e = toml::from_str::<S>("tc = \"20 d5 b5\"\n").unwrap_err();
        assert!(e.to_string().contains("two delays"), "{e}");
        assert!(toml::from_str::<S>("[tc]\nperiod = 1\n").is_err());
    }
}
