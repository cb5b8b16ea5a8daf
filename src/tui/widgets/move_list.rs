//! The move list: numbered pairs (Red's move, White's move), with clock readings when there
//! are clocks, scrolled so the current move is visible.

use crate::engine::Color as Side;
use crate::tui::theme::Appearance;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// One move as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// Standard notation.
    pub text: String,
    /// The mover's clock reading after the move, if there are clocks.
    pub clock: Option<String>,
}

/// The list, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveListView {
    /// Box title ("Moves", "Moves (ballot 9-14 22-17 11-15)"...).
    pub title: String,
    /// Who made the first listed move (a ballot may leave White to move first).
    pub first: Side,
    /// Number of the first listed move pair.
    pub first_number: u32,
    /// The moves in order.
    pub moves: Vec<MoveEntry>,
    /// Index of the move to highlight (the last one played, or the one reached in review).
    pub current: Option<usize>,
}

impl MoveListView {
    /// A list with no clocks.
    pub fn plain(first: Side, moves: impl IntoIterator<Item = String>) -> MoveListView {
        let moves: Vec<MoveEntry> = moves
            .into_iter()
            .map(|text| MoveEntry { text, clock: None })
            .collect();
        MoveListView {
            title: "Moves".into(),
            first,
            first_number: 1,
            current: moves.len().checked_sub(1),
            moves,
        }
    }

    /// Rows of text: "12. 11-15 29:58  23-19 29:40" (clock readings only if `clocks`).
    fn rows(&self, clocks: bool) -> Vec<(Vec<(usize, String)>, u32)> {
        let mut rows: Vec<(Vec<(usize, String)>, u32)> = Vec::new();
        let offset = usize::from(self.first == Side::White);
        for (i, m) in self.moves.iter().enumerate() {
            let slot = i + offset;
            let number = self.first_number + (slot / 2) as u32;
            let text = match (&m.clock, clocks) {
                (Some(c), true) => format!("{} {}", m.text, c),
                _ => m.text.clone(),
            };
            if slot % 2 == 0 || rows.is_empty() {
                let mut cells = Vec::new();
                if slot % 2 == 1 {
                    cells.push((usize::MAX, "...".to_string()));
                }
                cells.push((i, text));
                rows.push((cells, number));
            } else if let Some(last) = rows.last_mut() {
                last.0.push((i, text));
            }
        }
        rows
    }

    /// Draw in a titled box.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let block = Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.dim())
            .title_top(Line::from(format!(" {} ", self.title)));
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.height == 0 || inner.width == 0 {
            return;
        }
        let with_clocks = self.moves.iter().any(|m| m.clock.is_some());
        let mut rows = self.rows(with_clocks);
        let mut col_w = rows
            .iter()
            .flat_map(|(c, _)| c.iter().map(|(_, t)| t.chars().count()))
            .max()
            .unwrap_or(5);
        let num_w = rows.last().map(|r| r.1.to_string().len()).unwrap_or(1) + 2;
        if with_clocks && num_w + 2 * col_w + 2 > inner.width as usize {
            rows = self.rows(false);
            col_w = rows
                .iter()
                .flat_map(|(c, _)| c.iter().map(|(_, t)| t.chars().count()))
                .max()
                .unwrap_or(5);
        }
        if rows.is_empty() {
            buf.set_string(inner.x + 1, inner.y, "no moves yet", look.dim());
            return;
        }
        let current_row = self
            .current
            .and_then(|c| {
                rows.iter()
                    .position(|(cells, _)| cells.iter().any(|(i, _)| *i == c))
            })
            .unwrap_or(rows.len() - 1);
        let h = inner.height as usize;
        let start = (current_row + 1).saturating_sub(h);
        for (k, (cells, number)) in rows.iter().enumerate().skip(start).take(h) {
            let mut spans = vec![Span::styled(
                format!("{:>w$} ", format!("{number}."), w = num_w - 1),
                look.dim(),
            )];
            for (i, text) in cells {
                let style = if Some(*i) == self.current {
                    look.accent().add_modifier(Modifier::REVERSED)
                } else {
                    ratatui::style::Style::new()
                };
                spans.push(Span::styled(format!("{text:<col_w$}"), style));
                spans.push(Span::raw("  "));
            }
            buf.set_line(
                inner.x,
                inner.y + (k - start) as u16,
                &Line::from(spans),
                inner.width,
            );
        }
    }
}

/// "31 plies, 16 moves": a move is Red's and White's (numbered as in the move list, so a game
/// White starts counts its first ply as move 1); plies counted where meant.
pub fn plies_and_moves(plies: usize, first: Side) -> String {
    let moves = (plies + usize::from(first == Side::White && plies > 0)).div_ceil(2);
    format!(
        "{plies} pl{}, {moves} move{}",
        if plies == 1 { "y" } else { "ies" },
        if moves == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_first_starts_with_an_ellipsis() {
        let v = MoveListView::plain(Side::White, ["22-18".to_string(), "15x22".to_string()]);
        let rows = v.rows(false);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].0[0].1, "...");
        assert_eq!(rows[1].1, 2);
    }

    #[test]
    fn plies_and_moves_read_as_a_player_counts() {
        let (r, w) = (Side::Red, Side::White);
        assert_eq!(plies_and_moves(0, r), "0 plies, 0 moves");
        assert_eq!(plies_and_moves(1, r), "1 ply, 1 move");
        assert_eq!(plies_and_moves(31, r), "31 plies, 16 moves");
        assert_eq!(plies_and_moves(32, r), "32 plies, 16 moves");
        assert_eq!(plies_and_moves(0, w), "0 plies, 0 moves");
        assert_eq!(plies_and_moves(2, w), "2 plies, 2 moves");
        assert_eq!(plies_and_moves(3, w), "3 plies, 2 moves");
    }
}
