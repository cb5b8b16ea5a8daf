//! The record a federation rates: the rating preview by the ACF's formula, checked against
//! small events worked out by hand (the arithmetic is written beside each figure), and the ACF
//! and WCDF exports: refused with every gap named, written anyway on request, and complete
//! when nothing is missing.

use crate::desk_cli::{crossboard, refused, run};
use crate::standings::{DRAW, FIRST, SECOND};
use crossboard::director::{GamePoints, Player};
use crossboard::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, Format, PlayerInfo, RatingChange,
    ScoreUnit, Tournament, by_hand, rating_preview,
};
use std::path::Path;

/// A Swiss of `rounds` rounds of `games` games scored by `unit`; players 1.. with `ratings`.
fn event(
    rounds: u32,
    games: u32,
    win: GamePoints,
    unit: ScoreUnit,
    ratings: &[Option<u32>],
) -> Tournament {
    let mut e = Tournament::new();
    e.apply(&Action::AddDivision {
        name: "Open".into(),
        settings: DivisionSettings::new(Format::Swiss { rounds }, games, win, unit),
    })
    .unwrap();
    for (k, &rating) in ratings.iter().enumerate() {
        let mut info = PlayerInfo::named(&format!("P{}", k + 1));
        info.rating = rating;
        e.apply(&Action::Enter {
            division: 0,
            player: k as u32 + 1,
            info,
        })
        .unwrap();
    }
    e
}

/// The next round paired by hand, each board's games entered.
fn round(e: &mut Tournament, boards: &[(u32, u32, Vec<BoardGameResult>)], bye: Option<u32>) {
    let pairs = boards.iter().map(|b| (b.0, b.1)).collect();
    let action = by_hand(0, &e.divisions[0], pairs, bye, "worked by hand").unwrap();
    e.apply(&action).unwrap();
    let number = e.divisions[0].paired_rounds();
    for (k, b) in boards.iter().enumerate() {
        e.apply(&Action::Result {
            division: 0,
            round: number,
            board: k as u32 + 1,
            result: BoardResult::Games { games: b.2.clone() },
        })
        .unwrap();
    }
}

/// (won, lost, drawn, games, Rc, Rp, new) of a preview line.
type Figures = (u32, u32, u32, u32, Option<i64>, Option<i64>, Option<i64>);

fn figures(c: &RatingChange) -> Figures {
    (
        c.won,
        c.lost,
        c.drawn,
        c.games,
        c.competition,
        c.performance,
        c.new,
    )
}

/// Scored by game, two games a round: Window_Size 670, each game a unit.
#[test]
fn one_round_scored_by_game() {
    let mut e = event(
        1,
        2,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
        &[Some(1800), Some(1600)],
    );
    // P1 wins game 1, game 2 is drawn.
    round(&mut e, &[(1, 2, vec![FIRST, DRAW])], None);
    let p = rating_preview(&e.divisions[0]);
    // P1: N = 2 games, W = 1, L = 0; Rc = (1600 + 1600) / 2 = 1600;
    // Rp = 1600 + 670 x (1 - 0) / 2 = 1600 + 335 = 1935;
    // new = 1800 + (1935 - 1800) x 2 / 128 = 1800 + 270 / 128 = 1802.109 -> 1802.
    assert_eq!(
        figures(&p[0]),
        (1, 0, 1, 2, Some(1600), Some(1935), Some(1802))
    );
    assert_eq!(p[0].change(), Some(2));
    // P2: Rc = 1800; Rp = 1800 - 335 = 1465;
    // new = 1600 + (1465 - 1600) x 2 / 128 = 1600 - 2.109 = 1597.891 -> 1598.
    assert_eq!(
        figures(&p[1]),
        (0, 1, 1, 2, Some(1800), Some(1465), Some(1598))
    );
    assert_eq!(p[1].change(), Some(-2));
}

