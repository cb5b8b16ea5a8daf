//! The board widget: 8x8 cells sized to the space available, pieces by glyph and colour, square
//! numbers (optional), last move, selection, legal destinations, cursor and marked squares.
//!
//! [`BoardGeometry`] is the one place that maps squares to screen cells and back, used both to
//! draw and to hit-test mouse clicks.

use crate::engine::{Bitboard, Move, Position, Square, squares};
use crate::tui::theme::Appearance;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Widget};

/// Where the board sits on screen and how large its cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The board including its border.
    pub outer: Rect,
    /// The 8x8 cells.
    pub inner: Rect,
    /// Width of one cell in columns.
    pub cell_w: u16,
    /// Height of one cell in rows.
    pub cell_h: u16,
    /// Seen from Red's side (Red at the bottom) instead of the standard White-at-bottom view.
    pub flipped: bool,
}

impl BoardGeometry {
    /// Cell sizes tried, largest first (about twice as wide as high, like a square on screen).
    pub const CELL_SIZES: [(u16, u16); 5] = [(11, 5), (9, 4), (7, 3), (5, 2), (3, 1)];

    /// The largest board that fits in `area`, centred in it; `None` if even the smallest does
    /// not fit.
    pub fn fit(area: Rect, flipped: bool) -> Option<BoardGeometry> {
        let (cell_w, cell_h) = Self::CELL_SIZES
            .into_iter()
            .find(|&(w, h)| 8 * w + 2 <= area.width && 8 * h + 2 <= area.height)?;
        let (w, h) = (8 * cell_w + 2, 8 * cell_h + 2);
        let outer = Rect {
            x: area.x + (area.width - w) / 2,
            y: area.y + (area.height - h) / 2,
            width: w,
            height: h,
        };
        let inner = Rect {
            x: outer.x + 1,
            y: outer.y + 1,
            width: 8 * cell_w,
            height: 8 * cell_h,
        };
        Some(BoardGeometry {
            outer,
            inner,
            cell_w,
            cell_h,
            flipped,
        })
    }

    /// Display row and column (0-7, top-left first) of a board row and column.
    fn display(&self, row: u8, col: u8) -> (u8, u8) {
        if self.flipped {
            (7 - row, 7 - col)
        } else {
            (row, col)
        }
    }

    /// The screen rectangle of a square's cell.
    pub fn cell_rect(&self, sq: Square) -> Rect {
        let (dr, dc) = self.display(sq.row(), sq.col());
        self.display_cell(dr, dc)
    }

    /// The screen rectangle of the cell at a display row and column.
    fn display_cell(&self, dr: u8, dc: u8) -> Rect {
        Rect {
            x: self.inner.x + u16::from(dc) * self.cell_w,
            y: self.inner.y + u16::from(dr) * self.cell_h,
            width: self.cell_w,
            height: self.cell_h,
        }
    }

    /// The playing square under a screen position, if any.
    pub fn square_at(&self, x: u16, y: u16) -> Option<Square> {
        if !self.inner.contains(ratatui::layout::Position { x, y }) {
            return None;
        }
        let dc = ((x - self.inner.x) / self.cell_w) as u8;
        let dr = ((y - self.inner.y) / self.cell_h) as u8;
        let (row, col) = self.display(dr, dc);
        Square::at(row, col)
    }
}

/// Everything the board shows; a plain value, built fresh for each frame.
#[derive(Clone, Debug)]
pub struct BoardView<'a> {
    /// The position drawn.
    pub position: &'a Position,
    /// Red at the bottom instead of White.
    pub flipped: bool,
    /// Show square numbers 1-32.
    pub numbers: bool,
    /// Highlighted as the last move (its path, and its captured squares when now empty).
    pub last_move: Option<Move>,
    /// The selected piece.
    pub selected: Option<Square>,
    /// Legal destinations to show.
    pub targets: Bitboard,
    /// The keyboard cursor.
    pub cursor: Option<Square>,
    /// Marked squares (e.g. men removed by a ballot), shown with a cross when empty.
    pub marked: Bitboard,
}

