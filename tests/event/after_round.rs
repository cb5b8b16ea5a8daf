//! Standings are of games finished: every view is after the last round whose results are all
//! in and says so; a round in play shows beside the tie-breaks, never inside them. Each
//! tie-break's treatment of byes, forfeits and absences pinned by values worked by hand.

use crate::desk_cli::run;
use crossboard::director::{GamePoints, Player};
use crossboard::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, Format, Pairing, PlayerInfo, ScoreUnit,
    TieBreak, Tournament, standings,
};
use crossboard::publish::Published;
use std::path::Path;

/// The Weekend Open: 7 players, 3 rounds of 2 games, a won round 2 points; round 1 with a
/// whole-round forfeit, round 2 with a game won by forfeit; round 3 paired.
pub(crate) fn weekend_open(db: &Path) {
    let ev = |args: &[&str]| run(db, args);
    ev(&["new", "Weekend Open"]);
    ev(&[
        "division",
        "Weekend Open",
        "Open",
        "--format",
        "swiss:3",
        "--games",
        "2",
        "--win",
        "2",
    ]);
    ev(&[
        "enter",
        "Weekend Open",
        "Open",
        "Ann",
        "Bob",
        "Cid",
        "Dee",
        "Eve",
        "Fay",
        "Gus",
    ]);
    let result = |round: &str, board: &str, games: &str| {
        ev(&["result", "Weekend Open", "Open", round, board, games]);
    };
    ev(&["pair", "Weekend Open", "Open", "--seed", "1"]);
    result("1", "1", "1 =");
    result("1", "2", "forfeit 1");
    result("1", "3", "2 =");
    ev(&["pair", "Weekend Open", "Open", "--seed", "1"]);
    result("2", "1", "1 2");
    result("2", "2", "= =");
    result("2", "3", "1f 1");
    ev(&["pair", "Weekend Open", "Open", "--seed", "1"]);
}

/// The table's rows of `event standings` output, as whitespace-separated cells.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(4)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn standings_mid_round_are_those_after_the_last_round_finished() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    weekend_open(&db);
    let now = run(&db, &["standings", "Weekend Open", "Open"]);
    let after_two = run(&db, &["standings", "Weekend Open", "Open", "--round", "2"]);
    assert_eq!(
        now.lines().nth(1),
        Some("Standings after round 2 of 3; round 3 in play"),
        "{now}"
    );
    assert_eq!(
        after_two.lines().nth(1),
        Some("Standings after round 2 of 3"),
        "{after_two}"
    );
    // Round 3's pairings count nowhere: the same places, points and tie-breaks as after
    // round 2, round 3's cell ("5W ..", two words) after the tie-breaks.
    let (now_rows, two_rows) = (rows(&now), rows(&after_two));
    assert_eq!(now_rows.len(), 7, "{now}");
    for (a, b) in now_rows.iter().zip(&two_rows) {
        assert_eq!(&a[..a.len() - 2], &b[..], "{now}\n{after_two}");
        // Seven players: one has round 3's bye, the others wait for their games.
        if a[a.len() - 2] != "bye" {
            assert_eq!(a[a.len() - 1], "..", "{now}");
        }
    }
    let header: Vec<&str> = now.lines().nth(3).unwrap().split_whitespace().collect();
    assert_eq!(
        header[header.len() - 4..],
        ["Buch", "H2H", "Wins", "R3*"],
        "{now}"
    );
    assert!(now.contains("R3*: round 3 in play"), "{now}");

    // A board of round 3 finished shows its result beside, still not counted.
    run(&db, &["result", "Weekend Open", "Open", "3", "1", "1 1"]);
    let now = run(&db, &["standings", "Weekend Open", "Open"]);
    for (a, b) in rows(&now).iter().zip(&two_rows) {
        assert_eq!(&a[..a.len() - 2], &b[..], "{now}");
    }
    let won = rows(&now)
        .iter()
        .filter(|r| r[r.len() - 2] != "bye" && r[r.len() - 1] == "4")
        .count();
    assert_eq!(won, 1, "{now}");
    // Every published form is after round 2 too.
    for format in ["text", "html"] {
        let out = run(
            &db,
            &[
                "export",
                "Weekend Open",
                "Open",
                "--format",
                format,
                "--out",
                "-",
            ],
        );
        assert!(
            out.contains("Standings after round 2 of 3; round 3 in play"),
            "{out}"
        );
    }
    let csv = run(
        &db,
        &[
            "export",
            "Weekend Open",
            "Open",
            "--format",
            "csv",
            "--out",
            "-",
        ],
    );
    assert!(csv.starts_with("#,Name,Club,Rating,R1,R2,Pts,"), "{csv}");
    // Every board in: the final standings, round 3 counted.
    for board in ["2", "3"] {
        run(&db, &["result", "Weekend Open", "Open", "3", board, "= ="]);
    }
    let done = run(&db, &["standings", "Weekend Open", "Open"]);
    assert_eq!(
        done.lines().nth(1),
        Some("Final standings after round 3 of 3"),
        "{done}"
    );
    let header: Vec<&str> = done.lines().nth(3).unwrap().split_whitespace().collect();
    assert_eq!(
        header[header.len() - 5..],
        ["R3", "Pts", "Buch", "H2H", "Wins"],
        "{done}"
    );
}

