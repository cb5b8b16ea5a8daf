//! An entry list (a federation's list, a registration spreadsheet saved as CSV) read into a
//! division's entries, and the report a director reads before anything is recorded: each
//! problem names the file, the line and the field. Pure: the caller reads the file and records
//! the entries.
//!
//! Columns are found by their headers ([`columns`]); cells are read by the `csv` crate.
//! A problem (a bad rating, a name past the limit, a player twice in the list or already
//! entered, an id the registry gives to someone else) refuses the whole list; a note (a column
//! ignored, a player without an id) does not.

mod columns;
mod registry;

pub use columns::parse_delimiter;

use super::player::{MAX_RATING, PlayerId, PlayerInfo, check_text};
use super::state::{Action, DivisionId, Tournament};
use crate::director::NAME_MAX_CHARS;
use columns::{Field, delimiter_name, field_of, sniff};
use std::collections::HashMap;

/// One player of the list, as it will be entered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlayer {
    /// The line of the file.
    pub line: u64,
    /// The player as the list gives them.
    pub info: PlayerInfo,
    /// The registry's player this is (matched by id, or by name), or none: a new player,
    /// registered by the import.
    pub registered: Option<PlayerId>,
}

/// Something the report says about the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The line of the file (1: the header).
    pub line: u64,
    /// The field, when it is about one.
    pub field: Option<&'static str>,
    /// What is wrong or worth knowing.
    pub text: String,
    /// True when it refuses the list.
    pub refuses: bool,
}

/// An entry list read and checked: the players it enters and what the report says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryList {
    /// The file, as the report names it.
    pub file: String,
    /// The delimiter read.
    pub delimiter: u8,
    /// The players, in the list's order.
    pub players: Vec<ListedPlayer>,
    /// Problems and notes, by line.
    pub findings: Vec<Finding>,
}

impl EntryList {
    /// The number of problems (each refuses the whole list).
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| f.refuses).count()
    }

    /// The report, a line per finding: `FILE:LINE: FIELD: what`, problems marked.
    pub fn report(&self) -> Vec<String> {
        self.findings
            .iter()
            .map(|f| {
                let field = f.field.map(|x| format!("{x}: ")).unwrap_or_default();
                let kind = if f.refuses { "problem" } else { "note" };
                format!("{}:{}: {kind}: {field}{}", self.file, f.line, f.text)
            })
            .collect()
    }

    /// One line on the whole list: how many players, new and known, and how it was read.
    pub fn summary(&self) -> String {
        let known = self
            .players
            .iter()
            .filter(|p| p.registered.is_some())
            .count();
        format!(
            "{}: {} player(s), {} new to the registry, {known} already registered \
             ({}-separated)",
            self.file,
            self.players.len(),
            self.players.len() - known,
            delimiter_name(self.delimiter)
        )
    }

    fn note(&mut self, line: u64, field: Option<Field>, text: String) {
        self.push(line, field, text, false);
    }

    fn problem(&mut self, line: u64, field: Option<Field>, text: String) {
        self.push(line, field, text, true);
    }

    fn push(&mut self, line: u64, field: Option<Field>, text: String, refuses: bool) {
        self.findings.push(Finding {
            line,
            field: field.map(Field::label),
            text,
            refuses,
        });
    }
}

/// The entry list `bytes` (CSV, UTF-8 with or without a byte-order mark, cells separated by
/// `delimiter` or, when none is given, by the one its header holds most), named `file` in the
/// report, checked for division `division` of `event` against the `registry`.
pub fn read_entry_list(
    file: &str,
    bytes: &[u8],
    delimiter: Option<u8>,
    registry: &[(PlayerId, PlayerInfo)],
    event: &Tournament,
    division: DivisionId,
) -> EntryList {
    let mut list = EntryList {
        file: file.to_string(),
        delimiter: b',',
        players: Vec::new(),
        findings: Vec::new(),
    };
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            list.problem(
                line as u64,
                None,
                "not UTF-8 text: save the list as \"CSV UTF-8\"".into(),
            );
            return list;
        }
    };
    list.delimiter = delimiter.unwrap_or_else(|| sniff(text));
    read_rows(&mut list, text);
    if list.problems() == 0 {
        registry::match_players(&mut list, registry, event, division);
    }
    if list.problems() == 0 {
        check_entries(&mut list, event, division);
    }
    list.findings.sort_by_key(|f| f.line);
    list
}

/// The columns of the header: each field's column, and the columns ignored.
fn read_header(list: &mut EntryList, header: &csv::StringRecord) -> HashMap<Field, usize> {
    let mut at = HashMap::new();
    for (i, h) in header.iter().enumerate() {
        match field_of(h) {
            Some(f) => {
                if let Some(&first) = at.get(&f) {
                    let text = format!(
                        "columns {} and {} both give the {}",
                        first + 1,
                        i + 1,
                        f.label()
                    );
                    list.problem(1, None, text);
                } else {
                    at.insert(f, i);
                }
            }
            None if h.trim().is_empty() => {}
            None => list.note(1, None, format!("column {:?} ignored", h.trim())),
        }
    }
    let names = at.contains_key(&Field::Name) || at.contains_key(&Field::Last);
    if !names {
        list.problem(
            1,
            None,
            "no column of names: the header needs one called Name or Player \
             (or First name and Last name)"
                .into(),
        );
    }
    if !at.contains_key(&Field::Id) {
        list.note(
            1,
            None,
            "no column of ids: players are matched to the registry by name".into(),
        );
    }
    at
}

