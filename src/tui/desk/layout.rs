//! What the desk shows: the event's lines by view (pairings, standings, crosstable, why),
//! the rows that stay at the top, and the scroll kept within the rows.

use super::{Body, DeskScreen, View};
use crate::event::{Division, Round};
use crate::publish::Published;
use crate::publish::sentences::{ballot_text, points_text, result_text, why};
use crate::store::OpenEvent;
use crate::tui::widgets::scroll_room;
use ratatui::layout::Rect;
use ratatui::text::Line;

impl DeskScreen {
    /// The open event's lines; `ascii`: points in ASCII (`2.5`). With them, how many stay at
    /// the top when the rest scrolls (up to the table's column header) and the selected
    /// board's line.
    pub(super) fn event_lines(
        &self,
        open: &OpenEvent,
        width: usize,
        ascii: bool,
    ) -> (Vec<Line<'static>>, usize, Option<usize>) {
        let mut out = Vec::new();
        let e = &open.event;
        let tabs: Vec<String> = e
            .divisions
            .iter()
            .enumerate()
            .map(|(k, d)| {
                if k == self.division {
                    format!("[{}]", d.name)
                } else {
                    d.name.clone()
                }
            })
            .collect();
        out.push(Line::from(format!(
            "{}   divisions: {}",
            e.info.name,
            if tabs.is_empty() {
                "none (d adds one)".into()
            } else {
                tabs.join(" ")
            }
        )));
        let Some(d) = e.divisions.get(self.division) else {
            return (out, 1, None);
        };
        let g = d.settings.games_per_round;
        out.push(Line::from(format!(
            "{} players, round {} of {}, {} games a round",
            d.entrants.len(),
            d.paired_rounds(),
            d.planned_rounds(),
            g
        )));
        out.push(Line::from(""));
        // The lines above the table's rows: a column header, where there is one, stays too.
        let mut head = out.len();
        let mut focus = None;
        match self.view {
            View::Pairings => match d.rounds.last() {
                None => {
                    for en in &d.entrants {
                        out.push(Line::from(format!("  {}", en.info.name)));
                    }
                    out.push(Line::from(
                        "No round paired yet: a enters players, p pairs round 1.",
                    ));
                }
                Some(r) => (head, focus) = self.round_lines(d, r, width, &mut out),
            },
            View::Standings => {
                let p = Published::new(e, d, u32::MAX).in_ascii(ascii);
                head = standings_lines(d, &p, width, &mut out);
            }
            View::Crosstable => {
                let p = Published::new(e, d, u32::MAX).in_ascii(ascii);
                head = self.crosstable_lines(&p, width, &mut out);
            }
            View::Why => self.why_lines(d, width, ascii, &mut out),
        }
        (out, head, focus)
    }