impl<'a> BoardView<'a> {
    /// A bare board: the standard view, no highlights.
    pub fn new(position: &'a Position) -> BoardView<'a> {
        BoardView {
            position,
            flipped: false,
            numbers: false,
            last_move: None,
            selected: None,
            targets: 0,
            cursor: None,
            marked: 0,
        }
    }

    /// Draw the board, as large as fits and centred, into `area` of `buf`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let Some(geo) = BoardGeometry::fit(area, self.flipped) else {
            Line::from("board: no room").render(area, buf);
            return;
        };
        self.render_frame(&geo, buf, look);
        let last = LastMove {
            path: self
                .last_move
                .map(|m| m.path().fold(0, |acc, s| acc | s.bit()))
                .unwrap_or(0),
            captured: self.last_move.map(|m| m.captured()).unwrap_or(0),
        };
        for dr in 0..8u8 {
            for dc in 0..8u8 {
                let (row, col) = geo.display(dr, dc);
                let cell = geo.display_cell(dr, dc);
                match Square::at(row, col) {
                    Some(sq) => self.render_square(&geo, sq, cell, last, buf, look),
                    None => buf.set_style(cell, look.bg(look.theme.light_square)),
                }
            }
        }
    }

    /// The border, with the sides' names on top and at the bottom.
    fn render_frame(&self, geo: &BoardGeometry, buf: &mut Buffer, look: &Appearance) {
        let (top, bottom) = if self.flipped {
            (" White ", " Red ")
        } else {
            (" Red ", " White ")
        };
        Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.dim())
            .title_top(Line::from(top))
            .title_bottom(Line::from(bottom))
            .render(geo.outer, buf);
    }

    /// One playing square: its background, then its piece or mark, number and brackets.
    fn render_square(
        &self,
        geo: &BoardGeometry,
        sq: Square,
        cell: Rect,
        last: LastMove,
        buf: &mut Buffer,
        look: &Appearance,
    ) {
        let on_last = last.path & sq.bit() != 0;
        let style = self.square_style(sq, on_last, look);
        fill_cell(cell, on_last, style, buf, look);
        let glyph = self.glyph(sq, last.captured, look);
        let number = self.numbers.then(|| sq.number().to_string());
        if geo.cell_h == 1 {
            draw_small(cell, glyph, number, style, buf, look);
        } else {
            let piece = self.position.piece_at(sq).is_some();
            draw_large(cell, glyph, piece, number, style, buf, look);
        }
        if self.selected == Some(sq) && geo.cell_w >= 3 {
            draw_brackets(cell, style, buf, look);
        }
    }

    /// The style of a playing square: the dark square, underlined on the last move without
    /// colour, the cursor's background or reversed.
    fn square_style(&self, sq: Square, on_last: bool, look: &Appearance) -> Style {
        // The highlight colour never sits behind a piece (it would hide a light piece): the
        // last move fills its squares with a shade, destinations get a dot and the selected
        // piece brackets, all in the highlight colour.
        let t = &look.theme;
        let mut style = look.bg(t.dark_square);
        if on_last && !look.color {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        if self.cursor == Some(sq) {
            style = if look.color {
                style.patch(look.bg(t.cursor))
            } else {
                style.add_modifier(Modifier::REVERSED)
            };
        }
        style
    }

    /// What stands on a square: a piece, a destination, a removed man, a captured piece of
    /// the last move, a dot (no colour) or nothing.
    fn glyph(
        &self,
        sq: Square,
        last_captured: Bitboard,
        look: &Appearance,
    ) -> Option<(&'static str, Style)> {
        let t = &look.theme;
        let glyphs = look.glyphs();
        let bit = sq.bit();
        match self.position.piece_at(sq) {
            Some(p) => Some((glyphs.piece(p), look.side(p.color))),
            None if self.targets & bit != 0 => Some((
                glyphs.target,
                look.fg(t.target).add_modifier(Modifier::BOLD),
            )),
            None if self.marked & bit != 0 => Some((glyphs.removed, look.alert())),
            None if last_captured & bit != 0 => Some((glyphs.captured, look.dim())),
            // Without colour, a dot shows the empty playing squares.
            None if !look.color => Some((".", look.dim())),
            None => None,
        }
    }
}

/// The squares of the last move: its path and the pieces it took.
#[derive(Clone, Copy, Debug)]
struct LastMove {
    path: Bitboard,
    captured: Bitboard,
}

/// Fill a playing square's cell: a shade on the last move's squares (in colour), else blank.
fn fill_cell(cell: Rect, on_last: bool, style: Style, buf: &mut Buffer, look: &Appearance) {
    let shade = if on_last && look.color {
        if look.ascii { ":" } else { "░" }
    } else {
        " "
    };
    let style = style.patch(look.fg(look.theme.last_move));
    for y in cell.top()..cell.bottom() {
        for x in cell.left()..cell.right() {
            buf[(x, y)].set_symbol(shade).set_style(style);
        }
    }
}

/// The middle of a cell, where a single glyph goes.
fn cell_middle(cell: Rect) -> (u16, u16) {
    let disc = disc_rect(cell);
    (disc.x + disc.width / 2, cell.y + (cell.height - 1) / 2)
}

/// A one-row cell: the glyph in its middle, or the number (right-aligned) on an empty square.
fn draw_small(
    cell: Rect,
    glyph: Option<(&str, Style)>,
    number: Option<String>,
    style: Style,
    buf: &mut Buffer,
    look: &Appearance,
) {
    match (glyph, number) {
        (Some((g, s)), _) => {
            let (x, y) = cell_middle(cell);
            buf[(x, y)].set_symbol(g).set_style(style.patch(s));
        }
        (None, Some(n)) => {
            let x = cell.right() - n.len() as u16;
            buf.set_string(x, cell.y, &n, style.patch(look.fg(look.theme.number)));
        }
        (None, None) => {}
    }
}

