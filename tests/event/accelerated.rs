//! Accelerated pairings (the Baku Acceleration Method, FIDE C.04.5.1), computed by hand for a
//! 16-player Swiss of five single-game rounds, and checked against bbpPairings' pairings of the
//! same event (`tests/fixtures/events/baku16-bbppairings.txt` says how it was made).
//!
//! Group A is the first 2·⌈16/4⌉ = 8 players (pairing numbers 1-8), group B the other 8. Of five
//! rounds the first ⌈5/2⌉ = 3 are accelerated: group A has 1 virtual point before rounds 1 and
//! 2 (the first ⌈3/2⌉ = 2), ½ before round 3, none after.

use crate::bbp::{Told, with_type};
use crate::desk_cli::{refused, run};
use crate::open_swiss::{open_swiss, rated};
use crossboard::director::{Player, Points};
use crossboard::event::{
    Acceleration, Action, BoardGameResult, BoardResult, Tournament, propose, standings,
};
use crossboard::publish::trf;
use std::collections::BTreeSet;

/// P01..P16 rated 2400 down by 10: pairing number = registry id.
fn sixteen(acceleration: Acceleration) -> Tournament {
    let players = (1..=16).map(|id| (id, rated(&format!("P{id:02}"), 2400 - 10 * id)));
    open_swiss(5, 1, acceleration, players)
}

/// The boards of the next round as the engine pairs them, applied: (Red, White) by id.
fn pair_next(t: &mut Tournament) -> BTreeSet<(u32, u32)> {
    let action = propose(0, &t.divisions[0]).unwrap();
    t.apply(&action).unwrap();
    let r = t.divisions[0].rounds.last().unwrap();
    r.boards.iter().map(|b| (b.first, b.second)).collect()
}

/// Results of the last round: for each board, by its Red player, 1 (Red won), 2 or = .
fn results(t: &mut Tournament, by_red: &[(u32, char)]) {
    let r = t.divisions[0].rounds.last().unwrap();
    let (round, boards) = (r.number, r.boards.clone());
    for b in boards {
        let (_, c) = by_red.iter().find(|(red, _)| *red == b.first).unwrap();
        let game = match c {
            '1' => BoardGameResult::Win {
                winner: Player::First,
            },
            '2' => BoardGameResult::Win {
                winner: Player::Second,
            },
            _ => BoardGameResult::Draw,
        };
        t.apply(&Action::Result {
            division: 0,
            round,
            board: b.number,
            result: BoardResult::Games { games: vec![game] },
        })
        .unwrap();
    }
}

/// Round 1's results by Red player: group A's boards 1 v 5 and 2 v 6 to the higher seed, the
/// others drawn; group B's likewise.
const ROUND_1: &[(u32, char)] = &[
    (1, '1'),
    (6, '2'),
    (3, '='),
    (8, '='),
    (9, '1'),
    (14, '2'),
    (11, '='),
    (16, '='),
];

/// Round 2's: 1 v 2 drawn, 4, 8, 9, 12 and 13 win, 6 v 10 and 15 v 16 drawn.
const ROUND_2: &[(u32, char)] = &[
    (2, '='),
    (4, '1'),
    (7, '2'),
    (5, '2'),
    (10, '='),
    (12, '1'),
    (15, '='),
    (13, '1'),
];

/// The results of `round` of the event: rounds 1 and 2 as above, later rounds all drawn.
fn results_of(round: u32, boards: &BTreeSet<(u32, u32)>) -> Vec<(u32, char)> {
    match round {
        1 => ROUND_1.to_vec(),
        2 => ROUND_2.to_vec(),
        _ => boards.iter().map(|&(red, _)| (red, '=')).collect(),
    }
}

fn set(pairs: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    pairs.iter().copied().collect()
}

