//! Results between games and at the end, drawn from the match alone: the last game's result
//! (with its length in plies and moves), the match result, the total, the director's notes,
//! and the score tables by game and by ballot. Names take the width there is and are shortened
//! only when it runs out, with a marker; a ballot not over says "unfinished". Tables longer
//! than the screen scroll (↑↓) and say how many rows are above or below, so nothing is cut
//! silently. Beside or under the by-ballot table, when the tables leave room for it, a chart of
//! who led after each ballot ([`super::results_chart`]); `v` opens the last game in review.

use super::results_chart;
use super::stages::{Stage, Step};
use crate::director::{BallotScore, Decided, Match, Phase, Player};
use crate::store::notes;
use crate::tui::keys::{Binding, DOWN, ENTER, Key, SPACE, UP, help, lookup};
use crate::tui::theme::{Appearance, ascii_text};
use crate::tui::widgets::menu::KeyHelp;
use crate::tui::widgets::{
    Scroll, StatusKind, fit_apart, fit_middle, fit_text, plies_and_moves, scrolled, wrap, wrap_fit,
};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

/// The results stage: how far the tables are scrolled back from the latest rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultsStage {
    /// Rows hidden below (0: the latest games are shown).
    pub back: usize,
}

/// What the keys of the results do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// On to the next game or ballot.
    Continue,
    /// Earlier rows of the tables.
    Earlier,
    /// Later rows.
    Later,
    /// Review the last game.
    Review,
}

/// Between games.
pub(crate) static KEYS: &[Binding<Act>] = &[
    Binding::new(
        &[ENTER, SPACE],
        Act::Continue,
        "on to the next game or ballot",
    )
    .footer("continue"),
    Binding::new(&[UP], Act::Earlier, "earlier games in the tables"),
    Binding::new(&[DOWN], Act::Later, "later games in the tables"),
    REVIEW,
];

/// When the match is over.
pub(crate) static FINAL_KEYS: &[Binding<Act>] = &[
    Binding::new(&[UP], Act::Earlier, "earlier games in the tables"),
    Binding::new(&[DOWN], Act::Later, "later games in the tables"),
    REVIEW,
];

/// The last game in review: the engine's curve, the time per move.
const REVIEW: Binding<Act> = Binding::new(
    &[Key::Char('v')],
    Act::Review,
    "review the last game (graph, time per move)",
)
.footer("review");

impl ResultsStage {
    /// Every table of this stage (for the key-table test).
    pub const TABLES: [&'static [Binding<Act>]; 2] = [KEYS, FINAL_KEYS];

    /// The table in force.
    pub fn table(m: &Match) -> &'static [Binding<Act>] {
        if m.phase() == Phase::Finished {
            FINAL_KEYS
        } else {
            KEYS
        }
    }

    /// The help lines in force.
    pub fn help(m: &Match) -> Vec<KeyHelp> {
        help(Self::table(m))
    }

    /// Handle a key; `None` when it is not one of the stage's.
    pub fn key(&mut self, key: &KeyEvent, m: &Match) -> Option<Step> {
        Some(match lookup(Self::table(m), key)? {
            Act::Continue => Step::To(Stage::next_for(m)),
            Act::Earlier => {
                self.back = (self.back + 1).min(m.score().games.len().saturating_sub(1));
                Step::Stay
            }
            Act::Later => {
                self.back = self.back.saturating_sub(1);
                Step::Stay
            }
            Act::Review => Step::Review,
        })
    }
}

/// `name` in `w` columns: as it is when it fits, else cut with a `…` marker.
pub(crate) fn fit(name: &str, w: usize) -> String {
    format!("{:<w$}", fit_text(name, w))
}

/// `name` in `w` columns, cut (when it must be) so as to stay told apart from `other`:
/// "Player 1" and "Player 2" in five are "Pla…1" and "Pla…2", never "Play…" twice.
pub(crate) fn fit_name(name: &str, other: &str, w: usize) -> String {
    format!("{:<w$}", fit_apart(name, other, w))
}

/// An opening in `w` columns, cut (when it must be) in its middle so that its number stays:
/// "11-Man…1306".
fn fit_opening(o: &str, w: usize) -> String {
    let number = o.rsplit(' ').next().map_or(0, |n| n.chars().count());
    format!("{:<w$}", fit_middle(o, w, number))
}