/// Every row read into a player, each cell checked.
fn read_rows(list: &mut EntryList, text: &str) {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(list.delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return list.problem(1, None, csv_error(&e)),
    };
    let columns = read_header(list, &header);
    if list.problems() > 0 {
        return;
    }
    let mut lines = Lines::new(text);
    for row in reader.records() {
        let row = match row {
            Ok(r) => r,
            Err(e) => {
                let line = lines.of(e.position());
                list.problem(line, None, csv_error(&e));
                continue;
            }
        };
        let line = lines.of(row.position());
        if row.iter().all(str::is_empty) {
            continue;
        }
        if row.len() > header.len() {
            let text = format!(
                "{} cells, the header has {} (a cell holding the delimiter needs quotes)",
                row.len(),
                header.len()
            );
            list.problem(line, None, text);
            continue;
        }
        let cell = |f: Field| columns.get(&f).and_then(|&i| row.get(i)).unwrap_or("");
        if let Some(info) = read_player(list, line, &cell) {
            if columns.contains_key(&Field::Id) && info.federation_ids.is_empty() {
                let text = "none (a federation's rating report needs one)".into();
                list.note(line, Some(Field::Id), text);
            }
            list.players.push(ListedPlayer {
                line,
                info,
                registered: None,
            });
        }
    }
}

/// The line of the file a record starts on, from its byte offset (the csv reader's own line
/// count skips blank lines), counted on from the record before.
struct Lines<'a> {
    text: &'a [u8],
    at: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text: text.as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// The line of the record at `position` (0 when the reader gives none).
    fn of(&mut self, position: Option<&csv::Position>) -> u64 {
        let Some(p) = position else { return 0 };
        let mut start = usize::try_from(p.byte())
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        // A record's offset may be that of the blank lines before it.
        while start < self.text.len() && matches!(self.text[start], b'\n' | b'\r') {
            start += 1;
        }
        if start >= self.at {
            self.line += self.text[self.at..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            self.at = start;
        }
        self.line
    }
}

/// What the csv reader says, without its own position (the report gives the line).
fn csv_error(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text: save the list as \"CSV UTF-8\"".into(),
        csv::ErrorKind::Io(e) => e.to_string(),
        _ => format!("not CSV: {e}"),
    }
}

/// One row's player, or none when a cell is refused (each problem reported).
fn read_player<'a>(
    list: &mut EntryList,
    line: u64,
    cell: &dyn Fn(Field) -> &'a str,
) -> Option<PlayerInfo> {
    let name = match cell(Field::Name) {
        "" => [cell(Field::First), cell(Field::Last)]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" "),
        n => n.to_string(),
    };
    let info = PlayerInfo {
        name: name.split_whitespace().collect::<Vec<_>>().join(" "),
        club: cell(Field::Club).to_string(),
        region: cell(Field::Region).to_string(),
        federation_ids: cell(Field::Id).to_string(),
        rating: None,
    };
    let before = list.problems();
    let rating = read_rating(list, line, cell(Field::Rating));
    check_cells(list, line, &info);
    (list.problems() == before).then_some(PlayerInfo { rating, ..info })
}

/// A rating cell: empty or 0 is unrated; otherwise a whole number up to [`MAX_RATING`].
fn read_rating(list: &mut EntryList, line: u64, text: &str) -> Option<u32> {
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(0) => None,
        Ok(r) if r <= MAX_RATING => Some(r),
        _ => {
            let text = format!("{text:?} is not a rating (a whole number, 0 to {MAX_RATING})");
            list.problem(line, Some(Field::Rating), text);
            None
        }
    }
}

/// Each text cell: a name, and no cell past its limit or holding a control character.
fn check_cells(list: &mut EntryList, line: u64, info: &PlayerInfo) {
    if info.name.is_empty() {
        list.problem(line, Some(Field::Name), "empty".into());
    }
    let len = info.name.chars().count();
    if len > NAME_MAX_CHARS {
        let text =
            format!("{len} characters; the limit is {NAME_MAX_CHARS}, as in a match on crossboard");
        list.problem(line, Some(Field::Name), text);
    }
    for (field, text) in [
        (Field::Name, &info.name),
        (Field::Club, &info.club),
        (Field::Region, &info.region),
        (Field::Id, &info.federation_ids),
    ] {
        if let Err(e) = check_text(field.label(), text) {
            list.problem(line, Some(field), e.to_string());
        }
    }
}

/// Every player tried as an entry of the division, in order: what the division refuses (a
/// round robin under way, too many players) is reported on the player's line.
fn check_entries(list: &mut EntryList, event: &Tournament, division: DivisionId) {
    let mut after = event.clone();
    let mut refused = Vec::new();
    for (k, p) in list.players.iter().enumerate() {
        // A new player's registry id is not known yet: one no registry gives.
        let player = p.registered.unwrap_or(PlayerId::MAX - k as PlayerId);
        let enter = Action::Enter {
            division,
            player,
            info: p.info.clone(),
        };
        if let Err(e) = after.apply(&enter) {
            refused.push((p.line, e.to_string()));
            break;
        }
    }
    for (line, text) in refused {
        list.problem(line, None, text);
    }
}
