//! The game as a graph: the engine's evaluation after every ply, from the side named, clamped
//! at ±[`CLAMP`] with the drawn band (±[`DRAWN_BAND`]) as the middle row, the biggest swings
//! marked under it, and beneath it the time each side spent per move (two [`Sparkline`] rows)
//! or "no clock stamps".
//!
//! A column is a ply, or a run of plies when the game has more plies than the graph has
//! columns. Everything that matters is a character, so the graph reads the same in `--ascii`
//! and without colour: bars are `#` (`█`), the band `-` (`┄`), endgame-database verdicts the
//! letters `W` `D` `L`, the cursor `^` and the marks `?` (mistake) and `X` (blunder).

use crate::engine::Color as Side;
use crate::search::Mark;
use crate::tui::theme::Appearance;
use crate::tui::widgets::{fit_text, format_clock};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::symbols::bar;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Sparkline, Widget};

/// Evaluations beyond this (hundredths of a man) are drawn at the edge: three men.
pub const CLAMP: i32 = 300;
/// Evaluations within this of zero are in the drawn band: half a man.
pub const DRAWN_BAND: i32 = 50;

/// A result known for certain, for the side named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Verdict {
    /// `W`, `D` or `L`.
    pub fn letter(self) -> &'static str {
        match self {
            Verdict::Win => "W",
            Verdict::Draw => "D",
            Verdict::Loss => "L",
        }
    }
}

/// The engine's view of one position, for the side named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// An evaluation in hundredths of a man.
    Men(i32),
    /// A win or loss the search saw forced within its horizon.
    Forced(Verdict),
    /// The endgame databases' verdict.
    Database(Verdict),
}

impl Eval {
    /// "+0.45", "forced win", "db D".
    pub fn text(self) -> String {
        match self {
            Eval::Men(0) => "0.00".into(),
            Eval::Men(v) => format!("{:+.2}", f64::from(v) / 100.0),
            Eval::Forced(Verdict::Loss) => "forced loss".into(),
            Eval::Forced(_) => "forced win".into(),
            Eval::Database(v) => format!("db {}", v.letter()),
        }
    }
}

/// Everything the graph shows (a plain value the owner builds each frame).
#[derive(Clone, Debug, Default)]
pub struct EvalGraphView {
    /// The side whose view the evaluations are.
    pub side: Option<Side>,
    /// One per position, the start first (empty: not analysed).
    pub evals: Vec<Option<Eval>>,
    /// Moves in the game.
    pub plies: usize,
    /// The ply shown on the board.
    pub cursor: usize,
    /// The plies reached by the biggest swings, with their marks.
    pub stops: Vec<(usize, Mark)>,
    /// Time each move took, milliseconds (empty or all unknown: no clock stamps).
    pub spent: Vec<Option<u64>>,
    /// Who made the first move.
    pub first: Option<Side>,
    /// An analysis in progress: positions searched, of how many.
    pub progress: Option<(usize, usize)>,
}

/// Rows of the curve and of each time row in a graph of some height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphRows {
    /// Rows of the evaluation curve (odd: the middle one is the drawn band).
    pub curve: u16,
    /// Rows of each side's time.
    pub time: u16,
}

impl GraphRows {
    /// The fewest rows the graph is drawn in, borders included.
    pub const MIN: u16 = 8;

    /// The rows for a graph of at most `height` rows (`None`: it does not fit), the curve no
    /// taller than `cap`.
    pub fn fit(height: u16, cap: u16) -> Option<GraphRows> {
        if height < Self::MIN {
            return None;
        }
        let time = if height >= 18 && cap >= 9 { 2 } else { 1 };
        let mut curve = (height - 3 - 2 * time).min(cap.max(3));
        if curve.is_multiple_of(2) {
            curve -= 1;
        }
        Some(GraphRows { curve, time })
    }

    /// The whole height, borders included.
    pub fn height(self) -> u16 {
        self.curve + 3 + 2 * self.time
    }
}

/// Width of the axis labels at the left.
const LABEL: u16 = 3;

impl EvalGraphView {
    /// Side named (Red when not said).
    fn named(&self) -> Side {
        self.side.unwrap_or(Side::Red)
    }