    /// The lines of the round `r` of `d`: its boards, the bye, who is not paired and why, the
    /// ballots; with the number of lines that stay at the top and the selected board's line.
    fn round_lines(
        &self,
        d: &Division,
        r: &Round,
        width: usize,
        out: &mut Vec<Line<'static>>,
    ) -> (usize, Option<usize>) {
        let g = d.settings.games_per_round;
        let mut focus = None;

        // What the desk's files say of each board (`crossboard serve` keeps them), each
        // board's state and marks first: the names then take the width they leave (never
        // less than a fixed share), up to the longest name; a row still too wide is cut at
        // its end, marked.
        let (texts, refusals) = self.hall_column(r, g, width);
        let tails: Vec<String> = r
            .boards
            .iter()
            .zip(texts)
            .map(|(b, hall)| {
                let state = if b.is_complete(g) {
                    "done"
                } else if b.result.is_some() {
                    "playing"
                } else {
                    "waiting"
                };
                format!("{state}{hall}{}", if b.pdn.is_some() { " pdn" } else { "" })
            })
            .collect();
        let nw = name_width(d, r, &tails, width);
        out.push(Line::from(format!(
            "Round {}: the first player has Red in game 1",
            r.number
        )));
        out.push(Line::from(format!(
            " {:>3}  {:<nw$} {:<nw$} {:<9} state",
            "bd", "first", "second", "result"
        )));
        let head = out.len();
        for (k, (b, tail)) in r.boards.iter().zip(&tails).enumerate() {
            let mark = if k == self.board {
                focus = Some(out.len());
                ">"
            } else {
                " "
            };
            let row = format!(
                "{mark}{:>3}  {:<nw$} {:<nw$} {:<9} {tail}",
                b.number,
                clip(d.name(b.first), nw),
                clip(d.name(b.second), nw),
                result_text(b.result.as_ref())
            );
            out.push(Line::from(clip(&row, width)));
        }
        out.extend(refusals.into_iter().map(Line::from));
        if let Some(b) = r.bye {
            out.push(Line::from(format!("  bye  {}", d.name(b))));
        }
        let out_of: Vec<String> = d
            .entrants
            .iter()
            .filter(|e| r.board_of(e.player).is_none() && r.bye != Some(e.player))
            .map(|e| {
                let why = if e.withdrawn_from.is_some_and(|w| w <= r.number) {
                    "withdrawn"
                } else if e.from_round > r.number {
                    "entered later"
                } else if e.requested_byes.contains_key(&r.number) {
                    "requested bye"
                } else {
                    "absent"
                };
                format!("{} ({why})", e.info.name)
            })
            .collect();
        if !out_of.is_empty() {
            out.push(Line::from(clip(
                &format!("  not paired: {}", out_of.join(", ")),
                width,
            )));
        }
        let next = sitting_out(d, r.number + 1);
        if !next.is_empty() {
            out.push(Line::from(clip(
                &format!("  absent in round {}: {}", r.number + 1, next.join(", ")),
                width,
            )));
        }
        for (k, ballot) in r.ballots.iter().enumerate() {
            out.push(Line::from(clip(
                &format!("  ballot {}: {}", k + 1, ballot_text(&ballot.opening)),
                width,
            )));
        }
        if let Some(line) = self.code_line(r) {
            out.push(Line::from(clip(&line, width)));
        }
        (head, focus)
    }

    /// The crosstable of `p` at `width`, scrolled sideways behind its first columns; the
    /// number of lines that stay at the top.
    fn crosstable_lines(&self, p: &Published, width: usize, out: &mut Vec<Line<'static>>) -> usize {
        // What the table is after, then the table: its column header stays.
        out.push(Line::from(clip(&p.heading(), width)));
        let text = p.text();
        let lines = below_heading(&text);
        // The table (to its first empty line) scrolls sideways behind its first
        // columns (place, name); a line says which way there is more.
        let table = lines
            .iter()
            .position(|l| l.is_empty())
            .unwrap_or(lines.len());
        let (frozen, most) = cross_layout(&lines[..table], width);
        let at = self.hscroll.min(most);
        if most > 0 {
            out.push(Line::from(match (at, at == most) {
                (0, _) => "Right scrolls the table: more columns to the right",
                (_, true) => "Left scrolls the table back: more columns to the left",
                _ => "Left/Right scroll the table: more columns on both sides",
            }));
        }
        let head = out.len() + 1;
        for (k, l) in lines.iter().enumerate() {
            if k < table {
                let shown: String = l
                    .chars()
                    .take(frozen)
                    .chain(l.chars().skip(frozen + at))
                    .collect();
                out.push(Line::from(clip(&shown, width)));
            } else if l.starts_with(|c: char| c.is_alphabetic()) && l.contains(": ") {
                // The notes wrap.
                for w in crate::tui::widgets::wrap(l, width.max(20)) {
                    out.push(Line::from(w));
                }
            } else {
                out.push(Line::from(clip(l, width)));
            }
        }
        head
    }

