//! Every opening of every system: reachable by legal moves from its start, its start what the
//! system's rules say, its position what its numbers say. GAYP, 2-move, 3-move, Roll Your Own.

use crossboard::engine::{Color, Piece, Position, Square, parse_move};
use crossboard::openings::{
    self, Opening, Roll, System, ThreeMoveClass, ThreeMoveDeck, three_move_flags,
};
use std::collections::HashSet;

const THREE_MOVE: &str = include_str!("../../assets/three_move_openings.tsv");

/// Replays the set moves from the start with the engine's legality check.
fn replayed(o: &Opening) -> Position {
    let mut pos = o.start;
    for mv in &o.set_moves {
        pos.play(mv)
            .unwrap_or_else(|e| panic!("{} {}: {mv}: {e}", o.system, o.number));
    }
    pos
}

#[test]
fn every_opening_is_reachable_and_numbered() {
    for system in System::ALL {
        let all = openings::all(system);
        assert_eq!(all.len() as u32, system.count(), "{system}");
        for (i, o) in all.iter().enumerate() {
            assert_eq!(o.system, system);
            assert_eq!(o.number, i as u32 + 1);
            assert_eq!(replayed(o), o.position, "{system} {}", o.number);
            assert_eq!(openings::opening(system, o.number).as_ref(), Ok(o));
            assert_eq!(o.loses_man, openings::man_down(&o.position));
            if system != System::ElevenMan {
                assert_eq!(o.public_id, None);
                assert!(!o.kingsrow_lost);
            }
        }
        assert!(openings::opening(system, system.count() + 1).is_err());
        assert!(openings::opening(system, 0).is_err());
    }
}

#[test]
fn gayp_is_the_standard_start() {
    let all = openings::all(System::Gayp);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].position, Position::start());
    assert!(all[0].set_moves.is_empty());
}

#[test]
fn two_move_is_every_first_move_and_reply() {
    let all = openings::all(System::TwoMove);
    assert_eq!(all.len(), 49);
    // The engine's own first moves and replies give the same 49 positions.
    let start = Position::start();
    let mut expected = HashSet::new();
    for r in start.legal_moves() {
        let after = start.after(&r);
        for w in after.legal_moves() {
            expected.insert(after.after(&w));
        }
    }
    let got: HashSet<Position> = all.iter().map(|o| o.position).collect();
    assert_eq!(got, expected);
    for o in &all {
        assert_eq!(o.start, start);
        assert_eq!(o.set_moves.len(), 2);
        assert_eq!(o.name, o.moves_text());
    }
    assert_eq!(all[0].name, "9-13 21-17");
    assert_eq!(all[48].name, "12-16 24-20");
    let losing: Vec<&str> = all
        .iter()
        .filter(|o| o.loses_man.is_some())
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(losing, ["9-14 21-17", "10-14 21-17"]);
    assert!(all.iter().all(|o| o.loses_man != Some(Color::Red)));
}

#[test]
fn three_move_matches_the_list_and_its_flags() {
    let rows: Vec<Vec<&str>> = THREE_MOVE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("number\t"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 174);
    let all = openings::all(System::ThreeMove);
    for (o, row) in all.iter().zip(&rows) {
        assert_eq!(o.number.to_string(), row[0]);
        assert_eq!(o.name, row[1]);
        assert_eq!(o.start, Position::start());
        // Played here from the text, move by move, as a person would type it.
        let mut pos = Position::start();
        for text in row[1].split_whitespace() {
            let mv = parse_move(&pos, text).unwrap();
            pos.play(&mv).unwrap();
        }
        assert_eq!(o.position, pos, "3-move {}", o.number);
        assert_eq!(o.position.turn(), Color::White);
        let f = three_move_flags(o.number).unwrap();
        let class = match row[2] {
            "X" => ThreeMoveClass::Crossboard,
            "M" => ThreeMoveClass::Addition,
            "B" => ThreeMoveClass::Barred,
            other => panic!("deck flag {other}"),
        };
        assert_eq!(f.class, class);
        assert_eq!(f.tough, row.get(3) == Some(&"T"));
        assert_eq!(f.moves, o.name);
    }
    let distinct: HashSet<Position> = all.iter().map(|o| o.position).collect();
    assert_eq!(distinct.len(), 174);
    let count = |d: ThreeMoveDeck| (1..=174).filter(|&n| d.contains(n)).count();
    assert_eq!(count(ThreeMoveDeck::Current156), 156);
    assert_eq!(count(ThreeMoveDeck::Crossboard144), 144);
    assert_eq!(count(ThreeMoveDeck::Tough50), 50);
    assert_eq!(count(ThreeMoveDeck::All174), 174);
    let barred = (1..=174)
        .filter(|&n| three_move_flags(n).unwrap().class == ThreeMoveClass::Barred)
        .count();
    assert_eq!(barred, 18);
    assert_eq!(
        three_move_flags(5).unwrap().common_name.as_deref(),
        Some("Dreaded Edinburgh")
    );
    assert!(THREE_MOVE.starts_with("# The 174 three-move openings"));
}

#[test]
fn roll_your_own_places_one_man_of_each_side() {
    let all = openings::all(System::RollYourOwn);
    assert_eq!(all.len(), 2304);
    let man = |color| Some(Piece { color, king: false });
    for o in &all {
        let i = o.number - 1;
        // Red d12, Red d4, White d12, White d4, decoded here independently.
        let (rr, rp, wr, wp) = (i / 192 + 1, i / 48 % 4 + 1, i / 4 % 12 + 1, i % 4 + 1);
        let sq = |n: u32| Square::new(n as u8).unwrap();
        let mut expected = Position::start();
        expected.set_piece(sq(rr), None);
        expected.set_piece(sq(12 + rp), man(Color::Red));
        expected.set_piece(sq(33 - wr), None);
        expected.set_piece(sq(21 - wp), man(Color::White));
        assert_eq!(o.start, expected, "roll {}", o.number);
        assert_eq!(o.position, expected);
        assert!(o.set_moves.is_empty());
        assert_eq!(o.position.count(Color::Red), 12);
        assert_eq!(o.position.count(Color::White), 12);
        assert_eq!(o.position.turn(), Color::Red);
        let r = Roll::from_number(o.number).unwrap();
        assert_eq!(
            (r.red_removal, r.red_place, r.white_removal, r.white_place),
            (rr as u8, rp as u8, wr as u8, wp as u8)
        );
        assert_eq!(
            o.name,
            format!("Red {rr} to {}; White {} to {}", 12 + rp, 33 - wr, 21 - wp)
        );
    }
    // Measured: no transpositions under this reading; 12 rolls lose a man at once (White).
    let distinct: HashSet<Position> = all.iter().map(|o| o.position).collect();
    assert_eq!(distinct.len(), 2304);
    let s = openings::summary(System::RollYourOwn);
    assert_eq!(
        (s.openings_red_loses_man, s.openings_white_loses_man),
        (0, 12)
    );
}

#[test]
fn system_names_parse() {
    for s in System::ALL {
        assert_eq!(s.key().parse::<System>().unwrap(), s);
    }
    assert!("twelve-man".parse::<System>().is_err());
}
