//! The match file's text, format version 2: JSON lines, one record a line, appended.
//!
//! ```text
//! {"format-version":2}
//! {"settings":{"players":["Ann","Bob"],"ballots":12,...}}
//! {"at":"2026-12-01T14:05:00Z","event":"match-created"}
//! {"t":31,"event":"colours-set","red":"first","by-director":true}
//! {"t":95,"event":"move","mv":"11-15","spent":30000,"left":3570000}
//! ```
//!
//! Line 1 is the version, line 2 the settings, then one record per [`LogEntry`] of the match's
//! log, in order: the match-created record holds its wall-clock time (`at`), every later record
//! `t`, whole seconds after it. Nothing else is stored: games, positions, clocks, scores and
//! phase are derived by replaying the records ([`Match::from_log`]).
//!
//! Every record ends with a newline and is appended in one write; a last line without its
//! newline that does not read as a record is a write cut short by a crash ([`Torn`]).
//!
//! A record is refused, with its line, when it contradicts the log it is in: a key given twice
//! (JSON readers keep one silently), a key its event does not have (also on events without
//! fields), a time before the match was created or before the record above it.

use crate::director::{LogEntry, Match, MatchEvent, MatchSettings};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The format version this module reads and writes.
pub(super) const VERSION: u32 = 2;

/// The key of the first line.
pub(super) const VERSION_KEY: &str = "format-version";

/// The version line.
pub(super) fn version_line() -> String {
    format!("{{\"{VERSION_KEY}\":{VERSION}}}\n")
}

#[derive(Serialize)]
struct SettingsOut<'a> {
    settings: &'a MatchSettings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsIn {
    settings: MatchSettings,
}

/// The settings line.
pub(super) fn settings_line(s: &MatchSettings) -> Result<String, serde_json::Error> {
    let mut line = serde_json::to_string(&SettingsOut { settings: s })?;
    line.push('\n');
    Ok(line)
}

/// One record's line: `{"t":N,"event":...}` (the creation record: `{"at":"...","event":...}`);
/// `created` is the creation record's time.
pub(super) fn record_line(
    entry: &LogEntry,
    created: DateTime<Utc>,
) -> Result<String, serde_json::Error> {
    let event = serde_json::to_string(&entry.event)?;
    // The event is a JSON object: `{"event":...}`; the time goes first.
    let rest = event.strip_prefix('{').unwrap_or(&event);
    let mut line = if entry.event == MatchEvent::MatchCreated {
        format!("{{\"at\":{},{rest}", serde_json::to_string(&entry.at)?)
    } else {
        let t = entry.at.signed_duration_since(created).num_seconds();
        format!("{{\"t\":{t},{rest}")
    };
    line.push('\n');
    Ok(line)
}

/// The whole file of `m`.
pub(super) fn encode(m: &Match) -> Result<String, serde_json::Error> {
    let mut out = version_line();
    out.push_str(&settings_line(m.settings())?);
    out.push_str(&records(m.log(), created(m.log()))?);
    Ok(out)
}

/// The lines of `entries`, one after the other.
pub(super) fn records(
    entries: &[LogEntry],
    created: DateTime<Utc>,
) -> Result<String, serde_json::Error> {
    let mut out = String::with_capacity(entries.len() * 64);
    for e in entries {
        out.push_str(&record_line(e, created)?);
    }
    Ok(out)
}

/// The creation time of a log (its first entry's).
pub(super) fn created(log: &[LogEntry]) -> DateTime<Utc> {
    log.first().map(|e| e.at).unwrap_or_default()
}

/// A last line cut short by a crash: dropped, and said so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Torn {
    /// Its line number (from 1).
    pub line: usize,
    /// Its length in bytes.
    pub bytes: usize,
}

/// A file read into its parts (not yet replayed).
#[derive(Debug)]
pub(super) struct Parsed {
    /// The settings.
    pub settings: MatchSettings,
    /// The records, in order.
    pub entries: Vec<LogEntry>,
    /// The line of each record (from 1).
    pub lines: Vec<usize>,
    /// The byte offset just after each record's line.
    pub ends: Vec<usize>,
    /// Whether the last record's line lacks its newline.
    pub unterminated: bool,
    /// The last line, if cut short.
    pub torn: Option<Torn>,
    /// A record whose time goes back: reading stopped there (`entries` are the records
    /// before it). The file is refused with it, unless replaying those refuses an earlier line.
    pub backwards: Option<LineError>,
}

/// Why a line cannot be read.
#[derive(Debug)]
pub(super) struct LineError {
    /// The line (from 1).
    pub line: usize,
    /// The column (from 1), 0 when unknown.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The line was a newer format version's.
    pub newer: Option<i64>,
}

impl LineError {
    fn new(line: usize, column: usize, message: impl Into<String>) -> LineError {
        LineError {
            line,
            column,
            message: message.into(),
            newer: None,
        }
    }
}

