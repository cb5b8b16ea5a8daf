//! Prizes: each player wins at most one prize, the highest; players level on points share what
//! they won, equally or by the Hort method; checked against lists worked out by hand, and the
//! director's commands recorded in the log and printed beside the standings.

use crate::desk_cli::{refused, run};
use crossboard::director::Points;
use crossboard::event::{Award, Contender, Eligible, Prize, Prizes, TieShare, award};

fn prizes(share: TieShare, list: &[(Eligible, u64)]) -> Prizes {
    Prizes {
        share,
        list: list
            .iter()
            .map(|&(eligible, amount)| Prize { eligible, amount })
            .collect(),
    }
}

/// The field in standings order: (points in half points, rating).
fn field(players: &[(u32, Option<u32>)]) -> Vec<Contender> {
    players
        .iter()
        .enumerate()
        .map(|(entrant, &(halves, rating))| Contender {
            entrant,
            score: Points(halves),
            rating,
        })
        .collect()
}

/// (entrant, prize, amount in hundredths, shared by).
fn won(awards: &[Award]) -> Vec<(usize, usize, u64, usize)> {
    awards
        .iter()
        .map(|a| (a.entrant, a.prize, a.amount, a.shared_by))
        .collect()
}

const PLACE: Eligible = Eligible::Place;

#[test]
fn a_tie_shares_its_place_prizes_equally_or_by_hort() {
    // 0: place 100, 1: place 60, 2: place 30, 3: class 1400-1599 50, 4: under 1400 25.
    let list = [
        (PLACE, 10_000),
        (PLACE, 6_000),
        (PLACE, 3_000),
        (
            Eligible::Class {
                low: 1400,
                high: 1599,
            },
            5_000,
        ),
        (Eligible::Under { limit: 1400 }, 2_500),
    ];
    // Standings: A 3, B 2½ (1500), C 2½ (1900), D 2 (1450), E 1 (1300).
    let f = field(&[
        (6, Some(2000)),
        (5, Some(1500)),
        (5, Some(1900)),
        (4, Some(1450)),
        (2, Some(1300)),
    ]);
    // Largest first: 100 to A; 60 to B; the class prize (50) to D, the best of 1400-1599
    // left (B has a prize); 30 to C; under 1400 (25) to E.
    // B and C are level on 2½: their place prizes, 60 + 30 = 90, are shared: 45 each.
    let equal = award(&prizes(TieShare::Equal, &list), &f);
    assert_eq!(
        won(&equal),
        [
            (0, 0, 10_000, 1),
            (1, 1, 4_500, 2),
            (2, 2, 4_500, 2),
            (3, 3, 5_000, 1),
            (4, 4, 2_500, 1)
        ]
    );
    // Hort: half of each prize to its winner, the other halves (30 + 15 = 45) shared:
    // B 30 + 22.50 = 52.50, C 15 + 22.50 = 37.50.
    let hort = award(&prizes(TieShare::Hort, &list), &f);
    assert_eq!(won(&hort)[1..3], [(1, 1, 5_250, 2), (2, 2, 3_750, 2)]);
}

#[test]
fn a_player_wins_only_the_highest_prize_and_kinds_are_not_pooled() {
    // 0: place 100, 1: place 50, 2: under 1600 80.
    let list = [
        (PLACE, 10_000),
        (PLACE, 5_000),
        (Eligible::Under { limit: 1600 }, 8_000),
    ];
    // A 4 (1500), B 3 (1800), C 3 (1550), D 1 (1700).
    let f = field(&[
        (8, Some(1500)),
        (6, Some(1800)),
        (6, Some(1550)),
        (2, Some(1700)),
    ]);
    // 100 to A (under 1600 too, but 100 is more); 80 to C, the best under 1600 left; 50 to B.
    // B and C are level, but hold prizes of different kinds: nothing is pooled.
    let equal = award(&prizes(TieShare::Equal, &list), &f);
    assert_eq!(
        won(&equal),
        [(0, 0, 10_000, 1), (1, 1, 5_000, 1), (2, 2, 8_000, 1)]
    );
}

