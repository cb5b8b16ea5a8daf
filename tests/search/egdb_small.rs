//! Endgame databases built in the test run (every slice of up to 4 pieces, and the 3 kings
//! against 2 kings pair): self-consistency and values known from the literature.

use crossboard::egdb::{
    Egdb, Material, Wdl, build_in_memory, plan, solve_with_dependencies, verify_slice,
};
use crossboard::engine::{Color, Position};
use std::sync::OnceLock;

fn kings_3v2() -> Material {
    Material::new(0, 3, 0, 2).unwrap()
}

fn db() -> &'static Egdb {
    static DB: OnceLock<Egdb> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = build_in_memory(4, &|_| {});
        solve_with_dependencies(&mut db, kings_3v2(), &|_| {});
        db
    })
}

fn probe(fen: &str) -> Wdl {
    let pos = Position::from_fen(fen).unwrap();
    db().probe(&pos)
        .unwrap_or_else(|| panic!("{fen} not in the database"))
}

/// The value of each move from `fen`, for the side that moves.
fn move_values(fen: &str) -> Vec<(String, Wdl)> {
    let pos = Position::from_fen(fen).unwrap();
    pos.distinct_moves()
        .iter()
        .map(|m| (m.to_string(), db().probe(&pos.after(m)).unwrap().negate()))
        .collect()
}

#[test]
fn every_slice_agrees_with_its_successors() {
    let db = db();
    assert_eq!(db.complete_pieces(), 4);
    let mut checked = 0;
    let slices: Vec<Material> = plan(4)
        .slices()
        .chain([kings_3v2(), kings_3v2().swapped()])
        .collect();
    for m in slices {
        let r = verify_slice(m, db, &|_| {}).unwrap();
        assert_eq!(r.mismatches, 0, "{m}: {:?}", r.examples);
        checked += r.checked;
    }
    // Every position of 2-4 pieces, both sides to move: 6,408,836; and 2 x 2,013,760 of 3K v 2K.
    assert_eq!(checked, 6_408_836 + 2 * 4960 * 406);
}

#[test]
fn two_kings_beat_one_whoever_moves() {
    assert_eq!(probe("B:WK32:BK1,K2"), Wdl::Win);
    assert_eq!(probe("W:WK32:BK1,K2"), Wdl::Loss);
    assert_eq!(probe("W:WK14:BK1,K28"), Wdl::Loss);
    assert_eq!(probe("B:WK5,K30:BK18"), Wdl::Loss);
}

#[test]
fn one_king_against_one_is_a_draw() {
    assert_eq!(probe("B:WK32:BK1"), Wdl::Draw);
    assert_eq!(probe("W:WK18:BK1"), Wdl::Draw);
}

/// First Position: White kings on 19 and 23 against Red's king in the double corner (28) and
/// a man on 12. White to move wins (Lasker, *Chess and Checkers*, diagram 93: 23-27 first);
/// 19-16 throws a king away to 12x19.
#[test]
fn first_position_is_a_win_for_white_to_move() {
    let fen = "W:WK19,K23:BK28,12";
    assert_eq!(probe(fen), Wdl::Win);
    let values = move_values(fen);
    assert!(values.contains(&("23-27".into(), Wdl::Win)), "{values:?}");
    assert!(values.contains(&("19-16".into(), Wdl::Loss)), "{values:?}");
}

/// Published studies (Bob Newell's Checker School, checked there with KingsRow).
#[test]
fn published_studies() {
    // "First position without": Black to play and win.
    assert_eq!(probe("B:W22,K5:BK15,K6"), Wdl::Win);
    // R. Holding, "better than first": Black to play and win.
    assert_eq!(probe("B:W31,19:BK4,2"), Wdl::Win);
    // Three kings against two: White to play and win (17-14).
    assert_eq!(probe("W:WK5,K13,K17:BK1,K6"), Wdl::Win);
    let values = move_values("W:WK5,K13,K17:BK1,K6");
    assert!(values.contains(&("17-14".into(), Wdl::Win)), "{values:?}");
}

