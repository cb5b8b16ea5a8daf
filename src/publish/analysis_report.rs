//! A file's games analysed, as a page to read or print: each game's header, the engine's
//! evaluation as a graph (inline SVG), the moves with their marks, and every marked move with
//! the better move and its line. The desk's sheets' page and print style
//! ([`super::sheets`]); the marks and notes are the engine's review ([`MoveReview`]), the same
//! that the review screen shows and the annotated PDN carries.

use super::sheets::{Paper, page};
use crate::engine::Color;
use crate::search::{Mark, MoveReview, Score};
use crate::store::{PdnGame, move_label};
use maud::{Markup, PreEscaped, html};

/// One game of the file, as read, and the engine's review of its moves.
#[derive(Clone, Copy, Debug)]
pub struct AnalysedGame<'a> {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The game as read (tags, start, moves).
    pub game: &'a PdnGame,
    /// The review of each move, in order.
    pub reviewed: &'a [MoveReview],
}

/// The graph's height of the scale: Red's score is drawn within ±3 men.
const SCALE: i32 = 300;
/// The graph's drawing, in its own units (scaled to the page's width).
const WIDTH: i32 = 600;
const HEIGHT: i32 = 150;

/// The page's own style, after the sheets' style.
const STYLE: &str = "\
svg.graph{width:100%;max-width:180mm;height:auto;border:1px solid #999}\
.graph .zero{stroke:#999;stroke-dasharray:4 3}.graph .curve{fill:none;stroke:#000;stroke-width:1.5}\
.graph .mark{fill:#c00}.graph text{font-size:10px;fill:#555}\
p.movetext{line-height:1.5}.marked td{text-align:left;vertical-align:top}\
.marked td.sym{text-align:center;font-weight:bold}";