const WIN: BoardGameResult = BoardGameResult::Win {
    winner: Player::First,
};
const DRAW: BoardGameResult = BoardGameResult::Draw;
const BY_FORFEIT: BoardGameResult = BoardGameResult::Forfeit {
    winner: Player::First,
};

/// A round paired by hand: its boards (first, second), its bye, the boards' results.
type Round = (Vec<(u32, u32)>, Option<u32>, Vec<BoardResult>);

/// Six players A..F (ids 1..6), a 3-round Swiss of single games (1, ½, 0), paired by hand:
///
/// | round | boards (first - second: result) | unplayed |
/// |---|---|---|
/// | 1 | A-B 1-0, C-D ½-½, E-F won by forfeit (`1f`) | |
/// | 2 | A-C ½-½, B-E 1-0 | D absent (announced), F the pairing bye |
/// | 3 | A-E 0-1, B-D whole-round forfeit (B present), C-F 1-0 | |
///
/// Round 3 is entered up to `third` boards.
fn unplayed_swiss(tiebreaks: Vec<TieBreak>, third: usize) -> Tournament {
    let mut settings = DivisionSettings::new(
        Format::Swiss { rounds: 3 },
        1,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    settings.tiebreaks = tiebreaks;
    let mut e = Tournament::new();
    e.apply(&Action::AddDivision {
        name: "Open".into(),
        settings,
    })
    .unwrap();
    for (k, name) in ["A", "B", "C", "D", "E", "F"].iter().enumerate() {
        let mut info = PlayerInfo::named(name);
        info.rating = Some(2000 - k as u32);
        e.apply(&Action::Enter {
            division: 0,
            player: k as u32 + 1,
            info,
        })
        .unwrap();
    }
    let forfeit = BoardResult::Forfeit {
        present: Some(Player::First),
    };
    let games = |g: BoardGameResult| BoardResult::Games { games: vec![g] };
    let lose = BoardGameResult::Win {
        winner: Player::Second,
    };
    let rounds: [Round; 3] = [
        (
            vec![(1, 2), (3, 4), (5, 6)],
            None,
            vec![games(WIN), games(DRAW), games(BY_FORFEIT)],
        ),
        (vec![(1, 3), (2, 5)], Some(6), vec![games(DRAW), games(WIN)]),
        (
            vec![(1, 5), (2, 4), (3, 6)],
            None,
            vec![games(lose), forfeit, games(WIN)],
        ),
    ];
    for (k, (boards, bye, results)) in rounds.into_iter().enumerate() {
        let round = k as u32 + 1;
        if round == 2 {
            e.apply(&Action::Absent {
                division: 0,
                player: 4,
                round: 2,
            })
            .unwrap();
        }
        e.apply(&Action::Pair {
            division: 0,
            pairing: Pairing {
                round,
                boards,
                bye,
                explanation: Default::default(),
            },
        })
        .unwrap();
        let entered = if round == 3 { third } else { results.len() };
        for (b, result) in results.into_iter().take(entered).enumerate() {
            e.apply(&Action::Result {
                division: 0,
                round,
                board: b as u32 + 1,
                result,
            })
            .unwrap();
        }
    }
    e
}

fn every_tiebreak() -> Vec<TieBreak> {
    vec![
        TieBreak::BUCHHOLZ,
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 0,
        },
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 1,
        },
        TieBreak::SonnebornBerger,
        TieBreak::Progressive,
        TieBreak::Wins,
    ]
}

