//! Sheets for the wall: a round's pairings, a result slip per board, a score sheet per board
//! and ballot, and the crosstable, as print-ready HTML pages (HTML by maud, which escapes every
//! name and club typed at the desk). The one home of the crosstable's HTML: the exported page
//! and the printed sheet are the same markup.
//!
//! Print rules: the paper's `@page` size (A4 or US Letter), a table's heading row repeated on
//! every page and no row cut across pages; slips two to a page, each kept whole, the page
//! broken between every second slip; each score sheet on a page of its own.

use super::export::Published;
use super::prizes::prizes_html;
use super::sentences::{ballot_text, points_text};
use crate::director::Player;
use crate::event::{Board, Division, EventError, Round, Tournament, ballot_for};
use crate::store::BoardCodes;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::collections::BTreeMap;

/// The paper a sheet is printed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// The CSS `@page` size.
    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

impl std::str::FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(format!("paper {s:?}: use a4 or letter")),
        }
    }
}

/// Which sheet of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetKind {
    /// The round's boards: number, names with their colours, ballot; the bye.
    Pairings,
    /// One result slip per board, signed by both players.
    Slips,
    /// One score sheet per board and ballot: a moves table for each game of the ballot.
    Scoresheet,
    /// The crosstable after the round.
    Crosstable,
}

impl SheetKind {
    /// Every kind, in the order the desk writes them.
    pub const ALL: [SheetKind; 4] = [
        SheetKind::Pairings,
        SheetKind::Slips,
        SheetKind::Scoresheet,
        SheetKind::Crosstable,
    ];

    /// Its name on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            SheetKind::Pairings => "pairings",
            SheetKind::Slips => "slips",
            SheetKind::Scoresheet => "scoresheet",
            SheetKind::Crosstable => "crosstable",
        }
    }
}

impl std::str::FromStr for SheetKind {
    type Err = String;
    fn from_str(s: &str) -> Result<SheetKind, String> {
        SheetKind::ALL
            .into_iter()
            .find(|k| k.name() == s.trim())
            .ok_or_else(|| format!("sheet {s:?}: use pairings, slips, scoresheet or crosstable"))
    }
}

/// Moves a game's table has room for: two runs of this many rows.
const MOVE_ROWS: u32 = 30;

/// The style of every sheet; `@page` is added for the paper.
const STYLE: &str = "\
body{font-family:sans-serif;font-size:10pt;margin:0}\
@media screen{body{margin:1.5em}}\
h1{font-size:15pt;margin:0 0 .3em}h2{font-size:13pt;margin:0 0 .3em}\
h3{font-size:10.5pt;margin:.4em 0 .2em}p{margin:.2em 0}\
table{border-collapse:collapse;margin:.3em 0}\
th,td{border:1px solid #999;padding:.2em .5em;text-align:right}\
td.n,th.n{text-align:left}\
thead{display:table-header-group}\
tr,.slip,.sheet{break-inside:avoid;page-break-inside:avoid}\
.crosstable tbody tr:nth-child(even){background:#f3f3f3}\
.crosstable td{white-space:nowrap}.crosstable td:nth-child(3){white-space:normal}\
caption{font-weight:bold;margin-bottom:.5em}\
.prizes{margin-top:1em}\
.page+.page,.sheet+.sheet{break-before:page;page-break-before:always}\
.slip{min-height:118mm;box-sizing:border-box;padding:4mm 0}\
.slip+.slip{border-top:1px dashed #666}\
.games{width:100%}.games td,.games th{text-align:center}\
.box{display:inline-block;width:4mm;height:4mm;border:1px solid #000;vertical-align:middle}\
.signs{display:flex;gap:10mm;margin-top:16mm}\
.points{margin-top:4mm}.blank{display:inline-block;width:18mm;border-bottom:1px solid #000}\
.signs div{flex:1;border-top:1px solid #000;padding-top:1mm;font-size:9pt}\
.pair{display:flex;gap:4mm}.pair>div{flex:1}\
.moves{width:100%;font-size:9pt}.moves td{height:5.6mm;padding:0 .3em}\
.moves td.no,.moves th.no{width:7mm;color:#555}\
.code{font-family:monospace;font-size:11pt;white-space:nowrap}.note{font-size:8.5pt}\
.strips{display:flex;gap:4mm;margin-top:4mm}.strip{flex:1;border:1px dashed #666;\
padding:2mm;display:flex;gap:3mm;align-items:center;font-size:9pt}\
.qr svg{width:22mm;height:22mm;display:block}.floor{display:flex;gap:4mm;align-items:center}";

