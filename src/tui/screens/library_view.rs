//! The library screen drawn: the title, the search line, the games as columns (a cut shows
//! `…`, rows out of sight are counted), the highlighted game's details, the status and keys.

use super::library::{FIELD_KEYS, Field, KEYS, LibraryScreen};
use crate::store::library::GameRow;
use crate::tui::keys::footer;
use crate::tui::theme::Appearance;
use crate::tui::widgets::{StatusKind, fit_line, fit_tail, fit_text, wrap_fit};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// Column widths: date, Red, White, result, moves (the opening takes the rest).
const DATE: usize = 10;
const NAME: usize = 15;
const RESULT: usize = 7;
const MOVES: usize = 3;

/// Draw the screen.
pub(super) fn render(s: &LibraryScreen, frame: &mut Frame, area: Rect, look: &Appearance) {
    let buf = frame.buffer_mut();
    let width = area.width as usize;
    let mut line = |y: u16, l: Line| {
        buf.set_line(area.x, area.y + y, &fit_line(l, width), area.width);
    };
    line(0, Line::from(Span::styled(title(s), look.accent())));
    line(1, search_line(s, look, width));
    let list_top = 3u16;
    let list_bottom = area.height.saturating_sub(4);
    let height = usize::from(list_bottom.saturating_sub(list_top));
    if s.show_notes {
        line(
            2,
            Line::from(Span::styled("Notes (n hides them)", look.accent())),
        );
        let notes = if s.notes.is_empty() {
            vec!["No notes: every game of every file was read.".to_string()]
        } else {
            s.notes.clone()
        };
        let text = notes.join("\n");
        for (i, l) in wrap_fit(&text, width, height).into_iter().enumerate() {
            line(list_top + i as u16, Line::from(l));
        }
    } else {
        line(2, Line::from(Span::styled(header(width), look.dim())));
        for (i, l) in rows(s, height, width, look).into_iter().enumerate() {
            line(list_top + i as u16, l);
        }
    }
    let (first, second) = details(s.rows.get(s.selected), width);
    line(list_bottom, Line::from(first));
    line(
        list_bottom + 1,
        Line::from(Span::styled(second, look.dim())),
    );
    let (text, kind) = status(s);
    let style = match kind {
        StatusKind::Info => Style::new(),
        StatusKind::Warn => look.accent(),
        StatusKind::Error => look.alert(),
    };
    let status_y = area.height.saturating_sub(2);
    let rows_of_status = wrap_fit(&text, width, 1);
    line(
        status_y,
        Line::from(Span::styled(rows_of_status.concat(), style)),
    );
    let keys = if s.field.is_some() {
        format!("type · {} · F1 help", footer(FIELD_KEYS))
    } else {
        format!("↑↓ · {} · ? help", footer(KEYS))
    };
    let last = area.height.saturating_sub(1);
    line(last, Line::from(Span::styled(look.text(&keys), look.dim())));
    mark_selected(buf, area, s, list_top, height);
}

fn title(s: &LibraryScreen) -> String {
    let total = s.total();
    let shown = s.rows.len();
    let through = if s.position.is_some() {
        " through the position from review"
    } else {
        ""
    };
    let order = if s.sort.1 { "descending" } else { "ascending" };
    format!(
        "Game library · {shown} of {total} games{through} · by {} ({order})",
        s.sort.0.name()
    )
}

fn search_line(s: &LibraryScreen, look: &Appearance, width: usize) -> Line<'static> {
    let label = match &s.field {
        Some(Field::Folder(_)) => "Add the folder: ",
        _ => "Search: ",
    };
    let room = width.saturating_sub(label.len() + 1);
    match &s.field {
        Some(Field::Folder(t)) => typed(label, t, room, look),
        Some(Field::Search(_)) => typed(label, &s.search, room, look),
        None if s.search.is_empty() => Line::from(vec![
            Span::styled(label, look.dim()),
            Span::styled(
                "/ searches (player:, event:, opening:, from:, result:, moves:...)",
                look.dim(),
            ),
        ]),
        None => Line::from(vec![
            Span::styled(label, look.dim()),
            Span::raw(s.search.clone()),
        ]),
    }
}