    /// Why the selected board is paired so.
    fn why_lines(&self, d: &Division, width: usize, ascii: bool, out: &mut Vec<Line<'static>>) {
        match d
            .rounds
            .last()
            .and_then(|r| r.boards.get(self.board).map(|b| (r, b)))
        {
            Some((r, b)) => {
                for l in why(d, r, b.first) {
                    // Wrapped as drawn: in ASCII a half is `0.5`, longer than `½`.
                    let l = if ascii {
                        crate::publish::ascii_halves(&l)
                    } else {
                        l
                    };
                    for w in crate::tui::widgets::wrap(&l, width.max(20)) {
                        out.push(Line::from(w));
                    }
                }
            }
            None => out.push(Line::from("No board selected.")),
        }
    }

    /// How far the open division's crosstable can scroll sideways at `width`.
    pub(super) fn cross_most(&self, width: usize, ascii: bool) -> usize {
        let Some((o, d)) = self
            .open
            .as_ref()
            .and_then(|o| Some((o, o.event.divisions.get(self.division)?)))
        else {
            return 0;
        };
        let text = Published::new(&o.event, d, u32::MAX).in_ascii(ascii).text();
        let lines = below_heading(&text);
        let table = lines
            .iter()
            .position(|l| l.is_empty())
            .unwrap_or(lines.len());
        cross_layout(&lines[..table], width).1
    }

    /// What the screen shows above the status line, `width` columns wide.
    pub(super) fn body(&self, width: usize, ascii: bool) -> Body {
        let mut lines: Vec<Line> = vec![Line::from("Tournament desk")];
        let (mut head, mut focus) = (1, None);
        match &self.open {
            Some(o) => {
                let (l, h, f) = self.event_lines(o, width, ascii);
                lines.extend(l);
                head += h;
                focus = f.map(|f| f + 1);
            }
            None => {
                if self.events.is_empty() {
                    lines.push(Line::from("No event yet: n creates one."));
                }
                for (k, e) in self.events.iter().enumerate() {
                    let mark = if k == self.selected {
                        focus = Some(lines.len());
                        ">"
                    } else {
                        " "
                    };
                    lines.push(Line::from(format!(
                        "{mark} {:>3}  {}",
                        e.id,
                        clip(&e.name, width.saturating_sub(8))
                    )));
                }
            }
        }
        Body { lines, head, focus }
    }

    /// After a key: the page asked for, or (any other key) the selection kept in view; the
    /// scroll kept within the rows. `area`: the screen's.
    pub(super) fn settle(&mut self, area: Rect, ascii: bool) {
        let b = self.body(area.width as usize, ascii);
        let status = self.status_lines(area.width as usize, ascii).len();
        let height = (area.height as usize).saturating_sub(2 + status);
        let room = height.saturating_sub(b.head);
        let rows = b.lines.len().saturating_sub(b.head);
        let show = scroll_room(rows, room);
        let pan = std::mem::take(&mut self.pan);
        if pan != 0 {
            let most = self.cross_most(area.width as usize, ascii);
            let at = self.hscroll.min(most);
            self.hscroll = if pan < 0 {
                at.saturating_sub(PAN)
            } else {
                (at + PAN).min(most)
            };
        }
        let page = std::mem::take(&mut self.page);
        if page < 0 {
            self.scroll = self.scroll.saturating_sub(show);
        } else if page > 0 {
            self.scroll += show;
        } else if let Some(f) = b.focus.and_then(|f| f.checked_sub(b.head)) {
            if f < self.scroll {
                self.scroll = f;
            } else if f >= self.scroll + show {
                self.scroll = f + 1 - show;
            }
        }
        self.scroll = self.scroll.min(rows - show);
    }
}

/// The crosstable's rows (header first) on a screen `width` wide: the characters that stay
/// when it scrolls sideways (place and name, or the place alone when the names take more
/// than half the width), and how far it can scroll.
pub(super) fn cross_layout(rows: &[&str], width: usize) -> (usize, usize) {
    let header = rows.first().copied().unwrap_or("");
    let frozen = match header.find("Club") {
        Some(at) if at <= width / 2 => at,
        _ => header.find("Name").unwrap_or(0),
    };
    let widest = rows.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (frozen, widest.saturating_sub(width.max(frozen)))
}

