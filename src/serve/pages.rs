//! The pages, rendered on the server with maud (every text escaped): readable without
//! JavaScript, on a phone and in print; the script only keeps them live.

use super::view::{BoardView, ClockView, DivisionView, EventView, GameView, MatchView};
use maud::{DOCTYPE, Markup, PreEscaped, html};

const STYLE: &str = "*{box-sizing:border-box}body{font-family:sans-serif;margin:0 auto;\
padding:.5em;max-width:120em;line-height:1.3}table{border-collapse:collapse;margin:.5em 0}\
th,td{border:1px solid #999;padding:.2em .4em;text-align:left;vertical-align:top}\
.scroll{overflow-x:auto;max-width:100%}.boards{display:grid;gap:.5em;\
grid-template-columns:repeat(auto-fill,minmax(17em,1fr))}.board{border:1px solid #999;\
padding:.4em;min-width:0}.board p{margin:.2em 0}.pos svg{width:100%;max-width:20em;height:auto}\
.clock{font-family:monospace;font-size:1.2em}.clock.run{font-weight:bold}\
.fen{font-family:monospace;font-size:.8em;word-break:break-all}summary{cursor:pointer}\
h1{margin:.2em 0;font-size:1.6em}h2,h3{margin:.5em 0 .2em}p{margin:.3em 0}.board .fen{display:none}\
@media (min-width:40em){details.pic::details-content{content-visibility:visible;height:auto}\
.board summary{display:none}}@media (max-width:40em){.boards{display:block}.board{border:0;\
border-bottom:1px solid #999;padding:.3em 0;display:grid;grid-template-columns:1fr auto;\
column-gap:.5em}.board p{margin:0}.board>details{grid-column:2;grid-row:1/span 2}\
.board>details[open]{grid-column:1/-1;grid-row:auto}.board .who{display:none}\
.board .clock{font-size:1em}.state p{display:inline}.state .clocks:after{content:\" · \"}\
.pos svg{max-width:14em}}\
@media print{.nav,.live,summary{display:none}.board{break-inside:avoid}}\
body.hall{max-width:none;margin:0;padding:.3em .5em;background:#000;color:#fff;\
font-size:1.15em;overflow:hidden}.hall a{color:#ffd23f}.hall header{display:flex;\
justify-content:space-between;align-items:baseline;gap:1em;white-space:nowrap}\
.hall h1{font-size:1.3em;margin:0;overflow:hidden;text-overflow:ellipsis}\
.hall .boards{gap:6px;grid-template-columns:repeat(auto-fill,minmax(12em,1fr));\
justify-content:center}.hall .board{border:2px solid #555;background:#111;padding:4px}\
.hall .board p{margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
.hall .line{display:grid;grid-template-columns:1fr auto}.hall .names{grid-column:1/-1;\
grid-row:2;overflow:hidden;text-overflow:ellipsis}.hall .pos svg{width:var(--pic,100%);\
max-width:none;display:block;margin:2px auto}.hall .fen,.hall .ballot,.hall summary,\
.hall .gresult,.hall .who,.hall .last,.hall .res{display:none}.hall .res.paper{display:block}\
.hall .score{color:#ffd23f;font-weight:bold}.hall .clocks{font-size:0}.hall .clocks .side{display:block;\
font-size:1.15rem}.hall .standings td,.hall .standings th{border-color:#777;\
padding:.1em .4em}.hall .standings h2{margin:.2em 0}.hall .off{display:none}";

/// How a page is made beyond its body: its class, and what else its head and end hold.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame<'a> {
    /// The live feed the page keeps itself up to date from.
    pub live: Option<&'a str>,
    /// The body's class.
    pub class: Option<&'a str>,
    /// Without JavaScript, the page reloads after this many seconds.
    pub refresh: Option<u32>,
    /// A script after the live one.
    pub script: Option<&'a str>,
}

/// The live script: keeps the page's boards, moves and clocks up to date (see live.rs).
const SCRIPT: &str = include_str!("live.js");

pub(crate) fn page(title: &str, live: Option<&str>, body: Markup) -> String {
    framed(
        title,
        Frame {
            live,
            ..Frame::default()
        },
        body,
    )
}

/// A page titled `title`, made as `frame` says, around `body`.
pub(crate) fn framed(title: &str, frame: Frame<'_>, body: Markup) -> String {
    let live = frame.live;
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
                @if let Some(s) = frame.refresh {
                    noscript { meta http-equiv="refresh" content=(s); }
                }
            }
            body class=[frame.class] data-live=[live] {
                (body)
                @if live.is_some() { script { (PreEscaped(SCRIPT)) } }
                @if let Some(s) = frame.script { script { (PreEscaped(s)) } }
            }
        }
    }
    .into_string()
}

