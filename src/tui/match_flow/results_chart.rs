//! The match results as a picture: who led after each ballot, a bar a ballot up (the first
//! player ahead, named at the top right) or down (the second, at the bottom right) from the
//! level line, beside or under the by-ballot table. The table comes first: the chart takes only the room the table leaves, and is left
//! out when that is too little.

use super::results::fit_name;
use crate::director::{Match, Player, Points};
use crate::tui::theme::Appearance;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// Width of the axis labels.
const LABEL: u16 = 4;
/// The fewest rows the chart is drawn in: borders (the names on them), three rows of bars and
/// the ballots' numbers.
pub(crate) const MIN_HEIGHT: u16 = 6;
/// The most rows it takes: nine rows of bars, the numbers, the borders.
pub(crate) const MAX_HEIGHT: u16 = 12;
/// The narrowest it is drawn.
const MIN_WIDTH: u16 = 18;

/// The first player's lead over the second after each ballot, in half points, by the points
/// the match is scored in (ballot points when ballots are scored, else game points).
pub(crate) fn leads(m: &Match) -> Vec<(u32, i64)> {
    let per_ballot = m.settings().scoring.per_ballot;
    let mut lead = 0i64;
    m.score()
        .ballots
        .iter()
        .map(|b| {
            let p = if per_ballot {
                b.mini.unwrap_or([Points::ZERO; 2])
            } else {
                b.games
            };
            lead += i64::from(p[0].0) - i64::from(p[1].0);
            (b.ballot, lead)
        })
        .collect()
}

/// Columns a ballot takes in `width` columns of chart (2: a bar and a gap; 1 when crowded).
fn per_ballot(ballots: usize, plot: u16) -> u16 {
    if ballots * 2 <= usize::from(plot) {
        2
    } else {
        1
    }
}

/// The width the chart wants for `m` (borders included).
pub(crate) fn width(m: &Match) -> u16 {
    let n = m.score().ballots.len().max(1) as u16;
    (LABEL + 2 * n + 2).max(MIN_WIDTH)
}

/// Half points as text: "2", "1.5".
fn half_points(h: i64) -> String {
    if h % 2 == 0 {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// Draw the chart in `area` (nothing when it is smaller than the chart's minimum).
pub(crate) fn render(m: &Match, area: Rect, buf: &mut Buffer, look: &Appearance) {
    if area.height < MIN_HEIGHT || area.width < MIN_WIDTH {
        return;
    }
    let (n1, n2) = (m.name(Player::First), m.name(Player::Second));
    let (up, down) = if look.ascii {
        ("^", "v")
    } else {
        ("▲", "▼")
    };
    let room = usize::from(area.width.saturating_sub(15));
    let head = Span::styled(
        format!(" {up} {} ", fit_name(n1, n2, room).trim_end()),
        look.side(crate::engine::Color::Red),
    );
    let foot = Span::styled(
        format!(" {down} {} ", fit_name(n2, n1, room).trim_end()),
        look.dim(),
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .border_set(look.border_set())
        .border_style(look.dim())
        .title_top(Line::from(" Who led "))
        .title_top(Line::from(head).right_aligned())
        .title_bottom(Line::from(foot).right_aligned());
    let inner = block.inner(area);
    block.render(area, buf);
    // Odd, so the level line is the middle row; at most nine; the ballots' numbers under.
    let avail = (inner.height - 1).min(9);
    let rows = if avail % 2 == 0 { avail - 1 } else { avail };
    let plot = Rect::new(inner.x, inner.y, inner.width, rows);
    bars(&leads(m), plot, buf, look);
}

/// The bars of `leads` in `area`, the axis labels at its left, the ballots' numbers under it.
fn bars(leads: &[(u32, i64)], area: Rect, buf: &mut Buffer, look: &Appearance) {
    let mid = area.height / 2;
    let top = leads.iter().map(|(_, l)| l.abs()).max().unwrap_or(0).max(1);
    for (y, text) in [
        (0, format!("+{}", half_points(top))),
        (mid, " =".into()),
        (area.height - 1, format!("-{}", half_points(top))),
    ] {
        buf.set_string(area.x, area.y + y, text, look.dim());
    }
    let plot_w = area.width.saturating_sub(LABEL);
    let step = per_ballot(leads.len(), plot_w);
    let (full, level) = if look.ascii {
        ("#", "-")
    } else {
        ("█", "─")
    };
    for x in 0..plot_w {
        buf.set_string(area.x + LABEL + x, area.y + mid, level, look.dim());
    }
    for (i, &(ballot, lead)) in leads.iter().enumerate() {
        let x = area.x + LABEL + i as u16 * step;
        if x >= area.right() {
            break;
        }
        let n = ((lead.abs() * i64::from(mid) + top - 1) / top) as u16;
        let (style, ys) = if lead > 0 {
            (
                look.side(crate::engine::Color::Red),
                (mid - n..mid).collect(),
            )
        } else if lead < 0 {
            (look.dim(), (mid + 1..=mid + n).collect())
        } else {
            (look.dim(), vec![])
        };
        if lead == 0 {
            buf.set_string(x, area.y + mid, "=", look.dim());
        }
        for y in ys {
            buf.set_string(x, area.y + y, full, style);
        }
        let digit = (ballot % 10).to_string();
        buf.set_line(
            x,
            area.bottom(),
            &Line::from(Span::styled(digit, look.dim())),
            1,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_read_as_numbers() {
        assert_eq!(half_points(4), "2");
        assert_eq!(half_points(3), "1.5");
        assert_eq!(half_points(1), "0.5");
    }

    #[test]
    fn a_crowded_chart_gives_a_ballot_one_column() {
        assert_eq!(per_ballot(5, 10), 2);
        assert_eq!(per_ballot(6, 10), 1);
    }
}
