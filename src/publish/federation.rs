//! A division's record for a federation to rate: the American Checker Federation's tournament
//! report and the World Checkers/Draughts Federation's rating submission, as a text report
//! and as one CSV row per game; and the check that names what such a record lacks before it
//! is written.
//!
//! Neither body publishes a file layout. The ACF asks for the players' full names, their
//! state or country of residence, the final standings, the prize distribution and the format,
//! and for round-by-round results for its ratings; the WCDF's processor asks for round-by-round
//! results and full names. The text report carries all of it in that order (the prize
//! distribution when the director has set prizes); the CSV gives the
//! same games one to a row for a processor's spreadsheet. Where each field comes from is in
//! docs/tournament-desk.md.

use crate::director::Player;
use crate::event::{
    Board, BoardGameResult, BoardResult, Division, Format, Money, RoundKind, RoundRecord,
    ScoreUnit, Tournament, ballot_for, pairing_order, prize_awards, records, standings,
};
use std::fmt::Write as _;

/// The body a record is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Federation {
    /// The American Checker Federation.
    Acf,
    /// The World Checkers/Draughts Federation.
    Wcdf,
}

impl Federation {
    /// Its short name, also the label of its ids in a player's federation ids (`ACF 1234`).
    pub fn label(self) -> &'static str {
        match self {
            Federation::Acf => "ACF",
            Federation::Wcdf => "WCDF",
        }
    }

    /// What the body calls a player's region.
    fn region(self) -> &'static str {
        match self {
            Federation::Acf => "state or country",
            Federation::Wcdf => "country",
        }
    }
}

/// The id labelled `label` in a player's federation ids (`"ACF 1234, FMJD 5678"`: for `ACF`,
/// `1234`), if any.
pub fn federation_id(ids: &str, label: &str) -> Option<String> {
    ids.split([',', ';']).find_map(|item| {
        let item = item.trim();
        let head = item.get(..label.len())?;
        if !head.eq_ignore_ascii_case(label) {
            return None;
        }
        let rest = &item[label.len()..];
        if rest.starts_with(char::is_alphabetic) {
            // Another label that starts alike (`ACFX 12` is no ACF id).
            return None;
        }
        let id = rest.trim_start_matches([' ', ':', '#', '-']).trim();
        (!id.is_empty()).then(|| id.to_string())
    })
}

/// A full name: a given name and a family name, neither an initial alone (`Ann Lee`, `John Q.
/// Public`; not `Ann`, `J. Smith` or `Smith, J`).
pub fn is_full_name(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    let whole = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count() >= 2;
    words.len() >= 2 && whole(words[0]) && words.last().is_some_and(|w| whole(w))
}

/// Everything the record of `division` lacks for `fed`, one line each: the event's name, the
/// director, the dates; each player without a full name, an id labelled for the body or a
/// region; every planned round not paired and every board without its whole result.
pub fn federation_gaps(event: &Tournament, division: &Division, fed: Federation) -> Vec<String> {
    let info = &event.info;
    let mut gaps = Vec::new();
    for (field, value) in [
        ("name", &info.name),
        ("director", &info.director),
        ("first day", &info.start_date),
    ] {
        if value.trim().is_empty() {
            gaps.push(format!("the event has no {field}"));
        }
    }
    for (field, value) in [
        ("first day", &info.start_date),
        ("last day", &info.end_date),
    ] {
        if !value.is_empty() && chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_err() {
            gaps.push(format!(
                "the event's {field} {value:?} is not a date (YYYY-MM-DD)"
            ));
        }
    }
    for (k, &i) in pairing_order(division).iter().enumerate() {
        let p = &division.entrants[i].info;
        let who = format!("player {} {:?}", k + 1, p.name);
        let mut lacks = Vec::new();
        if !is_full_name(&p.name) {
            lacks.push("a full name (given and family name)".to_string());
        }
        if federation_id(&p.federation_ids, fed.label()).is_none() {
            lacks.push(format!(
                "an id labelled {0} (--ids \"{0} 1234\")",
                fed.label()
            ));
        }
        if p.region.trim().is_empty() {
            lacks.push(format!("a {}", fed.region()));
        }
        if !lacks.is_empty() {
            gaps.push(format!("{who} lacks {}", lacks.join(", ")));
        }
    }
    gaps.extend(result_gaps(division));
    gaps
}