    /// Plies per column in `cols` columns.
    fn per_column(&self, cols: u16) -> usize {
        (self.plies + 1).div_ceil(usize::from(cols.max(1)))
    }

    /// Draw the graph in `area` with `rows`.
    pub fn render(&self, area: Rect, rows: GraphRows, buf: &mut Buffer, look: &Appearance) {
        let (title, readout) = self.titles(usize::from(area.width.saturating_sub(2)));
        let block = Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.dim())
            .title_top(Line::from(Span::styled(title, look.accent())))
            .title_top(Line::from(readout).right_aligned())
            .title_bottom(Line::from(self.time_totals()));
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.width <= LABEL || inner.height < rows.curve + 1 {
            return;
        }
        let plot = Rect {
            x: inner.x + LABEL,
            width: inner.width - LABEL,
            height: rows.curve,
            ..inner
        };
        self.render_axis(inner, rows.curve, buf, look);
        self.render_curve(plot, buf, look);
        let marks = Rect {
            y: plot.bottom(),
            height: 1,
            ..plot
        };
        self.render_marks(marks, buf, look);
        let time = Rect {
            x: inner.x,
            y: marks.bottom(),
            width: inner.width,
            height: inner.bottom().saturating_sub(marks.bottom()),
        };
        self.render_time(time, rows.time, buf, look);
    }

    /// The title (the side named) and the readout in `width` columns, side by side: the
    /// title shortened as far as the side's name to leave the readout whole, then the readout
    /// cut, marked, never overlapping.
    fn titles(&self, width: usize) -> (String, String) {
        let side = self.named();
        let readout = self.readout();
        let room = |t: &str| width.saturating_sub(t.chars().count());
        let forms = [
            format!(" Engine, {side}'s view "),
            format!(" {side}'s view "),
            format!(" {side} "),
        ];
        if let Some(t) = forms.iter().find(|t| room(t) >= readout.chars().count()) {
            return (t.clone(), readout);
        }
        let short = &forms[2];
        if room(short) >= 3 {
            return (short.clone(), fit_text(&readout, room(short)));
        }
        (fit_text(short, width), String::new())
    }

    /// What the cursor stands on: "ply 12: +0.45 ?", or the analysis' progress.
    fn readout(&self) -> String {
        if let Some((done, total)) = self.progress {
            return format!(" analysing {done}/{total}, Esc stops ");
        }
        if self.evals.is_empty() {
            return " a analyses ".into();
        }
        let value = self
            .evals
            .get(self.cursor)
            .copied()
            .flatten()
            .map_or("?".into(), Eval::text);
        let mark = self
            .stops
            .iter()
            .find(|(p, _)| *p == self.cursor)
            .map_or("", |(_, m)| m.symbol());
        format!(" ply {}: {value}{mark} ", self.cursor)
    }

    /// " time Red 4:12  White 3:58 ", or that there are no clock stamps.
    fn time_totals(&self) -> String {
        let Some(first) = self.first else {
            return String::new();
        };
        if self.spent.iter().all(Option::is_none) {
            return String::new();
        }
        let total = |side: Side| -> u64 {
            self.spent
                .iter()
                .enumerate()
                .filter(|(i, _)| mover(first, *i) == side)
                .filter_map(|(_, s)| *s)
                .sum()
        };
        format!(
            " time Red {}  White {} ",
            format_clock(total(Side::Red) as i64),
            format_clock(total(Side::White) as i64)
        )
    }

    /// The labels: the edges (± three men) and the drawn band.
    fn render_axis(&self, inner: Rect, curve: u16, buf: &mut Buffer, look: &Appearance) {
        let men = CLAMP / 100;
        let mid = curve / 2;
        for (y, text) in [
            (0, format!("+{men}")),
            (mid, " =".into()),
            (curve - 1, format!("-{men}")),
        ] {
            buf.set_string(inner.x, inner.y + y, text, look.dim());
        }
    }

    /// The value a column shows: the last evaluation among its plies.
    fn column_eval(&self, plies: std::ops::Range<usize>) -> Option<Eval> {
        plies
            .rev()
            .find_map(|p| self.evals.get(p).copied().flatten())
    }

    /// The curve: a bar a column up or down from the drawn band, the band itself, the
    /// databases' letters, the cursor's column reversed.
    fn render_curve(&self, plot: Rect, buf: &mut Buffer, look: &Appearance) {
        let per = self.per_column(plot.width);
        let mid = plot.height / 2;
        let (full, band) = if look.ascii {
            ("#", "-")
        } else {
            ("█", "┄")
        };
        for c in 0..plot.width {
            let first = usize::from(c) * per;
            if first > self.plies {
                break;
            }
            let x = plot.x + c;
            buf.set_string(x, plot.y + mid, band, look.dim());
            let range = first..(first + per).min(self.plies + 1);
            match self.column_eval(range.clone()) {
                Some(Eval::Database(v)) => {
                    let y = match v {
                        Verdict::Win => 0,
                        Verdict::Draw => mid,
                        Verdict::Loss => plot.height - 1,
                    };
                    buf.set_string(x, plot.y + y, v.letter(), look.accent());
                }
                Some(e) => {
                    let (top, bottom, glyph) = bar_rows(e, mid, full);
                    for y in top..=bottom {
                        buf.set_string(x, plot.y + y, glyph, look.side(self.leader(e)));
                    }
                }
                None => {}
            }
            if range.contains(&self.cursor) {
                for y in 0..plot.height {
                    let cell = &mut buf[(x, plot.y + y)];
                    cell.set_style(cell.style().add_modifier(Modifier::REVERSED));
                }
            }
        }
    }

    /// The side an evaluation favours (for the bar's colour).
    fn leader(&self, e: Eval) -> Side {
        let ahead = match e {
            Eval::Men(v) => v >= 0,
            Eval::Forced(v) | Eval::Database(v) => v != Verdict::Loss,
        };
        if ahead {
            self.named()
        } else {
            self.named().opponent()
        }
    }

    /// The row under the curve: `^` under the cursor, `?` and `X` under the biggest swings.
    fn render_marks(&self, area: Rect, buf: &mut Buffer, look: &Appearance) {
        let per = self.per_column(area.width);
        for &(ply, mark) in &self.stops {
            let c = (ply / per) as u16;
            if c < area.width {
                let glyph = if mark == Mark::Blunder { "X" } else { "?" };
                buf.set_string(area.x + c, area.y, glyph, look.alert());
            }
        }
        let c = (self.cursor / per) as u16;
        if c < area.width {
            buf.set_string(area.x + c, area.y, "^", look.accent());
        }
    }

    /// Each side's time per move, a row (or two) each, or "no clock stamps".
    fn render_time(&self, area: Rect, rows: u16, buf: &mut Buffer, look: &Appearance) {
        let Some(first) = self.first else { return };
        if area.height == 0 {
            return;
        }
        if self.spent.iter().all(Option::is_none) {
            let text = "no clock stamps";
            buf.set_string(area.x + LABEL, area.y, text, look.dim());
            return;
        }
        let plot_w = area.width.saturating_sub(LABEL);
        let per = self.per_column(plot_w);
        let max = self
            .spent
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(1)
            .max(1);
        for (i, side) in [Side::Red, Side::White].into_iter().enumerate() {
            let y = area.y + i as u16 * rows;
            if y + rows > area.bottom() {
                break;
            }
            let data = self.column_times(first, side, per, plot_w);
            let piece = crate::engine::Piece {
                color: side,
                king: false,
            };
            buf.set_string(area.x, y, look.glyphs().piece(piece), look.side(side));
            let spark = Sparkline::default()
                .data(data)
                .max(max)
                .style(look.side(side))
                .bar_set(if look.ascii {
                    ASCII_BARS
                } else {
                    bar::NINE_LEVELS
                })
                .absent_value_symbol(" ");
            let r = Rect::new(area.x + LABEL, y, plot_w, rows);
            spark.render(r, buf);
        }
    }

    /// `side`'s time in each column: the sum of its moves' times there (`None`: no move of
    /// its there, or none known).
    fn column_times(&self, first: Side, side: Side, per: usize, cols: u16) -> Vec<Option<u64>> {
        (0..usize::from(cols))
            .map(|c| {
                // Column c shows plies c*per .. (c+1)*per: move i reaches ply i + 1.
                let moves = (c * per).saturating_sub(1)..((c + 1) * per).saturating_sub(1);
                let known: Vec<u64> = moves
                    .filter(|&i| i < self.spent.len() && mover(first, i) == side)
                    .filter_map(|i| self.spent[i])
                    .collect();
                (!known.is_empty()).then(|| known.iter().sum())
            })
            .collect()
    }
}

