//! Widgets shared by every screen: the board, the clock panel, the move list, the whole game
//! screen, menus, form fields, confirmations and the help overlay.

pub mod board;
pub mod clock_panel;
pub mod eval_graph;
pub mod form;
pub mod game_screen;
pub mod menu;
pub mod move_list;

pub use board::{BoardGeometry, BoardView};
pub use clock_panel::{ClockFace, ClockPanelView, format_clock};
pub use eval_graph::{Eval, EvalGraphView, GraphRows, Verdict};
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

/// `text` in `width` characters, cut in its middle when it does not fit: its start, the
/// [`CUT`] marker, then its last `tail` characters (at most all but the marker and one of
/// the start): "11-Man…1306" keeps a ballot's number, "Pla…1" a player's.
pub fn fit_middle(text: &str, width: usize, tail: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let tail = tail.min(width.saturating_sub(2));
    if tail == 0 {
        return fit_text(text, width);
    }
    let head: String = text.chars().take(width - 1 - tail).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{head}{CUT}{end}")
}

/// `name` in `width` characters, cut so that it stays told apart from `other` (the other
/// name in the same table): cut at its end when that is enough (or it fits), else in its
/// middle, keeping as little of its end as tells the two apart ("Player 1" and "Player 2" in
/// five: "Pla…1", "Pla…2").
pub fn fit_apart(name: &str, other: &str, width: usize) -> String {
    let plain = fit_text(name, width);
    if plain == name || plain != fit_text(other, width) {
        return plain;
    }
    (1..width.saturating_sub(1))
        .map(|tail| {
            (
                fit_middle(name, width, tail),
                fit_middle(other, width, tail),
            )
        })
        .find(|(a, b)| a != b)
        .map_or(plain, |(a, _)| a)
}

/// `text` wrapped to `width` in at most `rows` rows, a path wider than a row cut at its
/// start (never split across rows). When it needs more, the path in it (its
/// longest word with a `/` or `\`) is shortened from its start, as little as needed, keeping
/// its end (the file's name); when that is not enough, the text after the path is cut, marked,
/// and the path may lose the start of its name too; without a path, the last row ends with the
/// marker.
pub fn wrap_fit(text: &str, width: usize, rows: usize) -> Vec<String> {
    let words: Vec<&str> = text.split(' ').collect();
    if let Some(at) = path_at(&words)
        && words[at].chars().count() > width.max(10)
    {
        // A path wider than a row is cut at its start, never split across rows.
        let short = fit_tail(words[at], width.max(10));
        let mut cut = words;
        cut[at] = &short;
        return wrap_fit(&cut.join(" "), width, rows);
    }
    let mut lines = wrap(text, width);
    if lines.len() <= rows {
        return lines;
    }
    let mut words: Vec<&str> = text.split(' ').collect();
    if let Some(at) = path_at(&words) {
        let name = file_name(words[at]);
        if let Some(fitted) = shorten_word(&words, at, (width, rows), name) {
            return fitted;
        }
        let cut = CUT.to_string();
        words.truncate(at + 1);
        words.push(&cut);
        if let Some(fitted) = shorten_word(&words, at, (width, rows), PATH_END_MIN) {
            return fitted;
        }
    }
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        let keep = width.saturating_sub(2);
        *last = last.chars().take(keep).collect::<String>() + " " + &CUT.to_string();
    }
    lines
}

/// The fewest characters of a path's end [`wrap_fit`] keeps.
const PATH_END_MIN: usize = 8;

/// Which of `words` is a path: the longest with a `/` or `\`.
fn path_at(words: &[&str]) -> Option<usize> {
    words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.contains(['/', '\\']))
        .max_by_key(|(_, w)| w.chars().count())
        .map(|(at, _)| at)
}

/// The characters of a path's last part (its file's name).
fn file_name(path: &str) -> usize {
    path.rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
        .chars()
        .count()
}

/// `words` wrapped in `rows` rows of `width`, word `at` (a path) cut from its start just
/// enough; `None` when even its last `min` characters leave too little room.
fn shorten_word(
    words: &[&str],
    at: usize,
    (width, rows): (usize, usize),
    min: usize,
) -> Option<Vec<String>> {
    let path = words[at];
    let n = path.chars().count();
    (min.min(n)..n).rev().find_map(|keep| {
        let tail: String = path.chars().skip(n - keep).collect();
        let short = format!("{CUT}{tail}");
        let mut cut = words.to_vec();
        cut[at] = &short;
        let lines = wrap(&cut.join(" "), width);
        (lines.len() <= rows).then_some(lines)
    })
}

/// `line` in lines of at most `width` columns, wrapped at spaces as [`wrap`] wraps text, each
/// character keeping its style; the line itself when it fits.
pub fn wrap_line(line: Line<'_>, width: usize) -> Vec<Line<'_>> {
    if line.width() <= width {
        return vec![line];
    }
    let styled: Vec<(char, ratatui::style::Style)> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let text: String = styled.iter().map(|(c, _)| c).collect();
    let mut at = 0;
    wrap(&text, width)
        .into_iter()
        .map(|part| {
            let mut spans: Vec<Span> = Vec::new();
            for c in part.chars() {
                // The spaces a row broke at are not in any row.
                while styled.get(at).is_some_and(|&(s, _)| s != c) {
                    at += 1;
                }
                let style = styled.get(at).map(|&(_, s)| s).unwrap_or_default();
                at += 1;
                match spans.last_mut() {
                    Some(s) if s.style == style => s.content.to_mut().push(c),
                    _ => spans.push(Span::styled(c.to_string(), style)),
                }
            }
            let mut row = Line::from(spans).style(line.style);
            row.alignment = line.alignment;
            row
        })
        .collect()
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