/// Worked by hand (docs/tournament-desk.md, "Tie-breaks"). Scores: A 1½, B 2, C 2, D ½, E 2,
/// F 1. D's absence is followed only by a forfeit loss, so his opponents count it as a draw:
/// D counts 1 for them. A round without an opponent (bye, forfeit either way, a game won or
/// lost by forfeit, absence) counts as a dummy opponent with the player's own score; a cut
/// drops an absence or forfeit loss first.
///
/// | | values by round (opponent's score; dummy = own) | Buch | Cut-1 | Median | SB | Prog | Wins |
/// |---|---|---|---|---|---|---|---|
/// | A | B 2, C 2, E 2 | 6 | 4 | 2 | 1·2 + ½·2 = 3 | 1+1½+1½ = 4 | 1 |
/// | B | A 1½, E 2, forfeit win 2 | 5½ | 4 | 2 | 1·2 + 1·2 = 4 | 0+1+2 = 3 | 1 |
/// | C | D 1, A 1½, F 1 | 3½ | 2½ | 1 | ½·1 + ½·1½ + 1·1 = 2.25 | ½+1+2 = 3½ | 1 |
/// | D | C 2, absent ½, forfeit loss ½ | 3 | 2½ | ½ | ½·2 = 1 | ½+½+½ = 1½ | 0 |
/// | E | won by forfeit 2, B 2, A 1½ | 5½ | 4 | 2 | 1·2 + 1·1½ = 3.5 | 1+1+2 = 4 | 1 |
/// | F | lost by forfeit 1, bye 1, C 2 | 4 | 3 | 1 | bye 1·1 = 1 | 0+1+1 = 2 | 0 |
#[test]
fn tiebreaks_with_byes_forfeits_and_absences_worked_by_hand() {
    let all = every_tiebreak();
    let e = unplayed_swiss(all.clone(), 3);
    let d = &e.divisions[0];
    let (table, list) = standings(d, u32::MAX);
    let row = |name: &str| -> Vec<String> {
        let s = list
            .iter()
            .find(|s| d.entrants[s.entrant].info.name == name)
            .unwrap();
        std::iter::once(s.score.to_string())
            .chain(
                all.iter()
                    .zip(&s.values)
                    .map(|(&t, v)| table.text(t, v.unwrap())),
            )
            .collect()
    };
    let want = [
        ("A", ["1½", "6", "4", "2", "3.00", "4", "1"]),
        ("B", ["2", "5½", "4", "2", "4.00", "3", "1"]),
        ("C", ["2", "3½", "2½", "1", "2.25", "3½", "1"]),
        ("D", ["½", "3", "2½", "½", "1.00", "1½", "0"]),
        ("E", ["2", "5½", "4", "2", "3.50", "4", "1"]),
        ("F", ["1", "4", "3", "1", "1.00", "2", "0"]),
    ];
    for (name, values) in want {
        assert_eq!(
            row(name),
            values,
            "{name}: points, Buch, Cut-1, Median, SB, Prog, Wins"
        );
    }
    // B and E level to Sonneborn-Berger.
    let order: Vec<&str> = list
        .iter()
        .map(|s| d.entrants[s.entrant].info.name.as_str())
        .collect();
    assert_eq!(order, ["B", "E", "C", "A", "F", "D"]);
}

/// With one board of round 3 in, the published standings are after round 2: the values are
/// those of round 2 alone, round 3's result beside them.
#[test]
fn a_round_in_play_counts_in_no_tiebreak() {
    let e = unplayed_swiss(every_tiebreak(), 1);
    let d = &e.divisions[0];
    let p = Published::new(&e, d, u32::MAX);
    assert_eq!(p.after, 2);
    assert_eq!(p.heading(), "Standings after round 2 of 3; round 3 in play");
    let (_, after_two) = standings(d, 2);
    assert_eq!(p.list, after_two);
    let header = p.header();
    assert_eq!(header.last().map(String::as_str), Some("R3*"));
    assert!(!header.contains(&"R3".to_string()), "{header:?}");
    // E beat A on board 1: E's round 3 cell has the point, others wait.
    let e_row = p.rows().into_iter().find(|r| r[1] == "E").unwrap();
    assert!(e_row.last().unwrap().ends_with(" 1"), "{e_row:?}");
    let c_row = p.rows().into_iter().find(|r| r[1] == "C").unwrap();
    assert!(c_row.last().unwrap().ends_with(" .."), "{c_row:?}");
}
