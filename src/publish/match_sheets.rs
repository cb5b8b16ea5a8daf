//! A lone match on paper: a score sheet for every game planned, the result slip, and once the
//! match is over its report (every game's moves, the score by ballot, the director's
//! decisions). The desk's sheets' page, style, moves table and signatures: one renderer, the
//! same print rules (see [`super::sheets`]).

use super::sentences::ballot_text;
use super::sheets::{Paper, moves_table, page, signatures};
use crate::director::{Match, Player};
use crate::engine::Color;
use crate::openings::Opening;
use maud::{Markup, html};

/// A match's sheets as HTML pages, each with the file name it is written under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSheets {
    /// `STEM-scoresheets.html`: a score sheet per game.
    pub scoresheets: (String, String),
    /// `STEM-slip.html`: the result slip.
    pub slip: (String, String),
    /// `STEM-report.html`: the report, once the match is over.
    pub report: Option<(String, String)>,
}

impl MatchSheets {
    /// Every page, as (file name, HTML).
    pub fn files(&self) -> Vec<(String, String)> {
        let mut all = vec![self.scoresheets.clone(), self.slip.clone()];
        all.extend(self.report.clone());
        all
    }
}

/// The sheets of `m` on `paper`, named after `stem` (the match file's name without its
/// extension).
pub fn match_sheets(m: &Match, stem: &str, paper: Paper) -> MatchSheets {
    let games = planned_games(m);
    let title = |what: &str| format!("{what}: {}", heading(m));
    let scoresheets = html! {
        @for g in &games { (scoresheet(m, g)) }
    };
    MatchSheets {
        scoresheets: (
            format!("{stem}-scoresheets.html"),
            page(&title("Score sheets"), Some(paper), scoresheets),
        ),
        slip: (
            format!("{stem}-slip.html"),
            page(&title("Result slip"), Some(paper), slip(m, &games)),
        ),
        report: m.outcome().map(|_| {
            (
                format!("{stem}-report.html"),
                page(&title("Match report"), Some(paper), report(m, &games)),
            )
        }),
    }
}

/// One game of the match as the sheets know it: played, under way, or still to come.
struct SheetGame {
    ballot: u32,
    number: u8,
    /// Red and White, when the colours are chosen.
    colours: Option<(String, String)>,
    /// The ballot, once drawn.
    opening: Option<Opening>,
    /// Red's and White's moves, move by move.
    rows: Vec<(String, String)>,
    /// The result in words, once there is one.
    result: Option<String>,
}

/// Every game of every ballot planned (or drawn, past the plan), in order.
fn planned_games(m: &Match) -> Vec<SheetGame> {
    let drawn = u32::try_from(m.ballots().len()).unwrap_or(u32::MAX);
    let last = m.planned_ballots().max(drawn);
    let mut out = Vec::new();
    for ballot in 1..=last {
        let record = m.ballots().iter().find(|b| b.number == ballot);
        for number in 1..=2u8 {
            let played = record.and_then(|b| b.games.iter().find(|g| g.number == number));
            let colours = m
                .red_in(ballot, number)
                .map(|red| (m.name(red).to_string(), m.name(red.other()).to_string()));
            out.push(SheetGame {
                ballot,
                number,
                colours,
                opening: record.map(|b| b.opening.clone()),
                rows: played.map_or_else(Vec::new, |g| {
                    move_rows(g.moves.iter().map(|r| (r.colour, r.mv.to_string())))
                }),
                result: played
                    .and_then(|g| g.result.as_ref())
                    .map(ToString::to_string),
            });
        }
    }
    out
}

/// Moves in rows of Red's and White's: a game that starts with White to move leaves Red's
/// first cell empty.
fn move_rows(moves: impl Iterator<Item = (Color, String)>) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    for (colour, text) in moves {
        match (colour, rows.last_mut()) {
            (Color::White, Some(last)) if last.1.is_empty() => last.1 = text,
            (Color::White, _) => rows.push((String::new(), text)),
            (_, _) => rows.push((text, String::new())),
        }
    }
    rows
}

/// "Event" or "First - Second match".
fn heading(m: &Match) -> String {
    let s = m.settings();
    if s.event.trim().is_empty() {
        format!("{} - {} match", s.players[0], s.players[1])
    } else {
        s.event.clone()
    }
}

/// The line under a sheet's title: the match, the players, the clock.
fn head(m: &Match) -> Markup {
    let s = m.settings();
    html! {
        p.head {
            strong { (heading(m)) }
            " \u{b7} " (s.players[0]) " v " (s.players[1])
            " \u{b7} " (s.ballots) @if s.ballots == 1 { " ballot planned" } @else { " ballots planned" }
        }
        p { "Clock: " (s.time_control.describe()) }
    }
}

/// Who plays Red in a game, or a line to write it on.
fn colour_line(g: &SheetGame) -> Markup {
    match &g.colours {
        Some((red, white)) => html! {
            p { "Red: " strong { (red) } " \u{b7} White: " strong { (white) } }
        },
        None => html! {
            p { "Red: " span.blank {} " \u{b7} White: " span.blank {} " (colours not chosen yet)" }
        },
    }
}