/// The event page: every division's current round and its standings.
pub(crate) fn event_page(e: &EventView, picture: Picture<'_>) -> String {
    let links = picture.links;
    let body = html! {
        h1 { (e.name) }
        @if !e.site.is_empty() || !e.dates.is_empty() {
            p { (e.site) @if !e.site.is_empty() && !e.dates.is_empty() { ", " } (e.dates) }
        }
        p.nav {
            @for d in &e.divisions {
                a href={ "#standings-" (d.number) } { "Standings" @if e.divisions.len() > 1 { ": " (d.name) } }
                " · "
            }
            @if !links.site { a href="/hall" { "Hall display" } " · " }
            a href=(links.data("api/event")) { "JSON" }
        }
        @for d in &e.divisions { (division(d, picture)) }
    };
    page(&e.name, links.live("event").as_deref(), body)
}

fn division(d: &DivisionView, picture: Picture<'_>) -> Markup {
    html! {
        section {
            h2 { (d.name) }
            @if d.round == 0 {
                p { "No round has been paired yet." }
            } @else {
                h3 { "Round " (d.round) " "
                    a.nav href=(picture.links.data(&format!("round/{}.pdn", d.round))) { "(PDN)" } }
                @if picture.links.site {
                    p.nav { "Rounds: " @for r in 1..=d.round {
                        a href=(picture.links.page(&format!("round/{}/{r}", d.number))) { (r) } " " } }
                }
                div.boards { @for b in &d.boards { (board_card(b, picture)) } }
            }
            (standings(d, 3))
        }
    }
}

/// A division's standings (`#standings-N`) under a heading of `level` (2 or 3).
pub(crate) fn standings(d: &DivisionView, level: u8) -> Markup {
    let id = format!("standings-{}", d.number);
    let table = crate::publish::crosstable_table(&d.name, &d.standings.header, &d.standings.rows);
    html! {
        section.standings id=(id) {
            @if level == 2 { h2 { (d.name) ": " (d.standings.heading) } }
            @else { h3 { (d.standings.heading) } }
            div.scroll { (table) }
        }
    }
}

/// The picture of a position: its FEN, the squares of the move that led to it, and the game's
/// result when it ended there.
pub(crate) type Draw<'a> = &'a dyn Fn(&str, Option<[u8; 2]>, Option<&str>) -> Option<String>;

/// How a page draws what moves: the positions, and the running clocks.
#[derive(Clone, Copy)]
pub(crate) struct Picture<'a> {
    /// The picture of a position.
    pub draw: Draw<'a>,
    /// The time a running clock is shown at (ms since 1970); `None`: as it was at the last
    /// record (a live update, whose clocks the page's script runs).
    pub now: Option<i64>,
    /// Where the page's links lead.
    pub links: Links<'a>,
}

/// Where a page's links lead: the server's addresses, or the files of a published site (a
/// static folder: every link relative to the page, pages ending in `.html`, JSON in `.json`,
/// no live updates and no stepping through a game by the address's query).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Links<'a> {
    /// The way from the page to the site's root: `/` on the server, `../../` on a site's
    /// page two folders down.
    root: &'a str,
    site: bool,
}

impl<'a> Links<'a> {
    /// The server's addresses.
    pub(crate) const SERVED: Links<'static> = Links {
        root: "/",
        site: false,
    };

    /// A published site's files, from a page `root` below the site's root (`""`, `"../"`).
    pub(crate) fn site(root: &'a str) -> Links<'a> {
        Links { root, site: true }
    }

    /// A page's link: its path without extension (`""`: the event page).
    pub(crate) fn page(self, path: &str) -> String {
        match (self.site, path) {
            (false, p) => format!("/{p}"),
            (true, "") => format!("{}index.html", self.root),
            (true, p) => format!("{}{p}.html", self.root),
        }
    }

    /// A data file's link: a PDN's path as it is, the JSON API's (`api/...`) ending in `.json`
    /// on a site.
    pub(crate) fn data(self, path: &str) -> String {
        let json = if self.site && path.starts_with("api/") {
            ".json"
        } else {
            ""
        };
        format!("{}{path}{json}", self.root)
    }

    /// A page's live feed, on the server alone.
    fn live(self, path: &str) -> Option<String> {
        (!self.site).then(|| format!("/live/{path}"))
    }
}

/// The address of a board's page.
pub(crate) fn board_href(b: &BoardView) -> String {
    format!("/{}", board_path(b))
}

/// A board's path below the root: `board/D/R/B`.
pub(crate) fn board_path(b: &BoardView) -> String {
    format!("board/{}/{}/{}", b.division, b.round, b.board)
}