#[test]
fn players_level_without_a_prize_share_and_odd_hundredths_go_to_the_best_placed() {
    let list = [(PLACE, 10_000)];
    // A, B (unrated: still eligible for a place) and C level on 2, D nothing.
    let f = field(&[(4, Some(1800)), (4, None), (4, Some(1700)), (0, Some(1600))]);
    // Equal: 100 / 3 = 33.33 each and 0.01 over, to A: 33.34, 33.33, 33.33.
    let equal = award(&prizes(TieShare::Equal, &list), &f);
    assert_eq!(
        won(&equal),
        [(0, 0, 3_334, 3), (1, 0, 3_333, 3), (2, 0, 3_333, 3)]
    );
    // Hort: A has 50 by the tie-breaks; the other 50 / 3 = 16.666...: A 66.66, B 16.66,
    // C 16.66 and 0.02 over, to A and B: 66.67, 16.67, 16.66.
    let hort = award(&prizes(TieShare::Hort, &list), &f);
    assert_eq!(
        won(&hort),
        [(0, 0, 6_667, 3), (1, 0, 1_667, 3), (2, 0, 1_666, 3)]
    );
}

#[test]
fn class_and_rating_prizes_are_for_rated_players_in_the_band() {
    let list = [
        (
            Eligible::Class {
                low: 1600,
                high: 1799,
            },
            4_000,
        ),
        (Eligible::Under { limit: 1500 }, 2_000),
    ];
    // A unrated 3, B 1800 2, C 1650 1, D 1500 0: the class prize to C (A unrated, B above the
    // band); under 1500 to nobody (D is 1500, not under).
    let f = field(&[(6, None), (4, Some(1800)), (2, Some(1650)), (0, Some(1500))]);
    assert_eq!(
        won(&award(&prizes(TieShare::Equal, &list), &f)),
        [(2, 0, 4_000, 1)]
    );
}

#[test]
fn the_directors_prize_list_is_kept_in_the_log_and_printed_beside_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("desk.sqlite3");
    run(&db, &["new", "E"]);
    run(&db, &["division", "E", "D", "--format", "swiss:1"]);
    run(&db, &["player", "add", "Ann Lee", "--rating", "1800"]);
    run(&db, &["player", "add", "Bob Ray", "--rating", "1500"]);
    run(&db, &["enter", "E", "D", "1", "2"]);
    let said = run(&db, &["prize", "E", "D", "place", "100"]);
    assert!(
        said.contains("recorded: 1 prize, ties shared equally"),
        "{said}"
    );
    run(&db, &["prize", "E", "D", "place", "$40"]);
    // A prize typed wrong is refused and changes nothing.
    let err = refused(&db, &["prize", "E", "D", "class", "1800-1600", "50"]);
    assert!(err.contains("the lowest rating comes first"), "{err}");
    assert!(refused(&db, &["prize", "E", "D", "place", "0"]).contains("not a prize"));
    run(&db, &["pair", "E", "D", "--seed", "1"]);
    run(&db, &["result", "E", "D", "1", "1", "= ="]);
    // Level on 1: 100 + 40 shared equally, 70 each.
    let shown = run(&db, &["prizes", "E", "D"]);
    assert!(shown.contains("ties on points shared equally"), "{shown}");
    let ann = shown.lines().find(|l| l.contains("Ann Lee")).unwrap();
    assert!(ann.contains("70  1st place, shared by 2"), "{shown}");
    let bob = shown.lines().find(|l| l.contains("Bob Ray")).unwrap();
    assert!(bob.contains("70  2nd place, shared by 2"), "{shown}");
    // By the Hort method: Ann 50 + 35 = 85, Bob 20 + 35 = 55.
    run(&db, &["prize", "E", "D", "--share", "hort"]);
    let shown = run(&db, &["prizes", "E", "D"]);
    assert!(
        shown
            .lines()
            .any(|l| l.contains("Ann Lee") && l.contains(" 85  1st place")),
        "{shown}"
    );
    assert!(
        shown
            .lines()
            .any(|l| l.contains("Bob Ray") && l.contains(" 55  2nd place")),
        "{shown}"
    );
    // The text export ends with the same list.
    let text = run(&db, &["export", "E", "D", "--format", "text", "--out", "-"]);
    assert!(text.ends_with(&shown), "{text}");
    // --clear empties the list.
    run(&db, &["prize", "E", "D", "--clear"]);
    assert!(run(&db, &["prizes", "E", "D"]).contains("No prizes are set"));
}