/// A print-ready page: `title`, the style with the paper's `@page` size (none: the browser's
/// own), and `body`.
pub(super) fn page(title: &str, paper: Option<Paper>, body: Markup) -> String {
    let at_page = paper.map_or(String::new(), |p| {
        format!("@page{{size:{};margin:10mm}}", p.css())
    });
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                style { (PreEscaped(at_page)) (PreEscaped(STYLE)) }
            }
            body { (body) }
        }
    }
    .into_string()
}

/// The codes a round's sheets print: each board laptop's, each player's for entering the
/// result from a phone, and the address of that form.
#[derive(Clone, Debug, Default)]
pub struct SheetCodes {
    /// Each board laptop's code, by board.
    pub boards: BTreeMap<u32, String>,
    /// Each board's players' floor codes, first and second, by board.
    pub floor: BTreeMap<u32, [String; 2]>,
    /// The address of serve's result form (`http://192.168.1.20:8080/result`); none: the
    /// sheets print the codes without a QR code.
    pub result_url: Option<String>,
}

impl SheetCodes {
    /// The codes of round `round` of division `d` (from 1) of `event` by the desk's `codes`,
    /// the form at `result_url`.
    pub fn of_round(
        codes: &BoardCodes,
        event: &Tournament,
        d: usize,
        round: u32,
        result_url: Option<String>,
    ) -> SheetCodes {
        let boards = codes.of_round(event, d, round);
        let name = &event.info.name;
        let floor = boards
            .keys()
            .map(|&b| {
                let code = |side| codes.floor_code(name, d, round, b, side);
                (b, [code(Player::First), code(Player::Second)])
            })
            .collect();
        SheetCodes {
            boards,
            floor,
            result_url,
        }
    }
}

/// `text` as a QR code in SVG, to inline in a page (its XML prolog left out).
fn qr_svg(text: &str) -> Option<Markup> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .quiet_zone(true)
        .build();
    let at = svg.find("<svg")?;
    Some(PreEscaped(svg[at..].to_string()))
}

/// A sheet of `round` (a paired round; for the crosstable, the standings after it) of
/// `division` on `paper`, the pairings and the slips with the codes of `codes` (none: left
/// out). Refused: round 0, a round not paired.
pub fn sheet(
    event: &Tournament,
    division: &Division,
    round: u32,
    kind: SheetKind,
    paper: Paper,
    codes: &SheetCodes,
) -> Result<String, EventError> {
    let r = division.paired_round(round)?;
    let s = Sheets {
        event,
        division,
        r,
        codes,
    };
    Ok(match kind {
        SheetKind::Pairings => page(&s.title("Pairings"), Some(paper), s.pairings()),
        SheetKind::Slips => page(&s.title("Result slips"), Some(paper), s.slips()),
        SheetKind::Scoresheet => page(&s.title("Score sheets"), Some(paper), s.scoresheets()),
        SheetKind::Crosstable => Published::new(event, division, round).html_on(Some(paper)),
    })
}

/// A round's sheets.
struct Sheets<'a> {
    event: &'a Tournament,
    division: &'a Division,
    r: &'a Round,
    /// The codes to print.
    codes: &'a SheetCodes,
}