/// Draw the results of `m`: `status` on the line above the footer `hint`, tables scrolled
/// back by `back` rows.
pub(crate) fn render(
    m: &Match,
    stage: &ResultsStage,
    status: (String, StatusKind),
    hint: &str,
    frame: &mut Frame,
    area: Rect,
    look: &Appearance,
) {
    render_title(m, frame.buffer_mut(), area, look);
    let y = render_head(&head_lines(m, look), frame.buffer_mut(), area, look);
    let bottom = area.bottom().saturating_sub(3);
    let h = bottom.saturating_sub(y);
    // The by-game table gets the room it needs for names first, up to half the width; below
    // 120 columns it takes no more than it needs, the by-ballot table the rest.
    let left_w = if area.width >= 120 {
        area.width / 2
    } else {
        (area.width * 46 / 80)
            .min(area.width)
            .min(game_table_width(m))
    };
    let left = Rect::new(area.x, y, left_w, h);
    let (right, chart) = beside_or_under(m, Rect::new(area.x + left_w, y, area.width - left_w, h));
    let inner_h = h.saturating_sub(2) as usize;
    let (header, rows) = game_table(m, left_w.saturating_sub(2) as usize, look);
    let rows = scroll(rows, header, inner_h, stage.back, look);
    frame.render_widget(
        Paragraph::new(rows).block(table_block("By game", look)),
        left,
    );
    let (header, rows) = ballot_table(m, right.width.saturating_sub(2) as usize, look);
    let rows = scroll(
        rows,
        header,
        right.height.saturating_sub(2) as usize,
        stage.back,
        look,
    );
    frame.render_widget(
        Paragraph::new(rows).block(table_block("By ballot", look)),
        right,
    );
    if let Some(chart) = chart {
        results_chart::render(m, chart, frame.buffer_mut(), look);
    }
    render_status(status, hint, frame.buffer_mut(), area, look);
}

/// The by-ballot table's place in `area` and the "who led" chart's, if there is room for it:
/// beside the table when the table keeps the width it needs, else under it when the table
/// keeps every row; else the table has it all.
fn beside_or_under(m: &Match, area: Rect) -> (Rect, Option<Rect>) {
    let chart_w = results_chart::width(m);
    if area.width >= ballot_table_width(m) + chart_w && area.height >= results_chart::MIN_HEIGHT {
        let table = Rect {
            width: area.width - chart_w,
            ..area
        };
        let chart = Rect {
            x: table.right(),
            width: chart_w,
            height: area.height.min(results_chart::MAX_HEIGHT),
            ..area
        };
        return (table, Some(chart));
    }
    let rows = 1 + m.score().ballots.len() + m.rejected().len();
    let table_h = u16::try_from(rows + 2).unwrap_or(u16::MAX);
    if area.height >= table_h + results_chart::MIN_HEIGHT {
        let table = Rect {
            height: table_h,
            ..area
        };
        let chart = Rect {
            y: table.bottom(),
            height: (area.height - table_h).min(results_chart::MAX_HEIGHT),
            width: area.width.min(chart_w.max(40)),
            ..area
        };
        return (table, Some(chart));
    }
    (area, None)
}

/// `t` as the appearance draws it (ASCII when asked).
fn tx(look: &Appearance, t: String) -> String {
    if look.ascii { ascii_text(&t) } else { t }
}

/// The top line: "Match over" or "Between games", and the players.
fn render_title(m: &Match, buf: &mut Buffer, area: Rect, look: &Appearance) {
    let title = if m.phase() == Phase::Finished {
        " Match over "
    } else {
        " Between games "
    };
    let (n1, n2) = (m.name(Player::First), m.name(Player::Second));
    buf.set_line(
        area.x,
        area.y,
        &crate::tui::widgets::fit_line(
            Line::from(vec![
                Span::styled(title, look.accent()),
                Span::styled(format!(" {n1} v {n2}"), look.dim()),
            ]),
            area.width as usize,
        ),
        area.width,
    );
}

/// The lines above the tables: the last game, the match result, the total, the notes.
fn head_lines(m: &Match, look: &Appearance) -> Vec<(String, Style)> {
    let mut head = last_game_lines(m, look);
    if let Some(text) = outcome_text(m) {
        head.push((text, look.alert()));
    }
    head.push((total_text(m), Style::new()));
    if let Some(text) = notes_text(m) {
        head.push((text, look.dim()));
    }
    head
}

