//! Searching the library: a search line read into a [`Query`], the query run on the cache.
//!
//! A search line is words and `field:value` terms, all of which a game must match:
//! `player:tinsley` (either colour), `red:` and `white:` (one colour), `event:`, `opening:`
//! (the opening or ballot's name or number, `3-move 5`, `edinburgh`, `11-man 567`), `from:`
//! and `to:` (dates, `1990`, `1990.05`, `1990.05.17`), `result:` (`1-0`, `0-1`, `draw`, `*`),
//! `moves:` (`40`, `>40`, `<20`, `30-50`), `fen:` (the games through that position). A plain
//! word matches a player, the event or the opening. Text matches without regard to case; a
//! value with spaces is quoted (`event:"Nationals 1990"`).

use super::cache::{Library, LibraryError};
use super::read::position_key;
use super::{GameRow, SourceKind};
use crate::engine::Position;
use crate::store::pdn::PdnResult;
use rusqlite::ToSql;
use std::path::PathBuf;

/// The order of a search's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// By date, then file and number.
    #[default]
    Date,
    /// By Red's player, then White's.
    Player,
    /// By event.
    Event,
    /// By opening.
    Opening,
    /// By result.
    Result,
    /// By length.
    Moves,
    /// By file, then number: as the files hold them.
    File,
}

impl Sort {
    /// Every order, in the order the screen cycles through them.
    pub const ALL: [Sort; 7] = [
        Sort::Date,
        Sort::Player,
        Sort::Event,
        Sort::Opening,
        Sort::Result,
        Sort::Moves,
        Sort::File,
    ];

    /// Its name on screen.
    pub fn name(self) -> &'static str {
        match self {
            Sort::Date => "date",
            Sort::Player => "player",
            Sort::Event => "event",
            Sort::Opening => "opening",
            Sort::Result => "result",
            Sort::Moves => "moves",
            Sort::File => "file",
        }
    }

    fn order_by(self) -> &'static str {
        match self {
            Sort::Date => "g.day, f.path, g.number",
            Sort::Player => "g.red COLLATE NOCASE, g.white COLLATE NOCASE, g.day",
            Sort::Event => "g.event COLLATE NOCASE, g.day, f.path, g.number",
            Sort::Opening => "g.opening COLLATE NOCASE, g.day",
            Sort::Result => "g.result, g.day",
            Sort::Moves => "g.plies, g.day",
            Sort::File => "f.path, g.number",
        }
    }
}

/// What the games searched for must match (every field set), and their order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// Words each of which is in a player's name, the event or the opening.
    pub words: Vec<String>,
    /// In either player's name.
    pub player: Option<String>,
    /// In Red's name.
    pub red: Option<String>,
    /// In White's name.
    pub white: Option<String>,
    /// In the event.
    pub event: Option<String>,
    /// In the opening's name (`3-move 5: Dreaded Edinburgh`).
    pub opening: Option<String>,
    /// Played on or after (a year, a month or a day: `1990`, `1990.05`).
    pub from: Option<String>,
    /// Played on or before.
    pub to: Option<String>,
    /// The result.
    pub result: Option<PdnResult>,
    /// At least this many moves.
    pub min_moves: Option<u32>,
    /// At most this many moves.
    pub max_moves: Option<u32>,
    /// The games that passed through this position.
    pub position: Option<Position>,
    /// The order.
    pub sort: Sort,
    /// Reversed.
    pub descending: bool,
}

/// A date as the library sorts it: `YYYY.MM.DD`, unknown parts `00` (`1993.??.??` is
/// `1993.00.00`); empty without a year.
pub(super) fn sortable_day(date: &str) -> String {
    let parts: Vec<&str> = date.trim().split(['.', '-', '/']).collect();
    let year = parts.first().copied().unwrap_or("");
    if year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return String::new();
    }
    let two = |i: usize| match parts.get(i) {
        Some(p) if (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{p:0>2}")
        }
        _ => "00".to_string(),
    };
    format!("{year}.{}.{}", two(1), two(2))
}