pub(crate) fn board_card(b: &BoardView, picture: Picture<'_>) -> Markup {
    let href = picture.links.page(&board_path(b));
    let game = b.live.as_ref().and_then(|m| m.games.last());
    html! {
        div.board id=(card_id(b)) data-board=(href) {
            p.line {
                strong { a href=(href) { "Board " (b.board) } } " "
                span.names { (b.players[0]) " – " (b.players[1]) }
                @if let Some(m) = &b.live {
                    " " span.score { "Score: " span.s0 { (m.score[0]) } " – "
                        span.s1 { (m.score[1]) } }
                }
            }
            div.state {
                @if let Some(g) = game { @if let Some(c) = &g.clock { (clocks(g, c, picture.now)) } }
                // A board played on paper: its result is all the hall display has to show.
                p.res.paper[b.live.is_none()] { "Result: " span.result { (b.result) } }
            }
            @if let Some(e) = b.live.as_ref().and_then(|m| m.error.as_ref()) {
                p { "Match file: " (e) }
            }
            details.pic {
                summary { "Picture" }
                @for t in &b.ballots { p.ballot { small { (t) } } }
                @if let Some(g) = game {
                    (position(g, g.moves.len(), picture))
                    (last_and_result(g))
                }
            }
        }
    }
}

/// A game's position after `ply` plies, its clocks and its result.
fn game_now(g: &GameView, ply: usize, picture: Picture<'_>) -> Markup {
    html! {
        (position(g, ply, picture))
        @if let Some(c) = &g.clock { (clocks(g, c, picture.now)) }
        (last_and_result(g))
    }
}

/// A game's position after `ply` plies as a picture (the result on it when the game ended
/// there), and as FEN.
fn position(g: &GameView, ply: usize, picture: Picture<'_>) -> Markup {
    let fen = g.fens.get(ply).map_or("", String::as_str);
    let last = ply
        .checked_sub(1)
        .and_then(|k| g.moves.get(k))
        .map(|m| m.squares);
    let over = (ply == g.moves.len())
        .then_some(g.result.as_deref())
        .flatten();
    html! {
        div.pos {
            @if let Some(svg) = (picture.draw)(fen, last, over) { (PreEscaped(svg)) }
            p.fen { (fen) }
        }
    }
}

/// A game's last move and its result.
fn last_and_result(g: &GameView) -> Markup {
    html! {
        p.last { @if let Some(m) = g.moves.last() { "Last move: " (m.label) " " (m.text) } }
        @if let Some(r) = &g.result { p.gresult { (r) } }
    }
}

fn clocks(g: &GameView, c: &ClockView, now: Option<i64>) -> Markup {
    let now = now.unwrap_or(c.since_ms);
    let shown = |side: &str, ms: Option<i64>| {
        let run = c.running && c.to_move == side;
        let left = ms.map(|ms| {
            if run {
                ms - (now - c.since_ms).max(0)
            } else {
                ms
            }
        });
        (run, left.map_or("-".to_string(), clock_text))
    };
    let (red_run, red) = shown("red", c.red_ms);
    let (white_run, white) = shown("white", c.white_ms);
    html! {
        p.clocks data-since=(c.since_ms) data-running=(c.running) data-to-move=(c.to_move) {
            span.side { span.who { (g.red) " " } "(Red) "
                span.clock.red.run[red_run] data-ms=[c.red_ms] { (red) } }
            " · "
            span.side { span.who { (g.white) " " } "(White) "
                span.clock.white.run[white_run] data-ms=[c.white_ms] { (white) } }
        }
    }
}

/// A clock reading as `h:mm:ss` (never below zero).
pub(crate) fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Which game and ply the board page shows (1-based game; ply from the start).
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub game: Option<usize>,
    pub ply: Option<usize>,
}

/// One board's page: its match, the chosen game stepped to the chosen ply, the log.
pub(crate) fn board_page(b: &BoardView, at: At, base: &str, picture: Picture<'_>) -> String {
    let title = format!(
        "Round {} board {}: {} – {}",
        b.round, b.board, b.players[0], b.players[1]
    );
    let links = picture.links;
    let path = board_path(b);
    let body = html! {
        p.nav { a href=(links.page("")) { "Event" } " · "
            a href=(links.data(&format!("{path}.pdn"))) { "PDN" } " · "
            a href=(links.data(&format!("api/{path}"))) { "JSON" } }
        h1 { (title) }
        (board_main(b, at, base, picture))
    };
    page(&title, links.live(&path).as_deref(), body)
}

/// The part of a board's page that changes with its match (`#main`).
pub(crate) fn board_main(b: &BoardView, at: At, base: &str, picture: Picture<'_>) -> Markup {
    html! {
        div #main {
            @for t in &b.ballots { p { "Ballot: " (t) } }
            p { "Result: " span.result { (b.result) } }
            @match &b.live {
                Some(m) => (match_body(m, at, base, picture)),
                None => p { "This board is not played on crossboard: no moves to show." },
            }
        }
    }
}