/// The last game's result, its players, length and opening (none before a game ends).
fn last_game_lines(m: &Match, look: &Appearance) -> Vec<(String, Style)> {
    let Some(g) = m.current_game() else {
        return Vec::new();
    };
    let Some(r) = &g.result else {
        return Vec::new();
    };
    vec![
        (
            format!("Ballot {}, game {}: {r}", g.ballot, g.number),
            look.accent(),
        ),
        (
            format!(
                "{} (Red) v {} (White), {}, {}",
                g.red_name,
                g.white_name,
                plies_and_moves(g.moves.len(), g.opening.position.turn()),
                g.opening.reference()
            ),
            look.dim(),
        ),
    ]
}

/// The match result, once it is decided.
fn outcome_text(m: &Match) -> Option<String> {
    let o = m.outcome()?;
    Some(match (o.winner, o.decided) {
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
    })
}

/// "Total  Ann 3  ·  Bob 1   (won-drawn-lost ...)".
fn total_text(m: &Match) -> String {
    let score = m.score();
    let (n1, n2) = (m.name(Player::First), m.name(Player::Second));
    format!(
        "Total  {n1} {}  ·  {n2} {}   (won-drawn-lost {}-{}-{} / {}-{}-{})",
        score.total[0],
        score.total[1],
        score.record[0].wins,
        score.record[0].draws,
        score.record[0].losses,
        score.record[1].wins,
        score.record[1].draws,
        score.record[1].losses,
    )
}

/// How many notes there are, and the last one with where it was made.
fn notes_text(m: &Match) -> Option<String> {
    let all_notes = notes(m);
    let last = all_notes.last()?;
    let place = match last.game {
        Some((b, g)) if last.after_game => format!("after game {b}.{g}"),
        Some((b, g)) => format!("game {b}.{g} after {} plies", last.plies),
        None => "before the first game".into(),
    };
    Some(format!(
        "Notes: {} (L shows the log). Last, {place}: {}",
        all_notes.len(),
        last.text
    ))
}

/// Draw the head lines wrapped from the third row; the row the tables start on.
fn render_head(head: &[(String, Style)], buf: &mut Buffer, area: Rect, look: &Appearance) -> u16 {
    let text_w = area.width.saturating_sub(2) as usize;
    let mut y = area.y + 2;
    for (text, style) in head {
        for part in wrap(&tx(look, text.clone()), text_w) {
            buf.set_line(
                area.x + 1,
                y,
                &Line::from(Span::styled(part, *style)),
                area.width.saturating_sub(2),
            );
            y += 1;
        }
    }
    y + 1
}

/// A table's frame with its title.
fn table_block<'a>(title: &str, look: &Appearance) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_set(look.border_set())
        .border_style(look.dim())
        .title_top(Line::from(format!(" {title} ")))
}

/// The longest of the players' names, in characters.
fn longest_name(m: &Match) -> usize {
    let n1 = m.name(Player::First).chars().count();
    let n2 = m.name(Player::Second).chars().count();
    n1.max(n2)
}

/// The narrowest a points column gets (its header then shortened, marked).
const POINTS_MIN: usize = 3;

/// The by-game table's columns besides the names' and the points': the game, the result,
/// the spaces between.
const GAME_FIXED: usize = 1 + 4 + 1 + 1 + 1 + 7 + 1 + 1;

/// The width the by-game table needs to show the names whole, its borders included.
fn game_table_width(m: &Match) -> u16 {
    let longest = longest_name(m);
    let need = GAME_FIXED + 2 * longest.max("White".len()) + 2 * longest.max(POINTS_MIN) + 2;
    u16::try_from(need).unwrap_or(u16::MAX)
}