/// Split `text` into the version, the settings and the records.
pub(super) fn parse(text: &str) -> Result<Parsed, LineError> {
    let mut lines = Lines { text, at: 0, no: 0 };
    let (no, first, _) = lines
        .next_nonblank()
        .ok_or_else(|| LineError::new(1, 0, "the file is empty"))?;
    read_version(first, no)?;
    let (no, second, _) = lines.next_nonblank().ok_or_else(|| {
        LineError::new(
            no + 1,
            0,
            "the settings line is missing: the file is cut short",
        )
    })?;
    let settings = serde_json::from_str::<SettingsIn>(second)
        .map_err(|e| json_error(no, &e, "the settings", second))?
        .settings;
    let mut out = Parsed {
        settings,
        entries: Vec::new(),
        lines: Vec::new(),
        ends: Vec::new(),
        unterminated: false,
        torn: None,
        backwards: None,
    };
    while let Some((no, line, terminated)) = lines.next_nonblank() {
        let created = out.entries.first().map(|e| e.at);
        match read_record(line, created) {
            Ok(entry) => {
                if let Some(before) = out.entries.last().filter(|b| entry.at < b.at) {
                    let why = backwards(&out.entries[0], before, &entry);
                    out.backwards = Some(LineError::new(no, 0, why));
                    break;
                }
                out.entries.push(entry);
                out.lines.push(no);
                out.ends.push(lines.at);
                out.unterminated = !terminated;
            }
            Err(_) if !terminated => {
                out.torn = Some(Torn {
                    line: no,
                    bytes: line.len(),
                });
            }
            Err(e) => return Err(LineError::new(no, e.1, e.0)),
        }
    }
    Ok(out)
}

/// Why the time of `entry` cannot follow `before` (`created`: the log's first record).
fn backwards(created: &LogEntry, before: &LogEntry, entry: &LogEntry) -> String {
    let t = |e: &LogEntry| e.at.signed_duration_since(created.at).num_seconds();
    if entry.at < created.at {
        format!(
            "`t` = {}: before the match was created (`t` counts seconds from it)",
            t(entry)
        )
    } else {
        format!(
            "`t` = {} is before the record above it (`t` = {}): a log's times never go back",
            t(entry),
            t(before)
        )
    }
}

/// The lines of a text with their numbers; `at` is the offset after the last line returned.
struct Lines<'a> {
    text: &'a str,
    at: usize,
    no: usize,
}

impl<'a> Lines<'a> {
    /// The next line that is not blank: its number, its text, and whether a newline ends it.
    fn next_nonblank(&mut self) -> Option<(usize, &'a str, bool)> {
        while self.at < self.text.len() {
            let rest = &self.text[self.at..];
            let (line, terminated, len) = match rest.find('\n') {
                Some(i) => (&rest[..i], true, i + 1),
                None => (rest, false, rest.len()),
            };
            self.at += len;
            self.no += 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            if !line.trim().is_empty() {
                return Some((self.no, line, terminated));
            }
        }
        None
    }
}

fn read_version(line: &str, no: usize) -> Result<(), LineError> {
    serde_json::from_str::<NoKeyTwice>(line)
        .map_err(|e| json_error(no, &e, "the version line", line))?;
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| json_error(no, &e, "the version line", line))?;
    let Some(map) = value.as_object() else {
        return Err(LineError::new(no, 1, "expected {\"format-version\":2}"));
    };
    let version = map.get(VERSION_KEY).and_then(serde_json::Value::as_i64);
    if let Some(key) = map.keys().find(|k| *k != VERSION_KEY) {
        return Err(LineError::new(no, 0, format!("unknown key `{key}`")));
    }
    match version {
        Some(v) if v == i64::from(VERSION) => Ok(()),
        Some(v) if v > i64::from(VERSION) => Err(LineError {
            newer: Some(v),
            ..LineError::new(no, 0, "newer")
        }),
        Some(v) => Err(LineError::new(
            no,
            0,
            format!("format version {v} is not written as JSON lines"),
        )),
        None => Err(LineError::new(
            no,
            0,
            format!("key `{VERSION_KEY}` missing or not a whole number"),
        )),
    }
}

/// One record; the error is the message and the column.
fn read_record(line: &str, created: Option<DateTime<Utc>>) -> Result<LogEntry, (String, usize)> {
    fast_record(line, created).map_or_else(|| any_record(line, created), Ok)
}

/// A record as this module writes it (`{"t":N,` first), read without building a JSON tree.
fn fast_record(line: &str, created: Option<DateTime<Utc>>) -> Option<LogEntry> {
    let rest = line.strip_prefix("{\"t\":")?;
    let comma = rest.find(',')?;
    let t: i64 = rest[..comma].parse().ok()?;
    // As JSON writes it (no leading zeros, no sign): anything else is read the slow, strict way.
    if t.to_string() != rest[..comma] {
        return None;
    }
    let at = created?.checked_add_signed(chrono::TimeDelta::try_seconds(t)?)?;
    let mut object = String::with_capacity(rest.len() - comma);
    object.push('{');
    object.push_str(&rest[comma + 1..]);
    let event: MatchEvent = serde_json::from_str(&object).ok()?;
    // Exactly as written (no key twice, none an event without fields ignores): anything else
    // is read the strict way.
    if serde_json::to_string(&event).ok()? != object {
        return None;
    }
    Some(LogEntry { at, event })
}