/// A field being typed: its end kept in sight, the cursor after it.
fn typed(label: &'static str, text: &str, room: usize, look: &Appearance) -> Line<'static> {
    Line::from(vec![
        Span::styled(label, look.accent()),
        Span::styled(
            format!("{}_", fit_tail(text, room.saturating_sub(1))),
            look.accent().add_modifier(Modifier::UNDERLINED),
        ),
    ])
}

fn header(width: usize) -> String {
    let opening = width.saturating_sub(2 + DATE + 1 + NAME + 1 + NAME + 1 + RESULT + 1 + MOVES + 1);
    format!(
        "  {:<DATE$} {:<NAME$} {:<NAME$} {:<RESULT$} {:>MOVES$} {:<opening$}",
        "Date", "Red", "White", "Result", "Mv", "Opening"
    )
}

fn cell(text: &str, w: usize) -> String {
    let t = fit_text(text, w);
    let pad = w.saturating_sub(t.chars().count());
    format!("{t}{}", " ".repeat(pad))
}

fn row(g: &GameRow, width: usize) -> String {
    let opening = width.saturating_sub(2 + DATE + 1 + NAME + 1 + NAME + 1 + RESULT + 1 + MOVES + 1);
    format!(
        "  {} {} {} {} {:>MOVES$} {}",
        cell(&g.date, DATE),
        cell(&g.red, NAME),
        cell(&g.white, NAME),
        cell(g.result.as_str(), RESULT),
        g.moves(),
        fit_text(&g.opening, opening),
    )
}

/// The rows in sight, the highlighted one among them; when they do not all fit, the last line
/// counts those above and below.
fn rows(s: &LibraryScreen, height: usize, width: usize, look: &Appearance) -> Vec<Line<'static>> {
    if s.rows.is_empty() {
        let why = if s.search.is_empty() && s.position.is_none() {
            "No games yet: play or save some, or add a folder of PDN files (a)."
        } else {
            "No game matches: / changes the search, x clears it."
        };
        return vec![Line::from(Span::styled(why, look.dim()))];
    }
    let (start, show) = window(s.rows.len(), s.selected, height);
    let mut out: Vec<Line> = s.rows[start..start + show]
        .iter()
        .map(|g| Line::from(look.text(&row(g, width))))
        .collect();
    if show < s.rows.len() {
        let below = s.rows.len() - start - show;
        out.push(Line::from(Span::styled(
            format!(" ({start} above, {below} below: ↑↓ PgUp PgDn scroll)"),
            look.dim(),
        )));
    }
    out
}

/// The first row in sight and how many are, for `len` rows in `height` lines with `selected`
/// in sight (one line kept for the count when they do not all fit).
fn window(len: usize, selected: usize, height: usize) -> (usize, usize) {
    if len <= height {
        return (0, len);
    }
    let show = height.saturating_sub(1).max(1);
    let start = selected.saturating_sub(show / 2).min(len - show);
    (start, show)
}

/// The highlighted row: a `>` in its first column, reversed.
fn mark_selected(buf: &mut Buffer, area: Rect, s: &LibraryScreen, top: u16, height: usize) {
    if s.show_notes || s.rows.is_empty() {
        return;
    }
    let (start, _) = window(s.rows.len(), s.selected, height);
    let y = area.y + top + (s.selected - start) as u16;
    buf.set_string(area.x, y, ">", Style::new());
    for x in area.x..area.right() {
        if let Some(c) = buf.cell_mut((x, y)) {
            c.modifier.insert(Modifier::REVERSED);
        }
    }
}

/// The highlighted game's event, date and opening; its file and length.
fn details(g: Option<&GameRow>, width: usize) -> (String, String) {
    let Some(g) = g else {
        return (String::new(), String::new());
    };
    let event = if g.event.is_empty() { "?" } else { &g.event };
    let first = fit_text(
        &format!("{event} · {} vs {} · {}", g.red, g.white, g.opening),
        width,
    );
    let tail = format!(", game {} · {} plies", g.number, g.plies);
    let room = width.saturating_sub(tail.chars().count());
    let second = format!("{}{tail}", fit_tail(&g.source.display().to_string(), room));
    (first, second)
}

fn status(s: &LibraryScreen) -> (String, StatusKind) {
    if let Some(m) = &s.message {
        return m.clone();
    }
    if !s.notes.is_empty() && !s.show_notes {
        return (
            format!(
                "{} note{}: n shows {}",
                s.notes.len(),
                if s.notes.len() == 1 { "" } else { "s" },
                if s.notes.len() == 1 { "it" } else { "them" }
            ),
            StatusKind::Warn,
        );
    }
    let places = s.places();
    let folders = places.sources.folders.len();
    (
        format!("the data folder's games and {folders} folder(s) from the config; a adds one"),
        StatusKind::Info,
    )
}