/// A date bound as typed (`1990`, `1990.05`, `1990-05-17`) as the first (`low`) or last day
/// it covers, sortable as [`sortable_day`] writes days.
fn date_bound(text: &str, low: bool) -> Result<String, String> {
    let parts: Vec<&str> = text.split(['.', '-', '/']).collect();
    let fill = if low { "00" } else { "99" };
    let ok =
        |p: &str, n: usize| p.len() <= n && !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y] if y.len() == 4 && ok(y, 4) => Ok(format!("{y}.{fill}.{fill}")),
        [y, m] if y.len() == 4 && ok(y, 4) && ok(m, 2) => Ok(format!("{y}.{m:0>2}.{fill}")),
        [y, m, d] if y.len() == 4 && ok(y, 4) && ok(m, 2) && ok(d, 2) => {
            Ok(format!("{y}.{m:0>2}.{d:0>2}"))
        }
        _ => Err(format!(
            "date {text:?}: a year, a month or a day, as 1990, 1990.05 or 1990.05.17"
        )),
    }
}

/// The terms of a search line: words, quoted values kept whole.
fn terms(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if quoted {
        return Err("a quote is not closed".into());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// `40`, `>40`, `>=40`, `<20`, `30-50`: (at least, at most).
fn moves_range(text: &str) -> Result<(Option<u32>, Option<u32>), String> {
    let n = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("moves {text:?}: a number, >N, <N or N-M"))
    };
    if let Some(rest) = text.strip_prefix(">=") {
        Ok((Some(n(rest)?), None))
    } else if let Some(rest) = text.strip_prefix("<=") {
        Ok((None, Some(n(rest)?)))
    } else if let Some(rest) = text.strip_prefix('>') {
        Ok((Some(n(rest)?.saturating_add(1)), None))
    } else if let Some(rest) = text.strip_prefix('<') {
        Ok((None, Some(n(rest)?.saturating_sub(1))))
    } else if let Some((a, b)) = text.split_once('-') {
        Ok((Some(n(a)?), Some(n(b)?)))
    } else {
        let v = n(text)?;
        Ok((Some(v), Some(v)))
    }
}

fn result_of(text: &str) -> Result<PdnResult, String> {
    match text.to_ascii_lowercase().as_str() {
        "draw" | "drawn" | "1/2" | "½" => Ok(PdnResult::Draw),
        "red" => Ok(PdnResult::RedWins),
        "white" => Ok(PdnResult::WhiteWins),
        other => PdnResult::parse(other).ok_or_else(|| {
            format!("result {text:?}: 1-0 (Red won), 0-1 (White won), draw, or * (unfinished)")
        }),
    }
}

impl Query {
    /// Read a search line (see the module's doc); the error names the term that does not read.
    pub fn parse(line: &str) -> Result<Query, String> {
        let mut q = Query::default();
        for term in terms(line)? {
            let Some((field, value)) = term
                .split_once(':')
                .filter(|(f, _)| f.chars().all(|c| c.is_ascii_alphabetic()) && !f.is_empty())
            else {
                q.words.push(term);
                continue;
            };
            let value = value.to_string();
            let set = |slot: &mut Option<String>| *slot = Some(value.clone());
            match field.to_ascii_lowercase().as_str() {
                "player" | "p" => set(&mut q.player),
                "red" | "black" => set(&mut q.red),
                "white" => set(&mut q.white),
                "event" | "e" => set(&mut q.event),
                "opening" | "ballot" | "o" => set(&mut q.opening),
                "from" | "after" => q.from = Some(date_bound(&value, true)?),
                "to" | "before" => q.to = Some(date_bound(&value, false)?),
                "result" | "r" => q.result = Some(result_of(&value)?),
                "moves" | "m" => (q.min_moves, q.max_moves) = moves_range(&value)?,
                "fen" => {
                    q.position = Some(
                        Position::from_fen(&value).map_err(|e| format!("fen {value:?}: {e}"))?,
                    );
                }
                other => {
                    return Err(format!(
                        "{other}: is not a field; player, red, white, event, opening, from, to, \
                         result, moves, fen"
                    ));
                }
            }
        }
        Ok(q)
    }
}

