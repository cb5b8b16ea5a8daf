//! The 11-Man Ballot deck: 3,136 ballots, 2,500 positions equal to the public list id by id,
//! substitution rule, transpositions, man-down ballots.

use crossboard::engine::{Color, Move, Position, Square, parse_move};
use crossboard::openings::{
    self, Ballot, Opening, System, eleven_man_position, eleven_man_positions,
};
use std::collections::{HashMap, HashSet};

const LIST: &str = include_str!("../../assets/eleven_man_positions.tsv");

struct Row {
    id: u32,
    ballot: String,
    fen: String,
    lost: bool,
    deck_ballots: usize,
}

/// The public list, read here independently of the library.
fn rows() -> Vec<Row> {
    LIST.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            Row {
                id: f[0].parse().unwrap(),
                ballot: f[1].to_string(),
                fen: f[2].to_string(),
                lost: match f[3] {
                    "lost" => true,
                    "standard" => false,
                    other => panic!("class {other}"),
                },
                deck_ballots: f[4].parse().unwrap(),
            }
        })
        .collect()
}

fn ballots() -> Vec<Opening> {
    openings::all(System::ElevenMan)
}

#[test]
fn the_asset_keeps_its_source_lines() {
    assert!(
        LIST.lines()
            .next()
            .unwrap()
            .starts_with("# 11-man ballot positions")
    );
    assert!(LIST.contains("pydraughts"));
    assert!(LIST.contains("Ed Gilbert"));
}

#[test]
fn there_are_3136_ballots_and_2500_positions() {
    let all = ballots();
    assert_eq!(all.len(), 3136);
    for (i, o) in all.iter().enumerate() {
        assert_eq!(o.number, i as u32 + 1);
        assert_eq!(o.system, System::ElevenMan);
    }
    let distinct: HashSet<Position> = all.iter().map(|o| o.position).collect();
    assert_eq!(distinct.len(), 2500);
}

/// The man behind `from`, in the direction of the move `from`-`to`, found from board geometry;
/// at the edge (12-16, 21-17) there is only one square behind: "no directional choice".
fn behind(from: u8, to: u8) -> u8 {
    let (f, t) = (Square::new(from).unwrap(), Square::new(to).unwrap());
    let dr = t.row() as i8 - f.row() as i8;
    let dc = t.col() as i8 - f.col() as i8;
    let at = |dc: i8| {
        let col = f.col() as i8 - dc;
        (0..8)
            .contains(&col)
            .then(|| Square::at((f.row() as i8 - dr) as u8, col as u8))
            .flatten()
    };
    at(dc).or_else(|| at(-dc)).unwrap().number()
}

#[test]
fn the_substitution_table_is_the_man_behind() {
    // The table, written out.
    let table = [
        ("9-13", "6-9"),
        ("9-14", "5-9"),
        ("10-14", "7-10"),
        ("10-15", "6-10"),
        ("11-15", "8-11"),
        ("11-16", "7-11"),
        ("12-16", "8-12"),
        ("24-20", "27-24"),
        ("24-19", "28-24"),
        ("23-19", "26-23"),
        ("23-18", "27-23"),
        ("22-18", "25-22"),
        ("22-17", "26-22"),
        ("21-17", "25-21"),
    ];
    let cards: Vec<(u8, u8, u8)> = openings::RED_MOVE_CARDS
        .iter()
        .chain(openings::WHITE_MOVE_CARDS.iter())
        .copied()
        .collect();
    assert_eq!(cards.len(), table.len());
    for ((f, t, i), (mv, sub)) in cards.into_iter().zip(table) {
        assert_eq!(format!("{f}-{t}"), mv);
        assert_eq!(format!("{i}-{f}"), sub);
        assert_eq!(behind(f, t), i, "{mv}");
    }
}

/// Every ballot rebuilt here from its number: removals, moves with the substitution rule, each
/// move checked legal by the engine.
#[test]
fn every_ballot_is_what_its_cards_say() {
    let red_moves = [
        (9, 13),
        (9, 14),
        (10, 14),
        (10, 15),
        (11, 15),
        (11, 16),
        (12, 16),
    ];
    let white_moves = [
        (24, 20),
        (24, 19),
        (23, 19),
        (23, 18),
        (22, 18),
        (22, 17),
        (21, 17),
    ];
    for o in ballots() {
        let i = o.number - 1;
        let (a, b, c, d) = (i / 392, i / 49 % 8, i / 7 % 7, i % 7);
        let red_removed = 5 + a as u8;
        let white_removed = 28 - b as u8;
        let mut start = Position::start();
        start.set_piece(Square::new(red_removed).unwrap(), None);
        start.set_piece(Square::new(white_removed).unwrap(), None);
        assert_eq!(o.start, start, "ballot {}", o.number);
        assert_eq!(start.count(Color::Red), 11);
        assert_eq!(start.count(Color::White), 11);

        let mut pos = start;
        let mut played = Vec::new();
        for ((from, to), removed) in [
            (red_moves[c as usize], red_removed),
            (white_moves[d as usize], white_removed),
        ] {
            let (from, to) = if from == removed {
                (behind(from, to), from)
            } else {
                (from, to)
            };
            let mv = Move::step(Square::new(from).unwrap(), Square::new(to).unwrap());
            pos.play(&mv)
                .unwrap_or_else(|e| panic!("ballot {}: {e}", o.number));
            played.push(mv);
        }
        assert_eq!(o.set_moves, played, "ballot {}", o.number);
        assert_eq!(o.position, pos, "ballot {}", o.number);
        assert_eq!(pos.turn(), Color::Red);
        assert_eq!(
            o.name,
            format!(
                "Remove {red_removed} and {white_removed}; {} {}",
                played[0], played[1]
            )
        );
        let ballot = Ballot::from_number(o.number).unwrap();
        assert_eq!(
            (
                ballot.red_removal,
                ballot.white_removal,
                ballot.red_move,
                ballot.white_move
            ),
            (a as u8 + 1, b as u8 + 1, c as u8 + 1, d as u8 + 1)
        );
        assert_eq!(ballot.opening(), o);
    }
}