/// Who makes move `i` of a game `first` opens.
fn mover(first: Side, i: usize) -> Side {
    if i.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    }
}

/// The rows a value's bar covers (top, bottom) in a curve whose drawn band is row `mid`, and
/// its glyph: the band's own row for a value inside it, else from the band out to the value,
/// the edge for anything at or beyond [`CLAMP`].
fn bar_rows(e: Eval, mid: u16, full: &'static str) -> (u16, u16, &'static str) {
    let v = match e {
        Eval::Men(v) => v,
        Eval::Forced(Verdict::Win) | Eval::Database(Verdict::Win) => CLAMP,
        Eval::Forced(Verdict::Loss) | Eval::Database(Verdict::Loss) => -CLAMP,
        Eval::Forced(Verdict::Draw) | Eval::Database(Verdict::Draw) => 0,
    };
    if v.abs() <= DRAWN_BAND || mid == 0 {
        return (mid, mid, "=");
    }
    let step = (CLAMP - DRAWN_BAND) as f64 / f64::from(mid);
    let rows = ((f64::from(v.abs().min(CLAMP) - DRAWN_BAND) / step).ceil() as u16).clamp(1, mid);
    if v > 0 {
        (mid - rows, mid - 1, full)
    } else {
        (mid + 1, mid + rows, full)
    }
}