/// The crosstable's text below its title, heading and the empty line after them.
fn below_heading(text: &str) -> Vec<&str> {
    text.lines().skip(3).collect()
}

/// How far Left/Right scroll the crosstable.
pub(super) const PAN: usize = 8;

/// `s` in `n` columns, shortened with the marker (never silently cut).
/// The most rows the status line grows to (a long warning, a long path) before it is cut.
const STATUS_ROWS: usize = 3;

impl DeskScreen {
    /// The status, `width` wide, on as many rows as it needs (one at least, at most
    /// [`STATUS_ROWS`]); when cut, a path in it keeps its end (the file's name).
    pub(super) fn status_lines(&self, width: usize, ascii: bool) -> Vec<String> {
        let text = if ascii {
            crate::tui::theme::ascii_text(&self.status)
        } else {
            self.status.clone()
        };
        let mut lines = crate::tui::widgets::wrap_fit(&text, width, STATUS_ROWS);
        if lines.is_empty() {
            lines.push(String::new());
        }
        lines
    }
}

/// The columns before the names and between the columns of a board's row: the mark, the
/// board's number, the spaces, the result's column.
const ROW_FIXED: usize = 1 + 3 + 2 + 1 + 1 + 9 + 1;

/// The width of each name column of round `r`'s rows at `width`, beside the boards' state
/// texts `tails`: the longest name when the row then fits, else what the row leaves, never
/// less than a fixed share of the width (the state then cut).
fn name_width(d: &Division, r: &Round, tails: &[String], width: usize) -> usize {
    let longest = r
        .boards
        .iter()
        .flat_map(|b| [b.first, b.second])
        .map(|p| d.name(p).chars().count())
        .chain(["second".len()])
        .max()
        .unwrap_or(0);
    let tail = tails.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    let floor = (width.saturating_sub(40) / 2).clamp(8, 24);
    let room = width.saturating_sub(ROW_FIXED + tail) / 2;
    longest.min(room.max(floor))
}

pub(super) fn clip(s: &str, n: usize) -> String {
    crate::tui::widgets::fit_text(s, n)
}

/// The standings of `d` as `p` publishes them; the number of lines that stay at the top.
/// A round in play follows the tie-breaks, its results so far counted in neither.
fn standings_lines(
    d: &Division,
    p: &Published,
    width: usize,
    out: &mut Vec<Line<'static>>,
) -> usize {
    out.push(Line::from(clip(&p.heading(), width)));
    out.push(Line::from(format!(
        "{:>5}  {:<28} {:>5}  tie-breaks",
        "place", "name", "pts"
    )));
    let head = out.len();
    for s in &p.list {
        let tb: Vec<String> = d
            .settings
            .tiebreaks
            .iter()
            .zip(&s.values)
            .map(|(t, v)| format!("{} {}", t.short(), p.value(*t, *v)))
            .collect();
        let line = format!(
            "{:>5}  {:<28} {:>5}  {}  {}",
            Published::place_text(s),
            clip(&d.entrants[s.entrant].info.name, 28),
            p.points(s.score),
            tb.join("  "),
            p.in_play_text(s.entrant)
        );
        out.push(Line::from(clip(line.trim_end(), width)));
    }
    head
}

/// Who will not play `round`, announced: the absent by name, a requested bye with its points
/// ("Eve (requested bye, 1 point)").
fn sitting_out(d: &Division, round: u32) -> Vec<String> {
    d.entrants
        .iter()
        .filter_map(|e| {
            if e.absences.contains(&round) {
                Some(e.info.name.clone())
            } else {
                let late = e.requested_byes.get(&round)?;
                let points = points_text(d.requested_bye_worth(*late));
                Some(format!("{} (requested bye, {points})", e.info.name))
            }
        })
        .collect()
}