#[test]
fn positions_equal_the_public_list_id_by_id() {
    let rows = rows();
    assert_eq!(rows.len(), 2500);
    let all = ballots();
    let mut by_id: HashMap<u32, Vec<&Opening>> = HashMap::new();
    for o in &all {
        let id = o.public_id.expect("every ballot has a public id");
        by_id.entry(id).or_default().push(o);
    }
    assert_eq!(by_id.len(), 2500);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.id, i as u32 + 1);
        let group = &by_id[&row.id];
        let fen_position = Position::from_fen(&row.fen).unwrap();
        for o in group {
            assert_eq!(o.position, fen_position, "id {}", row.id);
            assert_eq!(o.position.to_fen(), row.fen, "id {}", row.id);
            assert_eq!(o.kingsrow_lost, row.lost, "id {}", row.id);
        }
        assert_eq!(
            group.len(),
            row.deck_ballots,
            "ballots giving id {}",
            row.id
        );
        assert!(
            group.iter().any(|o| o.name == row.ballot),
            "id {}: no ballot named {:?}",
            row.id,
            row.ballot
        );
        let p = eleven_man_position(row.id).unwrap();
        assert_eq!(p.position, fen_position);
        assert_eq!(p.kingsrow_lost, row.lost);
        assert_eq!(
            p.ballots,
            group.iter().map(|o| o.number).collect::<Vec<_>>()
        );
        assert_eq!(
            openings::opening_by_public_id(row.id).unwrap().number,
            p.ballots[0]
        );
    }
    assert!(eleven_man_position(0).is_err());
    assert!(eleven_man_position(2501).is_err());
    assert_eq!(rows.iter().filter(|r| r.lost).count(), 247);
}

#[test]
fn transpositions_are_the_ballots_with_the_same_position() {
    let all = ballots();
    let mut transposing = 0;
    for o in &all {
        let t = o.transpositions();
        assert!(!t.contains(&o.number));
        for n in &t {
            let other = &all[*n as usize - 1];
            assert_eq!(other.position, o.position);
            assert_eq!(other.public_id, o.public_id);
            assert!(other.transpositions().contains(&o.number));
        }
        let same = all.iter().filter(|x| x.position == o.position).count();
        assert_eq!(t.len() + 1, same);
        if !t.is_empty() {
            transposing += 1;
        }
    }
    // 3,136 ballots onto 2,500 positions.
    assert!(transposing > 636);
    // The example from the seed: removing 11 and playing 11-15 is 8-11.
    let b = Ballot::new(7, 1, 5, 2).unwrap().opening();
    assert_eq!(b.name, "Remove 11 and 28; 8-11 24-19");
    assert_eq!(b.public_id, Some(1));
}

#[test]
fn man_down_ballots_are_found_by_the_engine() {
    let all = ballots();
    let down: Vec<&Opening> = all.iter().filter(|o| o.loses_man.is_some()).collect();
    // Measured: 112 ballots, 91 positions, always White (Red moves first), every one of them
    // classed lost by KingsRow.
    assert_eq!(down.len(), 112);
    assert!(down.iter().all(|o| o.loses_man == Some(Color::White)));
    let positions: HashSet<Position> = down.iter().map(|o| o.position).collect();
    assert_eq!(positions.len(), 91);
    assert!(down.iter().all(|o| o.kingsrow_lost));
    for o in &all {
        // Transposing ballots agree; a man down needs a capture to start with.
        for n in o.transpositions() {
            assert_eq!(all[n as usize - 1].loses_man, o.loses_man);
        }
        if o.loses_man.is_some() {
            assert!(o.position.must_capture(), "ballot {}", o.number);
        }
        if !o.position.must_capture() {
            assert_eq!(o.loses_man, None);
        }
    }
    // Some ballots must capture at once but only exchange: not a man down.
    assert!(
        all.iter()
            .any(|o| o.position.must_capture() && o.loses_man.is_none())
    );
    let summary = openings::summary(System::ElevenMan);
    assert_eq!(summary.positions, 2500);
    assert_eq!(summary.openings_white_loses_man, 112);
    assert_eq!(summary.positions_white_loses_man, 91);
    assert_eq!(summary.kingsrow_lost_positions, 247);
    assert_eq!(summary.kingsrow_lost_and_man_down, 91);
    assert_eq!(
        eleven_man_positions()
            .iter()
            .filter(|p| p.loses_man.is_some())
            .count(),
        91
    );
}

#[test]
fn a_known_man_down_ballot() {
    // Remove 5 and 21: 9-14 22-17 leaves 14x21 free (the 2-move 9-14 21-17 idea).
    let o = eleven_man_positions()
        .iter()
        .flat_map(|p| p.ballots.iter())
        .map(|&n| openings::opening(System::ElevenMan, n).unwrap())
        .find(|o| o.name == "Remove 5 and 21; 9-14 22-17")
        .unwrap();
    let mut pos = o.position;
    let capture = parse_move(&pos, "14x21").unwrap();
    pos.play(&capture).unwrap();
    assert!(!pos.must_capture(), "White cannot take back");
    assert_eq!(o.loses_man, Some(Color::White));
}
