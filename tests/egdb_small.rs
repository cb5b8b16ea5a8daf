//! Endgame databases of up to 4 pieces, built in the test run: self-consistency and known values.

use crossboard::egdb::{Egdb, Wdl, build_in_memory, plan, verify_slice};
use crossboard::engine::Position;
use std::sync::OnceLock;

fn db() -> &'static Egdb {
    static DB: OnceLock<Egdb> = OnceLock::new();
    DB.get_or_init(|| build_in_memory(4, &|_| {}))
}

fn probe(fen: &str) -> Wdl {
    let pos = Position::from_fen(fen).unwrap();
    db().probe(&pos)
        .unwrap_or_else(|| panic!("{fen} not in the database"))
}

#[test]
fn every_slice_agrees_with_its_successors() {
    let db = db();
    assert_eq!(db.complete_pieces(), 4);
    let mut checked = 0;
    for m in plan(4).slices() {
        let r = verify_slice(m, db, &|_| {}).unwrap();
        assert_eq!(r.mismatches, 0, "{m}: {:?}", r.examples);
        checked += r.checked;
    }
    // Positions of 2-4 pieces, both sides to move (men of both sides never share a square).
    assert!(checked > 7_000_000, "{checked}");
}

#[test]
fn two_kings_beat_one() {
    assert_eq!(probe("B:WK32:BK1,K2"), Wdl::Win);
    assert_eq!(probe("W:WK32:BK1,K2"), Wdl::Loss);
    assert_eq!(probe("W:WK14:BK1,K28"), Wdl::Loss);
}

#[test]
fn one_king_against_one_is_a_draw() {
    assert_eq!(probe("B:WK32:BK1"), Wdl::Draw);
    assert_eq!(probe("W:WK18:BK1"), Wdl::Draw);
}