impl Sheets<'_> {
    fn title(&self, what: &str) -> String {
        format!("{what}: {} - round {}", self.heading(), self.r.number)
    }

    /// "Event - Division".
    fn heading(&self) -> String {
        format!("{} - {}", self.event.info.name, self.division.name)
    }

    /// The line under a sheet's title: event, division, round, and board if one.
    fn head(&self, board: Option<u32>) -> Markup {
        let info = &self.event.info;
        html! {
            p.head {
                strong { (self.heading()) }
                " \u{b7} Round " (self.r.number) " of " (self.division.planned_rounds())
                @if let Some(b) = board { " \u{b7} " strong { "Board " (b) } }
                @if !info.site.is_empty() { " \u{b7} " (info.site) }
                @if !info.start_date.is_empty() { " \u{b7} " (info.start_date) }
            }
        }
    }

    fn games(&self) -> u32 {
        self.division.settings.games_per_round
    }

    /// The ballots a board plays, one for each two games (none yet: empty).
    fn ballots(&self, b: &Board) -> Vec<String> {
        (0..self.games())
            .step_by(2)
            .filter_map(|g| ballot_for(self.division, self.r.number, b.number, g))
            .map(|d| ballot_text(&d.opening))
            .collect()
    }

    fn ballot_cell(&self, b: &Board) -> String {
        let all = self.ballots(b);
        if all.is_empty() {
            "not drawn yet".into()
        } else {
            all.join(" / ")
        }
    }

    /// Red and White of game `g` (0-based): colours alternate game by game.
    fn colours(&self, b: &Board, g: u32) -> (&str, &str) {
        let (red, white) = if g.is_multiple_of(2) {
            (Player::First, Player::Second)
        } else {
            (Player::Second, Player::First)
        };
        (
            self.division.name(b.player(red)),
            self.division.name(b.player(white)),
        )
    }

    fn pairings(&self) -> Markup {
        html! {
            h1 { "Pairings" }
            (self.head(None))
            table.pairings {
                thead { tr {
                    th { "Board" } th.n { "Red in game 1" } th.n { "White in game 1" }
                    th.n { "Ballot" }
                    @if !self.codes.boards.is_empty() { th { "Board's code" } }
                } }
                tbody {
                    @for b in &self.r.boards {
                        tr {
                            td { (b.number) }
                            td.n { (self.division.name(b.first)) }
                            td.n { (self.division.name(b.second)) }
                            td.n { (self.ballot_cell(b)) }
                            @if let Some(code) = self.codes.boards.get(&b.number) { td.code { (code) } }
                        }
                    }
                }
            }
            @if !self.codes.boards.is_empty() { (self.join_note("CODE")) }
            @if !self.codes.floor.is_empty() { (self.floor_note()) }
            @if let Some(bye) = self.r.bye { p { "Bye: " (self.division.name(bye)) } }
            @if let Some(asked) = self.requested_byes() { p { "Requested byes: " (asked) } }
            @if self.games() > 1 { p { "Colours change every game: Red in game 1 is White in game 2." } }
        }
    }

    /// The players who asked to sit the round out, with what it scores them: "Eve (1 point),
    /// Dee (0 points)"; none if nobody asked.
    fn requested_byes(&self) -> Option<String> {
        let asked: Vec<String> = self
            .division
            .entrants
            .iter()
            .filter_map(|e| {
                let points = self
                    .division
                    .requested_bye_points(e.player, self.r.number)?;
                Some(format!("{} ({})", e.info.name, points_text(points)))
            })
            .collect();
        (!asked.is_empty()).then(|| asked.join(", "))
    }

    /// Slips two to a page: each pair of boards a page of its own.
    fn slips(&self) -> Markup {
        html! {
            @for pair in self.r.boards.chunks(2) {
                div.page { @for b in pair { (self.slip(b)) } }
            }
            @if self.r.boards.is_empty() { p { "No board in this round." } }
        }
    }

    fn slip(&self, b: &Board) -> Markup {
        let (first, second) = (self.division.name(b.first), self.division.name(b.second));
        html! {
            div.slip {
                h2 { "Result slip" }
                (self.head(Some(b.number)))
                p { "Red in game 1: " strong { (first) } " \u{b7} White in game 1: " strong { (second) } }
                p { "Ballot: " (self.ballot_cell(b)) }
                @if let Some(code) = self.codes.boards.get(&b.number) {
                    p { "Board's code: " strong.code { (code) } " " (self.join_note(code)) }
                }
                table.games {
                    thead { tr {
                        th { "Game" } th.n { "Red" } th.n { "White" }
                        th { "Red won" } th { "Drawn" } th { "White won" }
                    } }
                    tbody {
                        @for g in 0..self.games() {
                            @let (red, white) = self.colours(b, g);
                            tr {
                                td { (g + 1) } td.n { (red) } td.n { (white) }
                                td { span.box {} } td { span.box {} } td { span.box {} }
                            }
                        }
                    }
                }
                p.points {
                    "Points of the round: " (first) " " span.blank {} " \u{b7} " (second) " "
                    span.blank {}
                }
                (signatures(first, second))
                @if let Some(codes) = self.codes.floor.get(&b.number) {
                    div.strips {
                        (self.strip(first, &codes[0]))
                        (self.strip(second, &codes[1]))
                    }
                }
            }
        }
    }

    /// A player's strip of the slip, cut off and handed to them: their own code for the
    /// result form, and its QR code.
    fn strip(&self, name: &str, code: &str) -> Markup {
        let url = self.codes.result_url.as_deref();
        let link = url.map(|u| format!("{u}?code={code}"));
        html! {
            div.strip {
                @if let Some(qr) = link.as_deref().and_then(qr_svg) { span.qr { (qr) } }
                span {
                    "For " strong { (name) } " only: enter or confirm the result from your phone with "
                    strong.code { (code) }
                    @if let Some(u) = url { " at " span.code { (u) } }
                }
            }
        }
    }

    /// How a board's laptop joins with `code`: at serve's address where the sheets know it.
    fn join_note(&self, code: &str) -> Markup {
        let desk = (self.codes.result_url.as_deref())
            .and_then(|u| u.strip_suffix("/result"))
            .unwrap_or("http://DESK:8080");
        html! {
            span.note {
                "A board's laptop joins with its code: "
                code { "crossboard --desk " (desk) " --board-code " (code) }
            }
        }
    }

    /// Where the players enter results from their phones: the form's address and its QR
    /// code (each player's own code is on their strip of the result slip, not on this sheet,
    /// which is posted: a code on the wall would let anyone confirm a board).
    fn floor_note(&self) -> Markup {
        let url = self.codes.result_url.as_deref();
        html! {
            div.floor {
                @if let Some(qr) = url.and_then(qr_svg) { span.qr { (qr) } }
                p.note {
                    "Results from the floor: each player enters the board's result with their "
                    "own code, from their strip of the result slip"
                    @if let Some(u) = url { ", at " span.code { (u) } } @else { ", at the desk's /result" }
                    "; it is recorded when the opponent confirms it with theirs."
                }
            }
        }
    }

    /// A score sheet per board and ballot.
    fn scoresheets(&self) -> Markup {
        html! {
            @for b in &self.r.boards {
                @for first_game in (0..self.games()).step_by(2) {
                    (self.scoresheet(b, first_game))
                }
            }
            @if self.r.boards.is_empty() { p { "No board in this round." } }
        }
    }

    /// The score sheet of the ballot that starts with game `first_game` (0-based) of board `b`:
    /// a moves table for each of its games, side by side.
    fn scoresheet(&self, b: &Board, first_game: u32) -> Markup {
        let ballot = ballot_for(self.division, self.r.number, b.number, first_game);
        let games = first_game..(first_game + 2).min(self.games());
        html! {
            div.sheet {
                h2 { "Score sheet" }
                (self.head(Some(b.number)))
                p { "Ballot: " (ballot.map_or("not drawn yet".into(), |d| ballot_text(&d.opening))) }
                @if let Some(d) = ballot.filter(|d| !d.opening.set_moves.is_empty()) {
                    p { "Set moves, played before the game: " (d.opening.moves_text()) }
                }
                div.pair { @for g in games { div { (self.game_table(b, g)) } } }
                (signatures(self.division.name(b.first), self.division.name(b.second)))
            }
        }
    }

    /// Game `g`'s blank moves table, headed with its players and their colours.
    fn game_table(&self, b: &Board, g: u32) -> Markup {
        let (red, white) = self.colours(b, g);
        moves_table(
            &format!("Game {}: {red} (Red) - {white} (White)", g + 1),
            &[],
        )
    }
}