/// The rounds not paired and the boards without their whole result.
fn result_gaps(division: &Division) -> Vec<String> {
    let mut gaps = Vec::new();
    let games = division.settings.games_per_round;
    for r in &division.rounds {
        for b in r.boards.iter().filter(|b| !b.is_complete(games)) {
            gaps.push(format!(
                "round {} board {} ({} v {}) has no result for every game",
                r.number,
                b.number,
                division.name(b.first),
                division.name(b.second)
            ));
        }
    }
    let (paired, planned) = (division.paired_rounds(), division.planned_rounds());
    if paired + 1 == planned {
        gaps.push(format!("round {planned} is not paired"));
    } else if paired < planned {
        gaps.push(format!("rounds {} to {planned} are not paired", paired + 1));
    }
    gaps
}

/// A game's result as the record writes it, the board's first player's score first:
/// `1-0`, `0-1`, `½-½`; a game won by forfeit `+:-` or `-:+` (not a game played).
fn game_text(g: BoardGameResult) -> &'static str {
    match g {
        BoardGameResult::Win {
            winner: Player::First,
        } => "1-0",
        BoardGameResult::Win {
            winner: Player::Second,
        } => "0-1",
        BoardGameResult::Draw => "½-½",
        BoardGameResult::Forfeit {
            winner: Player::First,
        } => "+:-",
        BoardGameResult::Forfeit {
            winner: Player::Second,
        } => "-:+",
    }
}

/// Each game of a board as the record writes it (a whole round forfeited: every game, `+:-`,
/// `-:+`, or `-:-` when neither came); none while no result is in.
fn board_games(board: &Board, games: u32) -> Vec<&'static str> {
    match &board.result {
        None => Vec::new(),
        Some(BoardResult::Games { games }) => games.iter().map(|&g| game_text(g)).collect(),
        Some(BoardResult::Forfeit { present }) => {
            let t = match present {
                Some(Player::First) => "+:-",
                Some(Player::Second) => "-:+",
                None => "-:-",
            };
            vec![t; games as usize]
        }
    }
}

/// The division's format in words: system, rounds, games, scoring, game, openings, clock.
fn format_text(division: &Division) -> String {
    let s = &division.settings;
    let system = match s.format {
        Format::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
        Format::RoundRobin { cycles: 1 } => {
            format!("round robin, {} rounds", division.planned_rounds())
        }
        Format::RoundRobin { .. } => {
            format!("double round robin, {} rounds", division.planned_rounds())
        }
    };
    let unit = match s.scoring.unit {
        ScoreUnit::Game => "scored by game",
        ScoreUnit::Ballot => "scored by ballot",
        ScoreUnit::Round => "scored by round",
    };
    format!(
        "{system}; {} games a round; {unit}, {}; {}; {}; {}",
        s.games_per_round,
        s.scoring.game.label(),
        s.game,
        s.openings.system.title(),
        s.time_control
    )
}

/// The record of one player: number, full name, id, region, rating.
struct Line<'a> {
    number: usize,
    name: &'a str,
    id: String,
    region: &'a str,
    rating: String,
}

/// The players' lines in entrant order, numbered by pairing order.
fn lines(division: &Division, fed: Federation) -> Vec<Line<'_>> {
    let mut number = vec![0; division.entrants.len()];
    for (k, &i) in pairing_order(division).iter().enumerate() {
        number[i] = k + 1;
    }
    division
        .entrants
        .iter()
        .zip(number)
        .map(|(e, number)| Line {
            number,
            name: &e.info.name,
            id: federation_id(&e.info.federation_ids, fed.label()).unwrap_or_default(),
            region: &e.info.region,
            rating: e
                .info
                .rating
                .map_or_else(|| "unrated".into(), |r| r.to_string()),
        })
        .collect()
}

/// The ballots a board plays, short (`11-Man Ballot 1306`), one per two games.
fn ballots(division: &Division, round: u32, board: u32) -> Vec<String> {
    (0..division.settings.games_per_round)
        .step_by(2)
        .filter_map(|g| ballot_for(division, round, board, g))
        .map(|d| format!("{} {}", d.opening.system.title(), d.opening.number))
        .collect()
}