/// A record with its keys in any order.
fn any_record(line: &str, created: Option<DateTime<Utc>>) -> Result<LogEntry, (String, usize)> {
    serde_json::from_str::<NoKeyTwice>(line).map_err(|e| (e.to_string(), e.column()))?;
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| (e.to_string(), e.column()))?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(("a record is a JSON object".into(), 1));
    };
    let at = match (map.remove("t"), map.remove("at"), created) {
        (Some(t), None, Some(created)) => t
            .as_i64()
            .and_then(|t| created.checked_add_signed(chrono::TimeDelta::try_seconds(t)?))
            .ok_or_else(|| (format!("`t` = {t}: not a time in seconds"), 0))?,
        (None, Some(at), _) => {
            serde_json::from_value::<DateTime<Utc>>(at).map_err(|e| (format!("`at`: {e}"), 0))?
        }
        (Some(_), None, None) => {
            return Err(("the first record needs its time as `at`".into(), 0));
        }
        (Some(_), Some(_), _) => return Err(("a record has `t` or `at`, not both".into(), 0)),
        (None, None, _) => return Err(("the record has no time (`t`)".into(), 0)),
    };
    let keys: Vec<String> = map.keys().cloned().collect();
    let event = MatchEvent::deserialize(serde_json::Value::Object(map)).map_err(|e| {
        let msg = e.to_string();
        (msg, 0)
    })?;
    // An event without fields ignores unknown keys when read: refused here, as on the others.
    if let Ok(serde_json::Value::Object(known)) = serde_json::to_value(&event)
        && known.len() == 1
        && let Some(key) = keys.iter().find(|k| !known.contains_key(*k))
    {
        let name = known.values().next().and_then(|v| v.as_str()).unwrap_or("");
        return Err((
            format!("unknown field `{key}`: a `{name}` record has none"),
            0,
        ));
    }
    Ok(LogEntry { at, event })
}

/// Any JSON value, refused when an object in it has a key twice (JSON readers keep the last
/// one silently, so the record would say two things).
struct NoKeyTwice;

impl<'de> Deserialize<'de> for NoKeyTwice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NoKeyTwice, D::Error> {
        d.deserialize_any(NoKeyTwice)
    }
}

impl<'de> serde::de::Visitor<'de> for NoKeyTwice {
    type Value = NoKeyTwice;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_i64<E>(self, _: i64) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_u64<E>(self, _: u64) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_f64<E>(self, _: f64) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_str<E>(self, _: &str) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_unit<E>(self) -> Result<NoKeyTwice, E> {
        Ok(NoKeyTwice)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<NoKeyTwice, A::Error> {
        while seq.next_element::<NoKeyTwice>()?.is_some() {}
        Ok(NoKeyTwice)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<NoKeyTwice, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<NoKeyTwice>()?;
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "key `{key}` is given twice"
                )));
            }
        }
        Ok(NoKeyTwice)
    }
}

fn json_error(line: usize, e: &serde_json::Error, what: &str, text: &str) -> LineError {
    let message = match key_before(text, e.column()) {
        Some(key) => format!("{what}: key `{key}`: {e}"),
        None => format!("{what}: {e}"),
    };
    LineError::new(line, e.column(), message)
}

/// The JSON key nearest before byte column `column` (from 1) of `line`.
fn key_before(line: &str, column: usize) -> Option<String> {
    let mut end = column.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let before = &line[..end];
    let colon = before.rfind("\":")?;
    let start = before[..colon].rfind('"')?;
    Some(before[start + 1..colon].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_blank_ones_skipped() {
        let mut l = Lines {
            text: "a\n\nb\r\nc",
            at: 0,
            no: 0,
        };
        assert_eq!(l.next_nonblank(), Some((1, "a", true)));
        assert_eq!(l.next_nonblank(), Some((3, "b", true)));
        assert_eq!(l.next_nonblank(), Some((4, "c", false)));
        assert_eq!(l.at, 7);
        assert_eq!(l.next_nonblank(), None);
    }

    #[test]
    fn the_key_before_an_error() {
        let line = r#"{"settings":{"ballots":"one"}}"#;
        assert_eq!(key_before(line, 28).as_deref(), Some("ballots"));
        assert_eq!(key_before("{", 1), None);
    }

    #[test]
    fn version_line_is_checked() {
        assert!(read_version("{\"format-version\":2}", 1).is_ok());
        assert_eq!(
            read_version("{\"format-version\":3}", 1).unwrap_err().newer,
            Some(3)
        );
        assert!(read_version("{\"format-version\":2,\"x\":1}", 1).is_err());
        assert!(read_version("[2]", 1).is_err());
    }
}