/// The by-game table in `inner` columns: its header and a row a game
/// (" #    Red  White  result  p1 p2"). The names of Red and White get the room they need
/// first, the points columns (headed by the players' names) what is left.
fn game_table<'a>(m: &Match, inner: usize, look: &Appearance) -> (Line<'a>, Vec<Line<'a>>) {
    let (n1, n2) = (m.name(Player::First), m.name(Player::Second));
    let longest = longest_name(m);
    let room = inner.saturating_sub(GAME_FIXED);
    let w = longest
        .max("White".len())
        .min(room.saturating_sub(2 * POINTS_MIN) / 2);
    let pw = longest.min(room.saturating_sub(2 * w) / 2).max(POINTS_MIN);
    // What is left widens the names' columns.
    let w = (room.saturating_sub(2 * pw) / 2).max(4);
    let rows = m
        .score()
        .games
        .iter()
        .map(|g| {
            let red = m.name(g.red).to_string();
            let white = m.name(g.red.other()).to_string();
            let res = g.result.as_ref().map_or("*", |r| r.pdn());
            Line::from(tx(
                look,
                format!(
                    " {:<4} {} {} {:<7} {:>pw$} {:>pw$}",
                    format!("{}.{}", g.ballot, g.game),
                    fit_name(&red, &white, w),
                    fit_name(&white, &red, w),
                    res,
                    g.points[0].to_string(),
                    g.points[1].to_string()
                ),
            ))
        })
        .collect();
    let header = Line::from(Span::styled(
        tx(
            look,
            format!(
                " {:<4} {} {} {:<7} {:>pw$} {:>pw$}",
                "#",
                fit("Red", w),
                fit("White", w),
                "result",
                fit_name(n1, n2, pw),
                fit_name(n2, n1, pw)
            ),
        ),
        look.dim(),
    ));
    (header, rows)
}

/// Said of a ballot whose games are not both over.
const UNFINISHED: &str = "unfinished";

/// The opening's columns the points columns leave at least, when names are long.
const OPENING_MIN: usize = 12;

/// The by-ballot table in `inner` columns: its header, a row a ballot, then the rejected
/// openings. The points columns (headed by the players' names) get the room they need, the
/// opening what is left, and at least [`OPENING_MIN`] of what it needs.
fn ballot_table<'a>(m: &Match, inner: usize, look: &Appearance) -> (Line<'a>, Vec<Line<'a>>) {
    let (n1, n2) = (m.name(Player::First), m.name(Player::Second));
    let score = m.score();
    let per_ballot = m.settings().scoring.per_ballot;
    let last_w = last_column_width(m);
    let openings: Vec<String> = score.ballots.iter().map(|b| opening_of(m, b)).collect();
    let opening_need = opening_width(&openings);
    let room = inner.saturating_sub(1 + 2 + 1 + 1 + 1 + last_w);
    let pw = longest_name(m)
        .min(room.saturating_sub(opening_need.min(OPENING_MIN)) / 2)
        .max(POINTS_MIN);
    let ow = room.saturating_sub(2 * pw).max(6);
    let mut rows: Vec<Line> = score
        .ballots
        .iter()
        .zip(&openings)
        .map(|(b, o)| Line::from(tx(look, ballot_row(b, o, per_ballot, (pw, ow)))))
        .collect();
    for r in m.rejected() {
        rows.push(Line::from(Span::styled(
            tx(
                look,
                format!(" {:<2} rejected: {}", r.ballot, r.opening.number),
            ),
            look.dim(),
        )));
    }
    let header = Line::from(Span::styled(
        tx(
            look,
            format!(
                " {:<2} {} {:>pw$} {:>pw$}{}",
                "#",
                fit("opening", ow),
                fit_name(n1, n2, pw),
                fit_name(n2, n1, pw),
                if per_ballot { "  ballot" } else { "" }
            ),
        ),
        look.dim(),
    ));
    (header, rows)
}

/// The by-ballot table's last column: the ballot's own score, or that it is unfinished.
fn last_column_width(m: &Match) -> usize {
    let per_ballot = m.settings().scoring.per_ballot;
    let open = m.score().ballots.iter().any(|b| !b.complete);
    match (per_ballot, open) {
        (true, true) => 2 + UNFINISHED.len(),
        (true, false) => 8,
        (false, true) => 1 + UNFINISHED.len(),
        (false, false) => 0,
    }
}

/// The opening column's width for these openings (its header included).
fn opening_width(openings: &[String]) -> usize {
    openings
        .iter()
        .map(|o| o.chars().count())
        .chain(["opening".len()])
        .max()
        .unwrap_or(0)
}