/// The report of `games` under `title` (`settings`: how long the engine looked, `depth 10 a
/// position; ...`, said under the title), on `paper` (none: the browser's own), a game to a page.
pub fn analysis_report(
    title: &str,
    settings: &str,
    games: &[AnalysedGame<'_>],
    paper: Option<Paper>,
) -> String {
    let body = html! {
        style { (PreEscaped(STYLE)) }
        @for (i, g) in games.iter().enumerate() {
            div.page {
                @if i == 0 {
                    h1 { (title) }
                    p.note { "Analysed by crossboard: " (settings) "." }
                }
                (game_section(g))
            }
        }
        @if games.is_empty() {
            h1 { (title) }
            p { "No game of the file could be analysed." }
        }
    };
    page(title, paper, body)
}

/// One game: its header, the graph, the moves, the marked moves.
fn game_section(g: &AnalysedGame<'_>) -> Markup {
    let p = g.game;
    let tag = |name: &str| p.tag(name).unwrap_or("?").to_string();
    let facts: Vec<String> = ["Event", "Site", "Date", "Round", "Opening"]
        .iter()
        .filter_map(|name| {
            p.tag(name)
                .filter(|v| !v.is_empty() && !v.starts_with('?'))
                .map(|v| format!("{name} {v}"))
        })
        .collect();
    let marked: Vec<&MoveReview> = g.reviewed.iter().filter(|r| r.mark.is_some()).collect();
    html! {
        h2 { "Game " (g.number) ": " (tag("Black")) " (Red) - " (tag("White")) " (White), " (p.result.as_str()) }
        @if !facts.is_empty() { p { (facts.join(" · ")) } }
        p { (tally(g.reviewed, Color::Red)) "; " (tally(g.reviewed, Color::White)) }
        (graph(g))
        p.movetext { (movetext(g)) }
        @if marked.is_empty() {
            p { "No move lost 0.3 men or more against the engine's choice." }
        } @else {
            table.marked {
                thead { tr {
                    th { "Move" } th { "Played" } th { "" } th { "Better" }
                    th { "Score (mover)" } th { "The better line" }
                } }
                tbody {
                    @for r in &marked {
                        tr {
                            td { (move_label(p.start.turn(), r.ply)) }
                            td { (r.played.to_string()) }
                            td.sym { (r.mark.map_or("", Mark::symbol)) }
                            td { (r.best.map_or(String::new(), |b| b.to_string())) }
                            td { (r.best_score) " not " (r.played_score) }
                            td { (numbered(p.start.turn(), r.ply, r.line.iter().map(ToString::to_string))) }
                        }
                    }
                }
            }
        }
    }
}

/// `Red: 1 ??, 0 ?, 2 ?!`.
fn tally(reviewed: &[MoveReview], side: Color) -> String {
    let count = |m: Mark| {
        reviewed
            .iter()
            .filter(|r| r.mover == side && r.mark == Some(m))
            .count()
    };
    format!(
        "{side}: {} ??, {} ?, {} ?!",
        count(Mark::Blunder),
        count(Mark::Mistake),
        count(Mark::Inaccuracy)
    )
}

/// Moves numbered as PDN writes them, the first at `first_ply` of a game that starts with
/// `start` to move: `5. 15-18 22x15 6. 6-10`, `5... 22x15 6. 6-10`.
fn numbered(start: Color, first_ply: usize, moves: impl Iterator<Item = String>) -> String {
    let mut out = Vec::new();
    for (i, mv) in moves.enumerate() {
        let label = move_label(start, first_ply + i);
        if i == 0 || !label.ends_with("...") {
            out.push(format!("{label} {mv}"));
        } else {
            out.push(mv);
        }
    }
    out.join(" ")
}

/// The moves with their numbers and marks, and the result.
fn movetext(g: &AnalysedGame<'_>) -> String {
    let p = g.game;
    let moves = p.moves.iter().enumerate().map(|(ply, mv)| {
        let mark = g.reviewed.get(ply).and_then(|r| r.mark);
        format!("{mv}{}", mark.map_or("", Mark::symbol))
    });
    format!("{} {}", numbered(p.start.turn(), 0, moves), p.result)
}

/// Red's score, clamped to the scale (a known result at its edge).
fn clamped(s: Score) -> i32 {
    if s.is_known() {
        SCALE * s.0.signum()
    } else {
        s.0.clamp(-SCALE, SCALE)
    }
}

/// Red's score of every position: the start (the first mover's best), then after each move.
fn red_scores(reviewed: &[MoveReview]) -> Vec<Score> {
    let start = reviewed.first().map(|r| match r.mover {
        Color::Red => r.best_score,
        Color::White => r.best_score.flip(),
    });
    start
        .into_iter()
        .chain(reviewed.iter().map(|r| r.red_score_after))
        .collect()
}

/// The evaluation graph: Red's score over the plies (Red ahead above the line), each marked
/// move a dot with its move and mark as its title.
fn graph(g: &AnalysedGame<'_>) -> Markup {
    let scores = red_scores(g.reviewed);
    let n = i32::try_from(scores.len().saturating_sub(1))
        .unwrap_or(i32::MAX)
        .max(1);
    let x = |ply: usize| i32::try_from(ply).unwrap_or(i32::MAX).min(n) * WIDTH / n;
    let y = |s: Score| HEIGHT / 2 - clamped(s) * (HEIGHT / 2 - 5) / SCALE;
    let points: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{},{}", x(i), y(*s)))
        .collect();
    let start = g.game.start.turn();
    html! {
        svg.graph xmlns="http://www.w3.org/2000/svg" viewBox=(format!("-4 0 {} {HEIGHT}", WIDTH + 8))
            role="img" aria-label="The engine's evaluation, Red ahead above the line" {
            title { "The engine's evaluation of every position, Red ahead above the line (±3 men)" }
            line.zero x1="0" y1=(HEIGHT / 2) x2=(WIDTH) y2=(HEIGHT / 2) {}
            text x="2" y="11" { "Red ahead" }
            text x="2" y=(HEIGHT - 3) { "White ahead" }
            polyline.curve points=(points.join(" ")) {}
            @for r in g.reviewed.iter().filter(|r| r.mark.is_some()) {
                circle.mark cx=(x(r.ply + 1)) cy=(y(r.red_score_after)) r="3.5" {
                    title {
                        (move_label(start, r.ply)) " " (r.played.to_string())
                        (r.mark.map_or("", Mark::symbol))
                    }
                }
            }
        }
    }
}