/// The standalone match's page.
pub(crate) fn match_page(m: &MatchView, at: At, picture: Picture<'_>) -> String {
    let title = format!("{} – {}", m.players[0], m.players[1]);
    let body = html! {
        p.nav { a href="/match.pdn" { "PDN" } " · " a href="/api/match" { "JSON" } }
        h1 { (title) }
        @if !m.heading.is_empty() { p { (m.heading) } }
        (match_main(m, at, picture))
    };
    page(&title, Some("/live/match"), body)
}

/// The part of the standalone match's page that changes (`#main`).
pub(crate) fn match_main(m: &MatchView, at: At, picture: Picture<'_>) -> Markup {
    html! { div #main { (match_body(m, at, "/match", picture)) } }
}

/// A board's card on the event page, alone (what the live feed sends when it changes).
pub(crate) fn card(b: &BoardView, picture: Picture<'_>) -> String {
    board_card(b, picture).into_string()
}

/// The id of a board's card on the event page.
pub(crate) fn card_id(b: &BoardView) -> String {
    format!("b{}-{}-{}", b.division, b.round, b.board)
}

fn match_body(m: &MatchView, at: At, base: &str, picture: Picture<'_>) -> Markup {
    let game_no = at
        .game
        .unwrap_or(m.games.len())
        .clamp(1, m.games.len().max(1));
    let shown = m.games.get(game_no - 1);
    html! {
        @if let Some(e) = &m.error { p { "The match file cannot be read: " (e) } }
        p.score { "Score: " (m.players[0]) " " span.s0 { (m.score[0]) } " – "
            span.s1 { (m.score[1]) } " " (m.players[1]) @if m.finished { " (final)" } }
        @if picture.links.site {
            // A site's page has no address to step by: every game, whole.
            @for (k, g) in m.games.iter().enumerate() { (game_section(g, k + 1, at, base, picture)) }
        } @else {
            @if m.games.len() > 1 {
                p.nav { "Games: " @for k in 1..=m.games.len() {
                    a href={ (base) "?game=" (k) } { (k) } " " } }
            }
            @if let Some(g) = shown { (game_section(g, game_no, at, base, picture)) }
        }
        @if m.games.is_empty() { p { "No game has started yet." } }
        h2 { "Log" }
        div.scroll { table.log {
            tr { th { "Time (UTC)" } th { "Record" } th { "Details" } }
            @for l in &m.log { tr { td { (l.at) } td { (l.kind) } td { (l.detail) } } }
        } }
    }
}

fn game_section(g: &GameView, game_no: usize, at: At, base: &str, picture: Picture<'_>) -> Markup {
    let last = g.moves.len();
    let ply = at.ply.unwrap_or(last).min(last);
    let step = |p: usize| format!("{base}?game={game_no}&ply={p}");
    html! {
        section.game data-game=(game_no) {
            h2 { "Game " (game_no) ": " (g.red) " (Red) – " (g.white) " (White)" }
            p { (g.opening) }
            (game_now(g, ply, picture))
            @if !picture.links.site { p.nav {
                a href=(step(0)) { "|< start" } " "
                a href=(step(ply.saturating_sub(1))) { "< back" } " "
                "after ply " (ply) " of " (last) " "
                a href=(step((ply + 1).min(last))) { "forward >" } " "
                a href=(step(last)) { "end >|" }
            } }
            div.scroll { table.moves {
                tr { th { "Move" } th { "Played" } th { "Clock after" } th { "Took" } }
                @for (k, m) in g.moves.iter().enumerate() {
                    tr {
                        td { (m.label) }
                        td { @if picture.links.site { (m.text) } @else { a href=(step(k + 1)) { (m.text) } } }
                        td { (m.left_ms.map_or("-".to_string(), clock_text)) }
                        td { (clock_text(m.spent_ms as i64)) }
                    }
                }
            } }
        }
    }
}

/// A round's page on a published site: its boards as the event page shows them.
pub(crate) fn round_page(
    event: &str,
    division: &str,
    round: u32,
    boards: &[BoardView],
    picture: Picture<'_>,
) -> String {
    let title = format!("{event}: {division}, round {round}");
    let links = picture.links;
    let body = html! {
        p.nav { a href=(links.page("")) { "Event" } " · "
            a href=(links.data(&format!("round/{round}.pdn"))) { "PDN" } }
        h1 { (title) }
        div.boards { @for b in boards { (board_card(b, picture)) } }
    };
    page(&title, None, body)
}

/// A page saying what was not found.
pub(crate) fn not_found(what: &str) -> String {
    page(
        "Not found",
        None,
        html! { h1 { "Not found" } p { (what) } p { a href="/" { "Back" } } },
    )
}
