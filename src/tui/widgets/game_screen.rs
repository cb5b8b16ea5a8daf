//! The game screen, shared by practice, review and the match: the board large and central, a
//! side panel (clocks or players, information lines, move list), the move being typed with its
//! candidates, and a status line saying what is expected now.
//!
//! Owners build a [`GameScreenView`] (a plain value) for each frame and call
//! [`GameScreenView::render`]; [`GameLayout::new`] gives the same rectangles to hit-test clicks.

use super::board::{BoardGeometry, BoardView};
use super::clock_panel::{ClockPanelView, FACE_COMPACT, FACE_LARGE, render_clock_panel};
use super::move_list::MoveListView;
use crate::engine::{Color as Side, Move, Piece};
use crate::tui::move_input::MoveInput;
use crate::tui::theme::Appearance;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// Minimum width of the side panel.
pub const SIDE_MIN: u16 = 30;

/// The rectangles of the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLayout {
    /// Top line: title.
    pub title: Rect,
    /// Where the board is centred.
    pub board: Rect,
    /// Right-hand panel.
    pub side: Rect,
    /// The move being typed and its candidates.
    pub input: Rect,
    /// What is expected now, or why input was refused: two rows, so a long status wraps
    /// instead of being cut.
    pub status: Rect,
}

/// Rows of the status area.
pub const STATUS_ROWS: u16 = 2;

impl GameLayout {
    /// Split the whole screen `area`.
    pub fn new(area: Rect) -> GameLayout {
        let title = Rect { height: 1, ..area };
        let status = Rect {
            y: area.bottom().saturating_sub(STATUS_ROWS),
            height: STATUS_ROWS.min(area.height),
            ..area
        };
        let input = Rect {
            y: area.bottom().saturating_sub(STATUS_ROWS + 1),
            height: 1,
            ..area
        };
        let middle = Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(STATUS_ROWS + 2),
            ..area
        };
        // Give the board as much as the side panel's minimum allows.
        let board_w = BoardGeometry::CELL_SIZES
            .into_iter()
            .map(|(w, h)| (8 * w + 2, 8 * h + 2))
            .find(|&(w, h)| w + SIDE_MIN <= middle.width && h <= middle.height)
            .map(|(w, _)| w)
            .unwrap_or(middle.width.saturating_sub(SIDE_MIN));
        let board = Rect {
            width: board_w,
            ..middle
        };
        let side = Rect {
            x: middle.x + board_w,
            width: middle.width - board_w,
            ..middle
        };
        GameLayout {
            title,
            board,
            side,
            input,
            status,
        }
    }

    /// The board's geometry within this layout.
    pub fn board_geometry(&self, flipped: bool) -> Option<BoardGeometry> {
        BoardGeometry::fit(self.board, flipped)
    }
}

/// How the status line reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    /// What is expected now.
    Info,
    /// Something to notice (a claimable draw, a ballot that loses a man).
    Warn,
    /// Input refused.
    Error,
}

/// Everything the game screen shows.
#[derive(Clone, Debug)]
pub struct GameScreenView<'a> {
    /// Title line.
    pub title: String,
    /// The board.
    pub board: BoardView<'a>,
    /// Player names, Red's first (shown when there are no clocks, which carry the names).
    pub players: [String; 2],
    /// Clocks, when the game has them.
    pub clocks: Option<ClockPanelView>,
    /// Information lines (ballot, game number, score, warnings).
    pub info: Vec<Line<'a>>,
    /// The move list.
    pub moves: MoveListView,
    /// The move input, if moves can be entered now.
    pub input: Option<&'a MoveInput>,
    /// The candidates of the typed text (computed by the owner from the position).
    pub candidates: Vec<Move>,
    /// Status line text and kind.
    pub status: (String, StatusKind),
    /// Key hint shown at the right of the status line.
    pub hint: String,
    /// Rows kept free at the bottom of the side panel, for the owner to draw in (the
    /// review's graph).
    pub reserved: u16,
}