/// The text report for `fed`: heading, final standings, then every round board by board with
/// its ballots and game results, byes and players not paired; `gaps` (what the record lacks,
/// when written anyway) at the top.
pub fn federation_report(
    event: &Tournament,
    division: &Division,
    fed: Federation,
    gaps: &[String],
) -> String {
    let info = &event.info;
    let mut out = format!("{} tournament report\n\n", fed.label());
    let dates = super::export::dates(&info.start_date, &info.end_date);
    for (field, value) in [
        ("Event", info.name.as_str()),
        ("Division", division.name.as_str()),
        ("Site", info.site.as_str()),
        ("Dates", dates.as_str()),
        ("Director", info.director.as_str()),
    ] {
        let _ = writeln!(out, "{field:<10}{value}");
    }
    let _ = writeln!(out, "{:<10}{}", "Format", format_text(division));
    let _ = writeln!(out, "{:<10}{}", "Players", division.entrants.len());
    if !gaps.is_empty() {
        out += "\nIncomplete (written at the director's request):\n";
        for g in gaps {
            let _ = writeln!(out, "  - {g}");
        }
    }
    let lines = lines(division, fed);
    out += &standings_text(division, &lines, fed);
    out += &prizes_text(division, &lines);
    let recs = records(division, u32::MAX);
    for r in &division.rounds {
        out += &round_text(division, r.number, &lines, &recs);
    }
    out
}

