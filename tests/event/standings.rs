//! Standings and tie-breaks against crosstables computed by hand and a real published one.

use crossboard::director::{GamePoints, Player};
use crossboard::event::propose;
use crossboard::event::standings;
use crossboard::event::{
    Action, BoardGameResult, BoardResult, DivisionSettings, Format, PlayerInfo, ScoreUnit,
    Tournament,
};
use crossboard::event::{Preset, TieBreak};

pub(crate) const FIRST: BoardGameResult = BoardGameResult::Win {
    winner: Player::First,
};
pub(crate) const SECOND: BoardGameResult = BoardGameResult::Win {
    winner: Player::Second,
};
pub(crate) const DRAW: BoardGameResult = BoardGameResult::Draw;

/// A round robin of `names` (rated in order, so pairing numbers follow) with `results` per round
/// in board order.
fn round_robin(
    names: &[&str],
    games: u32,
    results: &[Vec<Vec<BoardGameResult>>],
    tiebreaks: Vec<TieBreak>,
) -> Tournament {
    let mut e = Tournament::new();
    let mut settings = DivisionSettings::new(
        Format::RoundRobin { cycles: 1 },
        games,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    settings.tiebreaks = tiebreaks;
    e.apply(&Action::AddDivision {
        name: "RR".into(),
        settings,
    })
    .unwrap();
    for (k, name) in names.iter().enumerate() {
        let mut info = PlayerInfo::named(name);
        info.rating = Some(2000 - k as u32);
        e.apply(&Action::Enter {
            division: 0,
            player: k as u32 + 1,
            info,
        })
        .unwrap();
    }
    for (r, boards) in results.iter().enumerate() {
        let a = propose(0, &e.divisions[0]).unwrap();
        e.apply(&a).unwrap();
        for (b, games) in boards.iter().enumerate() {
            e.apply(&Action::Result {
                division: 0,
                round: r as u32 + 1,
                board: b as u32 + 1,
                result: BoardResult::Games {
                    games: games.clone(),
                },
            })
            .unwrap();
        }
    }
    e
}

/// Four players, single games. Berger: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1.
/// A beats D, B-C drawn; D beats C, A-B drawn; B beats D, C beats A.
///
/// | player | R1 | R2 | R3 | pts | wins | Buchholz | SB | progressive |
/// | A | +D | =B | -C | 1½ | 1 | 1+2+1½ = 4½ | 1 + 1 + 0 = 2 | 1+1½+1½ = 4 |
/// | B | =C | =A | +D | 2 | 1 | 1½+1½+1 = 4 | ¾+¾+1 = 2½ | ½+1+2 = 3½ |
/// | C | =B | -D | +A | 1½ | 1 | 2+1+1½ = 4½ | 1+0+1½ = 2½ | ½+½+1½ = 2½ |
/// | D | -A | +C | -B | 1 | 1 | 1½+1½+2 = 5 | 1½ | 0+1+1 = 2 |
fn four() -> Vec<Vec<Vec<BoardGameResult>>> {
    vec![
        vec![vec![FIRST], vec![DRAW]],
        vec![vec![FIRST], vec![DRAW]],
        vec![vec![FIRST], vec![FIRST]],
    ]
}

#[test]
fn hand_computed_round_robin_values() {
    let all = vec![
        TieBreak::Wins,
        TieBreak::BUCHHOLZ,
        TieBreak::SonnebornBerger,
        TieBreak::Progressive,
        TieBreak::WhiteWins,
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 0,
        },
    ];
    let e = round_robin(&["A", "B", "C", "D"], 1, &four(), all.clone());
    let d = &e.divisions[0];
    let (table, list) = standings(d, u32::MAX);
    let row = |name: &str| {
        let s = list
            .iter()
            .find(|s| d.entrants[s.entrant].info.name == name)
            .unwrap();
        let texts: Vec<String> = all
            .iter()
            .zip(&s.values)
            .map(|(&t, v)| table.text(t, v.unwrap()))
            .collect();
        (s.score.to_string(), texts)
    };
    assert_eq!(
        row("A"),
        (
            "1½".into(),
            vec!["1", "4½", "2.00", "4", "0", "3½"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(
        row("B"),
        (
            "2".into(),
            vec!["1", "4", "2.50", "3½", "0", "3"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(
        row("C"),
        (
            "1½".into(),
            vec!["1", "4½", "2.50", "2½", "0", "3½"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(
        row("D"),
        (
            "1".into(),
            vec!["1", "5", "1.50", "2", "0", "3½"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    // Ordered by wins (level), Buchholz (level), then SB: C ahead of A.
    let names: Vec<&str> = list
        .iter()
        .map(|s| d.entrants[s.entrant].info.name.as_str())
        .collect();
    assert_eq!(names, vec!["B", "C", "A", "D"]);
    assert_eq!((list[1].place, list[2].place), (2, 3));
}

#[test]
fn presets_break_the_tie_their_own_way() {
    for preset in Preset::ALL {
        let e = round_robin(&["A", "B", "C", "D"], 1, &four(), preset.tiebreaks());
        let d = &e.divisions[0];
        let (_, list) = standings(d, u32::MAX);
        let names: Vec<&str> = list
            .iter()
            .map(|s| d.entrants[s.entrant].info.name.as_str())
            .collect();
        // APCA: wins level, head-to-head C. ICAONA: Buchholz level, head-to-head C.
        // MSO: C beat the only other tied player.
        assert_eq!(names, vec!["B", "C", "A", "D"], "{}", preset.key());
    }
    // With no tie-breaks A and C share second place.
    let e = round_robin(&["A", "B", "C", "D"], 1, &four(), Vec::new());
    let (_, list) = standings(&e.divisions[0], u32::MAX);
    assert_eq!((list[1].place, list[1].place_to, list[2].place), (2, 3, 2));
}

#[test]
fn two_game_rounds_count_wins_with_white_and_byes() {
    // Three players, two games a round (colours reversed): the odd one out has the bye.
    // Berger for 3 (dummy 4): R1 1-4 (bye 1), 2-3; R2 4-3 (bye 3), 1-2; R3 2-4 (bye 2), 3-1.
    let results = vec![
        vec![vec![FIRST, SECOND]], // 2-3: B wins game 1 (Red), C wins game 2 (Red)
        vec![vec![SECOND, DRAW]],  // 1-2: B wins game 1 with White, then a draw
        vec![vec![DRAW, DRAW]],    // 3-1
    ];
    let e = round_robin(
        &["A", "B", "C"],
        2,
        &results,
        vec![TieBreak::WhiteWins, TieBreak::Wins],
    );
    let d = &e.divisions[0];
    let (table, list) = standings(d, u32::MAX);
    // A: bye 2 + ½ + 1 = 3½; B: 1 + 1½ + bye 2 = 4½; C: 1 + bye 2 + 1 = 4.
    let score = |n: &str| {
        list.iter()
            .find(|s| d.entrants[s.entrant].info.name == n)
            .unwrap()
    };
    assert_eq!(score("A").score.to_string(), "3½");
    assert_eq!(score("B").score.to_string(), "4½");
    assert_eq!(score("C").score.to_string(), "4");
    let ww = |n: &str| table.text(TieBreak::WhiteWins, score(n).values[0].unwrap());
    assert_eq!(
        (ww("A"), ww("B"), ww("C")),
        ("0".into(), "1".into(), "0".into())
    );
}

/// One player of the published crosstable (see the fixture's header).
struct Published {
    rank: usize,
    rating: u32,
    points: String,
    rounds: Vec<String>,
    bh: String,
    bh_c1: String,
    sb: String,
}

fn published() -> Vec<Published> {
    let text = include_str!("../fixtures/events/hobsons_bay_april_rapid_2025.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 11, "{l}");
            Published {
                rank: f[0].parse().unwrap(),
                rating: f[1].parse().unwrap(),
                points: f[2].into(),
                rounds: f[3..8].iter().map(|s| s.to_string()).collect(),
                bh: f[8].into(),
                bh_c1: f[9].into(),
                sb: f[10].into(),
            }
        })
        .collect()
}

/// "13.5" as half points.
fn halves(text: &str) -> i64 {
    let (whole, frac) = text.split_once('.').unwrap_or((text, "0"));
    whole.parse::<i64>().unwrap() * 2 + i64::from(frac.starts_with('5'))
}

/// A real published Swiss, recomputed from its game results: the 2025 Hobsons Bay April Rapid
/// (49 players, 5 rounds, with requested half-point byes, pairing byes and withdrawals), every player's
/// points, Buchholz, Buchholz Cut-1 and Sonneborn-Berger, and the published order.
#[test]
fn a_published_swiss_recomputed_from_its_results() {
    let rows = published();
    assert_eq!(rows.len(), 49);
    let mut settings = DivisionSettings::new(
        Format::Swiss { rounds: 5 },
        1,
        GamePoints::OneHalfZero,
        ScoreUnit::Game,
    );
    settings.tiebreaks = vec![
        TieBreak::BUCHHOLZ,
        TieBreak::Buchholz {
            cut_lowest: 1,
            cut_highest: 0,
        },
        TieBreak::SonnebornBerger,
    ];
    let mut e = Tournament::new();
    e.apply(&Action::AddDivision {
        name: "Open".into(),
        settings,
    })
    .unwrap();
    // Registry id = published rank.
    for r in &rows {
        let mut info = PlayerInfo::named(&format!("P{}", r.rank));
        info.rating = Some(r.rating);
        e.apply(&Action::Enter {
            division: 0,
            player: r.rank as u32,
            info,
        })
        .unwrap();
    }
    // The half-point byes, requested before round 1 (the division's default: half a round).
    for r in &rows {
        for (k, cell) in r.rounds.iter().enumerate() {
            if cell == "HPB" {
                e.apply(&Action::ByeRequest {
                    division: 0,
                    player: r.rank as u32,
                    round: k as u32 + 1,
                    cancel: false,
                })
                .unwrap();
            }
        }
    }
    for round in 1..=5u32 {
        let cell = |r: &Published| r.rounds[round as usize - 1].clone();
        let mut before = Vec::new();
        for r in &rows {
            let id = r.rank as u32;
            match cell(r).as_str() {
                "-" if e.divisions[0].entrant(id).unwrap().withdrawn_from.is_none() => {
                    before.push(Action::Withdraw {
                        division: 0,
                        player: id,
                        reason: "left the event".into(),
                    })
                }
                _ => {}
            }
        }
        for a in &before {
            e.apply(a).unwrap();
        }
        let mut boards = Vec::new();
        let mut results = Vec::new();
        let mut bye = None;
        for r in &rows {
            let c = cell(r);
            if c == "PAB" {
                bye = Some(r.rank as u32);
            }
            let Some(rest) = c.strip_prefix('W') else {
                continue;
            };
            let (opp, res) = rest.split_once(':').unwrap();
            boards.push((r.rank as u32, opp.parse::<u32>().unwrap()));
            results.push(match res {
                "1" => FIRST,
                "0" => SECOND,
                _ => DRAW,
            });
        }
        e.apply(&Action::Pair {
            division: 0,
            pairing: crossboard::event::Pairing {
                round,
                boards,
                bye,
                explanation: Default::default(),
            },
        })
        .unwrap();
        for (b, o) in results.into_iter().enumerate() {
            e.apply(&Action::Result {
                division: 0,
                round,
                board: b as u32 + 1,
                result: BoardResult::Games { games: vec![o] },
            })
            .unwrap();
        }
    }
    let d = &e.divisions[0];
    let (table, list) = standings(d, u32::MAX);
    for s in &list {
        let row = &rows[d.entrants[s.entrant].player as usize - 1];
        let got: Vec<i64> = s.values.iter().map(|v| v.unwrap().0).collect();
        assert_eq!(
            (i64::from(s.score.0), got[0], got[1]),
            (halves(&row.points), halves(&row.bh), halves(&row.bh_c1)),
            "rank {}: points, BH, BH-C1",
            row.rank
        );
        let sb = table.text(TieBreak::SonnebornBerger, s.values[2].unwrap());
        assert_eq!(sb, row.sb, "rank {}: SB", row.rank);
        // The published order: the rank lies within the place we give (shared when every
        // value is level).
        assert!(
            (s.place..=s.place_to).contains(&row.rank),
            "rank {} placed {}-{}",
            row.rank,
            s.place,
            s.place_to
        );
    }
}