impl GameScreenView<'_> {
    /// Draw the whole screen into `area`.
    pub fn render(&self, frame: &mut Frame, area: Rect, look: &Appearance) {
        let layout = GameLayout::new(area);
        let buf = frame.buffer_mut();
        buf.set_line(
            layout.title.x,
            layout.title.y,
            &super::fit_line(
                Line::from(vec![Span::styled(
                    format!(" {} ", self.title),
                    look.accent(),
                )]),
                layout.title.width as usize,
            ),
            layout.title.width,
        );
        self.board.render(layout.board, buf, look);
        self.render_side(layout.side, buf, look);
        self.render_input(layout.input, buf, look);
        self.render_status(layout.status, buf, look);
        if let Some(input) = self.input
            && let Some(choice) = &input.choice
        {
            render_choice(choice, input.choice_index, layout.board, frame, look);
        }
    }

    fn render_side(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let mut y = area.y;
        let bottom = area.bottom().saturating_sub(self.reserved).max(area.y);
        let top_side = if self.board.flipped {
            Side::White
        } else {
            Side::Red
        };
        let turn = self.board.position.turn();
        if let Some(clocks) = &self.clocks {
            let rest = area.height.saturating_sub(self.info.len() as u16 + 3);
            let face = if rest >= 2 * FACE_LARGE {
                FACE_LARGE
            } else {
                FACE_COMPACT
            };
            let r = Rect {
                y,
                height: (2 * face).min(area.height),
                ..area
            };
            render_clock_panel(clocks, top_side, r, buf, look);
            y += r.height;
        } else {
            for side in [top_side, top_side.opponent()] {
                if y >= bottom {
                    break;
                }
                let g = look.glyphs();
                let name = &self.players[usize::from(side == Side::White)];
                let marker = if side == turn {
                    Span::styled(format!("{} ", g.to_move), look.accent())
                } else {
                    Span::raw("  ")
                };
                let line = Line::from(vec![
                    Span::raw(" "),
                    marker,
                    Span::styled(
                        format!(
                            "{} {}",
                            g.piece(Piece {
                                color: side,
                                king: false
                            }),
                            side
                        ),
                        look.side(side),
                    ),
                    Span::raw(if name.is_empty() {
                        String::new()
                    } else {
                        format!("  {name}")
                    }),
                ]);
                let line = super::fit_line(line, area.width as usize);
                buf.set_line(area.x, y, &line, area.width);
                y += 1;
            }
        }
        for line in &self.info {
            if y >= bottom {
                break;
            }
            let mut l = line.clone();
            l.spans.insert(0, Span::raw(" "));
            let l = super::fit_line(l, area.width as usize);
            buf.set_line(area.x, y, &l, area.width);
            y += 1;
        }
        if y < bottom {
            let r = Rect {
                y,
                height: bottom - y,
                ..area
            };
            self.moves.render(r, buf, look);
        }
    }

    fn render_input(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let Some(input) = self.input else {
            return;
        };
        let mut spans = vec![
            Span::styled(" Move: ", look.dim()),
            Span::styled(
                format!("{}_", input.text),
                look.accent().add_modifier(Modifier::UNDERLINED),
            ),
            Span::raw("  "),
        ];
        if !input.text.trim().is_empty() {
            if self.candidates.is_empty() {
                spans.push(Span::styled("no legal move starts like that", look.alert()));
            } else {
                let list: Vec<String> = self.candidates.iter().map(|m| m.to_string()).collect();
                let word = if list.len() == 1 {
                    "Enter plays"
                } else {
                    "fits"
                };
                spans.push(Span::styled(format!("{word}: "), look.dim()));
                spans.push(Span::raw(list.join(" ")));
            }
        } else if let Some(sel) = input.selected {
            spans.push(Span::styled(
                format!("piece on {sel} selected: choose its destination (Esc cancels)"),
                look.dim(),
            ));
        } else {
            let all: Vec<String> = self.candidates.iter().map(|m| m.to_string()).collect();
            spans.push(Span::styled("legal: ", look.dim()));
            spans.push(Span::raw(all.join(" ")));
        }
        let line = super::fit_line(Line::from(spans), area.width as usize);
        buf.set_line(area.x, area.y, &line, area.width);
    }

    fn render_status(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let style = match self.status.1 {
            StatusKind::Info => ratatui::style::Style::new(),
            StatusKind::Warn => look.accent(),
            StatusKind::Error => look.alert(),
        };
        let hint_w = self.hint.chars().count() as u16 + 1;
        let text_w = area.width.saturating_sub(hint_w + 2);
        // Bottom-aligned: one line sits on the last row; a longer status wraps upwards.
        // Too long: a path keeps its end, else the last row says so rather than cutting
        // silently.
        let lines = if area.height > 0 {
            super::wrap_fit(&self.status.0, text_w as usize, area.height as usize)
        } else {
            Vec::new()
        };
        let top = area.bottom().saturating_sub(lines.len() as u16);
        for (i, line) in lines.iter().enumerate() {
            buf.set_line(
                area.x,
                top + i as u16,
                &Line::from(Span::styled(format!(" {line}"), style)),
                text_w + 1,
            );
        }
        if hint_w < area.width && area.height > 0 {
            buf.set_string(
                area.right() - hint_w,
                area.bottom() - 1,
                &self.hint,
                look.dim(),
            );
        }
    }
}

/// The "which capture?" question, over the board.
fn render_choice(choice: &[Move], index: usize, over: Rect, frame: &mut Frame, look: &Appearance) {
    let lines: Vec<Line> = choice
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let style = if i == index {
                look.accent().add_modifier(Modifier::REVERSED)
            } else {
                ratatui::style::Style::new()
            };
            Line::from(Span::styled(format!(" {}) {} ", i + 1, m), style))
        })
        .collect();
    let w = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(10)
        .max(30)
        + 2;
    let h = lines.len() as u16 + 3;
    let r = centered(over, w, h);
    frame.render_widget(Clear, r);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_set(look.border_set())
        .border_style(look.accent())
        .title_top(" Which capture? ")
        .title_bottom(" 1-9 or arrows+Enter; Esc ");
    let mut all = vec![Line::from(" Two paths end on that square:")];
    all.extend(lines);
    frame.render_widget(
        Paragraph::new(all).block(block).wrap(Wrap { trim: false }),
        r,
    );
}

/// A `w` x `h` rectangle centred in `area` (clamped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// The frame of a popup, the help or a menu: a border (in `border`), the title in the accent
/// colour.
pub fn framed<'a>(title: &str, border: ratatui::style::Style, look: &Appearance) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_set(look.border_set())
        .border_style(border)
        .title_top(Line::from(Span::styled(
            format!(" {title} "),
            look.accent(),
        )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_at_80x24_fits_a_5x2_board_and_a_panel() {
        let l = GameLayout::new(Rect::new(0, 0, 80, 24));
        let g = l.board_geometry(false).unwrap();
        assert_eq!((g.cell_w, g.cell_h), (5, 2));
        assert!(l.side.width >= SIDE_MIN);
        assert!(g.outer.right() <= l.side.x);
        assert!(g.outer.bottom() <= l.input.y);
    }

    #[test]
    fn larger_windows_get_larger_boards() {
        let l = GameLayout::new(Rect::new(0, 0, 140, 45));
        let g = l.board_geometry(false).unwrap();
        assert!(g.cell_w >= 7);
    }
}