/// `%text%` for LIKE, with its own `%`, `_` and `\` escaped.
fn like(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

impl Library {
    /// The games matching `q`, in its order.
    pub fn search(&self, q: &Query) -> Result<Vec<GameRow>, LibraryError> {
        let (filter, args) = filter(q);
        let order = if q.descending {
            q.sort
                .order_by()
                .split(", ")
                .map(|c| format!("{c} DESC"))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            q.sort.order_by().to_string()
        };
        let sql = format!(
            "SELECT g.id, g.red, g.white, g.event, g.date, g.opening, g.result, g.plies, \
             f.path, f.kind, g.number FROM games g JOIN files f ON f.id = g.file {filter} \
             ORDER BY {order}"
        );
        let mut stmt = self.conn().prepare(&sql).map_err(|e| self.sql(e))?;
        let params: Vec<&dyn ToSql> = args.iter().map(AsRef::as_ref).collect();
        let rows = stmt
            .query_map(params.as_slice(), game_row)
            .map_err(|e| self.sql(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.sql(e))
    }
}

/// One row of the search's `SELECT`.
fn game_row(r: &rusqlite::Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        red: r.get(1)?,
        white: r.get(2)?,
        event: r.get(3)?,
        date: r.get(4)?,
        opening: r.get(5)?,
        result: PdnResult::parse(&r.get::<_, String>(6)?).unwrap_or_default(),
        plies: r.get(7)?,
        source: PathBuf::from(r.get::<_, String>(8)?),
        kind: SourceKind::from_key(&r.get::<_, String>(9)?).unwrap_or(SourceKind::Pdn),
        number: r.get(10)?,
    })
}

/// The `WHERE` clause of `q` (empty for every game) and its parameters.
fn filter(q: &Query) -> (String, Vec<Box<dyn ToSql>>) {
    let mut clauses: Vec<String> = Vec::new();
    let mut args: Vec<Box<dyn ToSql>> = Vec::new();
    let mut text = |cols: &[&str], value: &str, clauses: &mut Vec<String>| {
        let n = args.len() + 1;
        let any: Vec<String> = cols
            .iter()
            .map(|c| format!("g.{c} LIKE ?{n} ESCAPE '\\'"))
            .collect();
        clauses.push(format!("({})", any.join(" OR ")));
        args.push(Box::new(like(value)));
    };
    for w in &q.words {
        text(&["red", "white", "event", "opening"], w, &mut clauses);
    }
    let fields: [(&Option<String>, &[&str]); 5] = [
        (&q.player, &["red", "white"]),
        (&q.red, &["red"]),
        (&q.white, &["white"]),
        (&q.event, &["event"]),
        (&q.opening, &["opening"]),
    ];
    for (value, cols) in fields {
        if let Some(v) = value {
            text(cols, v, &mut clauses);
        }
    }
    let mut bound = |sql: &str, value: Box<dyn ToSql>, clauses: &mut Vec<String>| {
        args.push(value);
        clauses.push(sql.replace('?', &format!("?{}", args.len())));
    };
    if let Some(from) = &q.from {
        bound(
            "(g.day <> '' AND g.day >= ?)",
            Box::new(from.clone()),
            &mut clauses,
        );
    }
    if let Some(to) = &q.to {
        bound(
            "(g.day <> '' AND g.day <= ?)",
            Box::new(to.clone()),
            &mut clauses,
        );
    }
    if let Some(r) = q.result {
        bound("g.result = ?", Box::new(r.as_str()), &mut clauses);
    }
    // Moves are plies halved, rounded up: at least m moves is at least 2m - 1 plies.
    if let Some(m) = q.min_moves {
        bound(
            "g.plies >= ?",
            Box::new((i64::from(m) * 2 - 1).max(0)),
            &mut clauses,
        );
    }
    if let Some(m) = q.max_moves {
        bound("g.plies <= ?", Box::new(i64::from(m) * 2), &mut clauses);
    }
    if let Some(p) = &q.position {
        bound(
            "g.id IN (SELECT game FROM positions WHERE key = ?)",
            Box::new(position_key(p) as i64),
            &mut clauses,
        );
    }
    let filter = if clauses.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", clauses.join(" AND "))
    };
    (filter, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_sort_with_unknown_parts_first() {
        assert_eq!(sortable_day("1993.08.17"), "1993.08.17");
        assert_eq!(sortable_day("1993.??.??"), "1993.00.00");
        assert_eq!(sortable_day("1993-8-7"), "1993.08.07");
        assert_eq!(sortable_day("?"), "");
        assert_eq!(date_bound("1993", false).unwrap(), "1993.99.99");
        assert!(date_bound("93", true).is_err());
    }
}
