//! The clock panel: two large clocks, the side to move obvious, period and moves to the next
//! control, and the flag the instant it falls.
//!
//! Rendered from [`ClockPanelView`], a plain value: whoever owns the clocks (the match) fills it
//! in for each frame with remaining times already computed for "now", so rendering tests use
//! frozen values.

use crate::director::{Clock, EndReason, GameResult};
use crate::engine::{Color as Side, Outcome};
use crate::tui::theme::Appearance;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// One player's clock as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockFace {
    /// Whose clock.
    pub side: Side,
    /// The player's name.
    pub name: String,
    /// Time left in milliseconds (negative values show as 0).
    pub remaining_ms: i64,
    /// The period, e.g. "period 1 of 2" (None: single period).
    pub period: Option<String>,
    /// Moves still to make before the next time control.
    pub moves_to_control: Option<u32>,
    /// The flag has fallen.
    pub flagged: bool,
}

/// Both clocks and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockPanelView {
    /// Red's clock.
    pub red: ClockFace,
    /// White's clock.
    pub white: ClockFace,
    /// The side whose clock runs (or would run when not paused).
    pub to_move: Option<Side>,
    /// Clocks are stopped (paused by the director, game not started, game over).
    pub paused: bool,
}

impl ClockPanelView {
    /// The panel of a game's clock at `now_ms` (the one place a director clock becomes a
    /// panel: the game, the game over and the game about to start). `names` are Red's and
    /// White's; `result` the game's result once over (a loss on time marks the flag). `None`
    /// when the control has no clock at all.
    pub fn of_clock(
        clock: &Clock,
        now_ms: u64,
        names: [&str; 2],
        result: Option<&GameResult>,
    ) -> Option<ClockPanelView> {
        let control = clock.control();
        if control.is_none() {
            return None;
        }
        let r = clock.reading(now_ms);
        let over = result.is_some();
        let lost_on_time = match result {
            Some(GameResult {
                reason: EndReason::Time { .. },
                outcome: Outcome::Win(w),
            }) => Some(w.opponent()),
            _ => None,
        };
        let counted = control.periods.iter().any(|p| p.moves.is_some());
        let face = |side: Side, name: &str| {
            let s = r.side(side);
            let mut notes: Vec<String> = Vec::new();
            if counted || control.periods.len() > 1 {
                notes.push(format!("period {}", s.period.max(1)));
            }
            if let Some(left) = s.move_limit_left_ms {
                if s.warning {
                    notes.push(format!("TIME called: {} grace", format_clock(left.abs())));
                } else {
                    notes.push(format!("move {}", format_clock(left)));
                }
            }
            ClockFace {
                side,
                name: name.to_string(),
                remaining_ms: s.remaining_ms.or(s.move_limit_left_ms).unwrap_or(0),
                period: (!notes.is_empty()).then(|| notes.join(" · ")),
                moves_to_control: s.moves_to_control,
                flagged: lost_on_time == Some(side) || (!over && s.expired),
            }
        };
        Some(ClockPanelView {
            red: face(Side::Red, names[0]),
            white: face(Side::White, names[1]),
            to_move: (!over).then_some(r.to_move),
            paused: !r.running,
        })
    }

    /// The face of a side.
    pub fn face(&self, side: Side) -> &ClockFace {
        match side {
            Side::Red => &self.red,
            Side::White => &self.white,
        }
    }
}

pub use crate::publish::format_clock;

/// Rows a face needs: large digits or one compact line.
pub const FACE_LARGE: u16 = 6;
/// Rows of a compact face.
pub const FACE_COMPACT: u16 = 3;

/// Draw both faces into `area`, `top` side's face first (match the board: the side at the top
/// of the board has its clock on top). Uses large digits when `area` has the height.
pub fn render_clock_panel(
    view: &ClockPanelView,
    top: Side,
    area: Rect,
    buf: &mut Buffer,
    look: &Appearance,
) {
    let face_h = if area.height >= 2 * FACE_LARGE {
        FACE_LARGE
    } else {
        FACE_COMPACT
    };
    for (i, side) in [top, top.opponent()].into_iter().enumerate() {
        let r = Rect {
            x: area.x,
            y: area.y + i as u16 * face_h,
            width: area.width,
            height: face_h.min(area.height.saturating_sub(i as u16 * face_h)),
        };
        if r.height > 0 {
            render_face(view, view.face(side), r, buf, look);
        }
    }
}