/// The time rows in ASCII: `.` `:` `|` `#` by height.
const ASCII_BARS: bar::Set<'static> = bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "|",
    five_eighths: "|",
    half: ":",
    three_eighths: ":",
    one_quarter: ".",
    one_eighth: ".",
    empty: " ",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_fill_from_the_drawn_band_to_the_edge() {
        // Five rows: the band is row 2.
        assert_eq!(bar_rows(Eval::Men(30), 2, "#"), (2, 2, "="));
        assert_eq!(bar_rows(Eval::Men(-50), 2, "#"), (2, 2, "="));
        assert_eq!(bar_rows(Eval::Men(100), 2, "#"), (1, 1, "#"));
        assert_eq!(bar_rows(Eval::Men(300), 2, "#"), (0, 1, "#"));
        assert_eq!(bar_rows(Eval::Men(-900), 2, "#"), (3, 4, "#"));
        assert_eq!(bar_rows(Eval::Forced(Verdict::Win), 2, "#"), (0, 1, "#"));
    }

    #[test]
    fn database_verdicts_are_letters_at_the_edges_and_on_the_band() {
        let view = EvalGraphView {
            side: Some(Side::Red),
            evals: vec![
                Some(Eval::Men(0)),
                Some(Eval::Database(Verdict::Win)),
                Some(Eval::Database(Verdict::Draw)),
                Some(Eval::Database(Verdict::Loss)),
            ],
            plies: 3,
            cursor: 2,
            first: Some(Side::Red),
            ..EvalGraphView::default()
        };
        let area = Rect::new(0, 0, 20, 10);
        let mut buf = Buffer::empty(area);
        let rows = GraphRows::fit(10, 5).unwrap();
        view.render(area, rows, &mut buf, &Appearance::plain());
        let row = |y: u16| -> String { (1..19).map(|x| buf[(x, y)].symbol()).collect() };
        // Inside the frame: the label columns, then a column a ply.
        assert_eq!(row(1), "+3  W             ");
        assert_eq!(row(3), " = =-D-           ");
        assert_eq!(row(5), "-3    L           ");
        assert_eq!(row(6), "     ^            ");
        assert!(row(0).contains("ply 2: db D"), "{}", row(0));
        assert_eq!(Eval::Database(Verdict::Loss).text(), "db L");
    }

    #[test]
    fn the_rows_fit_the_height_given() {
        assert_eq!(GraphRows::fit(7, 13), None);
        let r = GraphRows::fit(10, 13).unwrap();
        assert_eq!((r.curve, r.time, r.height()), (5, 1, 10));
        let r = GraphRows::fit(30, 13).unwrap();
        assert_eq!((r.curve, r.time), (13, 2));
        assert!(r.height() <= 30);
    }
}