/// Scored by round, four games a round: Window_Size 400, each round a unit; an unrated player's
/// games are left out for the rated, and the unrated player's rating is the performance.
#[test]
fn rounds_scored_by_round_with_an_unrated_player() {
    let ratings = [Some(2000), Some(1900), Some(1800), None];
    let mut e = event(2, 4, GamePoints::OneHalfZero, ScoreUnit::Round, &ratings);
    // Round 1: P1 beats P2 (1 = = =: 2½-1½); P4 beats P3 (2 = = =).
    round(
        &mut e,
        &[
            (1, 2, vec![FIRST, DRAW, DRAW, DRAW]),
            (3, 4, vec![SECOND, DRAW, DRAW, DRAW]),
        ],
        None,
    );
    // Round 2: P1 and P3 draw the round (= = = =); P2 beats P4 (1 = = =).
    round(
        &mut e,
        &[
            (1, 3, vec![DRAW, DRAW, DRAW, DRAW]),
            (2, 4, vec![FIRST, DRAW, DRAW, DRAW]),
        ],
        None,
    );
    let p = rating_preview(&e.divisions[0]);
    // P1: a round won against P2 (1900), a round drawn against P3 (1800): N = 2, W = 1, L = 0,
    // 8 games. Rc = 3700 / 2 = 1850; Rp = 1850 + 400 x 1 / 2 = 2050;
    // new = 2000 + (2050 - 2000) x 8 / 128 = 2000 + 3.125 -> 2003.
    assert_eq!(
        figures(&p[0]),
        (1, 0, 1, 8, Some(1850), Some(2050), Some(2003))
    );
    // P2: lost to P1 (2000); the win over unrated P4 is left out. N = 1, 4 games.
    // Rp = 2000 - 400 = 1600; new = 1900 + (1600 - 1900) x 4 / 128 = 1900 - 9.375 -> 1891.
    assert_eq!(
        figures(&p[1]),
        (0, 1, 0, 4, Some(2000), Some(1600), Some(1891))
    );
    assert_eq!(p[1].change(), Some(-9));
    // P3: the loss to unrated P4 is left out; drew with P1 (2000). N = 1, 4 games.
    // Rp = 2000; new = 1800 + (2000 - 1800) x 4 / 128 = 1800 + 6.25 -> 1806.
    assert_eq!(
        figures(&p[2]),
        (0, 0, 1, 4, Some(2000), Some(2000), Some(1806))
    );
    // P4, unrated: beat P3 (1800), lost to P2 (1900): N = 2, W = 1, L = 1.
    // Rc = 3700 / 2 = 1850; Rp = 1850 + 400 x 0 / 2 = 1850; new = Rp = 1850, no change shown.
    assert_eq!(
        figures(&p[3]),
        (1, 1, 0, 8, Some(1850), Some(1850), Some(1850))
    );
    assert_eq!(p[3].change(), None);
}

/// Byes and games won by forfeit are no games; the points scale (2/1/0) does not matter.
#[test]
fn byes_and_forfeited_games_are_not_rated() {
    let ratings = [Some(1500), Some(1500), Some(1200)];
    let mut e = event(2, 2, GamePoints::TwoOneZero, ScoreUnit::Game, &ratings);
    // Round 1: P2 beats P1 in game 1, game 2 drawn; P3 has the bye.
    round(&mut e, &[(1, 2, vec![SECOND, DRAW])], Some(3));
    // Round 2: P1 wins game 1 by forfeit, P3 wins game 2; P2 has the bye.
    let forfeit = BoardGameResult::Forfeit {
        winner: Player::First,
    };
    round(&mut e, &[(1, 3, vec![forfeit, SECOND])], Some(2));
    let p = rating_preview(&e.divisions[0]);
    // P1: lost and drew against P2 (1500), lost game 2 to P3 (1200); the forfeit is left out.
    // N = 3, W = 0, L = 2; Rc = (1500 + 1500 + 1200) / 3 = 1400;
    // N x Rp = 4200 + 670 x (0 - 2) = 2860, Rp = 953.33 -> 953;
    // new = (1500 x 3 x (128 - 3) + 2860 x 3) / (128 x 3) = 571080 / 384 = 1487.19 -> 1487.
    assert_eq!(
        figures(&p[0]),
        (0, 2, 1, 3, Some(1400), Some(953), Some(1487))
    );
    assert_eq!(p[0].change(), Some(-13));
    // P2: won and drew against P1 (1500); the bye is left out. N = 2, W = 1.
    // Rp = 1500 + 670 / 2 = 1835; new = 1500 + 335 x 2 / 128 = 1505.23 -> 1505.
    assert_eq!(
        figures(&p[1]),
        (1, 0, 1, 2, Some(1500), Some(1835), Some(1505))
    );
    // P3: won game 2 against P1 (1500). N = 1, W = 1. Rp = 1500 + 670 = 2170;
    // new = 1200 + (2170 - 1200) x 1 / 128 = 1200 + 7.58 -> 1208.
    assert_eq!(
        figures(&p[2]),
        (1, 0, 0, 1, Some(1500), Some(2170), Some(1208))
    );
}