/// A 3 v 2 draw: White's three kings must take 28x19, and Red's 30x23x16 leaves one king
/// against one.
#[test]
fn three_kings_against_two_drawn_by_a_two_for_one() {
    let fen = "W:WK26,K28,K32:BK24,K30";
    assert_eq!(probe(fen), Wdl::Draw);
    let pos = Position::from_fen(fen).unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1);
    let after = pos.after(&moves[0]);
    let replies = after.legal_moves();
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].to_string(), "30x23x16");
    assert_eq!(probe(&after.after(&replies[0]).to_fen()), Wdl::Draw);
}

/// Distances to conversion are what they claim: a win at distance d > 0 has a move to a loss
/// at d - 1 in the pair; every move of a loss at d leads out of the pair or to a win nearer
/// than d; a win at 0 leaves the pair at once with a win. (Two kings against king and man:
/// First Position's material, both sides to move.)
#[test]
fn distances_to_conversion_shorten_along_best_play() {
    let db = db();
    let mut checked = 0;
    for m in [
        Material::new(0, 2, 1, 1).unwrap(),
        Material::new(1, 1, 0, 2).unwrap(),
    ] {
        for index in (0..m.size()).step_by(7) {
            let Some(board) = m.board(index) else {
                continue;
            };
            let pos = board.position();
            let (Some(value), Some(d)) = (db.probe(&pos), db.conversion_distance(&pos)) else {
                assert_ne!(db.probe(&pos), Some(Wdl::Win), "a win has a distance");
                continue;
            };
            let pair = m.swapped();
            let children: Vec<(Wdl, Option<u16>, bool)> = pos
                .legal_moves()
                .iter()
                .map(|mv| {
                    let child = pos.after(mv);
                    let inside = Material::of(&crossboard::egdb::Board::of(&child)) == pair;
                    let v = db.probe(&child).unwrap().negate();
                    (v, db.conversion_distance(&child), inside)
                })
                .collect();
            match value {
                Wdl::Win if d == 0 => assert!(
                    children
                        .iter()
                        .any(|&(v, _, inside)| v == Wdl::Win && !inside),
                    "{pos}: a win at 0 converts"
                ),
                Wdl::Win => assert!(
                    children
                        .iter()
                        .any(|&(v, cd, inside)| v == Wdl::Win && inside && cd == Some(d - 1)),
                    "{pos}: a win at {d} has a move to a loss at {}",
                    d - 1
                ),
                Wdl::Loss => {
                    assert!(
                        children.iter().all(|&(v, cd, inside)| v == Wdl::Loss
                            && (!inside || cd.is_some_and(|c| c < d))),
                        "{pos}: a loss at {d} only has moves to nearer wins"
                    )
                }
                Wdl::Draw => panic!("{pos}: a draw has no distance"),
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} positions checked");
}

#[test]
fn losses_by_the_side_to_move() {
    // Red's only man is blocked on 28 by White's man on 32: Red to move has lost; White to
    // move must play 32-27, and the man crowns on 32.
    assert_eq!(probe("B:W32:B28"), Wdl::Loss);
    assert_eq!(probe("W:W32:B28"), Wdl::Draw);
    // No pieces left: lost; the other side to move has won.
    assert_eq!(probe("W:W:BK5"), Wdl::Loss);
    assert_eq!(probe("B:W:BK5"), Wdl::Win);
    // Red's king must take 18x25, and White's king on 29 retakes (29x22): nothing is left.
    assert_eq!(probe("B:WK22,K29,K32:BK18"), Wdl::Loss);
}

/// A position and the same position seen from the other side (board turned, colours swapped)
/// have the same value.
#[test]
fn values_do_not_depend_on_colour() {
    let db = db();
    let m = Material::new(1, 1, 1, 0).unwrap();
    for index in (0..m.size()).step_by(101) {
        let Some(board) = m.board(index) else {
            continue;
        };
        let red = board.to_position(Color::Red);
        let white = board.to_position(Color::White);
        assert_eq!(db.probe(&red), db.probe(&white), "{red} / {white}");
        assert!(db.probe(&red).is_some());
    }
}

#[test]
fn five_pieces_with_men_are_not_there() {
    assert_eq!(
        db().probe(&Position::from_fen("B:W21,22:B1,2,3").unwrap()),
        None
    );
}