fn render_face(
    view: &ClockPanelView,
    face: &ClockFace,
    area: Rect,
    buf: &mut Buffer,
    look: &Appearance,
) {
    let g = look.glyphs();
    let on_move = view.to_move == Some(face.side);
    let mut title = vec![Span::raw(" ")];
    if on_move {
        title.push(Span::styled(format!("{} ", g.to_move), look.accent()));
    }
    title.push(Span::styled(
        format!(
            "{} {}",
            g.piece(crate::engine::Piece {
                color: face.side,
                king: false
            }),
            face.side
        ),
        look.side(face.side),
    ));
    title.push(Span::raw(format!(" {} ", face.name)));
    // The corners stay; a name too long for the panel ends with the marker.
    let title = super::fit_line(Line::from(title), area.width.saturating_sub(2) as usize);
    let mut border = if face.flagged {
        look.alert()
    } else if on_move {
        look.accent()
    } else {
        look.dim()
    };
    if on_move && !look.color {
        border = border.add_modifier(Modifier::BOLD);
    }
    let block = Block::new()
        .borders(Borders::ALL)
        .border_set(if on_move && !look.ascii {
            ratatui::symbols::border::THICK
        } else {
            look.border_set()
        })
        .border_style(border)
        .title_top(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let time = format_clock(face.remaining_ms);
    let state = if face.flagged {
        Some(format!("{} FLAG FELL", g.flag))
    } else if view.paused && on_move {
        Some("paused".into())
    } else {
        None
    };
    let note_style = if face.flagged {
        look.alert()
    } else {
        look.dim()
    };
    let time_style = if face.flagged {
        look.alert()
    } else if on_move {
        look.accent()
    } else {
        ratatui::style::Style::new()
    };
    if inner.height >= 4 && big_width(&time) <= inner.width {
        let x = inner.x + (inner.width - big_width(&time)) / 2;
        draw_big(&time, x, inner.y, buf, time_style);
        let notes = face_notes(face, state, inner.width as usize);
        let line = Line::from(Span::styled(notes, note_style));
        buf.set_line(inner.x, inner.y + 3, &line, inner.width);
    } else if inner.height >= 1 {
        // The time, then the notes in what is left of the row.
        let room = (inner.width as usize).saturating_sub(1 + time.chars().count() + 2);
        let notes = face_notes(face, state, room);
        let mut spans = vec![Span::styled(time, time_style.add_modifier(Modifier::BOLD))];
        if !notes.is_empty() {
            spans.push(Span::styled(format!("  {notes}"), note_style));
        }
        buf.set_line(
            inner.x + 1,
            inner.y,
            &Line::from(spans),
            inner.width.saturating_sub(1),
        );
    }
}

/// The notes under a face in `room` columns: its state (a flag, a pause), the period, the
/// moves to the time control. When they do not fit, the period goes first (the moves left
/// matter more to the director), then the rest is shortened with the marker.
fn face_notes(face: &ClockFace, state: Option<String>, room: usize) -> String {
    let moves = face
        .moves_to_control
        .map(|n| format!("{n} move{} to control", if n == 1 { "" } else { "s" }));
    let all: Vec<&str> = [state.as_deref(), face.period.as_deref(), moves.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let text = all.join(" · ");
    if text.chars().count() <= room {
        return text;
    }
    let fewer: Vec<&str> = [state.as_deref(), moves.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let fewer = if fewer.is_empty() {
        text
    } else {
        fewer.join(" · ")
    };
    super::fit_text(&fewer, room)
}

/// A three-row seven-segment font: rows of each glyph.
fn big_glyph(c: char) -> [&'static str; 3] {
    match c {
        '0' => [" _ ", "| |", "|_|"],
        '1' => ["   ", "  |", "  |"],
        '2' => [" _ ", " _|", "|_ "],
        '3' => [" _ ", " _|", " _|"],
        '4' => ["   ", "|_|", "  |"],
        '5' => [" _ ", "|_ ", " _|"],
        '6' => [" _ ", "|_ ", "|_|"],
        '7' => [" _ ", "  |", "  |"],
        '8' => [" _ ", "|_|", "|_|"],
        '9' => [" _ ", "|_|", " _|"],
        ':' => [" ", ".", "."],
        '.' => [" ", " ", "."],
        _ => ["   ", "   ", "   "],
    }
}

/// Width in columns of a reading drawn large.
pub fn big_width(text: &str) -> u16 {
    let w: usize = text.chars().map(|c| big_glyph(c)[0].len() + 1).sum();
    w.saturating_sub(1) as u16
}

fn draw_big(text: &str, x: u16, y: u16, buf: &mut Buffer, style: ratatui::style::Style) {
    let mut cx = x;
    for c in text.chars() {
        let g = big_glyph(c);
        for (dy, row) in g.iter().enumerate() {
            buf.set_string(cx, y + dy as u16, row, style);
        }
        cx += g[0].len() as u16 + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings() {
        assert_eq!(format_clock(0), "0.0");
        assert_eq!(format_clock(-5), "0.0");
        assert_eq!(format_clock(9_950), "9.9");
        assert_eq!(format_clock(10_000), "0:10");
        assert_eq!(format_clock(1_799_000), "29:59");
        assert_eq!(format_clock(3_600_000 + 61_000), "1:01:01");
    }

    #[test]
    fn big_width_counts_gaps() {
        assert_eq!(big_width("0"), 3);
        assert_eq!(big_width("1:00"), 3 + 1 + 1 + 1 + 3 + 1 + 3);
    }
}