/// The final standings: place, number, name, id, region, rating, points.
fn standings_text(division: &Division, lines: &[Line<'_>], fed: Federation) -> String {
    let (_, list) = standings(division, u32::MAX);
    let mut out = format!(
        "\nFinal standings\n{:>5} {:>3}  {:<32} {:<10} {:<16} {:>7} {:>6}\n",
        "Place",
        "No",
        "Name",
        format!("{} id", fed.label()),
        "Region",
        "Rating",
        "Points"
    );
    for s in &list {
        let l = &lines[s.entrant];
        let place = if s.place_to > s.place {
            format!("{}-{}", s.place, s.place_to)
        } else {
            s.place.to_string()
        };
        let _ = writeln!(
            out,
            "{place:>5} {:>3}  {:<32} {:<10} {:<16} {:>7} {:>6}",
            l.number, l.name, l.id, l.region, l.rating, s.score
        );
    }
    out
}

/// The prize distribution, in standings order (nothing when no prize is set).
fn prizes_text(division: &Division, lines: &[Line<'_>]) -> String {
    let prizes = &division.prizes;
    if prizes.list.is_empty() {
        return String::new();
    }
    let names = prizes.names();
    let mut out = "\nPrize distribution\n".to_string();
    for w in prize_awards(division) {
        let l = &lines[w.entrant];
        let _ = writeln!(
            out,
            "  {} ({}): {}, {}",
            l.name,
            l.number,
            Money(w.amount),
            super::prizes::prize_won(&names, &w)
        );
    }
    out
}

/// One round: each board (first player, Red in game 1, then second; ballots; games; the
/// round's points), the bye, and who was not paired and why.
fn round_text(
    division: &Division,
    round: u32,
    lines: &[Line<'_>],
    recs: &[Vec<RoundRecord>],
) -> String {
    let mut out = format!("\nRound {round}\n");
    let Some(r) = division.round(round) else {
        return out;
    };
    let who = |id| division.position(id).map(|i| &lines[i]);
    let named =
        |l: Option<&Line<'_>>| l.map_or("?".into(), |l| format!("{} ({})", l.name, l.number));
    let points = |id| {
        let i = division.position(id)?;
        recs[i].iter().find(|x| x.round == round).map(|x| x.points)
    };
    for b in &r.boards {
        let score = match (points(b.first), points(b.second)) {
            (Some(a), Some(c)) if b.is_complete(division.settings.games_per_round) => {
                format!("{a}-{c}")
            }
            _ => "not finished".into(),
        };
        let _ = writeln!(
            out,
            "{:>3}  {} v {}\n     ballot {}; games {}; points {score}",
            b.number,
            named(who(b.first)),
            named(who(b.second)),
            ballots(division, round, b.number).join(", "),
            board_games(b, division.settings.games_per_round).join(" "),
        );
    }
    for (i, rounds) in recs.iter().enumerate() {
        let Some(x) = rounds.iter().find(|x| x.round == round) else {
            continue;
        };
        let why = match x.kind {
            RoundKind::Bye => "bye",
            RoundKind::Absent => "absent",
            RoundKind::RequestedBye => "requested bye",
            RoundKind::Withdrawn => "withdrawn",
            _ => continue,
        };
        let _ = writeln!(
            out,
            "     {why}: {}, {} points",
            named(Some(&lines[i])),
            x.points
        );
    }
    out
}

/// The games as CSV, one row per game (a whole round forfeited: one row per game, not played),
/// RFC 4180 by the csv crate; the players' own text made safe from spreadsheet formulas as in
/// the crosstable's CSV.
pub fn federation_csv(event: &Tournament, division: &Division, fed: Federation) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let label = fed.label();
    let header = [
        "event".to_string(),
        "division".into(),
        "round".into(),
        "board".into(),
        "game".into(),
        "ballot".into(),
        "red no".into(),
        "red name".into(),
        format!("red {label} id"),
        "red region".into(),
        "white no".into(),
        "white name".into(),
        format!("white {label} id"),
        "white region".into(),
        "result".into(),
        "over the board".into(),
    ];
    // Writing into memory cannot fail.
    let _ = w.write_record(&header);
    let lines = lines(division, fed);
    for r in &division.rounds {
        for b in &r.boards {
            for row in game_rows(event, division, r.number, b, &lines) {
                let _ = w.write_record(&row);
            }
        }
    }
    let _ = w.flush();
    String::from_utf8_lossy(w.get_ref()).into_owned()
}

/// A board's rows of [`federation_csv`].
fn game_rows(
    event: &Tournament,
    division: &Division,
    round: u32,
    b: &Board,
    lines: &[Line<'_>],
) -> Vec<Vec<String>> {
    let line = |id| division.position(id).map(|i| &lines[i]);
    let cells = |l: Option<&Line<'_>>| match l {
        Some(l) => vec![
            l.number.to_string(),
            super::export::spreadsheet_safe(l.name),
            super::export::spreadsheet_safe(&l.id),
            super::export::spreadsheet_safe(l.region),
        ],
        None => vec![String::new(); 4],
    };
    board_games(b, division.settings.games_per_round)
        .into_iter()
        .enumerate()
        .map(|(g, result)| {
            // The first player has Red in games 1, 3, ...
            let (red, white) = if g % 2 == 0 {
                (b.first, b.second)
            } else {
                (b.second, b.first)
            };
            let (result, played) = csv_result(if g % 2 == 0 { result } else { flip(result) });
            let ballot = ballot_for(division, round, b.number, g as u32)
                .map_or(String::new(), |d| {
                    format!("{} {}", d.opening.system.title(), d.opening.number)
                });
            let mut row = vec![
                super::export::spreadsheet_safe(&event.info.name),
                super::export::spreadsheet_safe(&division.name),
                round.to_string(),
                b.number.to_string(),
                (g + 1).to_string(),
                ballot,
            ];
            row.extend(cells(line(red)));
            row.extend(cells(line(white)));
            row.push(result.to_string());
            row.push(if played { "yes" } else { "no" }.into());
            row
        })
        .collect()
}

/// A result seen from the other side (`1-0` -> `0-1`, `+:-` -> `-:+`).
fn flip(result: &str) -> &str {
    match result {
        "1-0" => "0-1",
        "0-1" => "1-0",
        "+:-" => "-:+",
        "-:+" => "+:-",
        other => other,
    }
}

/// A result as the CSV writes it, Red's score first, and whether the game was played: a
/// forfeit is written as the score it gives (`1-0`, `0-1`, `0-0`) with "no" beside it, so that
/// no cell starts with `-` or `+` for a spreadsheet to take as a formula.
fn csv_result(result: &str) -> (&str, bool) {
    match result {
        "+:-" => ("1-0", false),
        "-:+" => ("0-1", false),
        "-:-" => ("0-0", false),
        played => (played, true),
    }
}