/// The first three rounds by hand, each as bbpPairings pairs it too.
#[test]
fn the_first_rounds_of_a_baku_accelerated_swiss() {
    let mut t = sixteen(Acceleration::Baku);
    // Round 1. Group A on 1 (virtual) point, group B on 0: two score groups of eight, each
    // paired top half against bottom half. With no colour yet, the higher-ranked player has
    // Red with an odd pairing number, White with an even one.
    let r1 = pair_next(&mut t);
    assert_eq!(
        r1,
        set(&[
            (1, 5),   // group A: 1 v 5
            (6, 2),   // 2 v 6, 2 even: White
            (3, 7),   // 3 v 7
            (8, 4),   // 4 v 8
            (9, 13),  // group B: 9 v 13
            (14, 10), // 10 v 14
            (11, 15), // 11 v 15
            (16, 12), // 12 v 16
        ])
    );
    assert_eq!(r1, bbp_fixture(1));
    // Without acceleration the field is one group: 1 v 9, ..., 8 v 16.
    let mut plain = sixteen(Acceleration::None);
    assert!(pair_next(&mut plain).contains(&(1, 9)));
    let x = &t.divisions[0].rounds[0].explanation;
    assert_eq!(x.virtual_points.len(), 8);
    assert!((1..=8).all(|p| x.virtual_points_of(p) == Points(2)));
    assert!((9..=16).all(|p| x.virtual_points_of(p) == Points::ZERO));
    results(&mut t, ROUND_1);
    // Points: 1, 2, 9, 10 one; 3, 4, 7, 8, 11, 12, 15, 16 a half; 5, 6, 13, 14 none. The
    // standings count the points alone.
    let (_, list) = standings(&t.divisions[0], 1);
    let total: u32 = list.iter().map(|s| s.score.0).sum();
    assert_eq!(
        total, 16,
        "8 games, 1 point each, in half points: no virtual point"
    );
    // Round 2: group A keeps 1 virtual point. Pairing scores: 2 {1, 2}; 1½ {3, 4, 7, 8};
    // 1 {5, 6, 9, 10}; ½ {11, 12, 15, 16}; 0 {13, 14}. Each group even, so no float. Colour
    // preferences (single-game rounds): Red in round 1 (1, 3, 6, 8, 9, 11, 14, 16) asks White,
    // the others Red.
    let r2 = pair_next(&mut t);
    assert_eq!(
        r2,
        set(&[
            // 2: 1 v 2, 2 asks Red.
            (2, 1),
            // 1½: the natural 3 v 7 and 4 v 8 met in round 1; of the two pairings left, 3 v 8
            // and 4 v 7 would deny two preferences (both 3 and 8 ask White, 4 and 7 Red),
            // 3 v 4 and 7 v 8 none (C10), so 4 (asks Red) v 3 and 7 (asks Red) v 8.
            (4, 3),
            (7, 8),
            // 1: group A's losers meet group B's winners: 5 v 9, 6 v 10, no rematch, each
            // preference granted (5 and 10 ask Red).
            (5, 9),
            (10, 6),
            // ½: 11 v 15 and 12 v 16 met; as in 1½, 11 v 12 and 15 v 16 grant every preference.
            (12, 11),
            (15, 16),
            // 0: 13 v 14, 13 asks Red.
            (13, 14),
        ])
    );
    assert_eq!(r2, bbp_fixture(2));
    results(&mut t, ROUND_2);
    // Round 3: group A has ½ virtual point. Pairing scores: 2 {1, 2, 4, 8, 9}; 1½ {10, 12};
    // 1 {3, 6, 7, 13, 15, 16}; ½ {5, 11}; 0 {14}. Colours so far, game 1 of each round (R, W):
    // the next preference is the other of the last.
    // - 2: five, one floats. S1 {1, 2} v S2 {4, 8, 9}: 1 v 4 and 2 v 8 (1 v 2 met); 9 floats.
    //   1 (R, W) has Red, 4 (W, R) White; 8 (R, W) Red, 2 (W, R) White.
    // - 1½: 9 (floated) v 10, Red to 9 (R, W); 12 floats.
    // - 1: 12 (floated) v 3, Red to 3 (R, W). Of {6, 7, 13, 15, 16}: 6 v 13 (6 Red), and 7
    //   (W, R: asks White) v 16 (R, W: asks Red) rather than v 15 (W, R: asks White too): the
    //   colours (C10) come before who floats, so 15 floats.
    // - ½: 15 (floated) v 5 (5 v 11 would float 15 again); both ask White, the higher-ranked
    //   15 (score 1) has it, 5 Red.
    // - 0: 11 (floated) v 14; both ask Red, the higher-ranked 11 has it.
    let r3 = pair_next(&mut t);
    let x = &t.divisions[0].rounds[2].explanation;
    assert!((1..=8).all(|p| x.virtual_points_of(p) == Points(1)));
    assert!((9..=16).all(|p| x.virtual_points_of(p) == Points::ZERO));
    assert_eq!(
        r3,
        set(&[
            (1, 4),
            (8, 2),
            (9, 10),
            (3, 12),
            (6, 13),
            (16, 7),
            (5, 15),
            (11, 14)
        ])
    );
    assert_eq!(r3, bbp_fixture(3));
    results(&mut t, &results_of(3, &r3));
    // Round 4 is not accelerated.
    pair_next(&mut t);
    assert!(
        t.divisions[0].rounds[3]
            .explanation
            .virtual_points
            .is_empty()
    );
}