/// The width the by-ballot table needs to show every column whole, its borders included.
fn ballot_table_width(m: &Match) -> u16 {
    let openings: Vec<String> = m.score().ballots.iter().map(|b| opening_of(m, b)).collect();
    let pw = longest_name(m).max(POINTS_MIN);
    let need = 6 + last_column_width(m) + opening_width(&openings) + 2 * pw + 2;
    u16::try_from(need).unwrap_or(u16::MAX)
}

/// A ballot's opening as the match drew it (the score's label if it is not found).
fn opening_of(m: &Match, b: &BallotScore) -> String {
    m.ballots()
        .iter()
        .find(|x| x.number == b.ballot)
        .map(|x| x.opening.reference())
        .unwrap_or_else(|| b.opening.clone())
}

/// One ballot's row: its opening `o`, the players' game points, the ballot's own score when
/// ballots are scored, or that it is unfinished (`pw`, `ow`: the points and opening widths).
fn ballot_row(b: &BallotScore, o: &str, per_ballot: bool, (pw, ow): (usize, usize)) -> String {
    let last = match b.mini {
        Some(p) if per_ballot => format!("  {:>2}-{:<3}", p[0].to_string(), p[1].to_string()),
        _ if b.complete => String::new(),
        _ if per_ballot => format!("  {UNFINISHED}"),
        _ => format!(" {UNFINISHED}"),
    };
    format!(
        " {:<2} {} {:>pw$} {:>pw$}{last}",
        b.ballot,
        fit_opening(o, ow),
        b.games[0].to_string(),
        b.games[1].to_string(),
    )
}

/// The status, wrapped to two rows above the footer `hint`, and the footer.
fn render_status(
    status: (String, StatusKind),
    hint: &str,
    buf: &mut Buffer,
    area: Rect,
    look: &Appearance,
) {
    let style = match status.1 {
        StatusKind::Error => look.alert(),
        StatusKind::Warn => look.accent(),
        StatusKind::Info => Style::new(),
    };
    // Two rows for the status (a long export path wraps, or is cut keeping the file's name),
    // bottom-aligned above the footer.
    let lines = wrap_fit(&status.0, area.width.saturating_sub(2) as usize, 2);
    let top = area.bottom().saturating_sub(1 + lines.len() as u16);
    for (i, part) in lines.into_iter().enumerate() {
        buf.set_line(
            area.x + 1,
            top + i as u16,
            &Line::from(Span::styled(part, style)),
            area.width.saturating_sub(2),
        );
    }
    buf.set_string(area.x + 1, area.bottom() - 1, hint, look.dim());
}

/// The rows that fit in `height` lines under `header`, ending `back` rows before the last,
/// with a marker line for the rows above and below that do not fit ([`scrolled`]).
fn scroll<'a>(
    rows: Vec<Line<'a>>,
    header: Line<'a>,
    height: usize,
    back: usize,
    look: &Appearance,
) -> Vec<Line<'a>> {
    let mut out = vec![header];
    out.extend(scrolled(
        rows,
        height.saturating_sub(1),
        Scroll::Bottom(back),
        "↑↓",
        look.dim(),
    ));
    out
}

pub(crate) use crate::publish::tie_block;

/// The status line of the results: what Enter does, or that the match is over and where q
/// goes (`to_desk`: back to the desk that opened the match, else home).
pub(crate) fn status(m: &Match, to_desk: bool) -> (String, StatusKind) {
    let text = match m.phase() {
        Phase::Finished => format!(
            "The match is over: e exports every game, q goes {}",
            if to_desk { "back to the desk" } else { "home" }
        ),
        Phase::Draw { ballot } if ballot > m.settings().ballots => {
            format!("{} (Enter)", tie_block(m, ballot))
        }
        Phase::Draw { ballot } => format!("Next: ballot {ballot} is drawn (Enter)"),
        Phase::Ready { ballot, game } => {
            let red = m.red_in(ballot, game).unwrap_or(Player::First);
            format!(
                "Next: ballot {ballot}, game {game}: {} (Red) v {} (White) (Enter)",
                m.name(red),
                m.name(red.other())
            )
        }
        _ => "Enter: on".to_string(),
    };
    (text, StatusKind::Info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_only_when_they_do_not_fit_and_then_marked() {
        assert_eq!(fit("Ann", 6), "Ann   ");
        assert_eq!(fit("Alexandra", 9), "Alexandra");
        assert_eq!(fit("Alexandra", 6), "Alexa…");
    }
}