/// The ballot in words and its opening moves, or a line to write it on.
fn ballot_line(g: &SheetGame) -> Markup {
    match &g.opening {
        Some(o) => html! {
            p { "Ballot " (g.ballot) ": " (ballot_text(o)) }
            @if !o.set_moves.is_empty() {
                p { "Opening moves, played before the game: " (o.moves_text()) }
            }
        },
        None => html! { p { "Ballot " (g.ballot) ": " span.blank {} " (not drawn yet)" } },
    }
}

/// A game's score sheet: players and colours, ballot and opening moves, clock, the numbered
/// move lines (written in as far as the game has gone), the result, the signatures.
fn scoresheet(m: &Match, g: &SheetGame) -> Markup {
    let s = m.settings();
    let game = format!("Ballot {}, game {}", g.ballot, g.number);
    html! {
        div.sheet {
            h2 { "Score sheet \u{b7} " (game) }
            (head(m))
            (colour_line(g))
            (ballot_line(g))
            (moves_table(&game, &g.rows))
            @if let Some(r) = &g.result { p { "Result: " strong { (r) } } }
            (signatures(&s.players[0], &s.players[1]))
        }
    }
}

/// The result slip: each game's colours and result (a box to tick while it is to come), the
/// points, the signatures.
fn slip(m: &Match, games: &[SheetGame]) -> Markup {
    let s = m.settings();
    let [first, second] = [&s.players[0], &s.players[1]];
    html! {
        div.slip {
            h2 { "Result slip" }
            (head(m))
            table.games {
                thead { tr {
                    th { "Ballot" } th { "Game" } th.n { "Red" } th.n { "White" } th.n { "Result" }
                } }
                tbody {
                    @for g in games {
                        tr {
                            td { (g.ballot) } td { (g.number) }
                            @match &g.colours {
                                Some((red, white)) => { td.n { (red) } td.n { (white) } }
                                None => { td.n {} td.n {} }
                            }
                            td.n {
                                @match &g.result {
                                    Some(r) => (r),
                                    None => {
                                        span.box {} " Red won " span.box {} " Drawn "
                                        span.box {} " White won"
                                    }
                                }
                            }
                        }
                    }
                }
            }
            p.points {
                @match m.outcome() {
                    Some(o) => {
                        "Match points: " (first) " " strong { (o.points[0].to_string()) }
                        " \u{b7} " (second) " " strong { (o.points[1].to_string()) }
                    }
                    None => {
                        "Match points: " (first) " " span.blank {} " \u{b7} " (second) " "
                        span.blank {}
                    }
                }
            }
            (signatures(first, second))
        }
    }
}

/// The report of a finished match: the result, the score by ballot, every game's moves, the
/// director's decisions and notes.
fn report(m: &Match, games: &[SheetGame]) -> Markup {
    let s = m.settings();
    let score = m.score();
    let name = |p: Player| m.name(p).to_string();
    let result = m.outcome().map(|o| match o.winner {
        Some(p) => format!("{} wins the match", name(p)),
        None => "The match is tied".to_string(),
    });
    let decisions = crate::store::comments(m);
    html! {
        h1 { "Match report" }
        (head(m))
        @if let Some(r) = result {
            p { strong { (r) } ": " (s.players[0]) " " (score.total[0].to_string())
                ", " (s.players[1]) " " (score.total[1].to_string()) }
        }
        h2 { "Score by ballot" }
        table.ballots {
            thead { tr {
                th { "Ballot" } th.n { "Opening" } th { (s.players[0]) } th { (s.players[1]) }
            } }
            tbody {
                @for b in &score.ballots {
                    @let pts = b.mini.unwrap_or(b.games);
                    tr {
                        td { (b.ballot) } td.n { (b.opening) }
                        td { (pts[0].to_string()) } td { (pts[1].to_string()) }
                    }
                }
            }
        }
        h2 { "The games" }
        @for g in games.iter().filter(|g| g.result.is_some() || !g.rows.is_empty()) {
            div.game {
                h3 {
                    "Ballot " (g.ballot) ", game " (g.number)
                    @if let Some((red, white)) = &g.colours { ": " (red) " (Red) - " (white) " (White)" }
                }
                @if let Some(o) = &g.opening { p { (ballot_text(o)) } }
                p.movetext { (movetext(&g.rows)) }
                @if let Some(r) = &g.result { p { "Result: " strong { (r) } } }
            }
        }
        h2 { "The director's decisions and notes" }
        @if decisions.is_empty() {
            p { "None: the match was played without the director deciding anything." }
        } @else {
            ul {
                @for d in &decisions {
                    li {
                        @if let Some((b, g)) = d.game { "Ballot " (b) ", game " (g) ", after " (d.plies) " plies: " }
                        (d.text)
                    }
                }
            }
        }
    }
}

/// Moves as numbered text: "1. 11-15 23-19 2. 8-11 ...".
fn movetext(rows: &[(String, String)]) -> String {
    rows.iter()
        .enumerate()
        .map(|(k, (red, white))| {
            let red = if red.is_empty() { "..." } else { red };
            format!("{}. {red} {white}", k + 1).trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
