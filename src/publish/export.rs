//! Publishing an event: standings and the crosstable as plain text and CSV (its HTML page is
//! in `sheets`); the pairings as FIDE TRF; the PDN of a round's or the event's games.

use crate::director::{Player, Points};
use crate::event::{Board, BoardGameResult, BoardResult, Division, Round, Tournament};
use crate::event::{RoundKind, RoundRecord, records};
use crate::event::{Standing, Table, standings};
use crate::store::{PdnGame, read_pdn, write_pdn};

/// The published standings and crosstable of a division: after the last round whose results
/// are all in (no later than a round asked for), a round in play shown beside the tie-breaks.
pub struct Published<'a> {
    /// The event.
    pub event: &'a Tournament,
    /// The division.
    pub division: &'a Division,
    /// Per-entrant rounds and scores.
    pub table: Table,
    /// The standings in order.
    pub list: Vec<Standing>,
    /// Halves written in ASCII (`2.5`, `0.5`) instead of `½`: see [`ascii_halves`].
    pub ascii: bool,
    /// The round the standings are after: the last whose results are all in (0: none).
    pub after: u32,
    /// Each entrant's rounds in play (paired after `after`, up to the round asked for): their
    /// results so far, shown beside the tie-breaks and counted in neither.
    pub in_play: Vec<Vec<RoundRecord>>,
}

