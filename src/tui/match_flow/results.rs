//! Results between games and at the end: the last game's result, the score table by game and by
//! ballot, the total, and export to PDN.

use super::screen::MatchScreen;
use crate::director::{Decided, Phase, Player};
use crate::tui::screens::RenderCtx;
use crate::tui::theme::ascii_text;
use crate::tui::widgets::StatusKind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

/// Draw the results view of `s`.
pub fn render(s: &MatchScreen, frame: &mut Frame, area: Rect, ctx: &RenderCtx) {
    let look = ctx.appearance;
    let tx = |t: String| if look.ascii { ascii_text(&t) } else { t };
    let m = s.game_match();
    let score = m.score();
    let n1 = m.name(Player::First).to_string();
    let n2 = m.name(Player::Second).to_string();
    let finished = m.phase() == Phase::Finished;
    let buf = frame.buffer_mut();
    let title = if finished {
        " Match over ".to_string()
    } else {
        " Between games ".to_string()
    };
    buf.set_line(
        area.x,
        area.y,
        &Line::from(vec![
            Span::styled(title, look.accent()),
            Span::styled(format!(" {} v {}", n1, n2), look.dim()),
        ]),
        area.width,
    );
    let mut head: Vec<Line> = Vec::new();
    if let Some(g) = m.current_game()
        && let Some(r) = &g.result
    {
        head.push(Line::from(vec![
            Span::styled(
                format!("Ballot {}, game {}: ", g.ballot, g.number),
                look.dim(),
            ),
            Span::styled(r.to_string(), look.accent()),
        ]));
        head.push(Line::from(Span::styled(
            format!(
                "{} (Red) v {} (White), {} moves, {}",
                g.red_name,
                g.white_name,
                g.moves.len(),
                g.opening.reference()
            ),
            look.dim(),
        )));
    }
    if let Some(o) = m.outcome() {
        let text = match (o.winner, o.decided) {
            (Some(p), Decided::HolderRetains) => format!(
                "Tied {}-{}: {} retains the title",
                o.points[0],
                o.points[1],
                m.name(p)
            ),
            (Some(p), _) => format!(
                "{} wins the match {}-{}",
                m.name(p),
                o.points[p.index()],
                o.points[p.other().index()]
            ),
            (None, _) => format!("The match is tied {}-{}", o.points[0], o.points[1]),
        };
        head.push(Line::from(Span::styled(tx(text), look.alert())));
    }
    head.push(Line::from(vec![
        Span::styled("Total  ", look.dim()),
        Span::raw(tx(format!(
            "{n1} {}  ·  {n2} {}   (won-drawn-lost {}-{}-{} / {}-{}-{})",
            score.total[0],
            score.total[1],
            score.record[0].wins,
            score.record[0].draws,
            score.record[0].losses,
            score.record[1].wins,
            score.record[1].draws,
            score.record[1].losses,
        ))),
    ]));
    let mut y = area.y + 2;
    for l in &head {
        buf.set_line(area.x + 1, y, l, area.width.saturating_sub(2));
        y += 1;
    }
    y += 1;
    let bottom = area.bottom().saturating_sub(2);
    let h = bottom.saturating_sub(y);
    let half = area.width / 2;
    let left = Rect::new(area.x, y, half, h);
    let right = Rect::new(area.x + half, y, area.width - half, h);
    // Name columns share what the left box leaves after number, result and points.
    let w = ((half as usize).saturating_sub(2 + 6 + 9 + 8) / 2).clamp(5, 16);
    let mini_w = if m.settings().scoring.per_ballot {
        12
    } else {
        0
    };
    let ow = ((area.width - half) as usize)
        .saturating_sub(2 + 4 + 10 + 2 + mini_w)
        .clamp(10, 40);
    let short = |name: &str| name.chars().take(w).collect::<String>();
    // By game.
    let mut rows: Vec<Line> = vec![Line::from(Span::styled(
        format!(
            " #    {:<w$} {:<w$} {:<8} {:>3} {:>3}",
            "Red",
            "White",
            "result",
            short(&n1).chars().take(3).collect::<String>(),
            short(&n2).chars().take(3).collect::<String>()
        ),
        look.dim(),
    ))];
    for g in &score.games {
        let red = m.name(g.red).to_string();
        let white = m.name(g.red.other()).to_string();
        let res = g.result.as_ref().map_or("*", |r| r.pdn());
        rows.push(Line::from(tx(format!(
            " {}.{}  {:<w$} {:<w$} {:<8} {:>3} {:>3}",
            g.ballot,
            g.game,
            short(&red),
            short(&white),
            res,
            g.points[0].to_string(),
            g.points[1].to_string()
        ))));
    }
    let inner_h = h.saturating_sub(2) as usize;
    if rows.len() > inner_h && inner_h > 1 {
        let keep = inner_h - 1;
        let tail = rows.split_off(rows.len() - keep);
        rows.truncate(1);
        rows.extend(tail);
    }
    let block = |t: &str| {
        Block::new()
            .borders(Borders::ALL)
            .border_set(look.border_set())
            .border_style(look.dim())
            .title_top(Line::from(format!(" {t} ")))
    };
    frame.render_widget(Paragraph::new(rows).block(block("By game")), left);
    // By ballot.
    let per_ballot = m.settings().scoring.per_ballot;
    let mut rows: Vec<Line> = vec![Line::from(Span::styled(
        format!(
            " #  {:<ow$} {:>4} {:>4}{}",
            "opening",
            short(&n1).chars().take(4).collect::<String>(),
            short(&n2).chars().take(4).collect::<String>(),
            if per_ballot { "  ballot pts" } else { "" }
        ),
        look.dim(),
    ))];
    for b in &score.ballots {
        let o = m
            .ballots()
            .iter()
            .find(|x| x.number == b.ballot)
            .map(|x| x.opening.reference())
            .unwrap_or_else(|| b.opening.clone());
        let o: String = o.chars().take(ow).collect();
        let mini = match b.mini {
            Some(p) => format!("  {}-{}", p[0], p[1]),
            None if per_ballot => "  (open)".into(),
            None => String::new(),
        };
        rows.push(Line::from(tx(format!(
            " {:<2} {:<ow$} {:>4} {:>4}{}{}",
            b.ballot,
            o,
            b.games[0].to_string(),
            b.games[1].to_string(),
            mini,
            if b.complete { "" } else { " …" }
        ))));
    }
    for r in m.rejected() {
        rows.push(Line::from(Span::styled(
            format!(
                " rejected for ballot {}: {}",
                r.ballot,
                r.opening.reference()
            ),
            look.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(rows).block(block("By ballot")), right);
    let buf = frame.buffer_mut();
    let hint = if finished {
        "e export to PDN · q home · D director · ? help"
    } else {
        "Enter continue · e export to PDN · D director · q leave · ? help"
    };
    let (text, kind) = match &s.ui.message {
        Some(m) => m.clone(),
        None => (
            match m.phase() {
                Phase::Finished => "The match is over.".to_string(),
                _ => format!("Next: {}", super::words::status(m)),
            },
            StatusKind::Info,
        ),
    };
    let style = match kind {
        StatusKind::Error => look.alert(),
        StatusKind::Warn => look.accent(),
        StatusKind::Info => ratatui::style::Style::new(),
    };
    buf.set_line(
        area.x + 1,
        area.bottom() - 2,
        &Line::from(Span::styled(text, style)),
        area.width.saturating_sub(2),
    );
    buf.set_string(area.x + 1, area.bottom() - 1, hint, look.dim());
}