/// bbpPairings' pairing of round `round` of the event above (Red, White), from the fixture.
fn bbp_fixture(round: u32) -> BTreeSet<(u32, u32)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/events/baku16-bbppairings.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let head = format!("round {round}:");
    let line = text.lines().find(|l| l.starts_with(&head)).unwrap();
    line[head.len()..]
        .split_whitespace()
        .map(|p| {
            let (a, b) = p.split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// The TRF carries the acceleration as TRF(x) `XXA` lines: group A's eight players, 1 virtual
/// point before rounds 1 and 2 and ½ before round 3; nothing for group B, nothing after.
#[test]
fn the_trf_gives_each_player_of_group_a_their_virtual_points() {
    let t = sixteen(Acceleration::Baku);
    let text = trf(&t, &t.divisions[0]);
    let xxa: Vec<&str> = text.lines().filter(|l| l.starts_with("XXA")).collect();
    let expected: Vec<String> = (1..=8)
        .map(|n| format!("XXA {n:>4}  1.0  1.0  0.5"))
        .collect();
    assert_eq!(xxa, expected, "{text}");
    let t = sixteen(Acceleration::None);
    assert!(!trf(&t, &t.divisions[0]).contains("XXA"));
}

/// The same event paired by bbpPairings, round by round from crossboard's TRF with its Baku
/// method (`192 FIDE_DUTCH_BAKU`): the accelerated rounds are paired alike. Prints its pairings
/// in the fixture's form.
#[test]
#[ignore = "needs bbpPairings: BBPPAIRINGS=/path/to/bbpPairings.exe"]
fn baku_rounds_agree_with_bbp_pairings() {
    let Some(exe) = crate::bbp::engine() else {
        eprintln!("skipped: bbpPairings not found (set BBPPAIRINGS=/path/to/bbpPairings.exe)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut t = sixteen(Acceleration::Baku);
    let ids: Vec<u32> = (1..=16).collect();
    for round in 1..=3 {
        let text = with_type(Acceleration::Baku, Told::ByType, &trf(&t, &t.divisions[0]));
        let theirs = crate::bbp::bbp_pairing(&exe, dir.path(), &text, &ids).unwrap();
        let said: Vec<String> = theirs
            .pairs
            .iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect();
        println!("round {round}: {}", said.join(" "));
        let ours = pair_next(&mut t);
        assert_eq!(ours, theirs.pairs, "round {round}");
        assert_eq!(
            theirs.pairs,
            bbp_fixture(round),
            "round {round}: the fixture"
        );
        results(&mut t, &results_of(round, &ours));
    }
}

/// The setting from the command line, and `why`: four players of two-game rounds, group A
/// Ann and Bob (2·⌈4/4⌉ = 2) with a won round's 2 virtual points in round 1, so Ann v Bob
/// and Cid v Dee rather than Ann v Cid and Bob v Dee. A round robin cannot be accelerated.
#[test]
fn the_acceleration_setting_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    let rr = [
        "division",
        "E",
        "RR",
        "--format",
        "rr",
        "--acceleration",
        "baku",
    ];
    assert!(refused(&db, &rr).contains("accelerated pairings are for a Swiss"));
    assert!(
        refused(&db, &["division", "E", "X", "--acceleration", "fast"])
            .contains("use none or baku")
    );
    run(
        &db,
        &[
            "division",
            "E",
            "Open",
            "--format",
            "swiss:3",
            "--acceleration",
            "baku",
        ],
    );
    run(&db, &["enter", "E", "Open", "Ann", "Bob", "Cid", "Dee"]);
    run(&db, &["pair", "E", "Open", "--seed", "1"]);
    let why = run(&db, &["why", "E", "Open", "Ann"]);
    assert!(why.contains("against Bob"), "{why}");
    assert!(
        why.contains("Accelerated round (Baku method): virtual points Ann 2 points, Bob 2 points"),
        "{why}"
    );
    assert!(
        why.contains("Both had a pairing score of 2 points"),
        "{why}"
    );
    let why = run(&db, &["why", "E", "Open", "Dee"]);
    assert!(
        why.contains("virtual points Cid 0 points, Dee 0 points"),
        "{why}"
    );
}