/// An event of four players, one two-game round: the director, the dates and each player's
/// full name, ACF id and state as `complete` says.
fn desk_event(db: &Path, complete: bool) {
    let mut new = vec![
        "new",
        "Ohio Open",
        "--site",
        "Columbus",
        "--start",
        "2026-05-02",
    ];
    if complete {
        new.extend(["--end", "2026-05-03", "--director", "Jane Roe"]);
    }
    run(db, &new);
    run(
        db,
        &["division", "Ohio Open", "Open", "--format", "swiss:1"],
    );
    let players: [[&str; 4]; 4] = [
        ["Ann Lee", "ACF 101, WCDF 7", "OH", "1900"],
        ["Bob Ray", "ACF 102", "PA", "1800"],
        ["Cid Fox", "ACF 103", "Scotland", "1700"],
        ["Dee Ames", "ACF 104", "OH", "1600"],
    ];
    for [name, ids, region, rating] in players {
        let (name, ids, region) = if complete || name != "Bob Ray" {
            (name, ids, region)
        } else {
            ("Bob", "102", "")
        };
        run(
            db,
            &[
                "player", "add", name, "--ids", ids, "--region", region, "--rating", rating,
            ],
        );
    }
    run(db, &["enter", "Ohio Open", "Open", "1", "2", "3", "4"]);
    run(db, &["pair", "Ohio Open", "Open", "--seed", "3"]);
    run(db, &["result", "Ohio Open", "Open", "1", "1", "1 ="]);
}

#[test]
fn an_incomplete_record_is_refused_naming_every_gap() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    desk_event(&db, false);
    let out = dir.path().join("acf.txt");
    let args = [
        "export",
        "Ohio Open",
        "Open",
        "--format",
        "acf",
        "--out",
        out.to_str().unwrap(),
    ];
    let err = refused(&db, &args);
    assert!(err.contains("nothing was written"), "{err}");
    assert!(err.contains("the event has no director"), "{err}");
    assert!(
        err.contains(r#""Bob" lacks a full name (given and family name), an id labelled ACF"#),
        "{err}"
    );
    assert!(err.contains("a state or country"), "{err}");
    assert!(err.contains("round 1 board 2"), "{err}");
    assert!(!err.contains("Ann Lee"), "Ann's record is complete:\n{err}");
    assert!(!out.exists(), "nothing is written");
    // The WCDF asks for its own ids: every player but Ann lacks one.
    let wcdf = refused(
        &db,
        &[
            "export",
            "Ohio Open",
            "Open",
            "--format",
            "wcdf",
            "--out",
            "-",
        ],
    );
    assert_eq!(wcdf.matches("an id labelled WCDF").count(), 3, "{wcdf}");
    assert!(
        wcdf.contains("lacks a country") || wcdf.contains(", a country"),
        "{wcdf}"
    );
    // Written anyway on request, the gaps listed at the top of the report.
    let mut allowed = args.to_vec();
    allowed.push("--allow-incomplete");
    run(&db, &allowed);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("Incomplete (written at the director's request)"),
        "{text}"
    );
    assert!(text.contains("the event has no director"), "{text}");
}