/// A game's moves table under `heading`: move numbers with Red's and White's columns, in two
/// runs side by side, `rows` (Red's move, White's) written in; a game longer than the blank
/// table gets longer runs, never a row left out. Then the boxes of the result.
pub(super) fn moves_table(heading: &str, rows: &[(String, String)]) -> Markup {
    let run = MOVE_ROWS.max(u32::try_from(rows.len().div_ceil(2)).unwrap_or(u32::MAX));
    let row = |k: u32| rows.get(k as usize - 1).cloned().unwrap_or_default();
    html! {
        h3 { (heading) }
        table.moves {
            thead { tr {
                th.no { "No." } th { "Red" } th { "White" }
                th.no { "No." } th { "Red" } th { "White" }
            } }
            tbody {
                @for k in 1..=run {
                    @let ((a, b), (c, d)) = (row(k), row(k + run));
                    tr {
                        td.no { (k) } td { (a) } td { (b) }
                        td.no { (k + run) } td { (c) } td { (d) }
                    }
                }
            }
        }
        p { span.box {} " Red won  " span.box {} " Drawn  " span.box {} " White won" }
    }
}

/// Lines for both players' signatures, each named.
pub(super) fn signatures(first: &str, second: &str) -> Markup {
    html! {
        div.signs {
            div { "Signature: " (first) }
            div { "Signature: " (second) }
        }
    }
}