impl<'a> Published<'a> {
    /// Standings of `division` after round `upto` (`u32::MAX`: as they stand), or after the
    /// last round before it whose results are all in: a round still in play counts in no
    /// score or tie-break (its pairings would count as opponents met).
    pub fn new(event: &'a Tournament, division: &'a Division, upto: u32) -> Published<'a> {
        let last = upto.min(division.paired_rounds());
        let after = division.finished_rounds().min(last);
        let (table, list) = standings(division, after);
        let in_play = if last > after {
            records(division, last)
                .into_iter()
                .map(|rs| rs.into_iter().filter(|r| r.round > after).collect())
                .collect()
        } else {
            Vec::new()
        };
        Published {
            event,
            division,
            table,
            list,
            ascii: false,
            after,
            in_play,
        }
    }

    /// The rounds in play shown beside the tie-breaks (none: empty).
    fn rounds_in_play(&self) -> std::ops::RangeInclusive<u32> {
        let last = self.in_play.iter().map(Vec::len).max().unwrap_or(0);
        self.after + 1..=self.after + u32::try_from(last).unwrap_or(0)
    }

    /// True when the standings shown are the division's as they stand: after its last round
    /// finished, with every round paired since in play beside (not a crosstable of an earlier
    /// round).
    pub fn as_they_stand(&self) -> bool {
        let shown = self.rounds_in_play().last().unwrap_or(self.after);
        self.after == self.division.finished_rounds() && shown >= self.division.paired_rounds()
    }

    /// What the standings are of: "Standings after round 2 of 5; round 3 in play",
    /// "Final standings after round 5 of 5", "Standings before round 1".
    pub fn heading(&self) -> String {
        let planned = self.division.planned_rounds().max(self.after);
        let mut h = if self.after == 0 {
            "Standings before round 1".to_string()
        } else if self.after == planned && self.in_play.is_empty() {
            format!("Final standings after round {} of {planned}", self.after)
        } else {
            format!("Standings after round {} of {planned}", self.after)
        };
        let playing: Vec<String> = self.rounds_in_play().map(|r| r.to_string()).collect();
        if !playing.is_empty() {
            h += &format!("; round {} in play", playing.join(", "));
        }
        h
    }

    /// The same, its points written in ASCII when `ascii` (the desk's `--ascii` mode).
    pub fn in_ascii(self, ascii: bool) -> Published<'a> {
        Published { ascii, ..self }
    }

    /// `text` as published: its halves in ASCII when asked.
    fn shown(&self, text: String) -> String {
        if self.ascii {
            ascii_halves(&text)
        } else {
            text
        }
    }

    /// Points as published (`2½`, or `2.5` in ASCII).
    pub fn points(&self, p: Points) -> String {
        self.shown(points(p))
    }

    /// A tie-break value as published.
    pub fn value(&self, t: crate::event::TieBreak, v: Option<crate::event::TieValue>) -> String {
        v.map_or("-".into(), |v| self.shown(self.table.text(t, v)))
    }

    /// Place of each entrant (1-based), by entrant position.
    fn places(&self) -> Vec<usize> {
        let mut at = vec![0; self.division.entrants.len()];
        for (k, s) in self.list.iter().enumerate() {
            at[s.entrant] = k + 1;
        }
        at
    }

    /// "3" or "3-5" for a shared place.
    pub fn place_text(s: &Standing) -> String {
        if s.place_to > s.place {
            format!("{}-{}", s.place, s.place_to)
        } else {
            s.place.to_string()
        }
    }

    /// The crosstable cell of a round: opponent's line number, colour of game 1 and points
    /// ("5R2": line 5, Red first, 2 points); "bye", "+F"/"-F" forfeits, "abs", "wd".
    pub fn cell(&self, r: &RoundRecord, lines: &[usize]) -> String {
        let pts = self.points(r.points);
        match r.kind {
            RoundKind::Bye => format!("bye {pts}"),
            RoundKind::ForfeitWin => format!("{}+F {pts}", r.opponent.map_or(0, |o| lines[o])),
            RoundKind::ForfeitLoss => format!("{}-F {pts}", r.opponent.map_or(0, |o| lines[o])),
            RoundKind::Absent => format!("abs {pts}"),
            RoundKind::RequestedBye => format!("rbye {pts}"),
            RoundKind::Withdrawn => "wd".into(),
            RoundKind::Played | RoundKind::Pending => {
                let side = if r.side == Some(Player::First) {
                    "R"
                } else {
                    "W"
                };
                let o = r.opponent.map_or(0, |o| lines[o]);
                if r.kind == RoundKind::Pending {
                    format!("{o}{side} ..")
                } else {
                    format!("{o}{side} {pts}")
                }
            }
        }
    }

    /// The cells of entrant `i`'s rounds in play, `lines` their opponents' line numbers.
    fn in_play_cells(&self, i: usize, lines: &[usize]) -> Vec<String> {
        self.in_play
            .get(i)
            .map(|rs| rs.iter().map(|r| self.cell(r, lines)).collect())
            .unwrap_or_default()
    }

    /// Entrant `i`'s rounds in play as the crosstable shows them, each headed ("R3* 2W ..").
    pub fn in_play_text(&self, i: usize) -> String {
        let cells = self.in_play_cells(i, &self.places());
        self.rounds_in_play()
            .zip(cells)
            .map(|(r, c)| format!("R{r}* {c}"))
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// The crosstable's column headings.
    pub fn header(&self) -> Vec<String> {
        let mut h = vec![
            "#".to_string(),
            "Name".into(),
            "Club".into(),
            "Rating".into(),
        ];
        h.extend((1..=self.after).map(|r| format!("R{r}")));
        h.push("Pts".into());
        h.extend(self.division.settings.tiebreaks.iter().map(|t| t.short()));
        h.extend(self.rounds_in_play().map(|r| format!("R{r}*")));
        h
    }

    /// Rows of the crosstable in standings order, every cell as text.
    pub fn rows(&self) -> Vec<Vec<String>> {
        let lines = self.places();
        self.list
            .iter()
            .map(|s| {
                let e = &self.division.entrants[s.entrant];
                let mut row = vec![
                    Self::place_text(s),
                    e.info.name.clone(),
                    e.info.club.clone(),
                    e.info.rating.map_or(String::new(), |r| r.to_string()),
                ];
                row.extend(
                    self.table.records[s.entrant]
                        .iter()
                        .map(|r| self.cell(r, &lines)),
                );
                row.push(self.points(s.score));
                for (t, v) in self.division.settings.tiebreaks.iter().zip(&s.values) {
                    row.push(self.value(*t, *v));
                }
                row.extend(self.in_play_cells(s.entrant, &lines));
                row
            })
            .collect()
    }

    /// The crosstable as aligned plain text.
    pub fn text(&self) -> String {
        let header = self.header();
        let rows = self.rows();
        let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        for r in &rows {
            for (k, c) in r.iter().enumerate() {
                widths[k] = widths[k].max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (k, c) in cells.iter().enumerate() {
                let pad = widths[k].saturating_sub(c.chars().count());
                if k == 1 || k == 2 {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                }
                s.push_str("  ");
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = format!("{}\n{}\n\n", self.title(), self.heading());
        out += &line(&header);
        for r in &rows {
            out += &line(r);
        }
        out += &self.legend();
        out
    }

    pub(super) fn title(&self) -> String {
        let info = &self.event.info;
        let mut t = format!("{} - {}", info.name, self.division.name);
        let place: Vec<&str> = [info.site.as_str(), info.start_date.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        if !place.is_empty() {
            t += &format!(" ({})", place.join(", "));
        }
        t
    }

    pub(super) fn legend(&self) -> String {
        let tbs: Vec<String> = self
            .division
            .settings
            .tiebreaks
            .iter()
            .map(|t| format!("{} = {}", t.short(), t.title()))
            .collect();
        let mut s = "\nCells: opponent's line, R/W = Red/White in game 1, points; +F/-F forfeit, rbye requested bye, abs absent, wd withdrawn.\n".to_string();
        if !tbs.is_empty() {
            s += &format!("Tie-breaks in order: {}.\n", tbs.join("; "));
        }
        for r in self.rounds_in_play() {
            s += &format!(
                "R{r}*: round {r} in play, its results so far (.. still playing); counted in \
                 points and tie-breaks once every board of it is in.\n"
            );
        }
        if self.division.paired_rounds() == 0 {
            s += if self.division.entrants.is_empty() {
                "No round has been paired yet, and no player is entered.\n"
            } else {
                "No round has been paired yet: the players entered are listed, without results.\n"
            };
        }
        s
    }

    /// The crosstable as CSV (RFC 4180, by the csv crate). Names and clubs are the players'
    /// own text: one that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return) is prefixed with `'`, as OWASP advises; the cells
    /// crossboard writes itself (places, results such as `-` or `+F`, points) are left as
    /// they are.
    pub fn csv(&self) -> String {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .flexible(true)
            .from_writer(Vec::new());
        let header = self.header();
        let rows = self.rows().into_iter().map(|mut r| {
            for c in r.iter_mut().skip(1).take(2) {
                *c = spreadsheet_safe(c);
            }
            r
        });
        for r in std::iter::once(header).chain(rows) {
            // Writing into memory cannot fail.
            let _ = w.write_record(&r);
        }
        let _ = w.flush();
        String::from_utf8_lossy(w.get_ref()).into_owned()
    }
}

/// The days of an event: one day, or "first to last".
pub(super) fn dates(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty() || a == b) {
        (true, _) => b.to_string(),
        (false, true) => a.to_string(),
        (false, false) => format!("{a} to {b}"),
    }
}

/// Text a spreadsheet would take for a formula, made plain with a leading `'`.
pub(super) fn spreadsheet_safe(c: &str) -> String {
    if c.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{c}")
    } else {
        c.to_string()
    }
}

/// The division's pairings and results as a FIDE TRF(x) file (report 16 layout), as pairing
/// engines such as JaVaFo and bbpPairings read it: a 001 line per player with the pairing
/// number, name, rating, points, rank and one 10-column block per round (opponent, colour of
/// game 1 `w`/`b` with Red as White, result `1 = 0`, `+ -` forfeits, `U` pairing bye, `H`/`F`/`Z`
/// half-, full- and zero-point absences and requested byes, `Z` after a withdrawal), then `XXR`
/// (rounds), `XXC white1` (the top seed had Red on board 1 of round 1) and for an accelerated
/// division `XXA` lines (see [`acceleration_lines`]). A player who will
/// not be paired in the next round (absent, withdrawn, a requested bye) gets that round's block
/// `0000 - Z` (`H` or `F` for a requested bye that scores), so a pairing engine leaves them out. Points are on the 1/½/0-per-round scale: each round's result is
/// read from the round's points (more than half the round: `1`, half: `=`).
pub fn trf(event: &Tournament, division: &Division) -> String {
    let pub_ = Published::new(event, division, u32::MAX);
    // Every round paired, the one in play too (its blocks without a result); ranks as the
    // standings have them.
    let all = records(division, u32::MAX);
    let order = crate::event::pairing_order(division);
    let mut tpn = vec![0usize; division.entrants.len()];
    for (k, &i) in order.iter().enumerate() {
        tpn[i] = k + 1;
    }
    let mut rank = vec![0usize; division.entrants.len()];
    for s in &pub_.list {
        rank[s.entrant] = s.place;
    }
    let max = division.settings.round_max().0.max(1);
    let mut out = format!("012 {}\n", event.info.name);
    if !event.info.site.is_empty() {
        out += &format!("022 {}\n", event.info.site);
    }
    if !event.info.start_date.is_empty() {
        out += &format!("042 {}\n", event.info.start_date.replace('-', "/"));
    }
    if !event.info.end_date.is_empty() {
        out += &format!("052 {}\n", event.info.end_date.replace('-', "/"));
    }
    out += &format!("062 {}\n", division.entrants.len());
    if !event.info.director.is_empty() {
        out += &format!("102 {}\n", event.info.director);
    }
    out += &format!("XXR {}\n", division.planned_rounds());
    out += "XXC white1\n";
    let next = division.paired_rounds() + 1;
    let pair_next = next <= division.planned_rounds() && division.rounds_complete();
    for &i in &order {
        let e = &division.entrants[i];
        let recs = &all[i];
        let fide_points: u32 = recs.iter().map(|r| round_fide(r, max).1).sum();
        // Fixed columns of TRF16 (1-based): 1 "001", 5-8 rank number, 15-47 name, 49-52
        // rating, 81-84 points, 86-89 rank, then 10 columns per round from 92.
        let absent_next = pair_next && !e.available(next);
        let blocks = recs.len() + usize::from(absent_next);
        let mut cols: Vec<char> = vec![' '; 91 + 10 * blocks];
        let mut put = |at: usize, text: &str, width: usize, right: bool| {
            let t: Vec<char> = text.chars().take(width).collect();
            let start = if right { at + width - t.len() } else { at };
            for (k, c) in t.into_iter().enumerate() {
                cols[start - 1 + k] = if c.is_ascii() { c } else { '?' };
            }
        };
        put(1, "001", 3, false);
        put(5, &tpn[i].to_string(), 4, true);
        put(15, &e.info.name, 33, false);
        put(49, &e.info.rating.unwrap_or(0).to_string(), 4, true);
        put(
            81,
            &format!(
                "{}.{}",
                fide_points / 2,
                if fide_points % 2 == 1 { 5 } else { 0 }
            ),
            4,
            true,
        );
        put(86, &rank[i].to_string(), 4, true);
        for (k, r) in recs.iter().enumerate() {
            let (code, _) = round_fide(r, max);
            let at = 92 + 10 * k;
            let opp = r
                .opponent
                .map_or("0000".to_string(), |o| tpn[o].to_string());
            put(at, &opp, 4, true);
            let colour = match r.side {
                Some(Player::First) => "w",
                Some(Player::Second) => "b",
                None => "-",
            };
            put(at + 5, colour, 1, false);
            put(at + 7, &code.to_string(), 1, false);
        }
        if absent_next {
            // A bye asked for the next round is already known: its points as a round's.
            let code = division
                .requested_bye_points(e.player, next)
                .map_or('Z', |p| sitting_out(p, max).0);
            let at = 92 + 10 * recs.len();
            put(at, "0000", 4, true);
            put(at + 5, "-", 1, false);
            put(at + 7, &code.to_string(), 1, false);
        }
        let line: String = cols.into_iter().collect();
        out += line.trim_end();
        out += "\n";
    }
    out += &acceleration_lines(division, &tpn, max);
    out
}

/// The `XXA` lines of an accelerated division (TRF(x), as JaVaFo and bbpPairings read them):
/// for each player given virtual points, their pairing number (columns 5-8) and from column 10
/// the virtual points of each round from the first, four columns each on the 1/½/0 scale, one
/// space between. A pairing engine given these pairs the rounds as crossboard does, whatever
/// its own rule for the size of the accelerated group.
fn acceleration_lines(division: &Division, tpn: &[usize], max: u32) -> String {
    let rounds: Vec<Vec<Points>> = (1..=division.planned_rounds())
        .map(|round| crate::event::virtual_points(division, round))
        .take_while(|points| points.iter().any(|&p| p > Points::ZERO))
        .collect();
    let mut players: Vec<usize> = (0..division.entrants.len())
        .filter(|&i| rounds.iter().any(|r| r[i] > Points::ZERO))
        .collect();
    players.sort_by_key(|&i| tpn[i]);
    let mut out = String::new();
    for i in players {
        out += &format!("XXA {:>4}", tpn[i]);
        for r in &rounds {
            let halves = u64::from(r[i].0) * 2 / u64::from(max);
            out += &format!(" {:>2}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 });
        }
        out += "\n";
    }
    out
}

/// A round's TRF result code and its points on the 1/½/0 scale (half points).
fn round_fide(r: &RoundRecord, max: u32) -> (char, u32) {
    let p = r.points.0;
    match r.kind {
        RoundKind::Bye => ('U', 2),
        RoundKind::ForfeitWin => ('+', 2),
        // Every game forfeited: no game played, as FIDE writes a forfeit (a round split by
        // forfeits, one game each way, has no FIDE code: the points decide, a half a loss).
        RoundKind::Played if r.all_forfeited() => {
            if 2 * p > max {
                ('+', 2)
            } else {
                ('-', 0)
            }
        }
        RoundKind::ForfeitLoss => ('-', 0),
        RoundKind::Absent | RoundKind::RequestedBye => sitting_out(r.points, max),
        RoundKind::Withdrawn => ('Z', 0),
        RoundKind::Pending => (' ', 0),
        RoundKind::Played => {
            if 2 * p > max {
                ('1', 2)
            } else if 2 * p == max {
                ('=', 1)
            } else {
                ('0', 0)
            }
        }
    }
}

/// A round sat out by arrangement (an absence, a requested bye): `F`, `H` or `Z` by its points.
fn sitting_out(points: Points, max: u32) -> (char, u32) {
    match (2 * points.0).cmp(&max) {
        std::cmp::Ordering::Greater => ('F', 2),
        std::cmp::Ordering::Equal => ('H', 1),
        std::cmp::Ordering::Less => ('Z', 0),
    }
}

/// The PDN of a division's games, and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventPdn {
    /// The PDN text (empty: no game).
    pub text: String,
    /// The games written.
    pub games: usize,
    /// Games not played, left out: won by forfeit (`1f`, lateness) or of a forfeited round.
    pub forfeited: usize,
}

/// The PDN of the division's games, of one round or of all (`None`): a board played on
/// crossboard (its match file linked: `event match`, the desk's `P`, a board reporting to
/// `crossboard serve`) as its match's games, with their moves, clocks and the director's
/// decisions ([`crate::store::linked_games`]), else the PDN attached to the board, each with
/// its `Round` tag set to `round.board.game`, `Event` and names filled in; boards with a
/// result but no PDN are written as games without moves, their result from the board.
/// A game not played (won by forfeit before a move, or of a forfeited round) is left out and
/// counted: PDN has no result for "not played", and a game with a result would count as
/// played in any game database; the crosstable shows the forfeit (`+F`/`-F`). A game
/// forfeited in play is written, its moves and the director's reason with it.
pub fn pdn(event: &Tournament, division: &Division, round: Option<u32>) -> EventPdn {
    pdn_with(event, division, round, None, &crate::store::linked_games)
}

/// The same, the games of a board whose match is read live from `live` (a match played on
/// crossboard, read from its file: its games so far, `*` while one runs) in place of the PDN
/// attached to the board; of every board or of board `board` alone.
pub fn pdn_with(
    event: &Tournament,
    division: &Division,
    round: Option<u32>,
    board: Option<u32>,
    live: &dyn Fn(&Board) -> Option<Vec<PdnGame>>,
) -> EventPdn {
    let mut games = Vec::new();
    let mut forfeited = 0;
    for r in division
        .rounds
        .iter()
        .filter(|r| round.is_none_or(|x| x == r.number))
    {
        for b in r
            .boards
            .iter()
            .filter(|b| board.is_none_or(|n| n == b.number))
        {
            let (played, left_out) = board_games(event, division, r, b, live);
            games.extend(played);
            forfeited += left_out;
        }
    }
    EventPdn {
        text: write_pdn(&games),
        games: games.len(),
        forfeited,
    }
}

/// The PDN of one board's games, as [`pdn_with`] writes them (the text of a round is its
/// boards' texts that are not empty, joined by a line break).
pub fn board_pdn(
    event: &Tournament,
    division: &Division,
    round: &Round,
    board: &Board,
    live: &dyn Fn(&Board) -> Option<Vec<PdnGame>>,
) -> String {
    write_pdn(&board_games(event, division, round, board, live).0)
}

/// A board's games as written, and how many were left out as not played.
fn board_games(
    event: &Tournament,
    division: &Division,
    r: &Round,
    b: &Board,
    live: &dyn Fn(&Board) -> Option<Vec<PdnGame>>,
) -> (Vec<PdnGame>, usize) {
    let attached: Vec<PdnGame> = live(b).unwrap_or_else(|| {
        let mut games: Vec<PdnGame> = b
            .pdn
            .as_deref()
            .map(|t| read_pdn(t).into_iter().filter_map(Result::ok).collect())
            .unwrap_or_default();
        // Attached although not the board's games: the export says so, and why.
        if let Some(why) = &b.pdn_overridden {
            for g in &mut games {
                g.comments
                    .insert(0, (0, format!("Attached by the director although {why}")));
            }
        }
        games
    });
    let results: Vec<BoardGameResult> = match &b.result {
        Some(BoardResult::Games { games }) => games.clone(),
        Some(BoardResult::Forfeit { .. }) => {
            return (Vec::new(), division.settings.games_per_round as usize);
        }
        None => Vec::new(),
    };
    let mut games = Vec::new();
    let mut forfeited = 0;
    let count = attached.len().max(results.len());
    for g in 0..count {
        // A game forfeited before a move was played is no game; one forfeited in play (a
        // player left the hall) is written with its moves and the director's reason.
        let moved = attached.get(g).is_some_and(|a| !a.moves.is_empty());
        if matches!(results.get(g), Some(BoardGameResult::Forfeit { .. })) && !moved {
            forfeited += 1;
            continue;
        }
        let mut game = attached.get(g).cloned().unwrap_or_else(|| {
            let start = crate::event::ballot_for(division, r.number, b.number, g as u32)
                .map_or_else(crate::engine::Position::start, |d| d.opening.position);
            PdnGame::new(start)
        });
        tag_game(&mut game, event, division, (r, b, g));
        if let Some(o) = results.get(g) {
            set_result(&mut game, o, g);
        }
        games.push(game);
    }
    (games, forfeited)
}

/// The tags of game `g` of board `b` of round `r`: event, site, round, date and names.
fn tag_game(
    game: &mut PdnGame,
    event: &Tournament,
    division: &Division,
    at: (&Round, &Board, usize),
) {
    let (r, b, g) = at;
    let (red, white) = if g % 2 == 0 {
        (b.first, b.second)
    } else {
        (b.second, b.first)
    };
    game.set_tag("Event", format!("{} - {}", event.info.name, division.name));
    if !event.info.site.is_empty() {
        game.set_tag("Site", event.info.site.clone());
    }
    game.set_tag("Round", format!("{}.{}.{}", r.number, b.number, g + 1));
    // The event's first day stands in for a game's own date (PDN writes YYYY.MM.DD).
    let dated = game.tag("Date").is_some_and(|d| !d.contains('?'));
    if !dated && !event.info.start_date.is_empty() {
        game.set_tag("Date", event.info.start_date.replace('-', "."));
    }
    game.set_tag("Black", division.name(red));
    game.set_tag("White", division.name(white));
}

/// Game `g`'s result as the board has it.
fn set_result(game: &mut PdnGame, o: &BoardGameResult, g: usize) {
    let red_side = if g.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    let text = match o {
        BoardGameResult::Draw => "1/2-1/2",
        BoardGameResult::Win { winner } | BoardGameResult::Forfeit { winner }
            if *winner == red_side =>
        {
            "1-0"
        }
        _ => "0-1",
    };
    game.set_tag("Result", text);
    if let Some(res) = crate::store::PdnResult::parse(text) {
        game.result = res;
    }
}

/// Points as text (one home: the director's `Points` display).
pub(super) fn points(p: Points) -> String {
    p.to_string()
}

/// `text` with every `½` in ASCII: `.5` after a digit (`2½` -> `2.5`), `0.5` alone (`½` ->
/// `0.5`). The one ASCII form of a half point: unambiguous beside `+F`/`-F` (forfeits) and `=`
/// (a drawn game), which a one-character stand-in for `½` would not be.
pub fn ascii_halves(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let mut after_digit = false;
    for c in text.chars() {
        if c == '½' {
            out.push_str(if after_digit { ".5" } else { "0.5" });
        } else {
            out.push(c);
        }
        after_digit = c.is_ascii_digit();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_in_ascii_are_decimals() {
        assert_eq!(ascii_halves("2½"), "2.5");
        assert_eq!(ascii_halves("½"), "0.5");
        assert_eq!(ascii_halves("5R ½  3+F 2½"), "5R 0.5  3+F 2.5");
        assert_eq!(ascii_halves("12"), "12");
        assert_eq!(ascii_halves(&points(Points(5))), "2.5");
    }
}
