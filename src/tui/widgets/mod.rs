//! Widgets shared by every screen: the board, the clock panel, the move list, the whole game
//! screen, menus, form fields, confirmations and the help overlay.

pub mod board;
pub mod clock_panel;
pub mod form;
pub mod game_screen;
pub mod menu;
pub mod move_list;

pub use board::{BoardGeometry, BoardView};
pub use clock_panel::{ClockFace, ClockPanelView, format_clock};
pub use form::{Confirm, ConfirmOutcome, TextField, render_popup};
pub use game_screen::{GameLayout, GameScreenView, StatusKind, centered};
pub use menu::{Menu, render_help, render_too_small};
pub use move_list::{MoveEntry, MoveListView, plies_and_moves};

use ratatui::text::{Line, Span};

/// Which rows of a list taller than its room are shown ([`scrolled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scroll {
    /// This many rows hidden above the first shown (0: the first rows).
    Top(usize),
    /// This many rows hidden below the last shown (0: the last rows).
    Bottom(usize),
}

/// How many of `len` rows [`scrolled`] shows in `height` lines: all when they fit, else one
/// line fewer than `height` (the marker's), at least one.
pub fn scroll_room(len: usize, height: usize) -> usize {
    if len <= height {
        len
    } else {
        height.saturating_sub(1).max(1)
    }
}

/// The rows of a list in `height` lines, scrolled as `at` says (clamped to the ends). When
/// they do not all fit, the last line is a marker (in `style`) saying how many rows are
/// above and below and which keys (`keys`) scroll: nothing is cut silently.
pub fn scrolled<'a>(
    rows: Vec<Line<'a>>,
    height: usize,
    at: Scroll,
    keys: &str,
    style: ratatui::style::Style,
) -> Vec<Line<'a>> {
    if rows.len() <= height {
        return rows;
    }
    let show = scroll_room(rows.len(), height);
    let last_start = rows.len() - show;
    let start = match at {
        Scroll::Top(n) => n.min(last_start),
        Scroll::Bottom(n) => last_start - n.min(last_start),
    };
    let (above, below) = (start, rows.len() - start - show);
    let mut out: Vec<Line> = rows.into_iter().skip(start).take(show).collect();
    out.push(Line::from(Span::styled(
        format!(" ({above} above, {below} below: {keys} scroll)"),
        style,
    )));
    out
}

/// The marker of a text shortened to fit (`.` with `--ascii`).
pub const CUT: char = '…';

/// `line` in `width` columns: as it is when it fits, else cut with the [`CUT`] marker as its
/// last column, never silently (names, events, moves lists too long for the terminal).
pub fn fit_line(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    let room = width.saturating_sub(1);
    let mut used = 0;
    let mut spans = Vec::new();
    for span in line.spans {
        let mut kept = String::new();
        for c in span.content.chars() {
            let w = Span::raw(c.to_string()).width();
            if used + w > room {
                break;
            }
            used += w;
            kept.push(c);
        }
        let full = kept.len() == span.content.len();
        spans.push(Span::styled(kept, span.style));
        if !full {
            break;
        }
    }
    let marker_style = spans.last().map(|s| s.style).unwrap_or_default();
    if width > 0 {
        spans.push(Span::styled(CUT.to_string(), marker_style));
    }
    Line::from(spans).style(line.style)
}

/// `text` in `width` columns, cut with the [`CUT`] marker when it does not fit.
pub fn fit_text(text: &str, width: usize) -> String {
    fit_line(Line::from(text), width).to_string()
}

/// `text` in `width` characters, its end kept: the [`CUT`] marker, then its last characters
/// (a line being typed, its cursor at the end).
pub fn fit_tail(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let keep = width.saturating_sub(1);
    let tail: String = text.chars().skip(n - keep).collect();
    format!("{CUT}{tail}")
}

/// Split `text` into lines of at most `width` characters, at spaces where possible.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let wl = word.chars().count();
        let ll = line.chars().count();
        if ll > 0 && ll + 1 + wl > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            let tail: String = line.chars().skip(width).collect();
            out.push(head);
            line = tail;
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}