#[test]
fn a_complete_record_has_every_game_ballot_and_player() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    desk_event(&db, true);
    run(&db, &["result", "Ohio Open", "Open", "1", "2", "1 1"]);
    run(&db, &["prize", "Ohio Open", "Open", "place", "100"]);
    let text = run(
        &db,
        &[
            "export",
            "Ohio Open",
            "Open",
            "--format",
            "acf",
            "--out",
            "-",
        ],
    );
    assert!(text.starts_with("ACF tournament report\n"), "{text}");
    for field in [
        "Event     Ohio Open",
        "Dates     2026-05-02 to 2026-05-03",
        "Director  Jane Roe",
        "Swiss, 1 rounds; 2 games a round; scored by game, 1/½/0",
    ] {
        assert!(text.contains(field), "{field}:\n{text}");
    }
    // The pairing: 1 v 3 and 4 v 2 (top half against bottom half by rating; on board 2 the
    // higher-ranked player has White in game 1).
    let board = |n: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(n))
            .unwrap()
    };
    let b1 = text.lines().nth(board("1  Ann Lee (1)")).unwrap();
    assert!(b1.contains("Cid Fox (3)"), "{text}");
    let b1_games = text.lines().nth(board("1  Ann Lee (1)") + 1).unwrap();
    assert!(
        b1_games.contains("games 1-0 ½-½; points 1½-½"),
        "{b1_games}"
    );
    assert!(b1_games.contains("ballot 11-Man Ballot "), "{b1_games}");
    let b2_games = text.lines().nth(board("2  Dee Ames (4)") + 1).unwrap();
    assert!(b2_games.contains("games 1-0 1-0; points 2-0"), "{b2_games}");
    // Final standings with ids and regions: Dee (2) first, Ann (1½) second.
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_default()
    };
    let dee = line("    1   4  Dee Ames");
    assert!(
        dee.contains(" 104 ") && dee.contains(" OH ") && dee.ends_with(" 2"),
        "{text}"
    );
    assert!(line("    2   1  Ann Lee").ends_with(" 1½"), "{text}");
    // The prize distribution, as the ACF asks.
    assert!(
        text.contains("\nPrize distribution\n  Dee Ames (4): 100, 1st place\n"),
        "{text}"
    );
    // The CSV: a row per game, Red's result first (the first player has Red in game 1).
    let csv = run(
        &db,
        &[
            "export",
            "Ohio Open",
            "Open",
            "--format",
            "acf-csv",
            "--out",
            "-",
        ],
    );
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 5, "a header and four games:\n{csv}");
    assert!(
        rows[0].starts_with("event,division,round,board,game,ballot,red no,red name,red ACF id"),
        "{csv}"
    );
    assert!(
        rows[1].starts_with("Ohio Open,Open,1,1,1,11-Man Ballot "),
        "{csv}"
    );
    assert!(
        rows[1].ends_with(",1,Ann Lee,101,OH,3,Cid Fox,103,Scotland,1-0,yes"),
        "{csv}"
    );
    assert!(
        rows[2].ends_with(",3,Cid Fox,103,Scotland,1,Ann Lee,101,OH,½-½,yes"),
        "{csv}"
    );
    // Board 2: Dee has Red in game 1 and wins both games: 1-0, then 0-1 from Red's side.
    assert!(
        rows[3].ends_with(",4,Dee Ames,104,OH,2,Bob Ray,102,PA,1-0,yes"),
        "{csv}"
    );
    assert!(
        rows[4].ends_with(",2,Bob Ray,102,PA,4,Dee Ames,104,OH,0-1,yes"),
        "{csv}"
    );
}

#[test]
fn the_ratings_command_prints_the_preview() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    desk_event(&db, true);
    run(&db, &["result", "Ohio Open", "Open", "1", "2", "1 1"]);
    let said = run(&db, &["ratings", "Ohio Open", "Open"]);
    assert!(said.contains("Rp = Rc + 670 x (W - L) / N"), "{said}");
    // Dee (1600) won both games against Bob (1800): Rp = 1800 + 670 x 2 / 2 = 2470;
    // new = 1600 + 870 x 2 / 128 = 1613.59 -> 1614.
    let dee = said.lines().find(|l| l.starts_with("Dee Ames")).unwrap();
    let cells: Vec<&str> = dee.split_whitespace().collect();
    assert_eq!(
        cells[2..],
        ["1600", "2-0-0", "2", "1800", "2470", "1614", "+14"],
        "{said}"
    );
    // A division that does not exist is refused.
    assert!(
        !crossboard(&db, &["ratings", "Ohio Open", "Nope"])
            .status
            .success()
    );
}