/// A larger cell: a piece as a disc, another mark in the middle, the number top-left.
fn draw_large(
    cell: Rect,
    glyph: Option<(&str, Style)>,
    piece: bool,
    number: Option<String>,
    style: Style,
    buf: &mut Buffer,
    look: &Appearance,
) {
    match glyph {
        Some((g, s)) if piece => draw_disc(cell, g, style.patch(s), buf),
        Some((g, s)) => {
            let (x, y) = cell_middle(cell);
            buf[(x, y)].set_symbol(g).set_style(style.patch(s));
        }
        None => {}
    }
    if let Some(n) = number {
        buf.set_string(cell.x, cell.y, &n, style.patch(look.fg(look.theme.number)));
    }
}

/// The selected piece's brackets either side of its disc, when the cell has room for them.
fn draw_brackets(cell: Rect, style: Style, buf: &mut Buffer, look: &Appearance) {
    let disc = disc_rect(cell);
    let (_, mid_y) = cell_middle(cell);
    let s = style.patch(look.fg(look.theme.selected).add_modifier(Modifier::BOLD));
    if disc.x > cell.x && disc.right() < cell.right() {
        buf[(disc.x - 1, mid_y)].set_symbol("[").set_style(s);
        buf[(disc.right(), mid_y)].set_symbol("]").set_style(s);
    }
}

/// A piece drawn as a disc of its glyph, about half the cell across: one glyph in small cells,
/// a rounded block of them in large ones.
fn draw_disc(cell: Rect, glyph: &str, style: Style, buf: &mut Buffer) {
    let d = disc_rect(cell);
    for dy in 0..d.height {
        let inset = u16::from(d.height == 3 && dy != 1);
        for dx in inset..d.width - inset {
            buf[(d.x + dx, d.y + dy)].set_symbol(glyph).set_style(style);
        }
    }
}

/// Where a piece sits in its cell: one glyph in small cells, about half the cell across in
/// large ones; its middle row is the cell's marker row (targets, brackets).
fn disc_rect(cell: Rect) -> Rect {
    let w = match cell.width {
        0..=6 => 1,
        7..=8 => 3,
        _ => 5,
    };
    let h = match cell.height {
        0..=3 => 1,
        4 => 2,
        _ => 3,
    };
    let mid_y = cell.y + (cell.height.max(1) - 1) / 2;
    Rect {
        x: cell.x + (cell.width.saturating_sub(w)) / 2,
        y: mid_y - (h - 1) / 2,
        width: w.min(cell.width),
        height: h,
    }
}

/// Squares of a bitboard as "9, 10, 11".
pub fn square_list(bb: Bitboard) -> String {
    squares(bb)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_round_trips_every_square_both_ways_up() {
        for flipped in [false, true] {
            for area in [Rect::new(0, 0, 42, 18), Rect::new(3, 2, 100, 40)] {
                let g = BoardGeometry::fit(area, flipped).unwrap();
                for sq in Square::all() {
                    let r = g.cell_rect(sq);
                    assert_eq!(g.square_at(r.x, r.y), Some(sq));
                    assert_eq!(g.square_at(r.right() - 1, r.bottom() - 1), Some(sq));
                }
            }
        }
    }

    #[test]
    fn standard_view_has_29_bottom_left_and_flipped_has_4() {
        let g = BoardGeometry::fit(Rect::new(0, 0, 42, 18), false).unwrap();
        assert_eq!(g.square_at(1, 16), Square::new(29));
        let f = BoardGeometry::fit(Rect::new(0, 0, 42, 18), true).unwrap();
        assert_eq!(f.square_at(1, 16), Square::new(4));
    }

    #[test]
    fn pieces_sit_on_the_marker_row_inside_their_cell() {
        for (w, h) in BoardGeometry::CELL_SIZES {
            let cell = Rect::new(10, 10, w, h);
            let d = disc_rect(cell);
            let mid_y = cell.y + (h - 1) / 2;
            assert!(d.y <= mid_y && mid_y < d.bottom(), "{w}x{h}");
            assert!(cell.contains(d.as_position()) && d.right() <= cell.right());
            assert!(d.bottom() <= cell.bottom());
            assert!(d.x > cell.x, "room for the selection brackets at {w}x{h}");
        }
    }

    #[test]
    fn larger_area_gives_larger_cells_and_tiny_area_none() {
        let small = BoardGeometry::fit(Rect::new(0, 0, 42, 18), false).unwrap();
        let big = BoardGeometry::fit(Rect::new(0, 0, 120, 60), false).unwrap();
        assert!(big.cell_w > small.cell_w);
        assert!(BoardGeometry::fit(Rect::new(0, 0, 20, 8), false).is_none());
    }
}