impl Published<'_> {
    /// The crosstable as a self-contained HTML page (inline style, no scripts, no external
    /// files), for no paper in particular.
    pub fn html(&self) -> String {
        self.html_on(None)
    }

    /// The crosstable page, printed on `paper` when given: its heading row repeated on every
    /// page, no row cut.
    pub fn html_on(&self, paper: Option<Paper>) -> String {
        let info = &self.event.info;
        let facts: Vec<String> = [
            ("Site", info.site.clone()),
            (
                "Dates",
                super::export::dates(&info.start_date, &info.end_date),
            ),
            ("Director", info.director.clone()),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
        let body = html! {
            h1 { (info.name) }
            @if !facts.is_empty() { p { (facts.join(" \u{b7} ")) } }
            h2 { (self.heading()) }
            (crosstable_table(&self.division.name, &self.header(), &self.rows()))
            @for l in self.legend().lines().filter(|l| !l.is_empty()) { p { (l) } }
            @if self.as_they_stand() { (prizes_html(self.division)) }
        };
        page(&self.title(), paper, body)
    }
}

/// The crosstable as an HTML table (a division's [`Published::header`] and
/// [`Published::rows`]), for the printed page and the served one alike: the heading row in
/// `thead` so print repeats it, the name and club cells marked `n`.
pub fn crosstable_table(caption: &str, header: &[String], rows: &[Vec<String>]) -> Markup {
    let named = |k: usize| k == 1 || k == 2;
    html! {
        table.crosstable {
            caption { (caption) }
            thead { tr { @for (k, h) in header.iter().enumerate() {
                th class=[named(k).then_some("n")] { (h) }
            } } }
            tbody { @for r in rows { tr { @for (k, c) in r.iter().enumerate() {
                td class=[named(k).then_some("n")] { (c) }
            } } } }
        }
    }
}
